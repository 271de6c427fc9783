package org.hympj.perf.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hympj.model.ModelParams;
import org.hympj.perf.OneSidedBench;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.hympj.tools.sim.SimMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-sided engine ({@code --p2p onesided}, S2) on virtual time (issue 15): an 8-byte
 * isend/irecv ping-pong of {@code bin/hympj-bench onesided} (2 rank JVMs through the launcher,
 * segment buffers, no dilation flag) measures what the model says — pre-posted, one put plus
 * one polling delay (docs/ONESIDED.md, "On virtual time"), the same beside two threads burning
 * both CPUs; with the polling delay set to 0, one put pre-posted and S2's ideal (address notify
 * + put) on demand: the engine adds nothing the model does not hold. The model's figures are
 * the bench's own rows, each transfer planned alone on empty timelines; the simulator
 * ({@code --p2p onesided}) predicts the ping-pong and the flagship's one-sided halo exchange.
 * Ratios only.
 */
class OneSidedVirtualTimeTest {
    private static final Pattern ROW = Pattern.compile("hympj,(onesided-lat|onesided-ideal),([a-z0-9-]+),8,1,([0-9.]+),us");

    /** The 8-byte rows of one launch: "lat" (modelled half round trip), "put", "notify", "ideal" (µs). */
    private static Map<String, Double> pingPong(String model, int preposted) throws IOException {
        JobResult r = Launcher.run(LaunchSpec.of(2, OneSidedBench.class, "p2p=onesided", "1", "segment", "8")
            .model(model).p2p("onesided").computeScale(0)
            .jvmArg("-Dhympj.bench.preposted=" + preposted).jvmArg("-Dhympj.bench.bw=false")
            .jvmArg("-Dhympj.bench.warmup=50").jvmArg("-Dhympj.bench.iters=200")
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(90)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        assertFalse(r.allOutput().contains("booking(s) of rank"), r::allOutput);
        Map<String, Double> rows = new HashMap<>();
        Matcher m = ROW.matcher(r.output(0));
        while (m.find()) {
            rows.put(m.group(1).equals("onesided-lat") ? "lat" : m.group(2), Double.parseDouble(m.group(3)));
        }
        assertTrue(rows.keySet().containsAll(java.util.List.of("lat", "put", "ideal")), () -> r.output(0));
        return rows;
    }

    private static String describe(Map<String, Double> rows) {
        return String.format(Locale.ROOT, "half round trip %.3f us; the model: put %.3f, ideal %.3f", rows.get("lat"),
            rows.get("put"), rows.get("ideal"));
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void prePostedIsOnePutAndOnePollingDelayQuietAndBesideTwoCpuBurners() throws Exception {
        double delay = ModelParams.load("ha-pacs").ns("onesided.poll.delay") / 1000.0;
        assertTrue(delay > 0, "ha-pacs sets a polling delay");
        Map<String, Double> quiet = pingPong("ha-pacs", 4);
        assertEquals(1.0, quiet.get("lat") / (quiet.get("put") + delay), 0.01,
            () -> describe(quiet) + ", polling delay " + delay);
        Map<String, Double> busy = CpuBurners.beside(() -> pingPong("ha-pacs", 4));
        assertEquals(1.0, busy.get("lat") / quiet.get("lat"), 0.005,
            () -> "quiet: " + describe(quiet) + "; beside two burning threads: " + describe(busy));
        double sim = SimMain.pingPong(Map.of("--preposted", "4", "--iters", "20", "--warmup", "2"), "onesided", 8)
            .value();
        assertEquals(1.0, quiet.get("lat") / sim, 0.005, () -> describe(quiet) + "; the simulator: " + sim);
    }

    private static final Pattern PER_ITERATION = Pattern.compile("time per iteration ([0-9.]+) us");

    /**
     * The flagship (Jacobi3D, 8 ranks, subclusters of 4: TCA inside, IB across; heap arrays, strided
     * faces through the staging area) with its halo exchange on the one-sided engine and its
     * allreduce on the two-sided one: {@code --compute-scale 0} prints the simulator's prediction of
     * the same program ({@code hympj-sim jacobi3d --p2p onesided}), puts contending for engines
     * and links included.
     */
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void flagshipOnTheOneSidedEngineIsTheSimulatorsFigure() throws IOException {
        JobResult r = Launcher.run(LaunchSpec.of(8, org.hympj.examples.Jacobi3D.class, "--n", "16", "--iters", "40")
            .model("ha-pacs").subcluster(4).p2p("onesided").computeScale(0)
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(150)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        assertFalse(r.allOutput().contains("booking(s) of rank"), r::allOutput);
        Matcher m = PER_ITERATION.matcher(r.output(0));
        assertTrue(m.find(), () -> "no time per iteration in rank 0's output:\n" + r.output(0));
        double emu = Double.parseDouble(m.group(1));
        double sim = SimMain.jacobi3d(Map.of("--iters", "40", "--p2p", "onesided"), 16).value();
        assertEquals(1.0, emu / sim, 0.01, () -> String.format(Locale.ROOT,
            "Jacobi3D on --p2p onesided printed %.2f us per iteration, the simulator predicts %.3f", emu, sim));
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void withoutAPollingDelayTheEngineCostsExactlyWhatTheModelSays(@TempDir Path dir) throws IOException {
        Path model = dir.resolve("ha-pacs-no-poll.properties");
        Files.writeString(model, "base = ha-pacs\nname = ha-pacs-no-poll\nonesided.poll.delay = 0\n");
        Map<String, Double> pre = pingPong(model.toString(), 4);
        assertEquals(1.0, pre.get("lat") / pre.get("put"), 0.01, () -> "pre-posted: " + describe(pre));
        Map<String, Double> onDemand = pingPong(model.toString(), 0);
        assertEquals(1.0, onDemand.get("lat") / onDemand.get("ideal"), 0.01, () -> "on demand: " + describe(onDemand));
    }
}
