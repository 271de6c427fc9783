package mpijava;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;

/**
 * Runs an mpiJava-style program as a real job (one JVM per rank, through the launcher, output
 * captured, a job timeout below the tests' JUnit timeouts) and checks what every job must
 * leave behind: nothing in /dev/shm. Assertion messages carry every rank's output.
 */
final class Jobs {
    static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);

    private Jobs() {
    }

    static JobResult launch(int np, Class<?> main, String... args) {
        LaunchSpec spec = LaunchSpec.of(np, main, args).output(LaunchSpec.Output.CAPTURE).timeout(JOB_TIMEOUT);
        JobResult r;
        try {
            r = Launcher.run(spec);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JobResult done = r;
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + done.jobDir() + " was left behind\n"
            + report(done));
        return r;
    }

    /** Runs the job; asserts exit 0, and that every rank printed PASS for each scenario and finalized. */
    static JobResult runAndPass(int np, Class<?> main, String... scenarios) {
        JobResult r = launch(np, main);
        assertEquals(0, r.exitCode(), () -> "job failed\n" + report(r));
        for (int rank = 0; rank < np; rank++) {
            List<String> lines = Arrays.asList(r.output(rank).split("\n"));
            for (String s : scenarios) {
                int rk = rank;
                assertTrue(lines.contains("PASS " + s), () -> "rank " + rk + " did not pass '" + s + "'\n" + report(r));
            }
            int rk = rank;
            assertTrue(lines.contains("finalize"), () -> "rank " + rk + " did not finalize\n" + report(r));
        }
        return r;
    }

    static String report(JobResult r) {
        return r + " in " + r.elapsedMillis() + " ms\n---- rank output ----\n" + r.allOutput();
    }
}
