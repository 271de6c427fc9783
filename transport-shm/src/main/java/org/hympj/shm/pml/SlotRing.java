package org.hympj.shm.pml;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A single-producer single-consumer ring of K fixed 64-byte slots in shared memory: the
 * Remote Address Buffer (receiver → sender) and the complete buffer (sender → receiver) of
 * S2 are both made of these. The producer writes an entry's fields, then its sequence number
 * (release); the consumer reads the sequence (acquire), the fields, then acknowledges in the
 * same slot so the producer may reuse it. Entries carry a {@code visibleAt} instant (0 = at
 * once) for the timing model.
 */
final class SlotRing {
    static final int SLOT = org.hympj.shm.job.FileLayout.ONE_SIDED_SLOT;
    private static final int SEQ = 0;
    private static final int ACK = 8;
    private static final int VIS = 16;
    static final int F_TAG = 24;
    static final int F_HANDLE = 28;
    static final int F_A = 32;
    static final int F_B = 40;
    static final int F_CTX = 48;

    private final AtomicBuffer buf;
    private final int base;
    private final int slots;
    private long produced;
    private long consumed;

    SlotRing(AtomicBuffer buf, int base, int slots) {
        this.buf = buf;
        this.base = base;
        this.slots = slots;
    }

    static int bytes(int slots) {
        return org.hympj.shm.job.FileLayout.oneSidedRingBytes(slots);
    }

    private int at(long n) {
        return base + (int) (n % slots) * SLOT;
    }

    // ---- producer side

    /** Offset of the slot for the next entry, or -1 while the consumer has not freed it. */
    int claim() {
        int s = at(produced);
        long needAck = produced - slots + 1;
        if (needAck > 0 && buf.getLongVolatile(s + ACK) < needAck) {
            return -1;
        }
        return s;
    }

    void putInt(int slot, int field, int v) {
        buf.putInt(slot + field, v);
    }

    void putLong(int slot, int field, long v) {
        buf.putLong(slot + field, v);
    }

    /** Entries published so far (the next one goes to slot {@code produced() % slots}). */
    long produced() {
        return produced;
    }

    /** Publishes the claimed slot (release). */
    void publish(int slot, long visibleAt) {
        buf.putLong(slot + VIS, visibleAt);
        buf.putLongRelease(slot + SEQ, produced + 1);
        produced++;
    }

    // ---- consumer side

    /** Offset of the next entry if it is there and visible at {@code now}, else -1. */
    int peek(long now) {
        int s = at(consumed);
        if (buf.getLongVolatile(s + SEQ) != consumed + 1) {
            return -1;
        }
        long vis = buf.getLong(s + VIS);
        if (vis != 0 && vis - now > 0) {
            return -1;
        }
        return s;
    }

    /** The visibility instant of the next entry if it is there but not yet visible, else 0. */
    long pendingVisibleAt() {
        int s = at(consumed);
        return buf.getLongVolatile(s + SEQ) == consumed + 1 ? buf.getLong(s + VIS) : 0;
    }

    /** The visibility instant (stamp) of the entry at {@code slot}. */
    long visibleAt(int slot) {
        return buf.getLong(slot + VIS);
    }

    /**
     * The least stamp of the entries published and not yet taken in the ring of {@code slots}
     * slots at {@code base} of {@code file}, read by any process without taking anything
     * (MAX_VALUE: none). Each slot holds at most one entry: it waits while its sequence is ahead
     * of its acknowledgement. An entry taken or replaced while this reads may be missed or read
     * with its successor's stamp: virtual time's order covers both by the taker's and the
     * writer's floors (VirtualOrder).
     */
    static long pendingMin(AtomicBuffer file, int base, int slots) {
        long min = Long.MAX_VALUE;
        for (int i = 0, s = base; i < slots; i++, s += SLOT) {
            if (file.getLongVolatile(s + SEQ) > file.getLongVolatile(s + ACK)) {
                min = Math.min(min, file.getLongVolatile(s + VIS));
            }
        }
        return min;
    }

    int getInt(int slot, int field) {
        return buf.getInt(slot + field);
    }

    long getLong(int slot, int field) {
        return buf.getLong(slot + field);
    }

    /** Frees the entry just read for the producer. */
    void release(int slot) {
        buf.putLongRelease(slot + ACK, consumed + 1);
        consumed++;
    }
}
