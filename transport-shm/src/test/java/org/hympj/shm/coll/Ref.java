package org.hympj.shm.coll;

import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Op;
import org.hympj.api.Primitive;
import org.hympj.shm.testing.Layout;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.Pattern;

/**
 * Serial references for the collective tests, computed in the rank program without the
 * library: typed arrays read and written through one canonical {@code long} per element
 * (integers widened, char zero-extended, float/double as raw bits — as {@link Pattern#canon}),
 * the inputs every rank contributes to a reduction (a function of rank, salt and index, so any
 * rank can rebuild any other rank's input), and the rank-order fold of the predefined ops,
 * written here independently of {@link Op#apply}.
 */
final class Ref {
    /** Every primitive kind. */
    static final Primitive[] PRIMITIVES = Primitive.values();
    /** The predefined operations. */
    static final Op[] OPS = {Op.SUM, Op.PROD, Op.MAX, Op.MIN};
    /** Factors for floating-point PROD: any product of 8 of them is exact in a float. */
    private static final double[] PROD_FP = {-3, -2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2, 3};

    private Ref() {
    }

    static String name(Op op) {
        return op == Op.SUM ? "SUM" : op == Op.PROD ? "PROD" : op == Op.MAX ? "MAX" : op == Op.MIN ? "MIN" : op.toString();
    }

    /** True where MPI (and the Op's documentation) define the predefined op on the type. */
    static boolean defined(Op op, Primitive p) {
        return p != Primitive.CHAR || op == Op.MAX || op == Op.MIN;
    }

    // ------------------------------------------------------------------ typed arrays

    static Object newArray(Primitive p, int n) {
        switch (p) {
            case BYTE: return new byte[n];
            case CHAR: return new char[n];
            case SHORT: return new short[n];
            case INT: return new int[n];
            case LONG: return new long[n];
            case FLOAT: return new float[n];
            default: return new double[n];
        }
    }

    /** Element i in canonical form. */
    static long get(Object a, int i) {
        if (a instanceof byte[]) {
            return ((byte[]) a)[i];
        } else if (a instanceof char[]) {
            return ((char[]) a)[i];
        } else if (a instanceof short[]) {
            return ((short[]) a)[i];
        } else if (a instanceof int[]) {
            return ((int[]) a)[i];
        } else if (a instanceof long[]) {
            return ((long[]) a)[i];
        } else if (a instanceof float[]) {
            return Float.floatToRawIntBits(((float[]) a)[i]);
        }
        return Double.doubleToRawLongBits(((double[]) a)[i]);
    }

    /** Stores a canonical value. */
    static void put(Object a, int i, long c) {
        if (a instanceof byte[]) {
            ((byte[]) a)[i] = (byte) c;
        } else if (a instanceof char[]) {
            ((char[]) a)[i] = (char) c;
        } else if (a instanceof short[]) {
            ((short[]) a)[i] = (short) c;
        } else if (a instanceof int[]) {
            ((int[]) a)[i] = (int) c;
        } else if (a instanceof long[]) {
            ((long[]) a)[i] = c;
        } else if (a instanceof float[]) {
            ((float[]) a)[i] = Float.intBitsToFloat((int) c);
        } else {
            ((double[]) a)[i] = Double.longBitsToDouble(c);
        }
    }

    /** Human-readable canonical value of kind p. */
    static String show(Primitive p, long c) {
        switch (p) {
            case FLOAT: return Float.toString(Float.intBitsToFloat((int) c));
            case DOUBLE: return Double.toString(Double.longBitsToDouble(c));
            case CHAR: return Integer.toString((int) c);
            default: return Long.toString(c);
        }
    }

    /** An array of n sentinel elements (canonical {@link Pattern#sentinel}). */
    static Object sentinels(Primitive p, int n, int salt) {
        Object a = newArray(p, n);
        for (int i = 0; i < n; i++) {
            put(a, i, canonOf(p, Pattern.sentinel(salt, i)));
        }
        return a;
    }

    /** What {@link Mem#put} would store for the raw pattern value v, in canonical form. */
    static long canonOf(Primitive p, long v) {
        return Pattern.canon(p, v);
    }

    /** Compares every element of a with the canonical expectation. */
    static void checkAll(Object a, long[] expected, Primitive p, String what) {
        for (int i = 0; i < expected.length; i++) {
            long got = get(a, i);
            if (got != expected[i]) {
                throw new AssertionError(what + ": element " + i + " of " + expected.length + ": expected "
                    + show(p, expected[i]) + ", found " + show(p, got));
            }
        }
    }

    static long[] snapshot(Object a, int n) {
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = get(a, i);
        }
        return s;
    }

    // ------------------------------------------------------------------ reductions

    /** The canonical input element i that {@code rank} contributes to a reduction with op on p. */
    static long input(Primitive p, Op op, int rank, int salt, int i) {
        long v = Pattern.value(rank, salt, i);
        switch (p) {
            case DOUBLE:
                return Double.doubleToRawLongBits(fpInput(op, v));
            case FLOAT:
                return Float.floatToRawIntBits((float) fpInput(op, v));
            default:
                return Pattern.canon(p, op == Op.PROD ? v | 1 : v);
        }
    }

    /** Floating-point inputs whose sums and products are exact in any order (no rounding anywhere). */
    private static double fpInput(Op op, long v) {
        if (op == Op.PROD) {
            return PROD_FP[(int) Long.remainderUnsigned(v, PROD_FP.length)];
        }
        return (double) ((v >> 40) % 1000) / 4.0;
    }

    /** a op b for canonical values: a is the partial result of the lower ranks. */
    static long combine(Primitive p, Op op, long a, long b) {
        switch (p) {
            case DOUBLE: {
                double x = Double.longBitsToDouble(a);
                double y = Double.longBitsToDouble(b);
                double r = op == Op.SUM ? x + y : op == Op.PROD ? x * y : op == Op.MAX ? Math.max(x, y) : Math.min(x, y);
                return Double.doubleToRawLongBits(r);
            }
            case FLOAT: {
                float x = Float.intBitsToFloat((int) a);
                float y = Float.intBitsToFloat((int) b);
                float r = op == Op.SUM ? x + y : op == Op.PROD ? x * y : op == Op.MAX ? Math.max(x, y) : Math.min(x, y);
                return Float.floatToRawIntBits(r);
            }
            default: {
                long r = op == Op.SUM ? a + b : op == Op.PROD ? a * b : op == Op.MAX ? Math.max(a, b) : Math.min(a, b);
                return Pattern.canon(p, r);
            }
        }
    }

    /** The rank-order fold over ranks 0..size-1 (the reference every rank computes alone). */
    static long[] reduce(Primitive p, Op op, int size, int salt, int n) {
        long[] acc = new long[n];
        for (int i = 0; i < n; i++) {
            acc[i] = input(p, op, 0, salt, i);
            for (int r = 1; r < size; r++) {
                acc[i] = combine(p, op, acc[i], input(p, op, r, salt, i));
            }
        }
        return acc;
    }

    // ------------------------------------------------------------------ user operations

    /** Non-commutative: element-wise concatenation of byte strings packed in longs (a then b). */
    static long concat(long a, long b) {
        int bytesB = (64 - Long.numberOfLeadingZeros(b) + 7) / 8;
        return bytesB == 8 ? b : (a << (8 * bytesB)) | b;
    }

    static final Op CONCAT = Op.user((in, ii, inout, io, count, type) -> {
        if (type != Primitive.LONG) {
            throw new AssertionError("CONCAT called with " + type);
        }
        long[] a = (long[]) in;
        long[] b = (long[]) inout;
        for (int k = 0; k < count; k++) {
            b[io + k] = concat(a[ii + k], b[io + k]);
        }
    }, false);

    /** One ASCII letter per rank and element: rank order shows in the result. */
    static long concatInput(int rank, int i) {
        return 'A' + (rank + 3 * i) % 26;
    }

    /** Readable form of a packed string. */
    static String concatText(long v) {
        StringBuilder b = new StringBuilder();
        for (int s = 56; s >= 0; s -= 8) {
            int c = (int) (v >>> s) & 0xFF;
            if (c != 0) {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    /** Non-commutative: 2x2 matrix product over groups of 4 doubles (row-major), in × inout. */
    static final Op MATMUL = Op.user((in, ii, inout, io, count, type) -> {
        if (type != Primitive.DOUBLE || count % 4 != 0) {
            throw new AssertionError("MATMUL called with " + type + " x " + count + " (needs groups of 4 doubles)");
        }
        double[] a = (double[]) in;
        double[] b = (double[]) inout;
        for (int k = 0; k < count; k += 4) {
            matmul(a, ii + k, b, io + k);
        }
    }, false);

    /** b := a × b for the 2x2 matrices at a[ai..ai+3] and b[bi..bi+3]. */
    static void matmul(double[] a, int ai, double[] b, int bi) {
        double m00 = a[ai] * b[bi] + a[ai + 1] * b[bi + 2];
        double m01 = a[ai] * b[bi + 1] + a[ai + 1] * b[bi + 3];
        double m10 = a[ai + 2] * b[bi] + a[ai + 3] * b[bi + 2];
        double m11 = a[ai + 2] * b[bi + 1] + a[ai + 3] * b[bi + 3];
        b[bi] = m00;
        b[bi + 1] = m01;
        b[bi + 2] = m10;
        b[bi + 3] = m11;
    }

    /** Small integer entries (-1..2): products over 8 ranks stay exact. */
    static double matInput(int rank, int salt, int i) {
        return (double) (Long.remainderUnsigned(Pattern.value(rank, salt, i), 4) - 1);
    }

    /** Commutative user op on LONG: bitwise XOR. */
    static final Op XOR = Op.user((in, ii, inout, io, count, type) -> {
        long[] a = (long[]) in;
        long[] b = (long[]) inout;
        for (int k = 0; k < count; k++) {
            b[io + k] ^= a[ii + k];
        }
    }, true);

    /** Commutative user op on DOUBLE: the value of largest magnitude (ties: the larger value). */
    static final Op ABSMAX = Op.user((in, ii, inout, io, count, type) -> {
        double[] a = (double[]) in;
        double[] b = (double[]) inout;
        for (int k = 0; k < count; k++) {
            b[io + k] = absmax(a[ii + k], b[io + k]);
        }
    }, true);

    static double absmax(double x, double y) {
        double ax = Math.abs(x);
        double ay = Math.abs(y);
        return ax > ay ? x : ay > ax ? y : Math.max(x, y);
    }

    // ------------------------------------------------------------------ data movement

    /** A pair of layouts for one transfer: {@code sendCount} items of send → {@code recvCount} items of recv. */
    static final class Shape {
        final Layout send;
        final int sendCount;
        final Layout recv;
        final int recvCount;

        Shape(Layout send, int sendCount, Layout recv, int recvCount) {
            if (send.elements() * sendCount != recv.elements() * recvCount) {
                throw new IllegalArgumentException("shape sizes differ: " + send + " x" + sendCount + " vs " + recv
                    + " x" + recvCount);
            }
            this.send = send;
            this.sendCount = sendCount;
            this.recv = recv;
            this.recvCount = recvCount;
        }

        /** Elements of data in one message. */
        int elements() {
            return send.elements() * sendCount;
        }

        @Override
        public String toString() {
            return send + " x" + sendCount + " -> " + recv + " x" + recvCount;
        }
    }

    /** Predefined, then derived types on either or both sides (vector, vector of vector). */
    static List<Shape> shapes(Primitive p, boolean derived) {
        Layout e = Layout.of(p);
        List<Shape> s = new ArrayList<>();
        s.add(new Shape(e, 3, e, 3));
        if (derived) {
            s.add(new Shape(e.vector(3, 2, 4), 2, e, 12));
            s.add(new Shape(e, 6, e.vector(3, 2, 4), 1));
            s.add(new Shape(e.vector(2, 3, 5), 2, e.vector(12, 1, 2), 1));
            s.add(new Shape(e.vector(2, 1, 3).vector(3, 1, 2), 1, e.contiguous(2).vector(3, 1, 3), 1));
        }
        return s;
    }

    /** Writes message elements value(source, salt, k) at base + offsets[k]. */
    static void fill(Mem m, int base, int[] offsets, int source, int salt) {
        for (int k = 0; k < offsets.length; k++) {
            m.put(base + offsets[k], Pattern.value(source, salt, k));
        }
    }

    /** Canonical sentinel image of a buffer of n elements. */
    static long[] sentinelImage(Primitive p, int n, int salt) {
        long[] img = new long[n];
        for (int i = 0; i < n; i++) {
            img[i] = Pattern.canon(p, Pattern.sentinel(salt, i));
        }
        return img;
    }

    /** Places message elements value(source, salt, k) at base + offsets[k] of the image. */
    static void place(long[] img, Primitive p, int base, int[] offsets, int source, int salt) {
        for (int k = 0; k < offsets.length; k++) {
            img[base + offsets[k]] = Pattern.canon(p, Pattern.value(source, salt, k));
        }
    }

    /** The whole buffer equals the image (data where placed, sentinels elsewhere). */
    static void check(Mem m, long[] img, String what) {
        for (int i = 0; i < img.length; i++) {
            long got = m.get(i);
            if (got != img[i]) {
                throw new AssertionError(what + ": element " + i + " of " + m + ": expected "
                    + show(m.primitive, img[i]) + ", found " + show(m.primitive, got));
            }
        }
    }

    /** Elements a buffer needs for {@code blocks} consecutive blocks of count items at base. */
    static int length(Layout l, int count, int blocks, int base) {
        return Math.toIntExact(base + (blocks - 1) * (long) count * l.extent + l.span(count) + 2);
    }

    /** Element offset of block i (count items each) from base. */
    static int block(Layout l, int count, int i, int base) {
        return Math.toIntExact(base + (long) i * count * l.extent);
    }
}
