package org.hympj.shm.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;

/**
 * The native copy into shared memory: built and loaded wherever a C compiler was there at build
 * time, and exact — from arrays of every width at any offset, and between off-heap addresses —
 * directly and through {@link Packer#copy} above its threshold.
 */
class NativeCopyTest {
    @Test
    void isLoadedWhereACompilerBuiltIt() throws Exception {
        boolean compiler;
        try {
            Process p = new ProcessBuilder("cc", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            compiler = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            compiler = false;
        }
        boolean linuxX64 = NativeCopy.resource() != null;
        assertEquals(compiler && linuxX64 && !"off".equals(System.getProperty(NativeCopy.PROPERTY)),
            NativeCopy.AVAILABLE, "cc found: " + compiler + ", resource: " + NativeCopy.resource());
    }

    @Test
    void copiesFromArraysOfEveryWidthAndBetweenAddresses() {
        assumeTrue(NativeCopy.AVAILABLE, "no native copy here (isLoadedWhereACompilerBuiltIt says whether that is right)");
        ByteBuffer a = ByteBuffer.allocateDirect(1 << 16);
        ByteBuffer b = ByteBuffer.allocateDirect(1 << 16);
        long addrA = BufferUtil.address(a);
        long addrB = BufferUtil.address(b);
        double[] doubles = new double[5000];
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = i * 1.5 - 7;
        }
        // doubles [3, 4003) to A + 1 (unaligned), then A to B, then back into a fresh array
        NativeCopy.toOffHeap(doubles, UnsafeApi.arrayBaseOffset(double[].class) + 3 * 8L, addrA + 1, 4000 * 8L);
        NativeCopy.toOffHeap(null, addrA + 1, addrB, 4000 * 8L);
        double[] back = new double[4000];
        UnsafeApi.copyMemory(null, addrB, back, UnsafeApi.arrayBaseOffset(double[].class), 4000 * 8L);
        double[] want = new double[4000];
        System.arraycopy(doubles, 3, want, 0, 4000);
        assertArrayEquals(want, back);

        int[] ints = new int[3001];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = i * 31 + 1;
        }
        NativeCopy.toOffHeap(ints, UnsafeApi.arrayBaseOffset(int[].class) + 4, addrA, 3000 * 4L);
        for (int i = 0; i < 3000; i++) {
            assertEquals(ints[i + 1], UnsafeApi.getInt(addrA + 4L * i), "int " + i);
        }
        NativeCopy.toOffHeap(ints, UnsafeApi.arrayBaseOffset(int[].class), addrA, 0); // nothing to copy
        assertEquals(ints[1], UnsafeApi.getInt(addrA));
    }

    @Test
    void packerCopiesAboveTheThresholdNativelyWithTheSameBytes() {
        int n = (int) Math.max(NativeCopy.FROM, 8192) + 13;
        byte[] src = new byte[n + 7];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (i * 13 + 5);
        }
        ByteBuffer dst = ByteBuffer.allocateDirect(n + 64);
        long addr = BufferUtil.address(dst);
        long base = UnsafeApi.arrayBaseOffset(byte[].class);
        Packer.copy(src, base + 7, null, addr + 3, n);
        byte[] back = new byte[n];
        UnsafeApi.copyMemory(null, addr + 3, back, base, n);
        byte[] want = new byte[n];
        System.arraycopy(src, 7, want, 0, n);
        assertArrayEquals(want, back);
        assertTrue(n >= NativeCopy.FROM, "the copy is above the threshold: " + n);
    }
}
