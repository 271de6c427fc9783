package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The collective benchmarks' plumbing without running anything: --algo and rank-count sizes
 * expand to the right launches and rank-program arguments, the allreduce target, and the
 * comparison table (one column per algorithm, rd ÷ ring, the fastest; the target only at the
 * benchmark's own rank count).
 */
class CollectiveBenchTest {
    private static BenchOptions options(String name, String... argv) {
        BenchOptions o = new BenchOptions();
        o.name = name;
        for (int i = 0; i < argv.length; i++) {
            int last = o.option(argv, i);
            if (last < 0) {
                o.size(argv[i]);
            } else {
                i = last;
            }
        }
        return o;
    }

    @Test
    void barrierAlgorithmsAndRankCounts() {
        assertEquals(List.of("dissemination", "rd", "ring", "shm"), Bench.algorithms(options("barrier")));
        assertEquals(List.of("dissemination", "rd", "ring", "shm"),
            Bench.algorithms(options("barrier", "--algo", "all")));
        assertEquals(Arrays.asList("ring"), Bench.algorithms(options("barrier", "--algo", "ring")));
        assertEquals(Arrays.asList((String) null), Bench.algorithms(options("allreduce")));
        assertThrows(IllegalArgumentException.class, () -> Bench.algorithms(options("barrier", "--algo", "tree")));
        assertThrows(IllegalArgumentException.class, () -> Bench.algorithms(options("pingpong", "--algo", "rd")));
        // sizes are rank counts: --np N alone is the size N; default 8
        assertEquals(List.of(5L), Bench.sizes(options("barrier", "--np", "5")));
        assertEquals(List.of(8L), Bench.sizes(options("barrier")));
        assertEquals(List.of(2L, 3L), Bench.sizes(options("barrier", "2", "3")));
        assertEquals(List.of(8L, 65536L), Bench.sizes(options("allreduce", "--np", "4")));
    }

    @Test
    void rankProgramArguments() {
        BenchOptions o = options("barrier", "--algo", "rd", "--np", "3");
        assertEquals(3, Bench.spec(o, 2, List.of(BufferKind.HEAP)).np());
        assertEquals(List.of("barrier=rd", "2", "heap", "3"),
            Bench.def(o).rankArgs(2, List.of(BufferKind.HEAP), Bench.sizes(o), o.algo));
        BenchOptions a = options("allreduce", "8", "1024");
        assertEquals(List.of("allreduce", "1", "heap", "8", "1024"),
            Bench.def(a).rankArgs(1, List.of(BufferKind.HEAP), Bench.sizes(a), null));
        assertEquals(8, Bench.spec(a, 1, List.of(BufferKind.HEAP)).np());
    }

    @Test
    void allreduceTargetAt8Bytes() {
        assertEquals(1, Targets.of("allreduce", 8).size());
        assertTrue(Targets.of("allreduce", 8).get(0).met(1.0));
        assertTrue(!Targets.of("allreduce", 8).get(0).met(1.01));
        assertTrue(Targets.of("allreduce", 65536).isEmpty());
        assertTrue(Targets.of("barrier", 8).isEmpty());
        assertTrue(Targets.lowerIsBetter("allreduce") && Targets.lowerIsBetter("barrier"));
    }

    @Test
    void barrierTable() {
        Compare c = new Compare(options("barrier", "2", "4"));
        for (String line : new String[] {
            "openmpi-c,barrier,default,2,1,1.000,us", "openmpi-c,barrier,default,4,1,10.000,us",
            "openmpi-c,barrier,default,4,2,30.000,us",
            "hympj,barrier,dissemination,2,1,2.000,us", "hympj,barrier,rd,2,1,3.000,us", "hympj,barrier,ring,2,1,1.500,us",
            "hympj,barrier,shm,2,1,0.500,us",
            "hympj,barrier,dissemination,4,1,20.000,us", "hympj,barrier,rd,4,1,10.000,us", "hympj,barrier,ring,4,1,40.000,us",
            "hympj,barrier,shm,4,1,15.000,us"}) {
            c.addRow(line);
        }
        String t = c.table(Bench.def(options("barrier")), List.of(2L, 4L), List.of(BufferKind.HEAP));
        // the comparison, then (after a blank line) the spread over launches
        String[] lines = t.substring(0, t.indexOf("\n\n")).split("\n");
        assertEquals(4, lines.length, t);
        assertTrue(lines[0].startsWith("| ranks | Open MPI | HyMPJ dissemination | HyMPJ rd | HyMPJ ring | HyMPJ shm | "
            + "ratio dissemination"), t);
        // 2 ranks: ratios 2.0/3.0/1.5/0.5, rd ÷ ring 2.0, rd ÷ dissemination 1.5, shm fastest;
        // 4 ranks: Open MPI median of 10 and 30 = 20
        assertEquals("| 2 ranks | 1.000 | 2.000 | 3.000 | 1.500 | 0.500 | 2.00 | 3.00 | 1.50 | 0.50 | 2.00 | 1.50 | shm "
            + "| — | — |", lines[2]);
        assertEquals("| 4 ranks | 20.000 | 20.000 | 10.000 | 40.000 | 15.000 | 1.00 | 0.50 | 2.00 | 0.75 | 0.25 | 0.50 | rd "
            + "| — | — |", lines[3]);
        assertTrue(t.contains("Spread over launches"), t);
    }

    @Test
    void allreduceTable() {
        Compare c = new Compare(options("allreduce"));
        c.addRow("openmpi-c,allreduce,default,8,1,10.000,us");
        c.addRow("hympj,allreduce,heap,8,1,9.000,us");
        c.addRow("openmpi-c,allreduce,default,65536,1,100.000,us");
        c.addRow("hympj,allreduce,heap,65536,1,250.000,us");
        String t = c.table(Bench.def(options("allreduce")), List.of(8L, 65536L), List.of(BufferKind.HEAP));
        String[] lines = t.split("\n");
        assertEquals("| 8 B | 10.000 | 9.000 | 0.90 | ≤ 1.0 | yes |", lines[2], t);
        assertEquals("| 64 KB | 100.000 | 250.000 | 2.50 | — | — |", lines[3], t);
        // at another rank count the 8-rank target does not apply
        Compare four = new Compare(options("allreduce", "--np", "4"));
        four.addRow("openmpi-c,allreduce,default,8,1,10.000,us");
        four.addRow("hympj,allreduce,heap,8,1,11.000,us");
        String t4 = four.table(Bench.def(options("allreduce")), List.of(8L), List.of(BufferKind.HEAP));
        assertEquals("| 8 B | 10.000 | 11.000 | 1.10 | — | — |", t4.split("\n")[2], t4);
    }
}
