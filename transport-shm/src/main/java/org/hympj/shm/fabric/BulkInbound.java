package org.hympj.shm.fabric;

import org.agrona.UnsafeApi;

/**
 * The receiver's side of one pair's bulk region. Payloads are announced in order but may be
 * consumed out of order (an unexpected message waits for its receive while later ones are
 * matched), so consumption is tracked per payload and the published consumer position only
 * advances over the consumed prefix.
 */
public final class BulkInbound {
    /** Header before the data: the consumer position (a long), padded to a cache line pair. */
    public static final int HEADER = org.hympj.shm.job.FileLayout.BULK_HEADER;

    private final long headerAddr;
    private final long dataAddr;
    private final int capacity;
    private long[] ends = new long[16];
    private boolean[] done = new boolean[16];
    private int head;
    private int count;

    BulkInbound(long headerAddr, int capacity) {
        this.headerAddr = headerAddr;
        this.dataAddr = headerAddr + HEADER;
        this.capacity = capacity;
    }

    /** Address of an announced payload. */
    public long address(long position) {
        return dataAddr + (position & (capacity - 1));
    }

    /** Records a payload announced at (start, len), in arrival order. */
    public void arrived(long start, int len) {
        if (count == ends.length) {
            grow();
        }
        int i = (head + count) & (ends.length - 1);
        ends[i] = start + BulkOutbound.align(len);
        done[i] = false;
        count++;
    }

    /** Marks the payload at (start, len) consumed and publishes the consumed prefix. */
    public void consumed(long start, int len) {
        long end = start + BulkOutbound.align(len);
        int mask = ends.length - 1;
        for (int k = 0; k < count; k++) {
            int i = (head + k) & mask;
            if (ends[i] == end) {
                done[i] = true;
                break;
            }
        }
        long pos = -1;
        while (count > 0 && done[head]) {
            pos = ends[head];
            head = (head + 1) & mask;
            count--;
        }
        if (pos >= 0) {
            UnsafeApi.putLongRelease(null, headerAddr, pos);
        }
    }

    private void grow() {
        int n = ends.length;
        long[] e = new long[n * 2];
        boolean[] d = new boolean[n * 2];
        for (int k = 0; k < count; k++) {
            e[k] = ends[(head + k) & (n - 1)];
            d[k] = done[(head + k) & (n - 1)];
        }
        ends = e;
        done = d;
        head = 0;
    }

    /** Payloads announced and not yet consumed. */
    public int outstanding() {
        return count;
    }
}
