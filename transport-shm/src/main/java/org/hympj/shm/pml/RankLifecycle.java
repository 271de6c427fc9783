package org.hympj.shm.pml;

import org.hympj.shm.emu.VirtualClock;

/**
 * The rank's side of every library call: after {@code Mpj.close()} (MPI_Finalize) every
 * communication call is refused, naming the call, instead of quietly working on released
 * state; and on virtual time each call is a boundary of the rank's computation — what the
 * thread computed since it last left the library counts on its clock when it enters again.
 * Shared by every communicator of the rank; used by the one thread that drives it (the
 * communicators are MPI_THREAD_FUNNELED).
 */
public final class RankLifecycle {
    private final int rank;
    /** The rank's virtual clock, or null (native, wall clock). */
    private final VirtualClock clock;
    private boolean closed;

    public RankLifecycle(int rank) {
        this(rank, null);
    }

    public RankLifecycle(int rank, VirtualClock clock) {
        this.rank = rank;
        this.clock = clock;
    }

    /** Marks the rank finalized. */
    public void close() {
        closed = true;
    }

    public boolean closed() {
        return closed;
    }

    /** The rank's virtual clock, or null. */
    VirtualClock clock() {
        return clock;
    }

    /** @throws IllegalStateException when the rank has closed */
    void check(String op) {
        if (closed) {
            throw new IllegalStateException(op + ": rank " + rank + " has already closed its Mpj (MPI_Finalize); "
                + "no communication call may follow it");
        }
    }

    /**
     * Enters a library call: refused after close; on virtual time the computation since the last
     * call counts. Every {@code enter} that returns is paired with an {@link #exit}.
     */
    void enter(String op) {
        check(op);
        if (clock != null) {
            clock.enter();
        }
    }

    /** Leaves a library call: on virtual time the rank's computation starts counting. */
    void exit() {
        if (clock != null) {
            clock.exit();
        }
    }
}
