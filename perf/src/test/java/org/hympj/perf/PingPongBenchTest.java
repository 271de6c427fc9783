package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ping-pong rank program ({@code hympj-bench pingpong|persistent}) through the launcher: 2 ranks,
 * heap and segment, an eager and a rendezvous size; one row per kind and size in the anchors'
 * format, the received bytes checked by the program after its last size (else the job fails), and
 * with {@code -Dhympj.perf.batches=true} every rank's batches noted — the warm-up batch and 5 timed
 * ones per kind and size, each with its scheduler figures — and printed after the rows. Not a timing
 * test: no figure is compared.
 */
class PingPongBenchTest {
    private static final Pattern BATCH = Pattern.compile(
        "# (\\w+) (\\d+) batch (-?\\d): [\\d.]+, JIT -?\\d+ ms during it, start \\d+ ms \\(monotonic -?\\d+ ns\\), "
            + "[\\d.]+ ms long, queued -?[\\d.]+ us, -?\\d+ slices");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"blocking", "persistent"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void printsOneCheckedRowPerKindAndSizeAndItsBatches(String mode) throws java.io.IOException {
        JobResult r = Launcher.run(LaunchSpec.of(2, PingPong.class, mode, "1", "both", "8", "65536")
            .jvmArg("-Dhympj.perf.batches=true").output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(100)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        BenchRows.assertOnePerKindAndSize(r, "pingpong-" + mode, "us", "8", "65536");
        for (int rank = 0; rank < 2; rank++) {
            String out = r.output(rank);
            int[] perSize = new int[2];
            Matcher m = BATCH.matcher(out);
            while (m.find()) {
                assertEquals(mode, m.group(1), m.group());
                perSize[m.group(2).equals("8") ? 0 : 1]++;
            }
            // 2 buffer kinds x (1 warm-up batch + 5 timed) per size
            assertEquals(12, perSize[0], out);
            assertEquals(12, perSize[1], out);
            if (rank == 0) {
                assertTrue(out.lastIndexOf("hympj,") < out.indexOf("# " + mode), "batches printed after the rows:\n" + out);
            }
        }
    }
}
