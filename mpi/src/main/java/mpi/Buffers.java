package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * The two buffer kinds the core has no primitive for. BOOLEAN: a {@code boolean[]} travels as
 * a {@code byte[]} of the same length and layout (0/1). OBJECT: {@code count} objects of an
 * {@code Object[]} become one byte message, a count followed by their Java serialization.
 */
final class Buffers {
    private Buffers() {
    }

    static boolean[] booleans(String call, Object buf) {
        if (!(buf instanceof boolean[])) {
            throw new MPIException(call + ": buf is " + (buf == null ? "null" : buf.getClass().getSimpleName())
                + " but type BOOLEAN needs boolean[]");
        }
        return (boolean[]) buf;
    }

    static Object[] objects(String call, Object buf) {
        if (!(buf instanceof Object[])) {
            throw new MPIException(call + ": buf is " + (buf == null ? "null" : buf.getClass().getSimpleName())
                + " but type OBJECT needs Object[]");
        }
        return (Object[]) buf;
    }

    /** The bytes (0/1) of a boolean array, same length. */
    static byte[] toBytes(boolean[] b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = b[i] ? (byte) 1 : 0;
        }
        return out;
    }

    /** Copies bytes back into the boolean array (non-zero is true). */
    static void fromBytes(byte[] src, boolean[] dst) {
        for (int i = 0; i < dst.length; i++) {
            dst[i] = src[i] != 0;
        }
    }

    /** The message of {@code count} objects from {@code buf[offset]}. */
    static byte[] serialize(String call, Object[] buf, int offset, int count) {
        if (count < 0 || offset < 0 || (long) offset + count > buf.length) {
            throw new MPIException(call + ": offset " + offset + " and count " + count + " must lie within the "
                + buf.length + " objects of buf");
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeInt(count);
                for (int i = 0; i < count; i++) {
                    out.writeObject(buf[offset + i]);
                }
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new MPIException(call + ": an object could not be serialized: " + e, e);
        }
    }

    /** Places the objects of a message at {@code buf[offset]}; returns how many there were. */
    static int deserialize(String call, byte[] data, Object[] buf, int offset, int count) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(data))) {
            int n = in.readInt();
            if (n > count) {
                throw new MPIException(call + ": message truncated: " + n + " objects arrived, the receive takes "
                    + count);
            }
            if ((long) offset + n > buf.length) {
                throw new MPIException(call + ": " + n + " objects from offset " + offset + " do not fit in buf (length "
                    + buf.length + ")");
            }
            for (int i = 0; i < n; i++) {
                buf[offset + i] = in.readObject();
            }
            return n;
        } catch (IOException | ClassNotFoundException e) {
            throw new MPIException(call + ": the objects could not be deserialized: " + e, e);
        }
    }

    /** A copy of a primitive array (for Sendrecv_replace and buffered sends). */
    static Object copyOf(String call, Object buf) {
        if (buf == null || !buf.getClass().isArray()) {
            throw new MPIException(call + ": buf must be an array");
        }
        int n = java.lang.reflect.Array.getLength(buf);
        Object c = java.lang.reflect.Array.newInstance(buf.getClass().getComponentType(), n);
        System.arraycopy(buf, 0, c, 0, n);
        return c;
    }
}
