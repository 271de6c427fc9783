package org.hympj.shm.testing;

import java.nio.ByteBuffer;
import org.hympj.api.Comm;
import org.hympj.api.Primitive;
import org.hympj.api.SegmentBuffer;

/**
 * A message buffer under test, a Java array or a {@link SegmentBuffer}, with element access
 * independent of its kind, so one check covers both. Values go through {@link Pattern}.
 */
public abstract class Mem {
    public final Primitive primitive;
    public final int length;

    private Mem(Primitive primitive, int length) {
        this.primitive = primitive;
        this.length = length;
    }

    /** What to pass to send/recv: the array or the segment buffer. */
    public abstract Object buffer();

    /** Element {@code i} in canonical form ({@link Pattern#canon}). */
    public abstract long get(int i);

    /** Stores {@code v} converted to the primitive (as {@link Pattern#canon} describes). */
    public abstract void put(int i, long v);

    public abstract boolean isSegment();

    public static Mem array(Primitive p, int n) {
        return new ArrayMem(p, n);
    }

    public static Mem segment(Comm comm, Primitive p, int n) {
        SegmentBuffer sb = p == Primitive.DOUBLE ? comm.allocDoubles(n) : comm.alloc(p, n);
        return new SegMem(sb);
    }

    public static Mem of(boolean segment, Comm comm, Primitive p, int n) {
        return segment ? segment(comm, p, n) : array(p, n);
    }

    /** Element i := value(source, salt, i) for i in [from, to). */
    public void fill(int from, int to, int source, int salt) {
        for (int i = from; i < to; i++) {
            put(i, Pattern.value(source, salt, i));
        }
    }

    /** Every element := its sentinel value. */
    public void fillSentinel(int salt) {
        for (int i = 0; i < length; i++) {
            put(i, Pattern.sentinel(salt, i));
        }
    }

    /** Every element outside [from, to) still holds its sentinel value. */
    public void checkSentinelOutside(int from, int to, int salt, String what) {
        checkSentinel(0, from, salt, what);
        checkSentinel(to, length, salt, what);
    }

    public void checkSentinel(int from, int to, int salt, String what) {
        for (int i = from; i < to; i++) {
            long want = Pattern.canon(primitive, Pattern.sentinel(salt, i));
            long got = get(i);
            if (got != want) {
                throw new AssertionError(what + ": element " + i + " of " + this
                    + " was written (must be untouched): expected sentinel " + want + ", found " + got);
            }
        }
    }

    /** Elements [at, at+n) equal the sender's value(source, salt, srcAt + k). */
    public void checkRun(int at, int n, int source, int salt, int srcAt, String what) {
        for (int k = 0; k < n; k++) {
            long want = Pattern.canon(primitive, Pattern.value(source, salt, srcAt + k));
            long got = get(at + k);
            if (got != want) {
                throw new AssertionError(what + ": element " + (at + k) + " of " + this + " (message element " + k
                    + " of " + n + "): expected " + want + ", found " + got);
            }
        }
    }

    @Override
    public String toString() {
        return (isSegment() ? "segment " : "array ") + primitive + "[" + length + "]";
    }

    private static final class ArrayMem extends Mem {
        private final Object array;

        ArrayMem(Primitive p, int n) {
            super(p, n);
            switch (p) {
                case BYTE: array = new byte[n]; break;
                case CHAR: array = new char[n]; break;
                case SHORT: array = new short[n]; break;
                case INT: array = new int[n]; break;
                case LONG: array = new long[n]; break;
                case FLOAT: array = new float[n]; break;
                default: array = new double[n]; break;
            }
        }

        @Override
        public Object buffer() {
            return array;
        }

        @Override
        public boolean isSegment() {
            return false;
        }

        @Override
        public long get(int i) {
            switch (primitive) {
                case BYTE: return ((byte[]) array)[i];
                case CHAR: return ((char[]) array)[i];
                case SHORT: return ((short[]) array)[i];
                case INT: return ((int[]) array)[i];
                case LONG: return ((long[]) array)[i];
                case FLOAT: return Float.floatToRawIntBits(((float[]) array)[i]);
                default: return Double.doubleToRawLongBits(((double[]) array)[i]);
            }
        }

        @Override
        public void put(int i, long v) {
            switch (primitive) {
                case BYTE: ((byte[]) array)[i] = (byte) v; break;
                case CHAR: ((char[]) array)[i] = (char) v; break;
                case SHORT: ((short[]) array)[i] = (short) v; break;
                case INT: ((int[]) array)[i] = (int) v; break;
                case LONG: ((long[]) array)[i] = v; break;
                case FLOAT: ((float[]) array)[i] = Pattern.toFloat(v); break;
                default: ((double[]) array)[i] = Pattern.toDouble(v); break;
            }
        }
    }

    private static final class SegMem extends Mem {
        private final SegmentBuffer sb;
        private final ByteBuffer bb;

        SegMem(SegmentBuffer sb) {
            super(sb.primitive(), sb.length());
            this.sb = sb;
            this.bb = sb.bytes();
        }

        @Override
        public Object buffer() {
            return sb;
        }

        @Override
        public boolean isSegment() {
            return true;
        }

        @Override
        public long get(int i) {
            switch (primitive) {
                case BYTE: return bb.get(i);
                case CHAR: return bb.getChar(i * 2);
                case SHORT: return bb.getShort(i * 2);
                case INT: return bb.getInt(i * 4);
                case LONG: return bb.getLong(i * 8);
                case FLOAT: return Float.floatToRawIntBits(bb.getFloat(i * 4));
                default: return Double.doubleToRawLongBits(bb.getDouble(i * 8));
            }
        }

        @Override
        public void put(int i, long v) {
            switch (primitive) {
                case BYTE: bb.put(i, (byte) v); break;
                case CHAR: bb.putChar(i * 2, (char) v); break;
                case SHORT: bb.putShort(i * 2, (short) v); break;
                case INT: bb.putInt(i * 4, (int) v); break;
                case LONG: bb.putLong(i * 8, v); break;
                case FLOAT: bb.putFloat(i * 4, Pattern.toFloat(v)); break;
                default: bb.putDouble(i * 8, Pattern.toDouble(v)); break;
            }
        }
    }
}
