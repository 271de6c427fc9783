package org.hympj.api;

import java.util.Arrays;

/**
 * A message layout over a {@link Primitive}: a contiguous run of {@link #blockLength()}
 * elements, repeated over zero or more strided dimensions (outermost first). This covers
 * MPI's contiguous and vector types, and vectors of those (halo faces: contiguous,
 * block-stride, element-stride). Immutable; dimensions of count 1 are dropped and
 * dimensions that are really contiguous are merged, so the same layout has one form.
 *
 * <p>A message of {@code count} items of a datatype places item {@code i} at element
 * offset {@code i * extent()} from the buffer offset, as MPI does.
 */
public final class Datatype {
    public static final Datatype BYTE = new Datatype(Primitive.BYTE, 1, new int[0], new int[0], 1);
    public static final Datatype CHAR = new Datatype(Primitive.CHAR, 1, new int[0], new int[0], 1);
    public static final Datatype SHORT = new Datatype(Primitive.SHORT, 1, new int[0], new int[0], 1);
    public static final Datatype INT = new Datatype(Primitive.INT, 1, new int[0], new int[0], 1);
    public static final Datatype LONG = new Datatype(Primitive.LONG, 1, new int[0], new int[0], 1);
    public static final Datatype FLOAT = new Datatype(Primitive.FLOAT, 1, new int[0], new int[0], 1);
    public static final Datatype DOUBLE = new Datatype(Primitive.DOUBLE, 1, new int[0], new int[0], 1);

    private final Primitive primitive;
    private final int blockLength;
    private final int[] counts;
    private final int[] strides;
    private final long extent;
    private final long elements;
    /** Elements from the buffer position to the first block (non-zero for subarrays). */
    private final long displacement;

    private Datatype(Primitive primitive, int blockLength, int[] counts, int[] strides, long extent) {
        this(primitive, blockLength, counts, strides, extent, 0);
    }

    private Datatype(Primitive primitive, int blockLength, int[] counts, int[] strides, long extent, long displacement) {
        this.displacement = displacement;
        this.primitive = primitive;
        this.blockLength = blockLength;
        this.counts = counts;
        this.strides = strides;
        this.extent = extent;
        long n = blockLength;
        for (int c : counts) {
            n = Math.multiplyExact(n, c); // callers turn the overflow into IllegalArgumentException
        }
        this.elements = n;
    }

    /** The predefined datatype of a primitive kind. */
    public static Datatype of(Primitive p) {
        switch (p) {
            case BYTE: return BYTE;
            case CHAR: return CHAR;
            case SHORT: return SHORT;
            case INT: return INT;
            case LONG: return LONG;
            case FLOAT: return FLOAT;
            default: return DOUBLE;
        }
    }

    /** {@code count} consecutive items of this type (MPI_Type_contiguous). */
    public Datatype contiguous(int count) {
        return vector("contiguous(count=" + count + ")", count, 1, 1);
    }

    /**
     * {@code count} blocks of {@code blockLength} items of this type, block starts
     * {@code stride} items apart (MPI_Type_vector; stride in items of this type).
     *
     * @throws IllegalArgumentException if count or blockLength is negative, or stride is below 1
     */
    public Datatype vector(int count, int blockLength, int stride) {
        return vector("vector(count=" + count + ", blockLength=" + blockLength + ", stride=" + stride + ")", count,
            blockLength, stride);
    }

    private Datatype vector(String call, int count, int blockLength, int stride) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, was " + count);
        }
        if (blockLength < 0) {
            throw new IllegalArgumentException("blockLength must be >= 0, was " + blockLength);
        }
        if (stride < 1) {
            throw new IllegalArgumentException("stride must be >= 1, was " + stride);
        }
        if (displacement != 0) {
            throw new IllegalArgumentException("vector of a subarray type is not supported");
        }
        if (count == 0 || blockLength == 0) {
            return new Datatype(primitive, 0, new int[0], new int[0], 0);
        }
        // dims of the new type: [count x stride*extent] [blockLength x extent] then this type's dims
        int n = counts.length + 2;
        long[] c = new long[n];
        long[] s = new long[n];
        c[0] = count;
        s[0] = (long) stride * extent;
        c[1] = blockLength;
        s[1] = extent;
        for (int i = 0; i < counts.length; i++) {
            c[i + 2] = counts[i];
            s[i + 2] = strides[i];
        }
        try {
            long newExtent = Math.multiplyExact((long) (count - 1) * stride + blockLength, extent);
            s[0] = Math.multiplyExact((long) stride, extent);
            return normalise(primitive, blockLength(), c, s, newExtent);
        } catch (ArithmeticException e) {
            throw tooLarge(call + " of " + this);
        }
    }

    /**
     * The layout given by its parts, as {@link #blockLength()}, {@link #count(int)},
     * {@link #stride(int)} and {@link #extent()} report them (outermost dimension first; strides
     * and extent in elements), brought to the canonical form. A rank that reads another rank's
     * data in place (a pull out of its segment) rebuilds the sender's layout with it.
     *
     * @throws IllegalArgumentException if blockLength or extent is below 1, a count or stride is
     *     below 1, or the arrays are null or of different lengths
     */
    public static Datatype layout(Primitive primitive, int blockLength, int[] counts, int[] strides, long extent) {
        if (primitive == null) {
            throw new IllegalArgumentException("primitive must not be null");
        }
        if (counts == null || strides == null || counts.length != strides.length) {
            throw new IllegalArgumentException("counts and strides must be non-null and of equal length");
        }
        if (blockLength < 1 || extent < 1) {
            throw new IllegalArgumentException("blockLength and extent must be >= 1, were " + blockLength + " and " + extent);
        }
        long[] c = new long[counts.length];
        long[] s = new long[counts.length];
        for (int d = 0; d < counts.length; d++) {
            if (counts[d] < 1 || strides[d] < 1) {
                throw new IllegalArgumentException("counts[" + d + "] and strides[" + d + "] must be >= 1, were "
                    + counts[d] + " and " + strides[d]);
            }
            c[d] = counts[d];
            s[d] = strides[d];
        }
        try {
            return normalise(primitive, blockLength, c, s, extent);
        } catch (ArithmeticException e) {
            throw tooLarge("layout");
        }
    }

    /** The error of a layout whose sizes do not fit: blocks, strides and element counts are ints. */
    private static IllegalArgumentException tooLarge(String what) {
        return new IllegalArgumentException(what + " is too large: a block, a stride or the number of elements of one "
            + "item would exceed " + Integer.MAX_VALUE + " elements");
    }

    /**
     * MPI_Type_create_subarray (C order: the last dimension varies fastest) over a predefined
     * type: the box {@code starts[d] .. starts[d]+subsizes[d]-1} of an array of
     * {@code sizes}. Its extent is the whole array, so one item is one face of a halo.
     *
     * @throws IllegalArgumentException if this type is not predefined or the box does not fit
     */
    public Datatype subarray(int[] sizes, int[] subsizes, int[] starts) {
        if (!isPrimitive()) {
            throw new IllegalArgumentException("subarray needs a predefined base type, was " + this);
        }
        if (sizes == null || subsizes == null || starts == null || sizes.length == 0
            || sizes.length != subsizes.length || sizes.length != starts.length) {
            throw new IllegalArgumentException("sizes, subsizes and starts must be non-empty and of equal length");
        }
        try {
            return subarrayChecked(sizes, subsizes, starts);
        } catch (ArithmeticException e) {
            throw tooLarge("subarray(sizes=" + Arrays.toString(sizes) + ", subsizes=" + Arrays.toString(subsizes)
                + ", starts=" + Arrays.toString(starts) + ")");
        }
    }

    private Datatype subarrayChecked(int[] sizes, int[] subsizes, int[] starts) {
        int n = sizes.length;
        long[] c = new long[n];
        long[] st = new long[n];
        long stride = 1;
        long disp = 0;
        for (int d = n - 1; d >= 0; d--) {
            if (sizes[d] < 1) {
                throw new IllegalArgumentException("sizes[" + d + "] must be >= 1, was " + sizes[d]);
            }
            if (subsizes[d] < 0 || starts[d] < 0 || (long) starts[d] + subsizes[d] > sizes[d]) {
                throw new IllegalArgumentException("subarray dimension " + d + ": starts " + starts[d] + " + subsizes "
                    + subsizes[d] + " must lie within 0.." + sizes[d]);
            }
            c[d] = subsizes[d];
            st[d] = stride;
            disp = Math.addExact(disp, Math.multiplyExact(starts[d], stride));
            stride = Math.multiplyExact(stride, sizes[d]);
        }
        for (long x : c) {
            if (x == 0) {
                return new Datatype(primitive, 0, new int[0], new int[0], stride);
            }
        }
        Datatype t = normalise(primitive, 1, c, st, stride);
        return new Datatype(primitive, t.blockLength, t.counts, t.strides, stride, disp);
    }

    /**
     * Canonical form: drops count-1 dimensions, folds innermost dimensions that are
     * contiguous with the block into it, and merges a dimension into the one inside it when
     * it steps exactly over that one's span. Repeats until nothing changes.
     */
    private static Datatype normalise(Primitive p, long block, long[] c, long[] s, long extent) {
        long blk = block;
        int n = 0;
        long[] cc = new long[c.length];
        long[] ss = new long[c.length];
        for (int i = 0; i < c.length; i++) {
            if (c[i] != 1) {
                cc[n] = c[i];
                ss[n] = s[i];
                n++;
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            if (n > 0 && ss[n - 1] == blk) {
                blk *= cc[n - 1];
                n--;
                changed = true;
                continue;
            }
            for (int i = n - 1; i > 0; i--) {
                if (ss[i - 1] == cc[i] * ss[i]) {
                    cc[i - 1] *= cc[i];
                    ss[i - 1] = ss[i];
                    System.arraycopy(cc, i + 1, cc, i, n - i - 1);
                    System.arraycopy(ss, i + 1, ss, i, n - i - 1);
                    n--;
                    changed = true;
                    break;
                }
            }
        }
        int[] ci = new int[n];
        int[] si = new int[n];
        for (int i = 0; i < n; i++) {
            ci[i] = Math.toIntExact(cc[i]);
            si[i] = Math.toIntExact(ss[i]);
        }
        return new Datatype(p, Math.toIntExact(blk), ci, si, extent);
    }

    /** The primitive element kind; the buffer must be an array of it (or a segment buffer of it). */
    public Primitive primitive() {
        return primitive;
    }

    /** Elements in one contiguous block. */
    public int blockLength() {
        return blockLength;
    }

    /** Number of strided dimensions (0: the type is one contiguous block). */
    public int dimensions() {
        return counts.length;
    }

    /** Block count of dimension {@code d} (0 = outermost). */
    public int count(int d) {
        return counts[d];
    }

    /** Stride of dimension {@code d}, in elements. */
    public int stride(int d) {
        return strides[d];
    }

    /** Span of one item in elements: where item {@code i+1} starts relative to item {@code i}. */
    public long extent() {
        return extent;
    }

    /** Elements of data in one item. */
    public long elements() {
        return elements;
    }

    /** Bytes of data in one item (MPI_Type_size). */
    public long size() {
        return elements * primitive.bytes();
    }

    /** True when the data of consecutive items is one contiguous run (no gaps between or inside them). */
    public boolean isContiguous() {
        return counts.length == 0 && extent == blockLength;
    }

    /** True for the predefined single-element types. */
    public boolean isPrimitive() {
        return counts.length == 0 && blockLength == 1 && extent == 1 && displacement == 0;
    }

    /** Elements from the buffer position to where the data of item 0 starts (subarrays). */
    public long displacement() {
        return displacement;
    }

    /**
     * Elements spanned by {@code count} items: from the buffer position to one past the last
     * element touched.
     */
    public long span(int count) {
        if (count == 0 || elements == 0) {
            return 0;
        }
        long last = displacement + (long) (count - 1) * extent;
        long lastInItem = blockLength;
        for (int d = 0; d < counts.length; d++) {
            lastInItem += (long) (counts[d] - 1) * strides[d];
        }
        return last + lastInItem;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Datatype)) {
            return false;
        }
        Datatype t = (Datatype) o;
        return primitive == t.primitive && blockLength == t.blockLength && extent == t.extent
            && displacement == t.displacement && Arrays.equals(counts, t.counts) && Arrays.equals(strides, t.strides);
    }

    @Override
    public int hashCode() {
        return ((primitive.hashCode() * 31 + blockLength) * 31 + Arrays.hashCode(counts)) * 31 + Long.hashCode(extent);
    }

    @Override
    public String toString() {
        if (isPrimitive()) {
            return primitive.name();
        }
        StringBuilder b = new StringBuilder(primitive.name()).append('[');
        for (int d = 0; d < counts.length; d++) {
            b.append(counts[d]).append('x').append("stride ").append(strides[d]).append(", ");
        }
        b.append("block ").append(blockLength).append(", extent ").append(extent);
        if (displacement != 0) {
            b.append(", displacement ").append(displacement);
        }
        return b.append(']').toString();
    }
}
