package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The eager-size hot paths allocate nothing: 2 ranks (separate JVMs, through the launcher)
 * measure their thread's allocated bytes around 20,000 iterations of blocking send/recv
 * (preallocated Status) and persistent startAll/waitAll, 8 B and 4 KB, heap and segment
 * buffers, and start/wait of persistent collectives (allreduce 8 B, bcast 4 KB), after a
 * warm-up for the JIT. A correctness check, not a timing.
 *
 * <p>Each rank measures {@link AllocRank#WINDOWS} consecutive windows per case; the test prints
 * every window and asserts that the best window of each (case, rank) allocates fewer than
 * 1 byte per iteration. An allocation per iteration (an object is at least 16 bytes) shows in
 * every window and fails the test; what the best-window rule tolerates is what happens now and
 * then rather than per message: the waiting rank's periodic liveness check (about every 0.5 s,
 * ~1.4 KB: ProcessHandle look-ups in Idler.checkPeers), a JIT deoptimisation. Windows above
 * the bound are printed as such.
 *
 * <p>Three times: with the JIT the launcher gives 2 ranks on 2 cores (tiered, C2); with C1 only,
 * which the launcher gives ranks that outnumber the cores (8 ranks on 2 cores): C1 has no escape
 * analysis, so an object C2 would never allocate (a clone from {@code Enum.values()}, an
 * iterator) is allocated under it at every call; and with the 2 ranks on 2 local hosts (the
 * network path between hosts: Aeron for 8 B, the ranks' sockets for 4 KB).
 *
 * <p>Every rank runs with a JFR recording of allocation samples only ({@link AllocationSources}):
 * a failure names the code that allocated in the rank program's calls.
 */
class AllocationTest {
    static final int WARMUP = 15_000;
    static final int ITERATIONS = 20_000;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "c1", "two-hosts"})
    void eagerHotPathsAllocateNothing(String variant, @TempDir Path recordings) throws Exception {
        Path jfc = Files.writeString(recordings.resolve("alloc.jfc"), AllocationSources.JFC);
        LaunchSpec spec = LaunchSpec.of(2, AllocRank.class, Integer.toString(WARMUP), Integer.toString(ITERATIONS))
            .jit("c1".equals(variant) ? "c1" : "auto")
            .localHosts("two-hosts".equals(variant) ? 2 : 1)
            .jvmArg(AllocationSources.jvmArg(recordings, jfc)) // where it allocated, should it fail
            .timeout(Duration.ofSeconds(90))
            .output(LaunchSpec.Output.CAPTURE);
        JobResult r = Launcher.run(spec);
        assertTrue(r.ok(), () -> "job failed: " + r + "\n" + r.allOutput());
        Map<String, Double> best = new TreeMap<>();
        List<String> over = new ArrayList<>();
        int windows = 0;
        for (int rank = 0; rank < 2; rank++) {
            for (String line : r.output(rank).split("\n")) {
                if (!line.startsWith("alloc,")) {
                    continue;
                }
                String[] f = line.split(",");
                long bytes = Long.parseLong(f[5]);
                int n = Integer.parseInt(f[6]);
                double perIter = (double) bytes / n;
                String figure = String.format(Locale.ROOT, "%-7s %-15s rank %s window %s: %d bytes / %d iterations"
                    + " = %.4f bytes per iteration", f[1], f[2], f[3], f[4], bytes, n, perIter);
                System.out.println("[alloc] " + figure + (perIter < 1.0 ? "" : "   <-- above 1 byte/iteration"));
                windows++;
                if (!(perIter < 1.0)) {
                    over.add(figure);
                }
                best.merge(f[1] + " " + f[2] + " rank " + f[3], perIter, Math::min);
            }
        }
        // (2 kinds x 4 cases + 2 persistent collectives on the heap) x WINDOWS windows x 2 ranks
        assertEquals((2 * 4 + 2) * AllocRank.WINDOWS * 2, windows, () -> "missing figures:\n" + r.allOutput());
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, Double> e : best.entrySet()) {
            System.out.println(String.format(Locale.ROOT, "[alloc] best window: %-32s %.4f bytes per iteration",
                e.getKey(), e.getValue()));
            if (!(e.getValue() < 1.0)) {
                failures.add(e.getKey() + ": " + e.getValue() + " bytes per iteration in its best window");
            }
        }
        if (!over.isEmpty()) {
            System.out.println("[alloc] " + over.size() + " window(s) above 1 byte/iteration (sporadic, not per message)");
        }
        assertTrue(failures.isEmpty(), () -> "hot path allocates in every window:\n" + String.join("\n", failures)
            + "\nall windows above the bound:\n" + String.join("\n", over)
            + "\nwhere each rank's thread allocated in the rank program's calls (JFR samples; start-up left out):\n"
            + AllocationSources.summary(recordings));
    }
}
