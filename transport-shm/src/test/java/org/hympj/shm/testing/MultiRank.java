package org.hympj.shm.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;

/**
 * Runs a job of N rank JVMs through the real launcher (output captured, with a job timeout)
 * and checks what every job must leave behind: nothing in /dev/shm. Assertion messages
 * carry every rank's output.
 */
public final class MultiRank {
    /** The launcher's timeout for every job; JUnit's {@code @Timeout} on each test is above it. */
    public static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    /** Printed by every rank program after Mpj.close(). */
    public static final String FINALIZED = "finalize";

    private MultiRank() {
    }

    /**
     * The launcher's JIT warm-up for the suite's jobs: off unless {@code -Dhympj.test.warmup=on}
     * (it costs up to a second or two of every launch on 2 cores; WarmUpTest and the benchmark
     * tests run with the launcher's default, on).
     */
    public static final String WARM_UP = System.getProperty("hympj.test.warmup", "off");

    /**
     * The local hosts every job is split into: {@code -Dhympj.test.local-hosts=K} for a whole run,
     * or {@link #useLocalHosts} for the classes that rerun a test class on local hosts; 0 = one host.
     */
    private static int localHosts = Integer.getInteger("hympj.test.local-hosts", 0);

    /**
     * From now on every job of {@link #spec} is split into {@code k} local hosts (when it has at
     * least {@code k} ranks): ranks of different groups talk only over the network transport.
     * 0 = one host again. Tests run one at a time, so a class sets it in {@code @BeforeAll}.
     */
    public static void useLocalHosts(int k) {
        localHosts = k;
    }

    /**
     * A spec for N ranks of {@code main}: captured output, job timeout, the test JVM's class path;
     * on {@link #useLocalHosts local hosts} when set (and N allows one rank per host).
     */
    public static LaunchSpec spec(int np, Class<?> main, String... args) {
        LaunchSpec s = LaunchSpec.of(np, main, args)
            .output(LaunchSpec.Output.CAPTURE)
            .timeout(JOB_TIMEOUT)
            .warmUp(WARM_UP);
        return localHosts > 1 && np >= localHosts ? s.localHosts(localHosts) : s;
    }

    /** Runs the job; asserts its directory is gone whatever the outcome. */
    public static JobResult launch(LaunchSpec spec) {
        JobResult r;
        try {
            r = Launcher.run(spec);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (java.nio.file.Path d : r.jobDirs()) {
            assertFalse(Files.exists(d), () -> "job directory " + d + " was left behind\n" + report(r));
        }
        return r;
    }

    /** Runs N ranks of {@code main}; asserts exit 0 and that every rank passed each scenario and finalized. */
    public static JobResult runAndPass(int np, Class<?> main, String[] scenarios, String... args) {
        return runAndPass(spec(np, main, args), scenarios);
    }

    /** Runs the job; asserts exit 0 and that every rank passed each scenario and finalized. */
    public static JobResult runAndPass(LaunchSpec spec, String[] scenarios) {
        JobResult r = launch(spec);
        assertEquals(0, r.exitCode(), () -> "job failed\n" + report(r));
        assertPassed(r, spec.np(), scenarios);
        assertPassed(r, spec.np(), FINALIZED);
        return r;
    }

    /** Every rank printed {@code PASS <scenario>} for each scenario. */
    public static void assertPassed(JobResult r, int np, String... scenarios) {
        for (int rank = 0; rank < np; rank++) {
            List<String> lines = Arrays.asList(r.output(rank).split("\n"));
            for (String s : scenarios) {
                int rk = rank;
                assertTrue(lines.contains("PASS " + s), () -> "rank " + rk + " did not pass '" + s + "'\n" + report(r));
            }
        }
    }

    /** Lines of a rank's output that start with {@code prefix}. */
    public static List<String> lines(JobResult r, int rank, String prefix) {
        List<String> out = new ArrayList<>();
        for (String line : r.output(rank).split("\n")) {
            if (line.startsWith(prefix)) {
                out.add(line);
            }
        }
        return out;
    }

    public static String report(JobResult r) {
        return r + " in " + r.elapsedMillis() + " ms\n---- rank output ----\n" + r.allOutput();
    }
}
