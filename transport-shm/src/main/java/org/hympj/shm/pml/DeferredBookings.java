package org.hympj.shm.pml;

/**
 * Virtual time: the bookings a packet's handler could not make in its turn (another rank may
 * still book earlier, VirtualOrder) — a clear-to-send under --sched rndv, the data a
 * clear-to-send releases — kept in modelled-instant order, equal instants in the order their
 * requests were started or posted (the simulator's rank plans same-instant data in its sends'
 * order), until later passes make them. Under virtual time every such booking goes through
 * here, so the ones a pass reads at one instant are made in that order, whatever ring they came by. The packet itself leaves its ring at once, so nothing behind
 * it waits, and the rank's published floor carries the earliest of these instants. Few are
 * ever pending at once: an insertion keeps the arrays sorted.
 */
final class DeferredBookings {
    private Req[] reqs = new Req[8];
    private long[] at = new long[8];
    private int count;

    int size() {
        return count;
    }

    /** The earliest instant pending (only when {@link #size} is not 0). */
    long firstAt() {
        return at[0];
    }

    void add(Req r, long t) {
        if (count == reqs.length) {
            reqs = java.util.Arrays.copyOf(reqs, count * 2);
            at = java.util.Arrays.copyOf(at, count * 2);
        }
        int i = count;
        while (i > 0 && (at[i - 1] > t || (at[i - 1] == t && reqs[i - 1].startOrder > r.startOrder))) {
            reqs[i] = reqs[i - 1];
            at[i] = at[i - 1];
            i--;
        }
        reqs[i] = r;
        at[i] = t;
        count++;
    }

    Req takeFirst() {
        Req r = reqs[0];
        count--;
        System.arraycopy(reqs, 1, reqs, 0, count);
        System.arraycopy(at, 1, at, 0, count);
        reqs[count] = null;
        return r;
    }
}
