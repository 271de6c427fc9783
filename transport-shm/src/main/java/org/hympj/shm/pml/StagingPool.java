package org.hympj.shm.pml;

import java.util.Arrays;

/**
 * First-fit allocator over a staging region of this rank's segment: the landing place of
 * puts whose receive buffer is a heap array (or not contiguous). Used by the polling thread
 * only. Regions are 64-byte aligned; freed ones merge with their neighbours.
 */
final class StagingPool {
    private final long base;
    private final long size;
    private long[] starts = new long[16];
    private long[] ends = new long[16];
    private int n;

    StagingPool(long base, long size) {
        this.base = base;
        this.size = size;
        starts[0] = base;
        ends[0] = base + size;
        n = 1;
    }

    long capacity() {
        return size;
    }

    /** Segment offset of {@code bytes} of staging, or -1 if no free run is large enough now. */
    long alloc(long bytes) {
        long need = Math.max(64, (bytes + 63) & -64L);
        for (int i = 0; i < n; i++) {
            if (ends[i] - starts[i] >= need) {
                long at = starts[i];
                starts[i] += need;
                if (starts[i] == ends[i]) {
                    System.arraycopy(starts, i + 1, starts, i, n - i - 1);
                    System.arraycopy(ends, i + 1, ends, i, n - i - 1);
                    n--;
                }
                return at;
            }
        }
        return -1;
    }

    void free(long at, long bytes) {
        long end = at + Math.max(64, (bytes + 63) & -64L);
        int i = 0;
        while (i < n && starts[i] < at) {
            i++;
        }
        if (n == starts.length) {
            starts = Arrays.copyOf(starts, n * 2);
            ends = Arrays.copyOf(ends, n * 2);
        }
        System.arraycopy(starts, i, starts, i + 1, n - i);
        System.arraycopy(ends, i, ends, i + 1, n - i);
        starts[i] = at;
        ends[i] = end;
        n++;
        // merge with the next and the previous free run
        if (i + 1 < n && ends[i] == starts[i + 1]) {
            ends[i] = ends[i + 1];
            System.arraycopy(starts, i + 2, starts, i + 1, n - i - 2);
            System.arraycopy(ends, i + 2, ends, i + 1, n - i - 2);
            n--;
        }
        if (i > 0 && ends[i - 1] == starts[i]) {
            ends[i - 1] = ends[i];
            System.arraycopy(starts, i + 1, starts, i, n - i - 1);
            System.arraycopy(ends, i + 1, ends, i, n - i - 1);
            n--;
        }
    }
}
