package org.hympj.shm.pml;

import org.hympj.api.Comm;

/**
 * The matching space of one communicator context: receives posted in order, and messages
 * that arrived unexpected in order. Matching takes the first entry in order, which with
 * per-pair FIFO arrival gives MPI's non-overtaking rule, wildcards included.
 */
final class MatchQueue {
    private final SocketWatch watch;
    private RecvReq postedHead;
    private RecvReq postedTail;
    private Unexpected unexpHead;
    private Unexpected unexpTail;

    MatchQueue(SocketWatch watch) {
        this.watch = watch;
    }

    static boolean matches(int wantSource, int wantTag, int source, int tag) {
        return (wantSource == Comm.ANY_SOURCE || wantSource == source) && (wantTag == Comm.ANY_TAG || wantTag == tag);
    }

    /** Removes and returns the first posted receive that accepts (source, tag), or null. */
    RecvReq takePosted(int source, int tag) {
        for (RecvReq r = postedHead; r != null; r = r.next) {
            if (matches(r.source, r.tag, source, tag)) {
                unlink(r);
                return r;
            }
        }
        return null;
    }

    /** Withdraws {@code r} if it is still posted here (not yet matched); true if it was. */
    boolean withdraw(RecvReq r) {
        for (RecvReq q = postedHead; q != null; q = q.next) {
            if (q == r) {
                unlink(r);
                return true;
            }
        }
        return false;
    }

    void post(RecvReq r) {
        r.next = null;
        r.prev = postedTail;
        if (postedTail == null) {
            postedHead = r;
        } else {
            postedTail.next = r;
        }
        postedTail = r;
        watch.posted(r);
    }

    /**
     * Fails the posted receives nothing can match any more: those naming a peer that has
     * finalized and exited ({@code exited[peer]}), and ANY_SOURCE ones once every other rank
     * has ({@code allExited}). Call only after the exited peers' packets have all been read.
     *
     * @return how many receives were failed
     */
    int failPostedFrom(boolean[] exited, boolean allExited, int lastExited) {
        int n = 0;
        for (RecvReq r = postedHead; r != null; ) {
            RecvReq next = r.next;
            int peer = r.source == Comm.ANY_SOURCE ? (allExited ? lastExited : -1) : r.source;
            if (peer >= 0 && peer < exited.length && exited[peer]) {
                unlink(r);
                r.fail(new org.hympj.api.RankFailedException(peer, r.source == Comm.ANY_SOURCE
                    ? "every other rank has finalized and exited; nothing can arrive for a receive from ANY_SOURCE (tag "
                        + r.tag + ")"
                    : "rank " + peer + " has finalized and exited; nothing more can arrive from it (receive tag "
                        + r.tag + " was never matched)"));
                n++;
            }
            r = next;
        }
        return n;
    }

    private void unlink(RecvReq r) {
        if (r.prev == null) {
            postedHead = r.next;
        } else {
            r.prev.next = r.next;
        }
        if (r.next == null) {
            postedTail = r.prev;
        } else {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
        watch.unposted(r);
    }

    /** First unexpected message that (wantSource, wantTag) accepts; removed if {@code take}. */
    Unexpected findUnexpected(int wantSource, int wantTag, boolean take) {
        for (Unexpected u = unexpHead; u != null; u = u.next) {
            if (matches(wantSource, wantTag, u.source, u.tag)) {
                if (take) {
                    unlink(u);
                }
                return u;
            }
        }
        return null;
    }

    void addUnexpected(Unexpected u) {
        u.next = null;
        u.prev = unexpTail;
        if (unexpTail == null) {
            unexpHead = u;
        } else {
            unexpTail.next = u;
        }
        unexpTail = u;
    }

    private void unlink(Unexpected u) {
        if (u.prev == null) {
            unexpHead = u.next;
        } else {
            u.prev.next = u.next;
        }
        if (u.next == null) {
            unexpTail = u.prev;
        } else {
            u.next.prev = u.prev;
        }
        u.prev = null;
        u.next = null;
    }
}
