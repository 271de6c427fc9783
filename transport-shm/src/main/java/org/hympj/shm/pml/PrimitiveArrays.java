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

    /**
     * The length of {@code array}, an array of a primitive type (checked by the caller). A chain
     * of exact-class tests, most used first: each is one compare of the object's class on C1 and
     * C2 alike, where an enum switch costs a table lookup more on the ranks' hottest check.
     */
    static int length(Object array) {
        if (array instanceof double[]) {
            return ((double[]) array).length;
        }
        if (array instanceof byte[]) {
            return ((byte[]) array).length;
        }
        if (array instanceof int[]) {
            return ((int[]) array).length;
        }
        if (array instanceof long[]) {
            return ((long[]) array).length;
        }
        if (array instanceof float[]) {
            return ((float[]) array).length;
        }
        if (array instanceof char[]) {
            return ((char[]) array).length;
        }
        if (array instanceof short[]) {
            return ((short[]) array).length;
        }
        return java.lang.reflect.Array.getLength(array);
    }
}
