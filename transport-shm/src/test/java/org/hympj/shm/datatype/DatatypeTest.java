package org.hympj.shm.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hympj.api.Datatype;
import org.hympj.api.Primitive;
import org.hympj.shm.testing.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Datatype}: size, extent, span and the normalised form of contiguous, vector and
 * vector-of-vector types, checked against the naive element lists of {@link Layout}.
 */
class DatatypeTest {
    @ParameterizedTest
    @EnumSource(Primitive.class)
    void predefinedTypes(Primitive p) {
        Datatype t = Datatype.of(p);
        assertEquals(p, t.primitive());
        assertTrue(t.isPrimitive());
        assertTrue(t.isContiguous());
        assertEquals(1, t.elements());
        assertEquals(p.bytes(), t.size());
        assertEquals(1, t.extent());
        assertEquals(0, t.span(0));
        assertEquals(7, t.span(7));
        assertEquals(t, t.contiguous(1));
        assertEquals(t, t.vector(1, 1, 5));
    }

    @Test
    void contiguousAndEquivalentVectorsAreOneContiguousBlock() {
        Datatype d = Datatype.DOUBLE;
        assertEquals(d.contiguous(6), d.vector(6, 1, 1));
        assertEquals(d.contiguous(6), d.vector(3, 2, 2));
        assertEquals(d.contiguous(6), d.vector(1, 6, 9));
        assertEquals(d.contiguous(12), d.vector(2, 2, 2).vector(3, 1, 1));
        assertEquals(d.contiguous(12), d.contiguous(3).contiguous(4));
        Datatype c = d.vector(4, 2, 2);
        assertTrue(c.isContiguous());
        assertFalse(c.isPrimitive());
        assertEquals(8, c.blockLength());
        assertEquals(8, c.extent());
        assertEquals(64, c.size());
        assertEquals(24, c.span(3));
    }

    @Test
    void vectorSizeExtentSpan() {
        Datatype v = Datatype.DOUBLE.vector(10, 3, 7);
        assertFalse(v.isContiguous());
        assertEquals(30, v.elements());
        assertEquals(240, v.size());
        assertEquals(66, v.extent());         // 9 * 7 + 3
        assertEquals(66, v.span(1));
        assertEquals(66 + 66 + 66, v.span(3)); // items back to back: i * extent
        assertEquals(0, v.span(0));
        assertEquals(1, v.dimensions());
        assertEquals(10, v.count(0));
        assertEquals(7, v.stride(0));
        assertEquals(3, v.blockLength());
    }

    @Test
    void vectorOfVector() {
        Datatype inner = Datatype.INT.vector(4, 2, 3);   // extent 11
        Datatype outer = inner.vector(3, 1, 2);          // block starts 22 elements apart
        assertEquals(11, inner.extent());
        assertEquals(24, outer.elements());
        assertEquals(96, outer.size());
        assertEquals(55, outer.extent());                // (2 * 2 + 1) * 11
        assertEquals(2 * 22 + 11, outer.span(1));
        assertEquals(55 + 55, outer.span(2));
        assertEquals(Primitive.INT, outer.primitive());
    }

    @Test
    void emptyTypes() {
        for (Datatype e : new Datatype[] {Datatype.DOUBLE.vector(0, 2, 3), Datatype.DOUBLE.vector(5, 0, 3),
            Datatype.DOUBLE.contiguous(0), Datatype.DOUBLE.vector(3, 1, 2).vector(0, 1, 1)}) {
            assertEquals(0, e.elements(), e::toString);
            assertEquals(0, e.size(), e::toString);
            assertEquals(0, e.span(5), e::toString);
        }
    }

    @Test
    void sameLayoutBuiltTwoWaysIsEqual() {
        Datatype a = Datatype.DOUBLE.contiguous(3).vector(4, 1, 2);
        Datatype b = Datatype.DOUBLE.vector(4, 3, 6);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(Datatype.INT.vector(2, 1, 2), Datatype.FLOAT.vector(2, 1, 2));
        assertNotEquals(Datatype.DOUBLE.vector(2, 1, 2), Datatype.DOUBLE.vector(2, 1, 3));
        assertNotEquals(Datatype.DOUBLE.vector(2, 2, 3), Datatype.DOUBLE.vector(2, 1, 3));
    }

    @Test
    void badConstructorArgumentsNameTheArgument() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datatype.DOUBLE.vector(-1, 1, 1)).getMessage()
            .contains("count"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datatype.DOUBLE.vector(1, -1, 1)).getMessage()
            .contains("blockLength"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datatype.DOUBLE.vector(1, 1, 0)).getMessage()
            .contains("stride"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datatype.DOUBLE.contiguous(-2)).getMessage()
            .contains("count"));
    }

    /** Random constructions: the normalised form describes exactly the reference layout. */
    @Test
    void randomConstructionsMatchTheReference() {
        Random rnd = new Random(20261121);
        for (int i = 0; i < 3000; i++) {
            Layout l = RandomLayouts.next(rnd, false);
            Datatype t = l.type;
            String w = l + " = " + t;
            assertEquals(l.elements(), t.elements(), w);
            assertEquals((long) l.elements() * t.primitive().bytes(), t.size(), w);
            assertEquals(l.extent, t.extent(), w);
            for (int count = 0; count <= 3; count++) {
                long ref = l.elements() == 0 ? 0 : l.span(count);
                assertEquals(ref, t.span(count), w + " span(" + count + ")");
            }
            long[] ref = l.itemOffsets();
            assertArrayEquals(ref, offsetsOf(t), w);
            boolean runFromZero = true;
            for (int k = 0; k < ref.length; k++) {
                runFromZero &= ref[k] == k;
            }
            assertEquals(runFromZero, t.isContiguous(), w + ": isContiguous");
        }
    }

    /** A layout rebuilt from its parts (as a receiver rebuilds a sender's) is the same type. */
    @Test
    void layoutFromItsPartsIsTheSameType() {
        Random rnd = new Random(20261127);
        int rebuilt = 0;
        for (int i = 0; i < 3000; i++) {
            Datatype t = RandomLayouts.next(rnd, false).type;
            if (t.elements() == 0 || t.displacement() != 0) {
                continue;
            }
            int[] counts = new int[t.dimensions()];
            int[] strides = new int[t.dimensions()];
            for (int d = 0; d < counts.length; d++) {
                counts[d] = t.count(d);
                strides[d] = t.stride(d);
            }
            Datatype r = Datatype.layout(t.primitive(), t.blockLength(), counts, strides, t.extent());
            assertEquals(t, r, t::toString);
            assertEquals(t.span(3), r.span(3), t::toString);
            rebuilt++;
        }
        assertTrue(rebuilt > 1000, "too few layouts rebuilt: " + rebuilt);
        // parts not in canonical form are brought to it
        assertEquals(Datatype.DOUBLE.contiguous(12), Datatype.layout(Primitive.DOUBLE, 3, new int[] {4}, new int[] {3}, 12));
        assertEquals(Datatype.DOUBLE.vector(4, 3, 6), Datatype.layout(Primitive.DOUBLE, 3, new int[] {1, 4}, new int[] {99, 6}, 21));
    }

    @Test
    void badLayoutPartsNameTheArgument() {
        int[] one = {2};
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> Datatype.layout(null, 1, one, one, 4)).getMessage().contains("primitive"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> Datatype.layout(Primitive.INT, 1, one, new int[0], 4)).getMessage().contains("equal length"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> Datatype.layout(Primitive.INT, 0, one, one, 4)).getMessage().contains("blockLength"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> Datatype.layout(Primitive.INT, 1, one, one, 0)).getMessage().contains("extent"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> Datatype.layout(Primitive.INT, 1, new int[] {0}, one, 4)).getMessage().contains("counts[0]"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> Datatype.layout(Primitive.INT, 1, one, new int[] {-3}, 4)).getMessage().contains("strides[0]"));
    }

    /** "The same layout has one form": types with equal element lists and extents are equal. */
    @Test
    void normalFormIsCanonical() {
        Random rnd = new Random(42);
        Map<String, List<Layout>> byLayout = new HashMap<>();
        for (int i = 0; i < 20000; i++) {
            Layout l = RandomLayouts.next(rnd, true);
            if (l.elements() == 0) {
                continue;
            }
            String key = l.primitive() + Arrays.toString(l.itemOffsets()) + " extent " + l.extent;
            byLayout.computeIfAbsent(key, k -> new ArrayList<>()).add(l);
        }
        int groups = 0;
        for (Map.Entry<String, List<Layout>> e : byLayout.entrySet()) {
            List<Layout> same = e.getValue();
            if (same.size() > 1) {
                groups++;
            }
            for (Layout l : same) {
                assertEquals(same.get(0).type, l.type, () -> same.get(0) + " and " + l + " have the same layout "
                    + e.getKey() + " but differ: " + same.get(0).type + " vs " + l.type);
                assertEquals(same.get(0).type.hashCode(), l.type.hashCode(), l::toString);
            }
        }
        assertTrue(groups > 50, "too few layouts built two ways: " + groups);
        // and different layouts are different types
        List<String> keys = new ArrayList<>(byLayout.keySet());
        for (int i = 0; i + 1 < keys.size() && i < 2000; i++) {
            Datatype a = byLayout.get(keys.get(i)).get(0).type;
            Datatype b = byLayout.get(keys.get(i + 1)).get(0).type;
            assertNotEquals(a, b, keys.get(i) + " vs " + keys.get(i + 1));
        }
    }

    private static void assertArrayEquals(long[] expected, long[] actual, String what) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual, what);
    }

    /** The element offsets of one item, read from the normalised form (block, counts, strides). */
    static long[] offsetsOf(Datatype t) {
        int dims = t.dimensions();
        long n = t.elements();
        long[] out = new long[(int) n];
        if (n == 0) {
            return out;
        }
        int[] idx = new int[dims];
        int k = 0;
        while (true) {
            long base = 0;
            for (int d = 0; d < dims; d++) {
                base += (long) idx[d] * t.stride(d);
            }
            for (int j = 0; j < t.blockLength(); j++) {
                out[k++] = base + j;
            }
            int d = dims - 1;
            while (d >= 0 && ++idx[d] == t.count(d)) {
                idx[d] = 0;
                d--;
            }
            if (d < 0) {
                return out;
            }
        }
    }
}
