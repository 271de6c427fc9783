package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        List<String> rows = new ArrayList<>();
        for (String line : r.output(0).split("\n")) {
            if (line.startsWith("hympj,")) {
                rows.add(line.trim());
            }
        }
        assertEquals(4, rows.size(), r.output(0));
        int i = 0;
        for (String kind : new String[] {"heap", "segment"}) {
            for (String n : new String[] {"8", "16"}) {
                String[] f = rows.get(i++).split(",");
                assertEquals("face-" + face, f[1]);
                assertEquals(kind, f[2]);
                assertEquals(n, f[3]);
                assertTrue(Double.parseDouble(f[5]) > 0, String.join(",", f));
                assertEquals("us", f[6]);
            }
        }
    }
}
