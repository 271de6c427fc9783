package mpi;

import java.nio.ByteBuffer;
import org.hympj.api.Primitive;

/**
 * MPI_Pack/MPI_Unpack: the elements of {@code count} items of a layout, in type-map order,
 * written to (read from) a byte array in big-endian order. BOOLEAN elements take one byte.
 */
final class Packer {
    private Packer() {
    }

    /** Bytes {@code count} items take when packed. */
    static int size(String call, int count, Datatype type) {
        check(call, type, count);
        return Math.toIntExact(count * type.itemBytes());
    }

    static int pack(Object in, int offset, int count, Datatype type, byte[] out, int position) {
        check("Pack", type, count);
        if (out == null) {
            throw new MPIException("Pack: outbuf must not be null");
        }
        int n = size("Pack", count, type);
        if (position < 0 || (long) position + n > out.length) {
            throw new MPIException("Pack: " + n + " bytes at position " + position + " do not fit in outbuf (length "
                + out.length + ")");
        }
        checkArray("Pack", in, offset, count, type);
        ByteBuffer bb = ByteBuffer.wrap(out, position, n);
        visit(type, offset, count, (at, len) -> {
            for (int i = 0; i < len; i++) {
                put(bb, in, at + i, type);
            }
        });
        return position + n;
    }

    static int unpack(byte[] in, int position, Object out, int offset, int count, Datatype type) {
        check("Unpack", type, count);
        if (in == null) {
            throw new MPIException("Unpack: inbuf must not be null");
        }
        int n = size("Unpack", count, type);
        if (position < 0 || (long) position + n > in.length) {
            throw new MPIException("Unpack: " + n + " bytes at position " + position + " are past the end of inbuf "
                + "(length " + in.length + ")");
        }
        checkArray("Unpack", out, offset, count, type);
        ByteBuffer bb = ByteBuffer.wrap(in, position, n);
        visit(type, offset, count, (at, len) -> {
            for (int i = 0; i < len; i++) {
                get(bb, out, at + i, type);
            }
        });
        return position + n;
    }

    private static void check(String call, Datatype type, int count) {
        if (type == null) {
            throw new MPIException(call + ": datatype must not be null");
        }
        if (type.kind == Datatype.Kind.OBJECT || type.kind == Datatype.Kind.MARKER) {
            throw MPIException.notSupported(call + " of " + type, "only primitive and BOOLEAN data is packed");
        }
        if (count < 0) {
            throw new MPIException(call + ": count must be >= 0, was " + count);
        }
    }

    private static void visit(Datatype type, int offset, int count, Block b) {
        if (type.blocks != null) {
            type.blocks.walk(offset, count, b);
        } else {
            walk(type.core, offset, count, b);
        }
    }

    private static void checkArray(String call, Object buf, int offset, int count, Datatype type) {
        if (type.blocks != null) {
            type.blocks.check(call, buf, offset, count, type);
            return;
        }
        Class<?> want = type.kind == Datatype.Kind.BOOLEAN ? boolean[].class : type.core.primitive().arrayClass();
        if (buf == null || buf.getClass() != want) {
            throw new MPIException(call + ": buf is " + (buf == null ? "null" : buf.getClass().getSimpleName())
                + " but type " + type + " needs " + want.getSimpleName());
        }
        long span = type.core.span(count);
        int length = java.lang.reflect.Array.getLength(buf);
        if (offset < 0 || offset + span > length) {
            throw new MPIException(call + ": offset " + offset + " + " + count + " items of " + type + " span " + span
                + " elements, past the end of buf (length " + length + ")");
        }
    }

    interface Block {
        void run(int at, int length);
    }

    /** Visits the contiguous blocks of {@code count} items in type-map order. */
    static void walk(org.hympj.api.Datatype t, int offset, int count, Block b) {
        int dims = t.dimensions();
        int[] idx = new int[dims];
        for (int item = 0; item < count; item++) {
            long base = offset + t.displacement() + (long) item * t.extent();
            if (t.elements() == 0) {
                continue;
            }
            java.util.Arrays.fill(idx, 0);
            while (true) {
                long at = base;
                for (int d = 0; d < dims; d++) {
                    at += (long) idx[d] * t.stride(d);
                }
                b.run((int) at, t.blockLength());
                int d = dims - 1;
                while (d >= 0 && ++idx[d] == t.count(d)) {
                    idx[d] = 0;
                    d--;
                }
                if (d < 0) {
                    break;
                }
            }
        }
    }

    private static void put(ByteBuffer bb, Object a, int i, Datatype type) {
        if (type.kind == Datatype.Kind.BOOLEAN) {
            bb.put(((boolean[]) a)[i] ? (byte) 1 : 0);
            return;
        }
        Primitive p = type.core.primitive();
        switch (p) {
            case BYTE: bb.put(((byte[]) a)[i]); break;
            case CHAR: bb.putChar(((char[]) a)[i]); break;
            case SHORT: bb.putShort(((short[]) a)[i]); break;
            case INT: bb.putInt(((int[]) a)[i]); break;
            case LONG: bb.putLong(((long[]) a)[i]); break;
            case FLOAT: bb.putFloat(((float[]) a)[i]); break;
            default: bb.putDouble(((double[]) a)[i]);
        }
    }

    private static void get(ByteBuffer bb, Object a, int i, Datatype type) {
        if (type.kind == Datatype.Kind.BOOLEAN) {
            ((boolean[]) a)[i] = bb.get() != 0;
            return;
        }
        Primitive p = type.core.primitive();
        switch (p) {
            case BYTE: ((byte[]) a)[i] = bb.get(); break;
            case CHAR: ((char[]) a)[i] = bb.getChar(); break;
            case SHORT: ((short[]) a)[i] = bb.getShort(); break;
            case INT: ((int[]) a)[i] = bb.getInt(); break;
            case LONG: ((long[]) a)[i] = bb.getLong(); break;
            case FLOAT: ((float[]) a)[i] = bb.getFloat(); break;
            default: ((double[]) a)[i] = bb.getDouble();
        }
    }
}
