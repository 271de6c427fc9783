package mpi;

/**
 * {@code count} items of an OBJECT datatype in an {@code Object[]} from {@code offset}: the
 * objects they name (a run for OBJECT and its contiguous types; the positions of a
 * {@link Blocks} layout for a Vector, Indexed or Struct of objects), checked once when made, and
 * the message that carries them (their Java serialization, in order).
 */
final class ObjectItems {
    final Object[] buf;
    final int offset;
    final int count;
    final Datatype type;
    /** Objects the items hold: count × objects per item. */
    final int objects;

    private ObjectItems(Object[] buf, int offset, int count, Datatype type, int objects) {
        this.buf = buf;
        this.offset = offset;
        this.count = count;
        this.type = type;
        this.objects = objects;
    }

    /** Checks that {@code buf} is an {@code Object[]} and the items lie within it. */
    static ObjectItems of(String call, Object buf, int offset, int count, Datatype type) {
        Object[] objs = Buffers.objects(call, buf);
        if (count < 0) {
            throw new MPIException(call + ": count must be >= 0, was " + count);
        }
        if (offset < 0) {
            throw new MPIException(call + ": offset must be >= 0, was " + offset);
        }
        long n = (long) count * type.objectsPerItem();
        if (type.blocks != null) {
            type.blocks.check(call, objs, offset, count, type);
        } else if (offset + n > objs.length) {
            throw new MPIException(call + ": offset " + offset + " + " + count + " items of " + type + " (" + n
                + " objects) is past the end of buf (length " + objs.length + ")");
        }
        return new ObjectItems(objs, offset, count, type, Math.toIntExact(n));
    }

    /** The message of the items' objects as they are now. */
    byte[] serialize(String call) {
        if (type.blocks == null) {
            return Buffers.serialize(call, buf, offset, objects);
        }
        Object[] packed = (Object[]) type.blocks.pack(call, buf, offset, count, type);
        return Buffers.serialize(call, packed, 0, packed.length);
    }

    /**
     * Places the objects of a message in the items' positions, in order; returns how many arrived.
     * An empty message (no serialization is empty) is a root's answer to a call refused there.
     */
    int deserialize(String call, byte[] data) {
        if (data.length == 0) {
            if (objects == 0) {
                return 0; // a type of no data: its message may be empty
            }
            throw new MPIException(call + ": the sender sent no objects for this rank: its own arguments were refused"
                + " at its call");
        }
        if (type.blocks == null) {
            return Buffers.deserialize(call, data, buf, offset, objects);
        }
        Object[] packed = new Object[objects];
        int n = Buffers.deserialize(call, data, packed, 0, objects);
        type.blocks.unpack(packed, n, buf, offset, count);
        return n;
    }
}
