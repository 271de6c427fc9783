package org.hympj.api;

/**
 * A reduction operation. Predefined: {@link #SUM}, {@link #PROD}, {@link #MAX}, {@link #MIN}
 * over every numeric primitive (BYTE, SHORT, INT, LONG, FLOAT, DOUBLE; CHAR for MAX/MIN).
 * User operations: {@link #user(Function, boolean)}.
 *
 * <p>Reductions combine in an order fixed by the ranks alone (never by timing), and every
 * rank gets the same bits: floating-point results are reproducible run to run.
 */
public final class Op {
    /** A user reduction: {@code inout[i] = in[i] (op) inout[i]} for {@code count} elements. */
    @FunctionalInterface
    public interface Function {
        /**
         * Combines {@code count} elements: {@code inout[inoutOffset + i] = in[inOffset + i] op inout[inoutOffset + i]}.
         * The arrays are of the datatype's primitive ({@code double[]} for DOUBLE …).
         */
        void apply(Object in, int inOffset, Object inout, int inoutOffset, int count, Primitive type);
    }

    public static final Op SUM = new Op("SUM", null, true);
    public static final Op PROD = new Op("PROD", null, true);
    public static final Op MAX = new Op("MAX", null, true);
    public static final Op MIN = new Op("MIN", null, true);
    /** Logical and (non-zero is true; the result is 1 or 0) on the integer kinds. */
    public static final Op LAND = new Op("LAND", null, true);
    /** Logical or on the integer kinds. */
    public static final Op LOR = new Op("LOR", null, true);
    /** Logical exclusive or on the integer kinds. */
    public static final Op LXOR = new Op("LXOR", null, true);
    /** Bitwise and on the integer kinds (BYTE, CHAR, SHORT, INT, LONG). */
    public static final Op BAND = new Op("BAND", null, true);
    /** Bitwise or on the integer kinds. */
    public static final Op BOR = new Op("BOR", null, true);
    /** Bitwise exclusive or on the integer kinds. */
    public static final Op BXOR = new Op("BXOR", null, true);
    /**
     * On (value, index) pairs, two consecutive elements of one kind (MPI's 2INT, DOUBLE_INT …
     * as mpiJava's INT2, DOUBLE2): the smallest value and, on ties, the smallest index. The
     * datatype of a MINLOC reduction is a pair ({@code Datatype.INT.contiguous(2)} …).
     */
    public static final Op MINLOC = new Op("MINLOC", null, true);
    /** As {@link #MINLOC}, the largest value (ties: the smallest index). */
    public static final Op MAXLOC = new Op("MAXLOC", null, true);

    private final String name;
    private final Function function;
    private final boolean commutative;

    private Op(String name, Function function, boolean commutative) {
        this.name = name;
        this.function = function;
        this.commutative = commutative;
    }

    /**
     * A user-defined operation. It must be associative; declare whether it is commutative
     * (a non-commutative one is applied in rank order, as MPI requires).
     */
    public static Op user(Function function, boolean commutative) {
        if (function == null) {
            throw new IllegalArgumentException("function must not be null");
        }
        return new Op("user", function, commutative);
    }

    public boolean isCommutative() {
        return commutative;
    }

    /** True for MPI's predefined operations (SUM … MAXLOC), false for {@link #user} ones. */
    public boolean isPredefined() {
        return function == null;
    }

    /**
     * True if this operation is defined on elements of {@code type}: SUM and PROD on the numeric
     * kinds, MAX and MIN on every kind, the logical and bitwise operations on the integer kinds
     * (BYTE, CHAR, SHORT, INT, LONG), MINLOC and MAXLOC on pairs of SHORT, INT, LONG, FLOAT, DOUBLE.
     */
    public boolean isDefinedOn(Primitive type) {
        if (function != null || this == MAX || this == MIN) {
            return true;
        }
        boolean integer = type != Primitive.FLOAT && type != Primitive.DOUBLE;
        if (isLogical() || isBitwise()) {
            return integer;
        }
        if (isPair()) {
            return type != Primitive.CHAR && type != Primitive.BYTE;
        }
        return type != Primitive.CHAR;
    }

    /** True for MINLOC and MAXLOC: the elements are (value, index) pairs, so counts are even. */
    public boolean isPair() {
        return this == MINLOC || this == MAXLOC;
    }

    private boolean isLogical() {
        return this == LAND || this == LOR || this == LXOR;
    }

    private boolean isBitwise() {
        return this == BAND || this == BOR || this == BXOR;
    }

    /** {@code inout[io + i] = in[ii + i] op inout[io + i]} for i in [0, count). */
    public void apply(Object in, int ii, Object inout, int io, int count, Primitive type) {
        if (function != null) {
            function.apply(in, ii, inout, io, count, type);
            return;
        }
        if (!isDefinedOn(type)) {
            throw new IllegalArgumentException(name + " is not defined on " + type);
        }
        if (isPair()) {
            applyPairs(in, ii, inout, io, count, type);
            return;
        }
        switch (type) {
            case DOUBLE: {
                double[] a = (double[]) in;
                double[] b = (double[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = combineD(a[ii + i], b[io + i]);
                }
                break;
            }
            case FLOAT: {
                float[] a = (float[]) in;
                float[] b = (float[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = combineF(a[ii + i], b[io + i]);
                }
                break;
            }
            case LONG: {
                long[] a = (long[]) in;
                long[] b = (long[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = combineL(a[ii + i], b[io + i]);
                }
                break;
            }
            case INT: {
                int[] a = (int[]) in;
                int[] b = (int[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = (int) combineL(a[ii + i], b[io + i]);
                }
                break;
            }
            case SHORT: {
                short[] a = (short[]) in;
                short[] b = (short[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = (short) combineL(a[ii + i], b[io + i]);
                }
                break;
            }
            case BYTE: {
                byte[] a = (byte[]) in;
                byte[] b = (byte[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = (byte) combineL(a[ii + i], b[io + i]);
                }
                break;
            }
            case CHAR: {
                char[] a = (char[]) in;
                char[] b = (char[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = (char) combineL(a[ii + i], b[io + i]);
                }
                break;
            }
            default:
                throw new IllegalArgumentException("no " + name + " on " + type);
        }
    }

    /** MINLOC/MAXLOC over (value, index) pairs; ties keep the smaller index. */
    private void applyPairs(Object in, int ii, Object inout, int io, int count, Primitive type) {
        if (count % 2 != 0) {
            throw new IllegalArgumentException(name + " needs (value, index) pairs: an even element count, was " + count);
        }
        boolean min = this == MINLOC;
        for (int i = 0; i < count; i += 2) {
            switch (type) {
                case DOUBLE: {
                    double[] a = (double[]) in;
                    double[] b = (double[]) inout;
                    if (takeIn(a[ii + i], a[ii + i + 1], b[io + i], b[io + i + 1], min)) {
                        b[io + i] = a[ii + i];
                        b[io + i + 1] = a[ii + i + 1];
                    }
                    break;
                }
                case FLOAT: {
                    float[] a = (float[]) in;
                    float[] b = (float[]) inout;
                    if (takeIn(a[ii + i], a[ii + i + 1], b[io + i], b[io + i + 1], min)) {
                        b[io + i] = a[ii + i];
                        b[io + i + 1] = a[ii + i + 1];
                    }
                    break;
                }
                case LONG: {
                    long[] a = (long[]) in;
                    long[] b = (long[]) inout;
                    boolean take = a[ii + i] == b[io + i] ? a[ii + i + 1] < b[io + i + 1]
                        : (min ? a[ii + i] < b[io + i] : a[ii + i] > b[io + i]);
                    if (take) {
                        b[io + i] = a[ii + i];
                        b[io + i + 1] = a[ii + i + 1];
                    }
                    break;
                }
                case INT: {
                    int[] a = (int[]) in;
                    int[] b = (int[]) inout;
                    if (takeIn(a[ii + i], a[ii + i + 1], b[io + i], b[io + i + 1], min)) {
                        b[io + i] = a[ii + i];
                        b[io + i + 1] = a[ii + i + 1];
                    }
                    break;
                }
                case SHORT: {
                    short[] a = (short[]) in;
                    short[] b = (short[]) inout;
                    if (takeIn(a[ii + i], a[ii + i + 1], b[io + i], b[io + i + 1], min)) {
                        b[io + i] = a[ii + i];
                        b[io + i + 1] = a[ii + i + 1];
                    }
                    break;
                }
                default:
                    throw new IllegalArgumentException(name + " is not defined on " + type);
            }
        }
    }

    /** Whether the incoming pair (va, xa) replaces (vb, xb). */
    private static boolean takeIn(double va, double xa, double vb, double xb, boolean min) {
        if (va == vb) {
            return xa < xb;
        }
        return min ? va < vb : va > vb;
    }

    private double combineD(double a, double b) {
        if (this == SUM) {
            return a + b;
        }
        if (this == PROD) {
            return a * b;
        }
        if (this == MAX) {
            return Math.max(a, b);
        }
        return Math.min(a, b);
    }

    /** Float arithmetic in float: a float sum must not be a double sum rounded at the end. */
    private float combineF(float a, float b) {
        if (this == SUM) {
            return a + b;
        }
        if (this == PROD) {
            return a * b;
        }
        if (this == MAX) {
            return Math.max(a, b);
        }
        return Math.min(a, b);
    }

    private long combineL(long a, long b) {
        if (this == LAND) {
            return (a != 0 && b != 0) ? 1 : 0;
        }
        if (this == LOR) {
            return (a != 0 || b != 0) ? 1 : 0;
        }
        if (this == LXOR) {
            return ((a != 0) != (b != 0)) ? 1 : 0;
        }
        if (this == BAND) {
            return a & b;
        }
        if (this == BOR) {
            return a | b;
        }
        if (this == BXOR) {
            return a ^ b;
        }
        if (this == SUM) {
            return a + b;
        }
        if (this == PROD) {
            return a * b;
        }
        if (this == MAX) {
            return Math.max(a, b);
        }
        return Math.min(a, b);
    }

    @Override
    public String toString() {
        return name;
    }
}
