package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hympj-bench jface|kface} through the launcher (2 ranks, heap and segment, two small N):
 * one row per buffer kind and N in the anchors' format, a positive half round trip, the ghost
 * check inside the rank program passed (else the job fails), nothing left behind. Not a timing
 * test: no figure is compared.
 */
class FacesBenchTest {
    @ParameterizedTest(name = "{0}-face")
    @ValueSource(strings = {"j", "k"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void printsOneCheckedRowPerKindAndSize(String face) throws java.io.IOException {
        JobResult r = Launcher.run(LaunchSpec.of(2, Faces.class, face, "1", "both", "8", "16")
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(100)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        BenchRows.assertOnePerKindAndSize(r, "face-" + face, "us", "8", "16");
    }
}
