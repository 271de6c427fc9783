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

    /** True if this operation is defined on elements of {@code type} (SUM and PROD are not on CHAR). */
    public boolean isDefinedOn(Primitive type) {
        return function != null || type != Primitive.CHAR || this == MAX || this == MIN;
    }

    /** {@code inout[io + i] = in[ii + i] op inout[io + i]} for i in [0, count). */
    public void apply(Object in, int ii, Object inout, int io, int count, Primitive type) {
        if (function != null) {
            function.apply(in, ii, inout, io, count, type);
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
                if (this == SUM || this == PROD) {
                    throw new IllegalArgumentException(name + " is not defined on CHAR");
                }
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
