package org.hympj.perf.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hympj.perf.ScaleLes3Bench;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.hympj.tools.sim.SimMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Virtual time (issue 15): under a model the emulator's answer is the model's, not the
 * machine's. The SCALE-LES3 exchange of S3 on 9 ranks (3×3 torus, tofu, all 8 directions,
 * k=872, BL(4)) — 9 rank JVMs on 2 cores, no time dilation — measures what the simulator
 * predicts for the same program, and the same with two threads burning the CPUs beside it.
 * Ratios only: no assertion on wall-clock time.
 */
class VirtualTimeTest {
    private static final Pattern MEDIAN = Pattern.compile("# scale-les3-all k=872 bl:4: .*per exchange median ([0-9.]+)");

    /** The emulated per-exchange median (modelled µs) of the cell, from rank 0's remark. */
    private static double emulated() throws IOException {
        return emulated(LaunchSpec.of(9, ScaleLes3Bench.class, "sched=bl:4", "1", "segment", "872").sched("bl:4"));
    }

    /** As above, the job's --sched left at none: rr:4 then bl:4 in one job, each on a communicator with the hint. */
    private static double emulatedByHint() throws IOException {
        return emulated(LaunchSpec.of(9, ScaleLes3Bench.class, "sched", "1", "segment", "872")
            .jvmArg("-Dhympj.bench.policies=rr:4,bl:4"));
    }

    private static double emulated(LaunchSpec spec) throws IOException {
        JobResult r = Launcher.run(spec
            .model("tofu").computeScale(0).jvmArg("-Dhympj.bench.patterns=all")
            .jvmArg("-Dhympj.bench.iters=5").jvmArg("-Dhympj.bench.warmup=2")
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(150)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        for (String line : r.output(0).split("\n")) {
            Matcher m = MEDIAN.matcher(line);
            if (m.find()) {
                return Double.parseDouble(m.group(1));
            }
        }
        throw new AssertionError("no scale-les3-all remark in rank 0's output:\n" + r.output(0));
    }

    private static double simulated() {
        return SimMain.scaleLes3(Map.of("--iters", "5", "--warmup", "2", "--np", "9", "--model", "tofu"), "all", "bl:4", 872)
            .value();
    }

    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void scaleLes3OnNineRanksIsTheSimulatorsFigure() throws IOException {
        double sim = simulated();
        double emu = emulated();
        assertEquals(1.0, emu / sim, 0.01, () -> String.format(java.util.Locale.ROOT,
            "emulated %.3f us, simulated %.3f us", emu, sim));
    }

    /**
     * The per-communicator policy (hint hympj.sched, Comm#dup(Map)): the same cell run on a
     * communicator with the hint bl:4, after the rr:4 cell in the same job, is the job-wide
     * --sched bl:4 figure to the last printed digit.
     */
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void theSchedHintGivesTheJobWideFigure() throws IOException {
        double jobWide = emulated();
        double hinted = emulatedByHint();
        assertEquals(jobWide, hinted, 0.0, "--sched bl:4 vs the hint bl:4 after rr:4 in one job");
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void theSameFigureBesideTwoCpuBurningThreads() throws Exception {
        double quiet = emulated();
        double b = CpuBurners.beside(VirtualTimeTest::emulated);
        assertTrue(Math.abs(b / quiet - 1) <= 0.01, () -> String.format(java.util.Locale.ROOT,
            "quiet %.3f us, beside two burning threads %.3f us", quiet, b));
    }

    private static final Pattern HALO_ROW = Pattern.compile("hympj,halo-3d,(\\w+),64,1,([0-9.]+),us/iter");

    /**
     * The per-communicator route (hint hympj.route): S1's 3D halo at N=64 over IB and over TCA in
     * one job, each on a communicator with its route hint (the job's --route auto), gives each
     * route's figure of the simulator (which runs the route job-wide), to the last printed digit.
     */
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void theRouteHintGivesEachRoutesFigure() throws IOException {
        int n = 64;
        JobResult r = Launcher.run(LaunchSpec.of(8, org.hympj.perf.fabric.HaloRank.class, "halo-3d", "1", "3", "2", "4",
                Integer.toString(n))
            .model("ha-pacs").subcluster(8).computeScale(0).eagerLimit(1024).inlineLimit(1024)
            .segmentBytes(8L * (n * n * n + 6L * n * n) + (16L << 20))
            .jvmArg("-Dhympj.halo.routes=ib,tca").output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(150)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        Map<String, Double> emu = new java.util.HashMap<>();
        Matcher m = HALO_ROW.matcher(r.output(0));
        while (m.find()) {
            emu.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        assertEquals(java.util.Set.of("ib", "tca"), emu.keySet(), r.output(0));
        for (String route : new String[] {"ib", "tca"}) {
            double sim = SimMain.halo(Map.of("--iters", "4", "--warmup", "2"), 3, route, n).value();
            assertEquals(sim, emu.get(route), 0.005, "route " + route + " by hint vs the simulator's job-wide route");
        }
        assertTrue(emu.get("ib") > 1.5 * emu.get("tca"), "IB-only is the contended route: " + emu);
    }

    private static final Pattern BATCHES = Pattern.compile("# scale-les3-all k=872 none: .*batches \\[([0-9. ]+)\\]");

    /**
     * The unscheduled exchange of all 8 directions (diagonals over two links: transfers contend
     * for links at the same modelled instants) is where booking order decides the figure: ranks
     * book in modelled-instant order (VirtualOrder), so every batch gives the same figure, no
     * rank reports a booking out of order, and the figure is the simulator's (whose events at one
     * instant go in the same order). The first exchanges after the cell's start differ (both
     * sides): 4 untimed ones.
     */
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void contendedUnscheduledExchangeIsTheSameInEveryBatch() throws IOException {
        JobResult r = Launcher.run(LaunchSpec.of(9, ScaleLes3Bench.class, "sched=none", "1", "segment", "872")
            .model("tofu").sched("none").computeScale(0).jvmArg("-Dhympj.bench.patterns=all")
            .jvmArg("-Dhympj.bench.iters=4").jvmArg("-Dhympj.bench.warmup=4")
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(150)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        assertFalse(r.allOutput().contains("booking(s) of rank"), r::allOutput);
        double sim = SimMain.scaleLes3(Map.of("--iters", "20", "--warmup", "4", "--np", "9", "--model", "tofu"),
            "all", "none", 872).value();
        Matcher m = BATCHES.matcher(r.output(0));
        assertTrue(m.find(), () -> "no batches in rank 0's output:\n" + r.output(0));
        String[] batches = m.group(1).trim().split(" +");
        assertTrue(batches.length >= 2, m.group(1));
        for (String b : batches) {
            assertEquals(batches[0], b, () -> "batches differ: " + m.group(1));
        }
        double emu = Double.parseDouble(batches[0]);
        assertEquals(1.0, emu / sim, 0.001, () -> String.format(java.util.Locale.ROOT,
            "emulated %.3f us per exchange, simulated %.3f", emu, sim));
    }

    private static final Pattern PER_ITERATION = Pattern.compile("time per iteration ([0-9.]+) us");

    /**
     * The flagship (README's command, 8 ranks on the emulated HA-PACS/TCA, subclusters of 4) with
     * --compute-scale 0 prints the simulator's prediction of its halo exchange
     * ({@code hympj-sim jacobi3d}).
     */
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void flagshipJacobi3dIsTheSimulatorsFigure() throws IOException {
        JobResult r = Launcher.run(LaunchSpec.of(8, org.hympj.examples.Jacobi3D.class, "--n", "16", "--iters", "40")
            .model("ha-pacs").subcluster(4).computeScale(0)
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(150)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        Matcher m = PER_ITERATION.matcher(r.output(0));
        assertTrue(m.find(), () -> "no time per iteration in rank 0's output:\n" + r.output(0));
        double emu = Double.parseDouble(m.group(1));
        double sim = SimMain.jacobi3d(Map.of("--iters", "40"), 16).value();
        assertEquals(1.0, emu / sim, 0.01, () -> String.format(java.util.Locale.ROOT,
            "Jacobi3D printed %.2f us per iteration, the simulator predicts %.3f", emu, sim));
    }
}
