package org.hympj.shm.pml;

import org.hympj.shm.emu.VirtualClock;
import org.hympj.shm.emu.VirtualOrder;

/**
 * The one-sided engine ({@link OsEngine}) on virtual time: the modelled instants of its
 * requests and bookings, and the order it makes the bookings in (docs/ONESIDED.md, "On virtual
 * time"). S2's polling thread is a rule here, not a thread: every entry that lands in a rank's
 * memory — an address in its Remote Address Buffer, a flag in its complete buffer, the last
 * write of its own put's chain — is acted on {@code pollDelay} after it lands, whoever polls in
 * real time. So:
 * <ul>
 * <li>a receive's address is written at its posting (the issuing call does the round), no
 *     earlier than the one before it to the same sender, and no earlier than the sender's
 *     polling side has taken the entry that held its slot of the sender's buffer;</li>
 * <li>a send's data is put at the later of its issue and its address's landing + the delay;</li>
 * <li>a receive completes at its flag's landing + the delay, a send at its put's end + the delay.</li>
 * </ul>
 * Every booking is made in its turn ({@link VirtualOrder}): the rank's bookings wait in
 * (instant, issue order) order here, the earliest counted in the rank's floor, until no other
 * rank can still book earlier. Used by the rank's one thread.
 */
final class OsVirtualTime {
    final VirtualClock clock;
    final VirtualOrder order;
    final long pollDelay;
    private final int slots;
    /** Requests issued so far (ties of equal instants go by it). */
    private long issued;
    /** Per sender this rank writes addresses to, the instant of the last one written. */
    private final long[] lastAddress;
    /** Per sender and slot of its Remote Address Buffer, when its polling side took the entry there. */
    private final long[][] slotFreeAt;
    /** Sends matched to their address, waiting for their put's turn: sorted by (instant, issue order). */
    private OsRequest[] puts = new OsRequest[16];
    private int putCount;

    OsVirtualTime(VirtualClock clock, long pollDelay, int size, int slots) {
        this.clock = clock;
        this.order = clock.order();
        this.pollDelay = pollDelay;
        this.slots = slots;
        this.lastAddress = new long[size];
        this.slotFreeAt = new long[size][slots];
    }

    /** {@code q} is issued now: it takes the rank's clock. */
    void issue(OsRequest q) {
        q.issuedAt = clock.now();
        q.issueOrder = ++issued;
        q.vdone = q.issuedAt;
    }

    /** When an entry that landed at {@code landed} is acted on. */
    long noticed(long landed) {
        return landed + pollDelay;
    }

    /** The instant receive {@code r} writes its address to {@code sender}, as the entry numbered {@code n} there. */
    long addressAt(OsRequest r, int sender, long n) {
        return Math.max(r.issuedAt, Math.max(lastAddress[sender], slotFreeAt[sender][(int) (n % slots)]));
    }

    /** The address numbered {@code n} to {@code sender} was written at {@code at}, landing at {@code landed}. */
    void addressWritten(int sender, long n, long at, long landed) {
        lastAddress[sender] = at;
        slotFreeAt[sender][(int) (n % slots)] = noticed(landed);
    }

    /** Send {@code s} found its address, which landed at {@code landed}: its put waits for its turn. */
    void matched(OsRequest s, long landed) {
        s.bookAt = Math.max(s.issuedAt, noticed(landed));
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
