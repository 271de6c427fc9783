package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hympj.rsched.Put;
import org.hympj.model.ModelParams;
import org.hympj.model.NetTopology;
import org.hympj.model.TimingModel;
import org.junit.jupiter.api.Test;

/** The scale-les3 and onesided benchmarks' pure parts: options, rank arguments, the model's ideal, the report. No job runs. */
class ReproBenchTest {
    private static BenchOptions parse(String... argv) {
        BenchOptions o = new BenchOptions();
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].startsWith("-")) {
                i = o.option(argv, i);
                assertTrue(i >= 0, "an option was not recognised");
            } else if (o.name == null) {
                o.name = argv[i];
            } else {
                o.size(argv[i]);
            }
        }
        return o;
    }

    @Test
    void schedListRunsEachPolicyAndTheRankProgramGetsItsLabel() {
        BenchOptions o = parse("scale-les3", "--sched", "bl:4,none", "--pattern", "all,ns", "--time-dilation", "800",
            "--iters", "20", "60", "872");
        assertEquals(List.of("bl:4", "none"), Bench.algorithms(o));
        assertEquals(List.of(60L, 872L), Bench.sizes(o));
        assertEquals(800.0, o.dilation);
        assertEquals("all,ns", o.pattern);
        BenchDef d = Bench.def(o);
        assertEquals("sched", d.algorithmOption());
        assertEquals("tofu", d.defaultModel());
        assertEquals(List.of("sched=bl:4", "1", "segment", "60", "872"),
            d.rankArgs(1, List.of(BufferKind.SEGMENT), Bench.sizes(o), "bl:4"));
        assertEquals(8, Bench.spec(o, 1, List.of(BufferKind.SEGMENT)).np());
        // all eight columns by default; bl+oh and rndv on request; nonsense refused
        assertEquals(Benchmarks.SCHED_POLICIES, Bench.algorithms(parse("scale-les3")));
        assertEquals(List.of("bl+oh"), Bench.algorithms(parse("scale-les3", "--sched", "bl+oh")));
        assertEquals(List.of("rndv", "none", "bl:4"), Bench.algorithms(parse("scale-les3", "--sched", "rndv,none,bl:4")));
        assertThrows(IllegalArgumentException.class, () -> Bench.algorithms(parse("scale-les3", "--sched", "rr:3")));
        assertEquals(List.of("onesided", "twosided"), Bench.algorithms(parse("onesided", "--preposted", "4")));
        assertThrows(IllegalArgumentException.class, () -> parse("onesided", "--time-dilation", "0.5"));
    }

    @Test
    void idealIsOneNotifyPlusOnePutAsTheModelPlansThem() {
        ModelParams p = ModelParams.load("ha-pacs");
        TimingModel m = new TimingModel(p, new NetTopology(2, 2, false, null, 4, 0));
        double[] small = OneSidedBench.ideal(m, BufferKind.SEGMENT, 8);
        // both are PIO writes up to tca.pio.limit: latency + bytes / PIO bandwidth
        assertEquals(p.ns("tca.pio.latency") + 32 / p.bytesPerNs("tca.pio.bandwidth"), small[0], 1.0);
        assertEquals(p.ns("tca.pio.latency") + 8 / p.bytesPerNs("tca.pio.bandwidth"), small[1], 1.0);
        double[] big = OneSidedBench.ideal(m, BufferKind.SEGMENT, 4096);
        // a DMA from a cached (promoted) descriptor: internal-memory start + bytes / DMA bandwidth
        assertEquals(p.ns("tca.dma.latency.internal") + 4096 / p.bytesPerNs("tca.dma.bandwidth"), big[1], 1.0);
        assertEquals(small[0], big[0]);
        // ranks 0 and 1 in different subclusters: the engine and its ideal go over IB
        TimingModel apart = new TimingModel(p, new NetTopology(2, 1, false, null, 4, 0));
        double[] ib = OneSidedBench.ideal(apart, BufferKind.SEGMENT, 8);
        assertEquals(p.ns("ib.latency") + 8 / p.bytesPerNs("ib.gdr.direct.bandwidth"), ib[1], 2.0);
    }

    @Test
    void onTheFourByTwoTorusNorthAndSouthAreOneLink() {
        List<Put> ns = ScaleLes3Model.enginePuts(0, "ns", 60);
        assertEquals(4, ns.size());
        for (Put q : ns) {
            assertEquals(ns.get(0).direction(), q.direction());
            assertEquals(ns.get(0).dest(), q.dest());
        }
        assertEquals(14, ScaleLes3Model.enginePuts(3, "all", 872).size());
    }

    @Test
    void travelDirectionsKeepNorthAndSouthApart() {
        List<Put> ns = ScaleLes3Model.travelDirectionPuts(0, "ns", 60);
        assertEquals(List.of(2, 2, 3, 3), ns.stream().map(Put::direction).toList());
        // with N and S on two links RSched gives S3's NS figures (Table: rr:4 4.28 us, bl:4 6.68 us)
        assertEquals(4276.8, ScaleLes3Model.scheduleTravelDirections("rr:4", "ns", 60).makespanNs(), 0.1);
        assertEquals(6681.1, ScaleLes3Model.scheduleTravelDirections("bl:4", "ns", 60).makespanNs(), 0.1);
    }

    @Test
    void overrideReplacesEveryRowOfARelaunchedPolicy() {
        List<ReproReport.Row> base = List.of(new ReproReport.Row("scale-les3-ns", "bl+", 60, 1, 10),
            new ReproReport.Row("scale-les3-ns", "bl+", 872, 1, 100), new ReproReport.Row("scale-les3-ns", "rr:4", 60, 1, 9));
        List<ReproReport.Row> newer = List.of(new ReproReport.Row("scale-les3-ns", "bl+", 60, 1, 8));
        List<ReproReport.Row> r = ReproReport.override(base, newer);
        assertEquals(2, r.size());
        assertEquals(8, ReproReport.med(r, "scale-les3-ns", "bl+", 60));
        assertTrue(Double.isNaN(ReproReport.med(r, "scale-les3-ns", "bl+", 872)));
        assertEquals(9, ReproReport.med(r, "scale-les3-ns", "rr:4", 60));
    }

    @Test
    void reportSectionsAreReplacedOrAppended() {
        String doc = ReproReport.replaceSection("# t\n", "onesided", "a\n");
        assertEquals("# t\n\n<!-- repro:onesided -->\na\n<!-- /repro:onesided -->\n", doc);
        assertEquals("# t\n\n<!-- repro:onesided -->\nb\n<!-- /repro:onesided -->\n",
            ReproReport.replaceSection(doc, "onesided", "b"));
    }
}
