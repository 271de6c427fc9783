package org.hympj.shm.pml;

import org.hympj.model.OneSidedTiming;
import org.hympj.shm.emu.VirtualClock;
import org.hympj.shm.emu.VirtualOrder;

/**
 * The one-sided engine ({@link OsEngine}) on virtual time: the modelled instants of its
 * requests and bookings by the rule of {@link OneSidedTiming} (the simulator's too), and the
 * order it makes the bookings in (docs/ONESIDED.md, "On virtual time"). S2's polling thread is
 * the model's polling delay here, not a thread. Every booking is made in its turn
 * ({@link VirtualOrder}): the rank's bookings wait in (instant, issue order) order, the earliest
 * counted in the rank's floor, until no other rank can still book earlier. Used by the rank's
 * one thread.
 */
final class OsVirtualTime {
    final VirtualClock clock;
    final VirtualOrder order;
    private final OneSidedTiming rule;
    /** Requests issued so far (ties of equal instants go by it). */
    private long issued;
    /** Per sender this rank writes addresses to: when each may be written. */
    private final OneSidedTiming.Addresses[] addresses;
    /** Sends matched to their address, waiting for their put's turn: sorted by (instant, issue order). */
    private OsRequest[] puts = new OsRequest[16];
    private int putCount;

    OsVirtualTime(VirtualClock clock, OneSidedTiming rule, int size) {
        this.clock = clock;
        this.order = clock.order();
        this.rule = rule;
        this.addresses = new OneSidedTiming.Addresses[size];
        for (int p = 0; p < size; p++) {
            addresses[p] = rule.addresses();
        }
    }

    /** {@code q} is issued now: it takes the rank's clock. */
    void issue(OsRequest q) {
        q.issuedAt = clock.now();
        q.issueOrder = ++issued;
        q.vdone = q.issuedAt;
    }

    /** When an entry that landed at {@code landed} is acted on. */
    long noticed(long landed) {
        return rule.noticed(landed);
    }

    /** The instant receive {@code r}, the first waiting for {@code sender}, writes its address there. */
    long addressAt(OsRequest r, int sender) {
        return addresses[sender].nextAt(r.issuedAt);
    }

    /** The next address to {@code sender} was written at {@code at}, landing at {@code landed}. */
    void addressWritten(int sender, long at, long landed) {
        addresses[sender].written(at, landed);
    }

    /** Send {@code s} found its address, which landed at {@code landed}: its put waits for its turn. */
    void matched(OsRequest s, long landed) {
        s.bookAt = rule.putAt(s.issuedAt, landed);
        if (putCount == puts.length) {
            puts = java.util.Arrays.copyOf(puts, 2 * putCount);
        }
        int i = putCount;
        while (i > 0 && before(s, puts[i - 1])) {
            puts[i] = puts[i - 1];
            i--;
        }
        puts[i] = s;
        putCount++;
    }

    private static boolean before(OsRequest a, OsRequest b) {
        return a.bookAt < b.bookAt || (a.bookAt == b.bookAt && a.issueOrder < b.issueOrder);
    }

    /** Puts waiting for their turn. */
    int putCount() {
        return putCount;
    }

    /** The {@code i}-th earliest put waiting for its turn. */
    OsRequest put(int i) {
        return puts[i];
    }

    /** The {@code i}-th earliest put is made. */
    void removePut(int i) {
        putCount--;
        System.arraycopy(puts, i + 1, puts, i, putCount - i);
        puts[putCount] = null;
    }

    /**
     * True when the rank may book at {@code t} now: no other rank can still book earlier, nothing
     * at or before {@code t} is still unread in its own memory, and its two-sided engine has
     * deferred nothing earlier.
     */
    boolean mayBook(long t) {
        return order.ownPendingMin() > t && order.firstOfRank(VirtualOrder.ONE_SIDED, t) && order.mayBook(t);
    }

    /** A booking at {@code t} is made. */
    void booked(long t) {
        order.booked(t);
    }

    /** An entry stamped {@code stamp} is about to be taken from this rank's memory (VirtualOrder's rule). */
    void taking(long stamp) {
        order.lower(stamp);
    }

    /** The earliest booking still waiting (MAX_VALUE: none) counts in the rank's floor. */
    void waiting(long earliest) {
        order.deferredFrom(VirtualOrder.ONE_SIDED, earliest);
    }
}
