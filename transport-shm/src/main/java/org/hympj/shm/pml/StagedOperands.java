package org.hympj.shm.pml;

import org.hympj.api.Datatype;
import org.hympj.api.Primitive;
import org.hympj.api.SegmentBuffer;
import org.hympj.shm.fabric.Packer;

/**
 * The operands of a reduction whose buffers are not plain arrays of a contiguous type — a
 * segment buffer, or a derived type (vector, subarray) of one primitive, which MPI lets reduce
 * element by element in its type map: gathered into a contiguous array of the primitive, reduced
 * there, and the result scattered back into the caller's layout. The arrays are kept per
 * primitive and grown on demand (no steady-state allocation). One per communicator's
 * collectives, used by its one driving thread.
 */
final class StagedOperands {
    private final Engine engine;
    private final Packer packer = new Packer();
    private final Buf buf = new Buf();
    private final Object[] in = new Object[Primitive.values().length];
    private final Object[] out = new Object[Primitive.values().length];

    StagedOperands(Engine engine) {
        this.engine = engine;
    }

    /** True when a reduction over these buffers and this type must be staged. */
    static boolean needed(Object sendBuf, Object recvBuf, Datatype type) {
        return sendBuf instanceof SegmentBuffer || recvBuf instanceof SegmentBuffer || !type.isContiguous()
            || type.displacement() != 0;
    }

    /** The input array of {@code n} elements of {@code p} (contents unspecified). */
    Object in(Primitive p, int n) {
        return Collectives.scratch(in, p, n);
    }

    /** The output array of {@code n} elements of {@code p} (contents unspecified). */
    Object out(Primitive p, int n) {
        return Collectives.scratch(out, p, n);
    }

    /** Copies {@code count} items of {@code type} at {@code offset} of {@code from} into {@code to}[0 …]. */
    void gather(Object from, int offset, int count, Datatype type, Object to) {
        buf.set(from, offset, count, type, engine);
        packer.pack(buf.base, buf.addr, type, count, 0, to, base(type.primitive()), buf.bytes);
        buf.clear();
    }

    /** Copies {@code from}[0 …] into {@code count} items of {@code type} at {@code offset} of {@code to}. */
    void scatter(Object from, Object to, int offset, int count, Datatype type) {
        buf.set(to, offset, count, type, engine);
        packer.unpack(from, base(type.primitive()), buf.bytes, buf.base, buf.addr, type, count, 0);
        buf.clear();
    }

    private static long base(Primitive p) {
        return PrimitiveArrays.base(p);
    }

}
