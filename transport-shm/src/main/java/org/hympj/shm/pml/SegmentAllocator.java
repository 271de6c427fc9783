package org.hympj.shm.pml;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hympj.api.MpjException;
import org.hympj.api.Primitive;
import org.hympj.api.SegmentBuffer;
import org.hympj.shm.fabric.ShmFabric;

/**
 * Hands out this rank's registered segment: a bump allocator (64-byte aligned), memory
 * returned all at once at finalize — the pattern of stencil codes, which allocate their
 * halo buffers once. Each allocation is zeroed, which also pre-touches its pages.
 */
public final class SegmentAllocator {
    private static final int ALIGN = 64;
    private final ShmFabric fabric;
    private long next;

    public SegmentAllocator(ShmFabric fabric) {
        this.fabric = fabric;
    }

    public SegmentBuffer alloc(Primitive type, int n) {
        if (type == null) {
            throw new IllegalArgumentException("alloc: type must not be null");
        }
        if (n < 0) {
            throw new IllegalArgumentException("alloc: n must be >= 0, was " + n);
        }
        long bytes = (long) n * type.bytes();
        long start = (next + ALIGN - 1) & -ALIGN;
        if (start + bytes > fabric.segmentBytes()) {
            throw new MpjException("alloc: the shared segment is exhausted: " + bytes + " bytes requested, "
                + Math.max(0, fabric.segmentBytes() - start) + " of " + fabric.segmentBytes()
                + " free; start the job with a larger --segment-size");
        }
        fabric.touch(start, bytes);
        next = start + bytes;
        ByteBuffer view = fabric.mySegment().slice((int) start, (int) bytes).order(ByteOrder.nativeOrder());
        return new SegmentBuffer(view, type, n, start, this);
    }

    public long used() {
        return next;
    }

    /** Bytes still free (before alignment). */
    long free() {
        return fabric.segmentBytes() - next;
    }

    /**
     * Gives back everything allocated after {@code mark} (an earlier {@link #used()}): only for
     * the library's own buffers that nothing refers to any more (the JIT warm-up's), so the
     * program's first allocation starts where it would have without them.
     */
    void release(long mark) {
        if (mark < 0 || mark > next) {
            throw new IllegalArgumentException("release: mark " + mark + " is not in [0, " + next + "]");
        }
        next = mark;
    }
}
