package org.hympj.shm.pml;

/**
 * Requests freed while active (MPI_Request_free): the user let go of them, the engine still
 * owns their transfer. Each leaves this set when its transfer completes (then it is recycled);
 * finalize waits for the ones whose data is still on the way, so a freed send is delivered
 * before its rank exits.
 */
final class DetachedRequests {
    private Req[] reqs = new Req[8];
    private int count;

    void add(Req r) {
        if (count == reqs.length) {
            reqs = java.util.Arrays.copyOf(reqs, count * 2);
        }
        reqs[count++] = r;
    }

    /** {@code r}'s transfer completed. */
    void completed(Req r) {
        for (int i = 0; i < count; i++) {
            if (reqs[i] == r) {
                reqs[i] = reqs[--count];
                reqs[count] = null;
                return;
            }
        }
    }

    /**
     * True while a detached send or collective is unfinished, or a detached receive is part-way through a
     * rendezvous (matched, data on the way). A receive not matched yet is not waited for: its
     * message may never come, and finalize must not hang on it.
     */
    boolean mustFinish() {
        for (int i = 0; i < count; i++) {
            Req r = reqs[i];
            if (!(r instanceof RecvReq) || ((RecvReq) r).recvId >= 0) { // a send or a collective's schedule
                return true;
            }
        }
        return false;
    }
}
