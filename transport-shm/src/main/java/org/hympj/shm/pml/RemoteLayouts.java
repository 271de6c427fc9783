package org.hympj.shm.pml;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.hympj.api.Datatype;
import org.hympj.api.MpjException;
import org.hympj.api.Primitive;

/**
 * The sender's layout carried by a typed RTS ({@link Packets#RTS_TYPED}), so that a receiver
 * can pull data that is not one contiguous run straight out of the sender's segment: one pass
 * that reads the sender's strided layout, where eager packs on one side and unpacks on the
 * other (a halo face of single elements 512 bytes apart is read once, not written into the
 * ring and read again). Up to {@link #MAX_DIMS} strided dimensions; a deeper layout is sent as
 * before.
 *
 * <pre>
 * offset  0              4                8         12         16           24
 *         primitive:int  blockLength:int  dims:int  count:int  extent:long  (count:int stride:int) x MAX_DIMS
 * </pre>
 *
 * <p>The receiver keeps the layouts it rebuilt, so a persistent exchange that sends the same
 * faces every iteration allocates nothing after the first. One per engine, not thread-safe.
 */
final class RemoteLayouts {
    static final int MAX_DIMS = 4;
    private static final int PRIMITIVE = 0;
    private static final int BLOCK = 4;
    private static final int DIMS = 8;
    private static final int COUNT = 12;
    private static final int EXTENT = 16;
    private static final int DIM0 = 24;
    static final int LENGTH = DIM0 + 8 * MAX_DIMS;
    private static final Primitive[] PRIMITIVES = Primitive.values();

    private final Datatype[] known = new Datatype[16];
    private int replace;

    /** True when {@code count} items of {@code type}, not one contiguous run, fit a typed RTS. */
    static boolean describable(Datatype type, int count) {
        return !type.isContiguous() && count > 0 && type.elements() > 0 && type.dimensions() <= MAX_DIMS;
    }

    /** Writes {@code count} items of {@code type} (describable) at {@code offset}. */
    static void write(MutableDirectBuffer b, int offset, Datatype type, int count) {
        b.putInt(offset + PRIMITIVE, type.primitive().ordinal());
        b.putInt(offset + BLOCK, type.blockLength());
        b.putInt(offset + DIMS, type.dimensions());
        b.putInt(offset + COUNT, count);
        b.putLong(offset + EXTENT, type.extent());
        for (int d = 0; d < type.dimensions(); d++) {
            b.putInt(offset + DIM0 + 8 * d, type.count(d));
            b.putInt(offset + DIM0 + 8 * d + 4, type.stride(d));
        }
    }

    /** The item count written at {@code offset}. */
    static int count(DirectBuffer b, int offset) {
        return b.getInt(offset + COUNT);
    }

    /**
     * The layout written at {@code offset} by rank {@code source}: one rebuilt before, or a new
     * one (then kept, replacing the oldest of the kept).
     *
     * @throws MpjException when what is written there is not a layout
     */
    Datatype read(DirectBuffer b, int offset, int source) {
        int p = b.getInt(offset + PRIMITIVE);
        int block = b.getInt(offset + BLOCK);
        int dims = b.getInt(offset + DIMS);
        long extent = b.getLong(offset + EXTENT);
        if (p < 0 || p >= PRIMITIVES.length || dims < 0 || dims > MAX_DIMS) {
            throw new MpjException("internal: RTS from rank " + source + " carries no valid layout (primitive "
                + p + ", " + dims + " dimensions)");
        }
        for (Datatype t : known) {
            if (t != null && same(t, PRIMITIVES[p], block, dims, extent, b, offset)) {
                return t;
            }
        }
        int[] counts = new int[dims];
        int[] strides = new int[dims];
        for (int d = 0; d < dims; d++) {
            counts[d] = b.getInt(offset + DIM0 + 8 * d);
            strides[d] = b.getInt(offset + DIM0 + 8 * d + 4);
        }
        Datatype t;
        try {
            t = Datatype.layout(PRIMITIVES[p], block, counts, strides, extent);
        } catch (IllegalArgumentException e) {
            throw new MpjException("internal: RTS from rank " + source + " carries no valid layout: " + e.getMessage());
        }
        known[replace] = t;
        replace = (replace + 1) % known.length;
        return t;
    }

    private static boolean same(Datatype t, Primitive p, int block, int dims, long extent, DirectBuffer b, int offset) {
        if (t.primitive() != p || t.blockLength() != block || t.dimensions() != dims || t.extent() != extent) {
            return false;
        }
        for (int d = 0; d < dims; d++) {
            if (t.count(d) != b.getInt(offset + DIM0 + 8 * d) || t.stride(d) != b.getInt(offset + DIM0 + 8 * d + 4)) {
                return false;
            }
        }
        return true;
    }
}
