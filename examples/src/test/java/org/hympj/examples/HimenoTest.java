package org.hympj.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Himeno XS through the launcher: the whole pressure field after 10 iterations (written by
 * {@code --dump}) must be bit-identical for every decomposition and to an independent serial
 * implementation ({@link HimenoReference}); gosa must agree within the bound {@link Himeno}
 * states for a regrouped double sum of N non-negative terms.
 */
class HimenoTest {
    private static final int[] XS = {32, 32, 64};
    private static final int ITERS = 10;

    @TempDir
    Path dir;

    /** The reference after ITERS iterations, computed once. */
    private static HimenoReference reference;

    private static synchronized HimenoReference reference() {
        if (reference == null) {
            HimenoReference r = new HimenoReference(XS[0], XS[1], XS[2]);
            r.jacobi(ITERS);
            reference = r;
        }
        return reference;
    }

    /** Relative bound on the difference of two summation orders of n non-negative doubles: 2 γ(n-1). */
    static double gosaBound(long n) {
        double g = (n - 1) * 0x1p-53;
        return 2 * g / (1 - g);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void serialGosaAfterTheFirstIterationMatchesAnIndependentSerialImplementation() {
        JobResult r = Jobs.run(1, Himeno.class, "--size", "XS", "--iters", "1");
        double gosa = gosa(r);
        HimenoReference ref = new HimenoReference(XS[0], XS[1], XS[2]);
        double want = ref.jacobi(1);
        assertTrue(want > 0, "the reference gosa must be non-trivial, was " + want);
        assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(gosa),
            () -> "gosa " + gosa + " != independent serial " + want + "\n" + Jobs.report(r));
        // the original's float sum is the same quantity within float summation error: (N-1) 2^-24 relative
        long n = (long) (XS[0] - 2) * (XS[1] - 2) * (XS[2] - 2);
        assertEquals(want, ref.gosaFloat, want * (n - 1) * 0x1p-24, "float-summed gosa " + ref.gosaFloat);
    }

    @ParameterizedTest(name = "Himeno XS split {0}: field bit-identical to the serial code, gosa within the bound")
    @ValueSource(strings = {"1x1x1", "2x1x1", "1x2x2", "2x2x2", "1x1x4"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void pressureFieldIsBitIdenticalForEveryDecomposition(String split) throws IOException {
        int[] d = Blocks.parseDims(split);
        int np = d[0] * d[1] * d[2];
        Path dump = dir.resolve("p-" + split + ".bin");
        JobResult r = Jobs.run(np, Himeno.class, "--size", "XS", "--split", split, "--iters", Integer.toString(ITERS),
            "--dump", dump.toString());
        Jobs.assertPrinted(r, "Himeno: size XS, mimax = 32 mjmax = 32 mkmax = 64, " + np + " ranks as " + split);
        Jobs.assertPrinted(r, " Loop executed for " + ITERS + " times");
        assertTrue(mflops(r) > 0, () -> "MFLOPS must be positive\n" + Jobs.report(r));

        HimenoReference ref = reference();
        float[] field = readDump(dump, XS);
        float[] want = flatten(ref.p);
        assertFieldsEqual(want, field, split);

        long n = (long) (XS[0] - 2) * (XS[1] - 2) * (XS[2] - 2);
        double gosa = gosa(r);
        double bound = gosaBound(n) * ref.gosa;
        if (np == 1) {
            assertEquals(ref.gosa, gosa, 0.0, "one rank sums in the serial order");
        }
        assertTrue(Math.abs(gosa - ref.gosa) <= bound, () -> "gosa " + gosa + " differs from the serial "
            + ref.gosa + " by more than " + bound + "\n" + Jobs.report(r));
    }

    /** --warmup runs untimed iterations and starts again from the initial field: same result. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void warmupLeavesTheResultUnchanged() throws IOException {
        Path dump = dir.resolve("p-warmup.bin");
        JobResult r = Jobs.run(2, Himeno.class, "--size", "XS", "--split", "1x2x1", "--iters", Integer.toString(ITERS),
            "--warmup", "4", "--dump", dump.toString());
        assertFieldsEqual(flatten(reference().p), readDump(dump, XS), "1x2x1 after --warmup 4");
        double gosa = gosa(r);
        double bound = gosaBound((long) (XS[0] - 2) * (XS[1] - 2) * (XS[2] - 2)) * reference().gosa;
        assertTrue(Math.abs(gosa - reference().gosa) <= bound, "gosa " + gosa + " vs serial " + reference().gosa);
    }

    /** Non-zero b and varying coefficients: the edge terms of the stencil read the edge ghosts. */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void variedCoefficientsGiveTheSameFieldForEveryDecomposition() throws IOException {
        String[] splits = {"1x1x1", "2x2x2", "1x2x2"};
        float[] base = null;
        double baseGosa = 0;
        for (String split : splits) {
            int[] d = Blocks.parseDims(split);
            Path dump = dir.resolve("v-" + split + ".bin");
            JobResult r = Jobs.run(d[0] * d[1] * d[2], Himeno.class, "--size", "XS", "--split", split, "--iters",
                Integer.toString(ITERS), "--coef", "varied", "--dump", dump.toString());
            float[] field = readDump(dump, XS);
            double gosa = gosa(r);
            if (base == null) {
                base = field;
                baseGosa = gosa;
                for (float v : field) {
                    assertTrue(Float.isFinite(v), "the serial field must be finite");
                }
                assertTrue(gosa > 0);
            } else {
                assertFieldsEqual(base, field, split + " (varied)");
                double bound = gosaBound((long) (XS[0] - 2) * (XS[1] - 2) * (XS[2] - 2)) * baseGosa;
                assertTrue(Math.abs(gosa - baseGosa) <= bound, "gosa " + gosa + " vs serial " + baseGosa);
            }
        }
    }

    @Test
    void gosaBoundIsTheStatedOrderOfMagnitude() {
        double b = gosaBound(30L * 30 * 62);
        assertTrue(b > 1e-11 && b < 1.3e-11, "bound " + b);
    }

    private static void assertFieldsEqual(float[] want, float[] got, String what) {
        assertEquals(want.length, got.length, what + ": field size");
        int[] wb = new int[want.length];
        int[] gb = new int[got.length];
        long diff = 0;
        int first = -1;
        for (int x = 0; x < want.length; x++) {
            wb[x] = Float.floatToRawIntBits(want[x]);
            gb[x] = Float.floatToRawIntBits(got[x]);
            if (wb[x] != gb[x]) {
                diff++;
                if (first < 0) {
                    first = x;
                }
            }
        }
        if (diff != 0) {
            int f = first;
            int i = f / (XS[1] * XS[2]);
            int j = f / XS[2] % XS[1];
            int k = f % XS[2];
            assertArrayEquals(wb, gb, what + ": " + diff + " points differ, first at (i, j, k) = (" + i + ", " + j + ", "
                + k + "): " + got[f] + " instead of " + want[f]);
        }
    }

    private static float[] flatten(float[][][] p) {
        float[] out = new float[p.length * p[0].length * p[0][0].length];
        int x = 0;
        for (float[][] plane : p) {
            for (float[] row : plane) {
                for (float v : row) {
                    out[x++] = v;
                }
            }
        }
        return out;
    }

    static float[] readDump(Path file, int[] grid) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.BIG_ENDIAN);
        assertEquals(grid[0], b.getInt(), "mimax in the dump header");
        assertEquals(grid[1], b.getInt(), "mjmax in the dump header");
        assertEquals(grid[2], b.getInt(), "mkmax in the dump header");
        float[] f = new float[grid[0] * grid[1] * grid[2]];
        assertEquals(4L * f.length, b.remaining(), "dump size");
        b.asFloatBuffer().get(f);
        return f;
    }

    private static double gosa(JobResult r) {
        return Double.parseDouble(field(Jobs.line(r, "result "), "gosa"));
    }

    private static double mflops(JobResult r) {
        return Double.parseDouble(field(Jobs.line(r, "result "), "mflops"));
    }

    private static String field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new AssertionError("no " + name + "= in '" + line + "'");
    }
}
