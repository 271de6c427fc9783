package org.hympj.shm.testing;

import java.util.Arrays;
import org.hympj.api.Datatype;
import org.hympj.api.Primitive;

/**
 * A naive reference for a datatype: the element offsets of one item, listed one by one in
 * the order MPI defines, and its extent; built side by side with the real {@link Datatype}
 * by the same constructor calls, so tests can compare the library against it.
 */
public final class Layout {
    public final Datatype type;
    private final long[] offsets;
    public final long extent;
    private final String recipe;

    private Layout(Datatype type, long[] offsets, long extent, String recipe) {
        this.type = type;
        this.offsets = offsets;
        this.extent = extent;
        this.recipe = recipe;
    }

    public static Layout of(Primitive p) {
        return new Layout(Datatype.of(p), new long[] {0}, 1, p.name());
    }

    /** MPI_Type_vector: count blocks of blockLength items, starts stride items apart. */
    public Layout vector(int count, int blockLength, int stride) {
        long[] o = new long[Math.multiplyExact(Math.multiplyExact(count, blockLength), offsets.length)];
        int k = 0;
        for (int b = 0; b < count; b++) {
            for (int j = 0; j < blockLength; j++) {
                long item = (long) b * stride + j;
                for (long off : offsets) {
                    o[k++] = item * extent + off;
                }
            }
        }
        long ext = count == 0 || blockLength == 0 ? 0 : ((long) (count - 1) * stride + blockLength) * extent;
        return new Layout(type.vector(count, blockLength, stride), o, ext,
            recipe + ".vector(" + count + "," + blockLength + "," + stride + ")");
    }

    /** MPI_Type_contiguous: n items back to back. */
    public Layout contiguous(int n) {
        long[] o = new long[Math.multiplyExact(n, offsets.length)];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (long off : offsets) {
                o[k++] = i * extent + off;
            }
        }
        return new Layout(type.contiguous(n), o, (long) n * extent, recipe + ".contiguous(" + n + ")");
    }

    public Primitive primitive() {
        return type.primitive();
    }

    /** Elements of data in one item. */
    public int elements() {
        return offsets.length;
    }

    /** Offsets of one item (a copy). */
    public long[] itemOffsets() {
        return offsets.clone();
    }

    /** Element offsets, in message order, of {@code count} items starting at 0. */
    public int[] message(int count) {
        int[] o = new int[Math.multiplyExact(count, offsets.length)];
        int k = 0;
        for (int i = 0; i < count; i++) {
            for (long off : offsets) {
                o[k++] = Math.toIntExact(i * extent + off);
            }
        }
        return o;
    }

    /** From the first element to one past the last element touched by {@code count} items. */
    public long span(int count) {
        long max = -1;
        for (int i = 0; i < count; i++) {
            for (long off : offsets) {
                max = Math.max(max, i * extent + off);
            }
        }
        return max + 1;
    }

    /** True when no element is touched twice within {@code count} items (a valid receive layout). */
    public boolean disjoint(int count) {
        int[] m = message(count);
        int[] s = m.clone();
        Arrays.sort(s);
        for (int i = 1; i < s.length; i++) {
            if (s[i] == s[i - 1]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return recipe;
    }
}
