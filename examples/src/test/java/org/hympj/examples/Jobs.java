package org.hympj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;

/**
 * Runs an example as a real job (one JVM per rank, through the launcher, output captured, with
 * a job timeout below the tests' JUnit timeouts) and checks what every job must leave behind:
 * a zero exit code and nothing in /dev/shm. Assertion messages carry every rank's output.
 */
final class Jobs {
    /** The launcher's timeout for one job. */
    static final Duration JOB_TIMEOUT = Duration.ofSeconds(100);

    private Jobs() {
    }

    /** Runs {@code np} ranks of {@code main}; asserts exit 0 and that the job directory is gone. */
    static JobResult run(int np, Class<?> main, String... args) {
        LaunchSpec spec = LaunchSpec.of(np, main, args)
            .output(LaunchSpec.Output.CAPTURE)
            .timeout(JOB_TIMEOUT);
        JobResult r;
        try {
            r = Launcher.run(spec);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JobResult done = r;
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + done.jobDir() + " was left behind\n"
            + report(done));
        assertEquals(0, r.exitCode(), () -> "job failed\n" + report(done));
        return r;
    }

    /** Lines of a rank's output that start with {@code prefix}. */
    static List<String> lines(JobResult r, int rank, String prefix) {
        List<String> out = new ArrayList<>();
        for (String line : r.output(rank).split("\n")) {
            if (line.startsWith(prefix)) {
                out.add(line);
            }
        }
        return out;
    }

    /** The one line of rank 0's output starting with {@code prefix}. */
    static String line(JobResult r, String prefix) {
        List<String> l = lines(r, 0, prefix);
        assertEquals(1, l.size(), () -> "expected one line starting with '" + prefix + "' from rank 0\n" + report(r));
        return l.get(0);
    }

    /** Asserts rank 0 printed a line starting with {@code prefix}. */
    static void assertPrinted(JobResult r, String prefix) {
        assertTrue(!lines(r, 0, prefix).isEmpty(), () -> "rank 0 did not print '" + prefix + "'\n" + report(r));
    }

    static String report(JobResult r) {
        return r + " in " + r.elapsedMillis() + " ms\n---- rank output ----\n" + r.allOutput();
    }
}
