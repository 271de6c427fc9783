package org.hympj.shm.pml;

/**
 * Whether this rank's library is still open: after {@code Mpj.close()} (MPI_Finalize) every
 * communication call is refused, naming the call, instead of quietly working on released
 * state. Shared by every communicator of the rank; read on each call (one plain field: the
 * communicators are used by one thread, as MPI_THREAD_FUNNELED allows).
 */
public final class RankLifecycle {
    private final int rank;
    private boolean closed;

    public RankLifecycle(int rank) {
        this.rank = rank;
    }

    /** Marks the rank finalized. */
    public void close() {
        closed = true;
    }

    public boolean closed() {
        return closed;
    }

    /** @throws IllegalStateException when the rank has closed */
    void check(String op) {
        if (closed) {
            throw new IllegalStateException(op + ": rank " + rank + " has already closed its Mpj (MPI_Finalize); "
                + "no communication call may follow it");
        }
    }
}
