package org.hympj.shm.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.agrona.UnsafeApi;
import org.hympj.api.Primitive;
import org.hympj.shm.datatype.RandomLayouts;
import org.hympj.shm.testing.Layout;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link Packer}: packing and unpacking arbitrary byte ranges (not aligned to elements or
 * blocks) of strided layouts gives what a naive element-by-element reference gives, and
 * unpacking writes nothing outside the layout.
 */
class PackerTest {
    private static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);

    @Test
    void packAndUnpackArbitraryRangesOfRandomLayouts() {
        Random rnd = new Random(7);
        Packer packer = new Packer();
        int cases = 0;
        for (int i = 0; i < 1500; i++) {
            Layout l = RandomLayouts.next(rnd, false);
            int count = rnd.nextInt(4);
            if (!l.disjoint(count)) {
                continue;   // a receive layout may not name an element twice
            }
            check(packer, l, count, 1 + rnd.nextInt(5), rnd);
            cases++;
        }
        assertEquals(true, cases > 500, "too few cases: " + cases);
    }

    @Test
    void largeLayoutsInFragmentSizedPieces() {
        Packer packer = new Packer();
        Random rnd = new Random(11);
        Layout d = Layout.of(Primitive.DOUBLE);
        check(packer, d.vector(100_000, 2, 3), 1, 3, rnd);
        check(packer, d.vector(64, 4, 5).vector(500, 1, 2), 2, 7, rnd);
        check(packer, Layout.of(Primitive.BYTE).vector(20001, 1, 2), 1, 2, rnd);
        check(packer, Layout.of(Primitive.SHORT).contiguous(3).vector(999, 2, 3), 3, 5, rnd);
        check(packer, d.contiguous(70_000), 1, 0, rnd);
    }

    /**
     * {@link Packer#copy} and its primitive moves ({@code copySmall}, four at a time, then the
     * tails: below the small-copy limit, which is 768 B under C1) at every length up to 1 KiB and
     * every misalignment of source and destination: exactly those bytes move, nothing beside them.
     */
    @Test
    void copyOfEveryLengthMovesExactlyItsBytes() {
        Random rnd = new Random(13);
        byte[] src = new byte[1100];
        rnd.nextBytes(src);
        byte[] dst = new byte[1100];
        for (int len = 0; len <= 1024; len++) {
            for (int shift = 0; shift < 8; shift++) {
                int from = (len + shift) % 8;
                int to = shift;
                for (boolean moves : new boolean[] {false, true}) {
                    java.util.Arrays.fill(dst, (byte) 0x5A);
                    if (moves) {
                        Packer.copySmall(src, BYTE_BASE + from, dst, BYTE_BASE + to, len);
                    } else {
                        Packer.copy(src, BYTE_BASE + from, dst, BYTE_BASE + to, len);
                    }
                    for (int i = 0; i < dst.length; i++) {
                        byte want = i >= to && i < to + len ? src[from + i - to] : (byte) 0x5A;
                        if (dst[i] != want) {
                            assertEquals(want, dst[i], (moves ? "moves" : "copy") + " of " + len + " bytes from "
                                + from + " to " + to + ": byte " + i);
                        }
                    }
                }
            }
        }
    }

    /**
     * Packs count items of l at element offset {@code at} of an array in random pieces (sometimes
     * 65,528-byte fragment-like pieces) and compares with the reference; then unpacks the
     * reference image in other random pieces into a sentinel-filled array and compares.
     */
    private static void check(Packer packer, Layout l, int count, int at, Random rnd) {
        Primitive p = l.primitive();
        int e = p.bytes();
        int[] msg = l.message(count);
        int length = at + (int) Math.max(0, l.span(count)) + 3;
        Mem src = Mem.array(p, length);
        src.fill(0, length, 1, 2);
        ByteBuffer ref = ByteBuffer.allocate(msg.length * e).order(ByteOrder.nativeOrder());
        for (int k : msg) {
            putRaw(ref, p, src.get(at + k));
        }
        byte[] expected = ref.array();
        long addr = UnsafeApi.arrayBaseOffset(p.arrayClass()) + (long) at * e;
        String w = count + " x " + l + " at " + at;

        byte[] packed = new byte[expected.length];
        for (long from = 0; from < packed.length; ) {
            long len = Math.min(packed.length - from, piece(rnd, e));
            packer.pack(src.buffer(), addr, l.type, count, from, packed, BYTE_BASE + from, len);
            from += len;
        }
        assertArrayEquals(expected, packed, "pack " + w);

        Mem dst = Mem.array(p, length);
        dst.fillSentinel(3);
        for (long from = 0; from < expected.length; ) {
            long len = Math.min(expected.length - from, piece(rnd, e));
            packer.unpack(expected, BYTE_BASE + from, len, dst.buffer(), addr, l.type, count, from);
            from += len;
        }
        boolean[] named = new boolean[length];
        for (int k : msg) {
            named[at + k] = true;
        }
        for (int i = 0; i < length; i++) {
            long want = named[i] ? src.get(i) : Pattern.canon(p, Pattern.sentinel(3, i));
            assertEquals(want, dst.get(i), "unpack " + w + ": element " + i + (named[i] ? "" : " (not in the layout)"));
        }
    }

    /** A piece length in bytes: mostly odd, unaligned sizes; sometimes a ring fragment's size. */
    private static long piece(Random rnd, int e) {
        switch (rnd.nextInt(5)) {
            case 0: return 1;
            case 1: return 1 + rnd.nextInt(3 * e + 5);
            case 2: return 65_528;
            case 3: return 1 + rnd.nextInt(4096);
            default: return Long.MAX_VALUE;
        }
    }

    private static void putRaw(ByteBuffer b, Primitive p, long canonical) {
        switch (p.bytes()) {
            case 1: b.put((byte) canonical); break;
            case 2: b.putShort((short) canonical); break;
            case 4: b.putInt((int) canonical); break;
            default: b.putLong(canonical); break;
        }
    }
}
