package org.hympj.shm.testing;

import org.hympj.api.Primitive;

/**
 * Deterministic element values: {@code value(source, salt, index)} is a 64-bit hash, so
 * every element of every message is distinct and a misplaced or stale element is caught.
 * {@link #canon} is how a value looks once stored in an element of a primitive and read back
 * (floats and doubles get exact, NaN-free values).
 */
public final class Pattern {
    /** Source used for sentinel values (what must stay untouched). */
    public static final int SENTINEL = 0x5E47;

    private Pattern() {
    }

    public static long value(int source, int salt, long index) {
        long z = source * 0x9E3779B97F4A7C15L ^ salt * 0xC2B2AE3D27D4EB4FL ^ (index + 0x165667B19E3779F9L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static long sentinel(int salt, long index) {
        return value(SENTINEL, salt, index);
    }

    /** The element {@code v} becomes in a {@code p}, widened to a long (float/double as raw bits). */
    public static long canon(Primitive p, long v) {
        switch (p) {
            case BYTE:
                return (byte) v;
            case CHAR:
                return (char) v;
            case SHORT:
                return (short) v;
            case INT:
                return (int) v;
            case LONG:
                return v;
            case FLOAT:
                return Float.floatToRawIntBits(toFloat(v));
            default:
                return Double.doubleToRawLongBits(toDouble(v));
        }
    }

    static float toFloat(long v) {
        return (float) ((int) v >> 8); // 24 significant bits: exact
    }

    static double toDouble(long v) {
        return (double) (v >> 11); // 53 significant bits: exact
    }
}
