package org.hympj.api;

import java.nio.ByteBuffer;

/**
 * Memory in this rank's registered shared segment (the analogue of tcaMalloc or a GASNet
 * segment). Peers write into it directly, so a large message received into a segment
 * buffer is copied once, by the sender, with no bounce buffer. Pass it as the buffer of any
 * send or receive whose datatype has its {@link #primitive()}; offsets and counts are in
 * elements, as for arrays. Valid until the job's {@code Mpj} is closed.
 */
public final class SegmentBuffer {
    private final ByteBuffer bytes;
    private final Primitive primitive;
    private final int length;
    private final long segmentOffset;
    private final Object owner;

    /** For providers: {@code bytes} is a native-order view of the region. */
    public SegmentBuffer(ByteBuffer bytes, Primitive primitive, int length, long segmentOffset, Object owner) {
        this.bytes = bytes;
        this.primitive = primitive;
        this.length = length;
        this.segmentOffset = segmentOffset;
        this.owner = owner;
    }

    /** Element kind. */
    public Primitive primitive() {
        return primitive;
    }

    /** Length in elements. */
    public int length() {
        return length;
    }

    /** Offset of the first byte within the owning rank's segment. For providers. */
    public long segmentOffset() {
        return segmentOffset;
    }

    /** The provider object that allocated it. For providers. */
    public Object owner() {
        return owner;
    }

    /** A native-order byte view of the whole buffer (shared, not a copy). */
    public ByteBuffer bytes() {
        return bytes.duplicate().order(bytes.order());
    }

    private int at(int index, Primitive expected) {
        if (primitive != expected) {
            throw new IllegalArgumentException("this is a " + primitive + " segment buffer, not " + expected);
        }
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + " out of bounds for length " + length);
        }
        return index * expected.bytes();
    }

    public double getDouble(int i) {
        return bytes.getDouble(at(i, Primitive.DOUBLE));
    }

    public void putDouble(int i, double v) {
        bytes.putDouble(at(i, Primitive.DOUBLE), v);
    }

    public float getFloat(int i) {
        return bytes.getFloat(at(i, Primitive.FLOAT));
    }

    public void putFloat(int i, float v) {
        bytes.putFloat(at(i, Primitive.FLOAT), v);
    }

    public long getLong(int i) {
        return bytes.getLong(at(i, Primitive.LONG));
    }

    public void putLong(int i, long v) {
        bytes.putLong(at(i, Primitive.LONG), v);
    }

    public int getInt(int i) {
        return bytes.getInt(at(i, Primitive.INT));
    }

    public void putInt(int i, int v) {
        bytes.putInt(at(i, Primitive.INT), v);
    }

    public byte getByte(int i) {
        return bytes.get(at(i, Primitive.BYTE));
    }

    public void putByte(int i, byte v) {
        bytes.put(at(i, Primitive.BYTE), v);
    }

    @Override
    public String toString() {
        return "SegmentBuffer[" + primitive + " x " + length + " at segment offset " + segmentOffset + "]";
    }
}
