package org.hympj.shm.pml;

import org.hympj.api.Datatype;
import org.hympj.api.Primitive;
import org.hympj.api.SegmentBuffer;

/**
 * A user buffer resolved once (at the call, or at init for persistent requests): where its
 * memory is (Unsafe base + offset), its layout, and — when the whole message is one
 * contiguous run in this rank's segment — its segment offset, so peers can put into it or
 * pull from it directly; a receiver can also pull a strided message whose layout an RTS can
 * carry ({@link #stridedOffset}).
 */
final class Buf {
    Object base;
    long addr;
    Datatype type;
    int count;
    long bytes;
    long segOffset = -1;
    /**
     * For strided data in this rank's segment whose layout an RTS can carry
     * ({@link RemoteLayouts#describable}): where the data starts, so a receiver may pull it;
     * else -1.
     */
    long stridedOffset = -1;

    /** Resolves an argument already validated by {@link Args}. */
    void set(Object buf, int offset, int count, Datatype type, Engine engine) {
        this.type = type;
        this.count = count;
        this.bytes = (long) count * type.size();
        int e = type.primitive().bytes();
        offset += Math.toIntExact(type.displacement()); // a subarray's data starts inside the buffer
        if (buf instanceof SegmentBuffer) {
            SegmentBuffer sb = (SegmentBuffer) buf;
            this.base = null;
            long start = sb.segmentOffset() + (long) offset * e;
            this.addr = engine.fabric().segmentAddress(engine.rank()) + start;
            this.segOffset = type.isContiguous() ? start : -1;
            this.stridedOffset = RemoteLayouts.describable(type, count) ? start : -1;
        } else {
            this.base = buf;
            this.addr = PrimitiveArrays.base(type.primitive()) + (long) offset * e;
            this.segOffset = -1;
            this.stridedOffset = -1;
        }
    }

    void clear() {
        base = null;
    }
}
