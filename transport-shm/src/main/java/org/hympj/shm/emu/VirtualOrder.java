package org.hympj.shm.emu;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The order in which ranks book the shared timelines on virtual time: by modelled instant, as
 * a conservative parallel discrete-event simulation orders its events (Chandy–Misra–Bryant's
 * rule, with the lower bound read from shared memory instead of null messages). A rank books a
 * transfer at instant {@code t} only once no other rank can still book one earlier — or at
 * {@code t} itself with a lower rank number, so equal instants go in rank order as the
 * simulator's first events do.
 *
 * <p>What another rank {@code s} can still book is bounded below by two things:
 * <ul>
 *   <li>its <em>floor</em>, which it publishes here: its clock while it runs (a send starts at
 *       its clock; a booking a packet causes is covered by that packet, below);
 *       {@link #BLOCKED} while it waits in the library with nothing to do (it can only be woken
 *       by a packet); {@link #DONE} once it has finalized;</li>
 *   <li>the stamps of the packets in its inbound rings: what a packet causes (a clear-to-send,
 *       the data a clear-to-send releases, a completion) happens no earlier than its stamp; and
 *       likewise of the entries in its one-sided buffers ({@link PendingStamps}, --p2p onesided).</li>
 * </ul>
 * Equal instants go in rank order among the floors; a packet waiting at the instant itself holds
 * every rank (zero-cost handshakes cause bookings at their own instant: all of them must be in
 * before one is made, or the order would depend on which arrived first in real time).
 *
 * <p>A rank lowers its floor to a packet's stamp before it takes the packet out of its ring, and
 * writes a packet before it raises its floor past the packet's stamp. So a reader that reads
 * every floor, then every ring, then every floor again, and takes the least of the three for
 * each rank, misses no packet: one it did not see in a ring was either still to be written
 * (its writer's first floor covers it) or already taken (its reader's second floor covers it,
 * or that reader has already made the booking it caused).
 *
 * <p>Used by the rank's one driving thread. Every rank maps the same floors.
 */
public final class VirtualOrder {
    /** The floor of a rank waiting in the library with nothing to do: only a packet can wake it. */
    public static final long BLOCKED = Long.MAX_VALUE - 1;
    /** The floor of a rank that has finalized: it books nothing more. */
    public static final long DONE = Long.MAX_VALUE;
    /** Each floor on a cache line of its own. */
    private static final int SLOT = 64;
    private static final int RESTARTS = 8;
    private static final boolean REPORT = Boolean.getBoolean("hympj.vt.report");
    private long outOfOrder;

    private final AtomicBuffer floors;
    private final int rank;
    private final int size;
    /** Per rank, its inbound rings (any channel, any source). */
    private final AtomicBuffer[][] rings;
    private final int stampOffset;
    private final long[] first;
    private long published = -1;
    /** The floor as the rank's state gives it (its clock, BLOCKED, DONE, or a packet's stamp it is taking). */
    private long base;
    /** Per engine ({@link #TWO_SIDED}, {@link #ONE_SIDED}), the earliest booking it has deferred to its turn (MAX_VALUE: none). */
    private final long[] deferredMin = {Long.MAX_VALUE, Long.MAX_VALUE};
    /** What else waits in a rank's memory with a stamp (the one-sided engine's entries), or null. */
    private PendingStamps stamps;
    /** A polling call found nothing: until the next call the rank counts as blocked. */
    private boolean polledNothing;

    /**
     * @param floors the job's floors ({@link #bytes} of them)
     * @param rings per rank, the buffers of its inbound packet rings (Agrona one-to-one rings)
     * @param stampOffset where a packet's stamp is, from the start of its payload
     */
    public VirtualOrder(AtomicBuffer floors, int rank, int size, AtomicBuffer[][] rings, int stampOffset) {
        if (floors.capacity() < bytes(size)) {
            throw new IllegalArgumentException("floors: " + floors.capacity() + " bytes, " + bytes(size) + " needed");
        }
        this.floors = floors;
        this.rank = rank;
        this.size = size;
        this.rings = rings;
        this.stampOffset = stampOffset;
        this.first = new long[size];
    }

    /** The engines that defer bookings: the two-sided engine (its DeferredBookings) and the one-sided engine of --p2p onesided. */
    public static final int TWO_SIDED = 0;
    public static final int ONE_SIDED = 1;

    /**
     * Stamped entries other than packets that wait in a rank's memory (the one-sided engine's
     * addresses and completion flags): what one causes happens no earlier than its stamp, so they
     * bound the rank as its packets do. Read like the rings, without taking anything.
     */
    public interface PendingStamps {
        /** The least stamp waiting for rank {@code s} (MAX_VALUE: none; 0: look again). */
        long pendingMin(int s);
    }

    /** Adds {@code stamps} to what bounds each rank (before the rank books anything). */
    public void stamps(PendingStamps stamps) {
        this.stamps = stamps;
    }

    /** Bytes of the floors of a job of {@code ranks} ranks. */
    public static long bytes(int ranks) {
        return (ranks + 1L) * SLOT; // the floors, then the latest instant booked
    }

    /**
     * Records a booking at {@code t}: counted out of order when a booking at a later instant was
     * already made (by any rank). The job's latest booked instant is kept after the floors.
     */
    public void booked(long t) {
        int at = size * SLOT;
        for (;;) {
            long latest = floors.getLongVolatile(at);
            if (t < latest) {
                outOfOrder++;
                if (REPORT) {
                    System.err.println("[vt] rank " + rank + " booked at " + t + " after " + latest + " at "
                        + new Throwable().getStackTrace()[2]);
                }
                return;
            }
            if (t == latest || floors.compareAndSetLong(at, latest, t)) {
                return;
            }
        }
    }

    /** Bookings this rank made at an instant earlier than one already booked. */
    public long outOfOrder() {
        return outOfOrder;
    }

    /** Publishes this rank's floor (the earlier of {@code floor} and its deferred bookings). */
    public void publish(long floor) {
        base = floor;
        write();
    }

    private void write() {
        long f = Math.min(base, Math.min(deferredMin[TWO_SIDED], deferredMin[ONE_SIDED]));
        if (f != published) {
            published = f;
            floors.putLongVolatile(rank * SLOT, f);
        }
    }

    /** Lowers this rank's floor to {@code stamp} if it is higher (before a packet stamped so is taken). */
    public void lower(long stamp) {
        if (stamp < base) {
            publish(stamp);
        }
    }

    /** The earliest booking {@code engine} of this rank has deferred to its turn (MAX_VALUE: none) counts in its floor. */
    public void deferredFrom(int engine, long at) {
        deferredMin[engine] = at;
        write();
    }

    /**
     * True when a booking {@code engine} deferred to {@code t} goes before every booking the
     * rank's other engine has deferred (equal instants: the two-sided engine's first), so the
     * rank's own bookings too are made in instant order.
     */
    public boolean firstOfRank(int engine, long t) {
        return engine == TWO_SIDED ? t <= deferredMin[ONE_SIDED] : t < deferredMin[TWO_SIDED];
    }

    /** The rank enters the library at modelled instant {@code now}. */
    public void entered(long now) {
        polledNothing = false;
        publish(now);
    }

    /** The rank leaves the library at {@code now}: it runs from there, or polls (blocked) if its poll found nothing. */
    public void left(long now) {
        publish(polledNothing ? BLOCKED : now);
    }

    /** The rank waits with nothing to do. */
    public void blocked() {
        publish(BLOCKED);
    }

    /**
     * A polling call (test, iprobe) found nothing: until its next call the rank counts as
     * blocked, or a program polling without computing (--compute-scale 0) would hold every
     * other rank at its clock forever. The price: a send such a rank makes next, at its clock,
     * may be booked after a later-stamped one.
     */
    public void polledNothing() {
        polledNothing = true;
    }

    /** The rank has finalized. */
    public void done() {
        deferredMin[TWO_SIDED] = Long.MAX_VALUE;
        deferredMin[ONE_SIDED] = Long.MAX_VALUE;
        publish(DONE);
    }

    public int rank() {
        return rank;
    }

    /** This rank's floor as published. */
    public long floor() {
        return published;
    }

    /**
     * True when this rank may book the shared timelines at modelled instant {@code t}: every
     * other rank's lower bound is later, or equal with a higher rank number.
     */
    public boolean mayBook(long t) {
        for (int s = 0; s < size; s++) {
            if (s != rank) {
                long f = floors.getLongVolatile(s * SLOT);
                if (before(f, s, t)) {
                    return false;
                }
                first[s] = f;
            }
        }
        for (int s = 0; s < size; s++) {
            // a packet stamped t itself counts whatever the rank: a clear-to-send costs no modelled
            // time, so what it causes happens at t too, and those must all be seen before one is
            // booked (its reader takes it in its next pass: this cannot hold anyone for good)
            if (s != rank && first[s] != DONE && pendingMin(s) <= t) {
                return false;
            }
        }
        for (int s = 0; s < size; s++) {
            if (s != rank && before(floors.getLongVolatile(s * SLOT), s, t)) {
                return false;
            }
        }
        return true;
    }

    /** Every other rank's floor and least waiting stamp, as seen now (for a diagnosis). */
    public String describe(long t) {
        StringBuilder b = new StringBuilder("rank " + rank + " waits to book at " + t + " ns (its floor "
            + name(published) + ")");
        for (int s = 0; s < size; s++) {
            if (s != rank) {
                b.append("; rank ").append(s).append(": floor ").append(name(floors.getLongVolatile(s * SLOT)))
                    .append(", least waiting stamp ").append(name(pendingMin(s)));
            }
        }
        return b.toString();
    }

    private static String name(long v) {
        return v == DONE ? "done" : v == BLOCKED ? "blocked" : v == Long.MAX_VALUE - 2 ? "-" : v == Long.MAX_VALUE ? "none"
            : Long.toString(v);
    }

    /** True when rank {@code s} with lower bound {@code bound} must book before this rank books at {@code t}. */
    private boolean before(long bound, int s, long t) {
        return bound < t || (bound == t && s < rank);
    }

    /** The least stamp of what waits in this rank's own memory: packets in its rings, stamped entries (MAX_VALUE: none). */
    public long ownPendingMin() {
        return pendingMin(rank);
    }

    /** The least stamp of what waits for rank {@code s}: packets in its inbound rings, stamped entries (MAX_VALUE: none). */
    private long pendingMin(int s) {
        long min = Long.MAX_VALUE;
        for (AtomicBuffer ring : rings[s]) {
            min = Math.min(min, ringMin(ring));
        }
        PendingStamps more = stamps;
        return more == null ? min : Math.min(min, more.pendingMin(s));
    }

    /**
     * Walks a ring from its consumer's position to its producer's without taking anything. A
     * record not committed yet stops the walk (its writer's floor covers it); one taken meanwhile
     * restarts it from the new consumer position. Anything inconsistent answers 0: wait and look again.
     */
    private long ringMin(AtomicBuffer ring) {
        int capacity = ring.capacity() - RingBufferDescriptor.TRAILER_LENGTH;
        int mask = capacity - 1;
        long min = Long.MAX_VALUE;
        long head = ring.getLongVolatile(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET);
        long tail = ring.getLongVolatile(capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET);
        for (int restarts = 0; head < tail; ) {
            long pos = head;
            boolean restart = false;
            while (pos < tail) {
                int index = (int) (pos & mask);
                int length = ring.getIntVolatile(RecordDescriptor.lengthOffset(index));
                if (length <= 0) {
                    long now = ring.getLongVolatile(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET);
                    if (now > pos) {
                        head = now;
                        restart = true; // taken while we looked
                    }
                    break;
                }
                if (length > capacity) {
                    return 0;
                }
                if (ring.getInt(RecordDescriptor.typeOffset(index)) != RingBuffer.PADDING_MSG_TYPE_ID) {
                    min = Math.min(min, ring.getLongVolatile(RecordDescriptor.encodedMsgOffset(index) + stampOffset));
                }
                pos += BitUtil.align(length, RecordDescriptor.ALIGNMENT);
            }
            if (!restart) {
                return min;
            }
            if (++restarts > RESTARTS) {
                return 0;
            }
            tail = ring.getLongVolatile(capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET);
        }
        return min;
    }
}
