package mpi;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * An irregular layout (Indexed, Hindexed, Struct of one element kind, and contiguous or vector
 * types of those): a list of blocks of one item, in elements from the item's start, and the
 * item's extent. The core datatype has no such layout, so messages of these types are packed
 * into a contiguous array before a send and unpacked after a receive (one copy each side).
 */
final class Blocks {
    /** Block starts, in elements from the position of item 0 (never negative). */
    final int[] displs;
    final int[] lens;
    final int lb;
    final int extent;
    final int size;

    Blocks(int[] displs, int[] lens, int lb, int extent) {
        this.displs = displs;
        this.lens = lens;
        this.lb = lb;
        this.extent = extent;
        int s = 0;
        for (int l : lens) {
            s += l;
        }
        this.size = s;
    }

    /** One item of {@code t} as blocks (a CORE type's layout, or the blocks of an irregular one). */
    static Blocks of(Datatype t) {
        if (t.blocks != null) {
            return t.blocks;
        }
        List<int[]> out = new ArrayList<>();
        Packer.walk(t.core, 0, 1, (at, len) -> out.add(new int[] {at, len}));
        return fromList(out, 0, (int) t.core.extent());
    }

    private static Blocks fromList(List<int[]> list, int lb, int extent) {
        List<int[]> merged = new ArrayList<>();
        for (int[] b : list) {
            if (b[1] == 0) {
                continue;
            }
            int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last[0] + last[1] == b[0]) {
                last[1] += b[1];
            } else {
                merged.add(new int[] {b[0], b[1]});
            }
        }
        int[] d = new int[merged.size()];
        int[] l = new int[merged.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = merged.get(i)[0];
            l[i] = merged.get(i)[1];
        }
        return new Blocks(d, l, lb, extent);
    }

    /**
     * Block i: {@code counts[i]} items of {@code old} placed from element {@code starts[i]}, item
     * k of it at {@code starts[i] + k * old extent}. {@code lbMark}/{@code ubMark} (or
     * Integer.MIN_VALUE) are explicit bounds (Struct's LB/UB markers).
     */
    static Blocks build(String call, Blocks[] olds, int[] counts, int[] starts, int lbMark, int ubMark) {
        List<int[]> list = new ArrayList<>();
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < counts.length; i++) {
            if (olds[i] == null) {
                continue;
            }
            if (counts[i] < 0) {
                throw new MPIException(call + ": blocklengths[" + i + "] must be >= 0, was " + counts[i]);
            }
            if (starts[i] < 0) {
                throw MPIException.notSupported(call + " with displacements[" + i + "] = " + starts[i],
                    "negative displacements would address elements before the buffer offset");
            }
            Blocks o = olds[i];
            for (int k = 0; k < counts[i]; k++) {
                long base = starts[i] + (long) k * o.extent;
                for (int b = 0; b < o.displs.length; b++) {
                    list.add(new int[] {Math.toIntExact(base + o.displs[b]), o.lens[b]});
                }
            }
            // the bounds come from the old type's bounds, not its data: an old type whose LB/UB markers
            // lie inside its data (MPI allows it) sets its items' spacing and the new type's extent
            if (counts[i] > 0) {
                lo = Math.min(lo, starts[i] + (long) o.lb);
                hi = Math.max(hi, starts[i] + (long) o.lb + (long) counts[i] * o.extent);
            }
        }
        if (lo == Long.MAX_VALUE) {
            lo = 0;
            hi = 0;
        }
        if (lbMark != Integer.MIN_VALUE) {
            lo = lbMark;
        }
        if (ubMark != Integer.MIN_VALUE) {
            hi = ubMark;
        }
        if (hi < lo) {
            throw new MPIException(call + ": the upper bound " + hi + " is below the lower bound " + lo);
        }
        // blocks stay in the constructor's order (MPI's type map order: the order data is packed in)
        return fromList(list, Math.toIntExact(lo), Math.toIntExact(hi - lo));
    }

    /** Checks {@code count} items from {@code offset} lie within {@code buf} (an array of {@code t}'s kind). */
    void check(String call, Object buf, int offset, int count, Datatype t) {
        Class<?> want = t.kind == Datatype.Kind.OBJECT ? Object[].class : t.core.primitive().arrayClass();
        boolean any = size == 0 && buf != null && buf.getClass().isArray(); // a type of no data touches no element
        if (!any && (t.kind == Datatype.Kind.OBJECT ? !(buf instanceof Object[]) : buf == null || buf.getClass() != want)) {
            throw new MPIException(call + ": buf is " + (buf == null ? "null" : buf.getClass().getSimpleName())
                + " but type " + t + " needs " + want.getSimpleName());
        }
        if (count < 0 || offset < 0) {
            throw new MPIException(call + ": offset and count must be >= 0, were " + offset + " and " + count);
        }
        if (count == 0 || displs.length == 0) {
            return;
        }
        long last = offset + span(count);
        int length = Array.getLength(buf);
        if (last > length) {
            throw new MPIException(call + ": offset " + offset + " + " + count + " items of " + t + " reach element "
                + last + ", past the end of buf (length " + length + ")");
        }
    }

    /** Elements from the first item's position to the end of the last item's last block ({@code count} > 0). */
    private long span(int count) {
        long end = 0;
        for (int b = 0; b < displs.length; b++) {
            end = Math.max(end, (long) displs[b] + lens[b]);
        }
        return (long) (count - 1) * extent + end;
    }

    /**
     * A user function applied to packed items as MPI hands it items: {@code elements} packed
     * elements of {@code in} (from {@code ii}) and of {@code inout} (from {@code io}) are put back
     * in this layout in two scratch arrays, the function combines them there
     * ({@code inout = in op inout}, with {@code t} as its datatype), and the result is packed back
     * into {@code inout}. The core hands a user function whole vectors, so {@code elements} holds
     * whole items.
     */
    void callInLayout(User_function f, Object in, int ii, Object inout, int io, int elements, Datatype t) {
        int items = size == 0 ? 0 : elements / size;
        int span = items == 0 ? 0 : Math.toIntExact(span(items));
        Class<?> kind = in.getClass().getComponentType();
        Object a = Array.newInstance(kind, span);
        Object b = Array.newInstance(kind, span);
        unpack(in, ii, elements, a, 0, items);
        unpack(inout, io, elements, b, 0, items);
        f.Call(a, 0, b, 0, items, t);
        packInto(b, 0, items, inout, io);
    }

    /** Visits the blocks of {@code count} items from {@code offset}, in order. */
    void walk(int offset, int count, Packer.Block visit) {
        for (int i = 0; i < count; i++) {
            long base = offset + (long) i * extent;
            for (int b = 0; b < displs.length; b++) {
                visit.run((int) (base + displs[b]), lens[b]);
            }
        }
    }

    /** The data of {@code count} items, contiguous, in a new array of the element kind. */
    Object pack(String call, Object buf, int offset, int count, Datatype t) {
        check(call, buf, offset, count, t);
        Object out = Array.newInstance(elementClass(buf, t), Math.toIntExact((long) count * size));
        int[] pos = {0};
        walk(offset, count, (at, len) -> {
            System.arraycopy(buf, at, out, pos[0], len);
            pos[0] += len;
        });
        return out;
    }

    /** Packs {@code count} items from {@code offset} (checked by the caller) into {@code out} from element {@code at}. */
    void packInto(Object buf, int offset, int count, Object out, int at) {
        int[] pos = {at};
        walk(offset, count, (from, len) -> {
            System.arraycopy(buf, from, out, pos[0], len);
            pos[0] += len;
        });
    }

    /** A contiguous array able to take {@code count} items. */
    Object scratch(String call, Object buf, int offset, int count, Datatype t) {
        check(call, buf, offset, count, t);
        return Array.newInstance(elementClass(buf, t), Math.toIntExact((long) count * size));
    }

    /** The packed array's element class: the buffer's for objects, the type's primitive otherwise. */
    private static Class<?> elementClass(Object buf, Datatype t) {
        return t.kind == Datatype.Kind.OBJECT ? buf.getClass().getComponentType()
            : t.core.primitive().arrayClass().getComponentType();
    }

    /** Places the first {@code elements} elements of {@code packed} into the items' blocks. */
    void unpack(Object packed, long elements, Object buf, int offset, int count) {
        unpack(packed, 0, elements, buf, offset, count);
    }

    /** Places {@code elements} elements of {@code packed} from element {@code from} into the items' blocks. */
    void unpack(Object packed, int from, long elements, Object buf, int offset, int count) {
        long end = from + elements;
        int[] pos = {from};
        walk(offset, count, (at, len) -> {
            int n = (int) Math.min(len, end - pos[0]);
            if (n > 0) {
                System.arraycopy(packed, pos[0], buf, at, n);
                pos[0] += n;
            }
        });
    }
}
