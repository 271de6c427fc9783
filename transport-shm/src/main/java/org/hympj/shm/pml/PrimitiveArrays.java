package org.hympj.shm.pml;

import org.agrona.UnsafeApi;
import org.hympj.api.Primitive;

/**
 * The Unsafe base offset and the length of primitive arrays without reflection. On the ranks'
 * C1 (oversubscribed jobs run C1 only) {@code Unsafe.arrayBaseOffset} and
 * {@code Array.getLength} are calls into the VM, not intrinsics; a collective made several per
 * call (an 8-byte allreduce spent about 0.6 µs in them and in the checks around them).
 */
final class PrimitiveArrays {
    private static final long[] BASE = new long[Primitive.values().length];

    static {
        for (Primitive p : Primitive.values()) {
            BASE[p.ordinal()] = UnsafeApi.arrayBaseOffset(p.arrayClass());
        }
    }

    private PrimitiveArrays() {
    }

    /** Where element 0 of an array of {@code p} is, from the array's start. */
    static long base(Primitive p) {
        return BASE[p.ordinal()];
    }

    /** The length of {@code array}, an array of {@code p} (checked by the caller). */
    static int length(Object array, Primitive p) {
        switch (p) {
            case BYTE:
                return ((byte[]) array).length;
            case CHAR:
                return ((char[]) array).length;
            case SHORT:
                return ((short[]) array).length;
            case INT:
                return ((int[]) array).length;
            case LONG:
                return ((long[]) array).length;
            case FLOAT:
                return ((float[]) array).length;
            case DOUBLE:
                return ((double[]) array).length;
            default:
                return java.lang.reflect.Array.getLength(array);
        }
    }
}
