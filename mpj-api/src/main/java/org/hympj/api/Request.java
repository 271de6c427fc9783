package org.hympj.api;

import org.hympj.spi.ProgressEngine;

/**
 * A non-blocking operation in flight. Completing it (wait or a successful test) makes it
 * inactive; a completed non-persistent request stays inactive and is skipped by
 * {@link #waitAny} and {@link #testAny}. A request may be tested and waited on from the
 * thread that owns its communicator only.
 */
public interface Request {
    /** Returned by {@link #waitAny}/{@link #testAny} when no request in the list is active. */
    int UNDEFINED = Comm.UNDEFINED;
    /** Returned by {@link #testAny} when requests are active but none has completed yet. */
    int NONE_COMPLETED = -1;

    /**
     * Blocks until the operation completes, making progress meanwhile.
     *
     * @throws TruncationException if a receive got a longer message than its buffer
     * @throws RankFailedException if a rank of the job died meanwhile
     * @throws IllegalStateException if the request has been freed
     */
    void waitFor();

    /**
     * Makes progress; true if the operation has completed (the request is now inactive).
     *
     * @throws IllegalStateException if the request has been freed
     */
    boolean test();

    /**
     * True from a start until a wait or test has observed the completion (MPI's "active").
     * A persistent request may be started again only when it is not active.
     */
    boolean isActive();

    /**
     * The status of the last completion (owned by this request, overwritten on restart).
     *
     * @throws IllegalStateException if the request has been freed
     */
    Status status();

    /**
     * Releases the request and returns at once (MPI_Request_free). An active request's
     * operation still finishes in the background, during later library calls: a send is still
     * delivered (finalize waits for it), a receive's data still land in its buffer, which must
     * not be touched until the program knows otherwise that they have; an error of such an
     * operation (truncation) is dropped. A freed request refuses {@code waitFor}, {@code test},
     * {@code status} and {@code start}; a second free does nothing.
     */
    void free();

    /**
     * Asks to cancel the operation (MPI_Cancel); a wait or test must still complete the request.
     * A receive that has not matched a message is withdrawn: it completes at once, receives
     * nothing, and its status says {@link Status#isCancelled()}. A receive that already matched,
     * and any send (MPI lets an implementation refuse), are not cancelled: they complete as usual
     * and their status says so. Inactive or completed requests are left as they are.
     *
     * @throws IllegalStateException if the request has been freed
     */
    void cancel();

    /** The progress engine this request belongs to; for the static helpers below. */
    ProgressEngine engine();

    /** Waits for every non-null request. Errors: the first one is thrown after all completed. */
    static void waitAll(Request... requests) {
        ProgressEngine engine = firstEngine(requests);
        if (engine != null) {
            engine.waitAll(requests);
        }
    }

    /**
     * True if every active request has completed, and then all are completed (inactive);
     * false, with none of them changed, otherwise.
     */
    static boolean testAll(Request... requests) {
        ProgressEngine engine = firstEngine(requests);
        return engine == null || engine.testAll(requests);
    }

    /**
     * Waits until one active request completes and returns its index; {@link #UNDEFINED} at
     * once when none of them is active.
     */
    static int waitAny(Request... requests) {
        ProgressEngine engine = firstEngine(requests);
        return engine == null ? UNDEFINED : engine.waitAny(requests);
    }

    /**
     * The index of an active request that has completed (it is now inactive),
     * {@link #NONE_COMPLETED} if active ones remain but none has completed, {@link #UNDEFINED}
     * if none is active.
     */
    static int testAny(Request... requests) {
        ProgressEngine engine = firstEngine(requests);
        return engine == null ? UNDEFINED : engine.testAny(requests);
    }

    /**
     * Starts every non-null persistent request, in order (MPI_Startall). Every request is
     * checked first: if one cannot be started (active, freed), none is.
     */
    static void startAll(PersistentRequest... requests) {
        ProgressEngine engine = firstEngine(requests);
        if (engine != null) {
            engine.startAll(requests);
        }
    }

    private static ProgressEngine firstEngine(Request[] requests) {
        if (requests == null) {
            throw new IllegalArgumentException("requests must not be null");
        }
        for (Request r : requests) {
            if (r != null) {
                return r.engine();
            }
        }
        return null;
    }
}
