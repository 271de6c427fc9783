package org.hympj.sim;

import org.hympj.api.Datatype;
import org.hympj.spi.Layout;

/**
 * What the timing model sees of a message's data: bytes, layout, contiguous blocks and
 * primitive elements, computed from a datatype and count exactly as the emulator's
 * {@code FabricTiming.plan} does ({@link Layout#of}, blocks = elements / block length × count).
 */
public final class Shape {
    public final long bytes;
    public final Layout layout;
    public final long blocks;
    public final long elements;
    /** Stands in for the datatype's hash in the descriptor cache key. */
    final int typeKey;

    private Shape(long bytes, Layout layout, long blocks, long elements, int typeKey) {
        this.bytes = bytes;
        this.layout = layout;
        this.blocks = blocks;
        this.elements = elements;
        this.typeKey = typeKey;
    }

    /** {@code count} items of {@code type}. */
    public static Shape of(Datatype type, int count) {
        Layout layout = Layout.of(type, count);
        long blocks = type.isContiguous() ? 1 : type.elements() / Math.max(1, type.blockLength()) * count;
        return new Shape((long) count * type.size(), layout, blocks, type.elements() * count, type.hashCode());
    }

    /** {@code bytes} contiguous bytes (an MGEN put, a zero-byte signal). */
    public static Shape bytes(long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            return new Shape(bytes, Layout.CONTIGUOUS, 1, bytes, Datatype.BYTE.hashCode());
        }
        return of(Datatype.BYTE, (int) bytes);
    }

    /** {@code n} contiguous doubles. */
    public static Shape doubles(int n) {
        return of(Datatype.DOUBLE, n);
    }

    @Override
    public String toString() {
        return bytes + " B " + layout.key() + " (" + blocks + " blocks, " + elements + " elements)";
    }
}
