package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver's pure parts: section replacement, medians, targets, the "met?" cell. No benchmark runs. */
class CompareTest {
    @Test
    void replacesOnlyItsSection() {
        String doc = "# t\nintro\n<!-- compare:bw -->\nold bw\n<!-- /compare:bw -->\nmiddle\n"
            + "<!-- compare:pingpong -->\nold\n<!-- /compare:pingpong -->\ntail\n";
        String out = Compare.replaceSection(doc, "pingpong", "new table\n");
        assertEquals("# t\nintro\n<!-- compare:bw -->\nold bw\n<!-- /compare:bw -->\nmiddle\n"
            + "<!-- compare:pingpong -->\nnew table\n<!-- /compare:pingpong -->\ntail\n", out);
    }

    @Test
    void appendsAMissingSection() {
        String out = Compare.replaceSection("# t\n", "halo3d", "x");
        assertEquals("# t\n\n<!-- compare:halo3d -->\nx\n<!-- /compare:halo3d -->\n", out);
        // a section whose name is a prefix of another is not confused with it
        String two = Compare.replaceSection(out, "halo3d-prepass", "y");
        assertTrue(two.contains("<!-- compare:halo3d -->\nx\n"));
        assertEquals(two, Compare.replaceSection(two, "halo3d-prepass", "y"));
    }

    @Test
    void unbalancedMarkersAreRefused() {
        assertThrows(IllegalStateException.class,
            () -> Compare.replaceSection("<!-- compare:bw -->\nno end\n", "bw", "x"));
    }

    @Test
    void anEarlierCompareOfTheSameSectionKeepsItsRows(@TempDir Path dir) throws IOException {
        assertEquals(dir.resolve("2026-11-27-halo.csv"), Compare.freshCsv(dir, "2026-11-27-halo"));
        Files.writeString(dir.resolve("2026-11-27-halo.csv"), "rows of the first");
        assertEquals(dir.resolve("2026-11-27-halo-2.csv"), Compare.freshCsv(dir, "2026-11-27-halo"));
        Files.writeString(dir.resolve("2026-11-27-halo-2.csv"), "rows of the second");
        assertEquals(dir.resolve("2026-11-27-halo-3.csv"), Compare.freshCsv(dir, "2026-11-27-halo"));
        assertEquals("rows of the first", Files.readString(dir.resolve("2026-11-27-halo.csv")));
    }

    @Test
    void coreToCoreSummaryCountsTheLaunchesWithTheCpusFarApart() {
        List<Quiet.Idle> idles = List.of(new Quiet.Idle(1, 0, true, 41.2).after(38.0),
            new Quiet.Idle(1, 0, true, 221.0).after(205.0), new Quiet.Idle(1, 0, true, 48.9),
            new Quiet.Idle(1, 0, true, Double.NaN));
        String s = Compare.coreToCoreSummary(idles);
        assertTrue(s.contains("41–221 ns before, median 49"), s);
        assertTrue(s.endsWith("1 of 3 launches with the CPUs far apart (above 120 ns) before and after"), s);
        // a launch near before and far after changed mode while it ran: counted apart, in neither mode
        String changed = Compare.coreToCoreSummary(List.of(new Quiet.Idle(1, 0, true, 22.5).after(190.0),
            new Quiet.Idle(1, 0, true, 200.0).after(210.0)));
        assertTrue(changed.endsWith("1 of 2 launches with the CPUs far apart (above 120 ns) before and after, "
            + "1 changing mode between the two trips"), changed);
        assertEquals("core-to-core trip not measured",
            Compare.coreToCoreSummary(List.of(new Quiet.Idle(1, 0, true, Double.NaN))));
    }

    @Test
    void coreToCoreTripIsMeasuredOnTwoCpus() {
        double ns = CoreToCore.oneWayNanos();
        if (Runtime.getRuntime().availableProcessors() < 2) {
            assertTrue(Double.isNaN(ns), "one CPU: not measured, was " + ns);
        } else {
            // a cache line between two cores: tens to hundreds of ns. NaN when a thread got no CPU for a
            // second (the machine busy beside the test): tried again, a few times
            for (int attempt = 1; Double.isNaN(ns) && attempt < 5; attempt++) {
                ns = CoreToCore.oneWayNanos();
            }
            assertTrue(ns > 1 && ns < 100_000, "one-way trip " + ns + " ns");
        }
    }

    @Test
    void medianAsTheAnchors() {
        assertEquals(2.0, Rows.median(new double[] {3, 1, 2}));
        assertEquals(2.5, Rows.median(new double[] {4, 1, 3, 2}));
    }

    @Test
    void targets() {
        assertEquals("≤ 1.0", Targets.describe(Targets.of("pingpong", 8)));
        assertEquals("≤ 0.5", Targets.describe(Targets.of("pingpong", 4096)));
        assertEquals("heap ≤ 1.3, segment ≤ 1.0", Targets.describe(Targets.of("pingpong", 1048576)));
        assertEquals("segment ≥ 1.0", Targets.describe(Targets.of("bw", 65536)));
        assertEquals("—", Targets.describe(Targets.of("bw", 4096)));
        assertEquals("—", Targets.describe(Targets.of("persistent", 65536)));
        assertEquals("≤ 1.0", Targets.describe(Targets.of("halo3d", 128)));
    }

    @Test
    void metCell() {
        List<BufferKind> both = List.of(BufferKind.HEAP, BufferKind.SEGMENT);
        assertEquals("heap no, segment yes", Compare.met(Targets.of("pingpong", 4194304),
            Map.of(BufferKind.HEAP, 1.31, BufferKind.SEGMENT, 0.99), both));
        assertEquals("yes", Compare.met(Targets.of("pingpong", 4194304),
            Map.of(BufferKind.HEAP, 1.29, BufferKind.SEGMENT, 1.0), both));
        assertEquals("no", Compare.met(Targets.of("pingpong", 8),
            Map.of(BufferKind.HEAP, 1.01, BufferKind.SEGMENT, 1.5), both));
        assertEquals("segment yes", Compare.met(Targets.of("bw", 65536),
            Map.of(BufferKind.HEAP, 0.5, BufferKind.SEGMENT, 1.2), both));
        assertEquals("heap yes, segment not run", Compare.met(Targets.of("halo3d", 16),
            Map.of(BufferKind.HEAP, 0.5, BufferKind.SEGMENT, Double.NaN), List.of(BufferKind.HEAP)));
    }

    @Test
    void spreadOverLaunchesNamesTheSlowestAndTheUnstable() {
        BenchOptions o = new BenchOptions();
        o.name = "pingpong";
        Compare c = new Compare(o);
        for (int rep = 1; rep <= 5; rep++) {
            c.addRow("openmpi-c,pingpong,blocking,8," + rep + "," + (0.30 + 0.01 * rep) + ",us");
            // one launch of five is four times slower: the spread must show it, not the median
            c.addRow("hympj,pingpong-blocking,heap,8," + rep + "," + (rep == 3 ? 1.6 : 0.4) + ",us");
        }
        assertEquals(1.6, c.slowest("hympj", "pingpong-blocking", "heap", 8, true));
        assertEquals(0.4, c.median("hympj", "pingpong-blocking", "heap", 8));
        assertEquals(4.0, Compare.spread(0.4, 1.6, true), 1e-12);
        assertEquals(2.0, Compare.spread(10.0, 5.0, false), 1e-12);  // bandwidth: half the median is twice as slow
        String t = c.spreadTable(List.of(8L), Map.of("HyMPJ heap", new String[] {"hympj", "pingpong-blocking", "heap"}),
            true, 3);
        assertTrue(t.contains("0.400 / 1.600, 4.00"), t);
        assertTrue(t.contains("no (HyMPJ heap)"), t);
    }

    @Test
    void ratiosPairedByRoundCompareLaunchesThatRanBackToBack() {
        BenchOptions o = new BenchOptions();
        o.name = "persistent";
        Compare c = new Compare(o);
        // Open MPI got the fast mode in rounds 1-2, HyMPJ only in round 1: the ratio of the medians
        // (0.30 / 0.16) says 1.9 though every round's HyMPJ launch was faster than its neighbour
        double[] mpi = {0.16, 0.16, 0.62, 0.62, 0.62};
        double[] ours = {0.09, 0.30, 0.29, 0.30, 0.31};
        for (int rep = 1; rep <= 5; rep++) {
            c.addRow("openmpi-c,pingpong-persistent,default,8," + rep + "," + mpi[rep - 1] + ",us");
            c.addRow("hympj,pingpong-persistent,heap,8," + rep + "," + ours[rep - 1] + ",us");
        }
        c.addRow("hympj,pingpong-persistent,heap,4096,1,0.5,us"); // one round only: no pairing
        c.addRow("openmpi-c,pingpong-persistent,default,4096,1,1.0,us");
        Map<String, String[]> cols = new java.util.LinkedHashMap<>();
        cols.put("Open MPI", new String[] {"openmpi-c", "pingpong-persistent", "default"});
        cols.put("HyMPJ heap", new String[] {"hympj", "pingpong-persistent", "heap"});
        String t = c.pairedTable(List.of(8L, 4096L), cols, true);
        // per round 0.56, 1.88, 0.47, 0.48, 0.50: median 0.50, worst 1.88
        assertTrue(t.contains("| 8 B | 0.50 (1.88, 5) |"), t);
        assertTrue(t.contains("| 4 KB | — |"), t);
        assertEquals("", c.pairedTable(List.of(4096L), cols, true));
    }

    @Test
    void openMpisTransportIsWhatTheAnchorScriptRuns() {
        assertEquals("ob1 + vader", Compare.openMpiTransport(null));
        assertEquals("ob1 + vader", Compare.openMpiTransport(" "));
        assertEquals("ob1, btl self,tcp from OMPI_BTL", Compare.openMpiTransport("self,tcp"));
    }

    @Test
    void launchesSplitByTheMachinesMode() {
        BenchOptions o = new BenchOptions();
        o.name = "pingpong";
        Compare c = new Compare(o);
        Map<String, String[]> cols = new java.util.LinkedHashMap<>();
        cols.put("Open MPI", new String[] {"openmpi-c", "pingpong", "blocking"});
        cols.put("HyMPJ heap", new String[] {"hympj", "pingpong-blocking", "heap"});
        for (int rep = 1; rep <= 4; rep++) {
            boolean far = rep > 2; // rounds 3 and 4 ran far apart, for both systems
            c.addRow("openmpi-c,pingpong,blocking,8," + rep + "," + (far ? 0.36 : 0.12) + ",us");
            c.addRow("hympj,pingpong-blocking,heap,8," + rep + "," + (far ? 0.33 : 0.14) + ",us");
            c.trip(rep, "openmpi", new Quiet.Idle(1, 0, true, far ? 210 : 40));
            c.trip(rep, "hympj heap", new Quiet.Idle(1, 0, true, far ? 205 : 35));
        }
        // round 5: near before HyMPJ's launch, far after it (its figure a far one): in neither mode
        c.addRow("openmpi-c,pingpong,blocking,8,5,0.11,us");
        c.addRow("hympj,pingpong-blocking,heap,8,5,0.32,us");
        c.trip(5, "openmpi", new Quiet.Idle(1, 0, true, 22.0).after(23.0));
        c.trip(5, "hympj heap", new Quiet.Idle(1, 0, true, 22.5).after(190.0));
        String t = c.modeTable(List.of(8L), cols, 3);
        assertTrue(t.contains("| 8 B | 0.120 (3) / 0.360 (2) | 0.140 (2) / 0.330 (2) | 1.17 / 0.92 |"), t);
        // within each mode: near 0.12, 0.12, 0.11 → 0.12 / 0.12 = 1.00; far 0.36, 0.36 → 1.00; HyMPJ near
        // 0.14, 0.14, far 0.33, 0.33 (round 5 changed mode: in neither)
        String within = c.modeSpreadTable(List.of(8L), cols, true);
        assertTrue(within.contains("| 8 B | 1.00 / 1.00 | 1.00 / 1.00 | yes |"), within);
        c.addRow("hympj,pingpong-blocking,heap,8,6,0.30,us"); // a near launch at a far figure: 0.30 / 0.14
        c.trip(6, "hympj heap", new Quiet.Idle(1, 0, true, 30));
        within = c.modeSpreadTable(List.of(8L), cols, true);
        assertTrue(within.contains("| 8 B | 1.00 / 1.00 | 2.14 / 1.00 | no (HyMPJ heap) |"), within);
        // one mode only: no table (nothing to split)
        Compare one = new Compare(o);
        one.addRow("hympj,pingpong-blocking,heap,8,1,0.14,us");
        one.trip(1, "hympj heap", new Quiet.Idle(1, 0, true, 40));
        assertEquals("", one.modeTable(List.of(8L), cols, 3));
        assertEquals("", one.modeSpreadTable(List.of(8L), cols, true));
    }

    @Test
    void rowFormatMatchesTheAnchors() {
        assertEquals("hympj,pingpong-blocking,heap,8,3,0.137,us",
            Rows.row("pingpong-blocking", "heap", 8, 3, 0.1374, 3, "us"));
        assertEquals("hympj,bw-window64,segment,65536,1,10500.0,MB/s",
            Rows.row("bw-window64", "segment", 65536, 1, 10500.04, 1, "MB/s"));
    }
}
