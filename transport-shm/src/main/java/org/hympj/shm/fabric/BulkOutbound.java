package org.hympj.shm.fabric;

import org.agrona.UnsafeApi;

/**
 * The sender's side of one pair's bulk region: a byte ring in the receiver's bulk file
 * that carries large payloads, announced by small notices in the packet ring. Unlike the
 * packet ring it is never zeroed (a consumer position, not a length word, says what is
 * free), so a payload costs one copy in and one copy out, nothing more.
 *
 * <p>Single producer (this rank). Space is reserved FIFO; a payload never wraps (the tail is
 * skipped instead). The receiver publishes how far it has consumed in the region's header.
 */
public final class BulkOutbound {
    /** Payload positions are aligned to a cache line. */
    public static final int ALIGN = 64;
    /**
     * The bulk region of a peer on another host: there is none, so it never has room (eager
     * payloads fall back to rendezvous, streams to pieces in the packet ring itself).
     */
    public static final BulkOutbound NONE = new BulkOutbound(0, 0);

    private final long headerAddr;
    private final long dataAddr;
    private final int capacity;
    private long produced;
    private long consumerCache;

    BulkOutbound(long headerAddr, int capacity) {
        this.headerAddr = headerAddr;
        this.dataAddr = headerAddr + BulkInbound.HEADER;
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Where a payload of {@code len} bytes would start, or -1 if there is no room now.
     * Nothing is reserved until {@link #commit}.
     */
    public long tryReserve(int len) {
        return tryReserve(len, capacity);
    }

    /**
     * As {@link #tryReserve(int)}, with at most {@code window} bytes (at most the capacity) of the
     * region between the receiver's position and the payload's end.
     */
    public long tryReserve(int len, int window) {
        if (capacity == 0) {
            return -1; // NONE
        }
        long p = produced;
        int idx = (int) (p & (capacity - 1));
        long start = idx + len > capacity ? p + (capacity - idx) : p;
        long end = start + align(len);
        if (end - consumerCache > window) {
            consumerCache = UnsafeApi.getLongVolatile(null, headerAddr);
            if (end - consumerCache > window) {
                return -1;
            }
        }
        return start;
    }

    /** Commits the reservation made by {@link #tryReserve} for this start and length. */
    public void commit(long start, int len) {
        produced = start + align(len);
    }

    /** Address of a reserved position. */
    public long address(long position) {
        return dataAddr + (position & (capacity - 1));
    }

    static long align(long len) {
        return (len + ALIGN - 1) & -ALIGN;
    }
}
