package org.hympj.shm.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.hympj.api.CartComm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CartComm#dimsCreate} (MPI_Dims_create): the examples of the MPI standard (section
 * "Cartesian Convenience Function: MPI_DIMS_CREATE"), its defining properties over many
 * inputs, bad arguments, and — where Open MPI is installed — the same answers as Open MPI's
 * MPI_Dims_create for every input tried.
 */
class DimsCreateTest {
    /** The fixed-dimension patterns tried for every node count (0 = free). */
    static final int[][] PATTERNS = {{0}, {0, 0}, {0, 0, 0}, {0, 0, 0, 0}, {2, 0}, {0, 3, 0}, {0, 0, 2}, {4, 0, 0},
        {0, 1, 0}, {3, 0, 0, 0}};
    static final int MAX_NODES = 130;

    @Test
    void examplesOfTheMpiStandard() {
        assertArrayEquals(new int[] {3, 2}, CartComm.dimsCreate(6, new int[] {0, 0}));
        assertArrayEquals(new int[] {7, 1}, CartComm.dimsCreate(7, new int[] {0, 0}));
        assertArrayEquals(new int[] {2, 3, 1}, CartComm.dimsCreate(6, new int[] {0, 3, 0}));
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(7, new int[] {0, 3, 0}));
        assertArrayEquals(new int[] {3, 2, 2}, CartComm.dimsCreate(12, new int[] {0, 0, 0}));
        assertArrayEquals(new int[] {2, 2, 2}, CartComm.dimsCreate(8, new int[] {0, 0, 0}));
        assertArrayEquals(new int[] {1, 1, 1}, CartComm.dimsCreate(1, new int[] {0, 0, 0}));
    }

    @Test
    void theArgumentIsNotModified() {
        int[] dims = {0, 3, 0};
        int[] out = CartComm.dimsCreate(6, dims);
        assertArrayEquals(new int[] {0, 3, 0}, dims);
        assertTrue(out != dims);
    }

    @Test
    void everyResultMultipliesToTheNodesKeepsFixedDimsAndIsNonIncreasing() {
        int checked = 0;
        for (int n = 1; n <= MAX_NODES; n++) {
            for (int[] pattern : PATTERNS) {
                int fixed = 1;
                for (int x : pattern) {
                    fixed *= Math.max(x, 1);
                }
                if (n % fixed != 0) {
                    int nn = n;
                    assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(nn, pattern),
                        () -> n(nn, pattern) + " should be refused");
                    continue;
                }
                int[] d = CartComm.dimsCreate(n, pattern);
                String what = n(n, pattern) + " = " + Arrays.toString(d);
                assertEquals(pattern.length, d.length, what);
                long product = 1;
                int prevFree = Integer.MAX_VALUE;
                for (int i = 0; i < d.length; i++) {
                    assertTrue(d[i] >= 1, what);
                    product *= d[i];
                    if (pattern[i] != 0) {
                        assertEquals(pattern[i], d[i], what + ": a fixed dimension changed");
                    } else {
                        assertTrue(d[i] <= prevFree, what + ": free dimensions not in non-increasing order");
                        prevFree = d[i];
                    }
                }
                assertEquals(n, product, what);
                checked++;
            }
        }
        assertTrue(checked > 500, "too few cases: " + checked);
    }

    @Test
    void squaresAndCubesAreSplitEvenly() {
        for (int k = 1; k <= 12; k++) {
            assertArrayEquals(new int[] {k, k}, CartComm.dimsCreate(k * k, new int[] {0, 0}), "n = " + k * k);
            assertArrayEquals(new int[] {k, k, k}, CartComm.dimsCreate(k * k * k, new int[] {0, 0, 0}), "n = " + k * k * k);
        }
    }

    @Test
    void badArguments() {
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(0, new int[] {0}));
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(-4, new int[] {0, 0}));
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(4, null));
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(4, new int[0]));
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(4, new int[] {-1, 0}));
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(6, new int[] {2, 2}));
        assertThrows(IllegalArgumentException.class, () -> CartComm.dimsCreate(6, new int[] {4, 0}));
    }

    private static String n(int n, int[] pattern) {
        return "dimsCreate(" + n + ", " + Arrays.toString(pattern) + ")";
    }

    // ------------------------------------------------------------------ against Open MPI

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void sameAnswersAsOpenMpi(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("mpicc") && onPath("mpirun"), "Open MPI (mpicc, mpirun) is not installed");
        Path src = dir.resolve("dims.c");
        StringBuilder c = new StringBuilder();
        c.append("#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n")
            .append("  MPI_Init(&argc, &argv);\n  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);\n")
            .append("  int d[8];\n");
        Map<String, int[]> cases = new LinkedHashMap<>();
        for (int n = 1; n <= MAX_NODES; n++) {
            for (int[] p : PATTERNS) {
                cases.put(n + " " + Arrays.toString(p), null);
                c.append("  {");
                for (int i = 0; i < p.length; i++) {
                    c.append("d[").append(i).append("]=").append(p[i]).append(';');
                }
                c.append(" int e = MPI_Dims_create(").append(n).append(", ").append(p.length).append(", d);")
                    .append(" printf(\"").append(n).append(' ').append(Arrays.toString(p)).append(" =\");")
                    .append(" if (e != MPI_SUCCESS) printf(\" ERR\"); else for (int i = 0; i < ").append(p.length)
                    .append("; i++) printf(\" %d\", d[i]); printf(\"\\n\"); }\n");
            }
        }
        c.append("  MPI_Finalize();\n  return 0;\n}\n");
        Files.writeString(src, c.toString(), StandardCharsets.UTF_8);
        Path exe = dir.resolve("dims");
        run(dir, "mpicc", "-O0", "-o", exe.toString(), src.toString());
        String out = run(dir, "mpirun", "--allow-run-as-root", "-np", "1", exe.toString());
        List<String> differ = new ArrayList<>();
        int compared = 0;
        for (String line : out.split("\n")) {
            int eq = line.indexOf(" =");
            if (eq < 0 || !cases.containsKey(line.substring(0, eq))) {
                continue;
            }
            String[] key = line.substring(0, eq).split(" ", 2);
            int n = Integer.parseInt(key[0]);
            int[] pattern = Arrays.stream(key[1].replaceAll("[\\[\\] ]", "").split(",")).mapToInt(Integer::parseInt)
                .toArray();
            String theirs = line.substring(eq + 2).trim();
            String ours;
            try {
                ours = Arrays.toString(CartComm.dimsCreate(n, pattern)).replaceAll("[\\[\\],]", "");
            } catch (IllegalArgumentException e) {
                ours = "ERR";
            }
            if (!ours.equals(theirs)) {
                differ.add(n(n, pattern) + ": Open MPI " + theirs + ", HyMPJ " + ours);
            }
            compared++;
        }
        assertEquals(cases.size(), compared, "Open MPI printed fewer answers than asked:\n" + out);
        if (!differ.isEmpty()) {
            fail(differ.size() + " of " + compared + " answers differ from Open MPI's:\n" + String.join("\n", differ));
        }
    }

    private static boolean onPath(String cmd) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, cmd))) {
                return true;
            }
        }
        return false;
    }

    /** Runs a command with its output in a file, at most 60 s. */
    private static String run(Path dir, String... cmd) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail(String.join(" ", cmd) + " did not end within 60 s");
        }
        String s = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), () -> String.join(" ", cmd) + " failed:\n" + s);
        return s;
    }
}
