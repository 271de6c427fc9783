package org.hympj.shm.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hympj.api.Datatype;
import org.junit.jupiter.api.Test;

/**
 * Layouts too large for the int blocks, strides and counts of a Datatype fail with an
 * IllegalArgumentException naming the call and its arguments (issue 19: they gave a bare
 * ArithmeticException "integer overflow").
 */
class DatatypeOverflowTest {
    @Test
    void contiguousOfContiguousOverflowNamesTheCall() {
        Datatype big = Datatype.DOUBLE.contiguous(1 << 20);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> big.contiguous(1 << 20));
        assertTrue(e.getMessage().startsWith("contiguous(count=1048576) of DOUBLE[block 1048576"), e.getMessage());
        assertTrue(e.getMessage().contains("is too large"), e.getMessage());
    }

    @Test
    void vectorOverflowNamesItsArguments() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Datatype.DOUBLE.vector(1 << 16, 1 << 16, 1 << 16));
        assertTrue(e.getMessage().startsWith("vector(count=65536, blockLength=65536, stride=65536) of DOUBLE"),
            e.getMessage());
        IllegalArgumentException stride = assertThrows(IllegalArgumentException.class,
            () -> Datatype.DOUBLE.vector(2, 1, 1 << 20).vector(2, 1, 1 << 20));
        assertTrue(stride.getMessage().contains("is too large"), stride.getMessage());
    }

    @Test
    void subarrayOverflowNamesItsArguments() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Datatype.DOUBLE.subarray(new int[] {1 << 16, 1 << 16}, new int[] {1 << 16, 1 << 16}, new int[] {0, 0}));
        assertTrue(e.getMessage().startsWith("subarray(sizes=[65536, 65536], subsizes=[65536, 65536], starts=[0, 0])"),
            e.getMessage());
        IllegalArgumentException strided = assertThrows(IllegalArgumentException.class,
            () -> Datatype.DOUBLE.subarray(new int[] {4, 1 << 16, 1 << 16}, new int[] {2, 1, 1}, new int[] {0, 0, 0}));
        assertTrue(strided.getMessage().contains("is too large"), strided.getMessage());
    }

    @Test
    void largeButFittingLayoutsStillWork() {
        Datatype t = Datatype.DOUBLE.contiguous(1 << 15).contiguous(1 << 15);
        assertEquals(1L << 30, t.elements());
        Datatype face = Datatype.DOUBLE.subarray(new int[] {1 << 10, 1 << 10, 1 << 10}, new int[] {1, 1 << 10, 1 << 10},
            new int[] {5, 0, 0});
        assertEquals(1L << 20, face.elements());
    }
}
