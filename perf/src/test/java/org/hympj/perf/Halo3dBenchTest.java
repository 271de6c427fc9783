package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code hympj-bench halo3d} through the launcher (8 ranks, heap and segment, two small N, the
 * anchor's counts divided by 20): every rank's ghost check passed (else the job fails), the max
 * over ranks reached rank 0 by {@code reduce} and came out as one row per buffer kind and N in the
 * anchors' format, nothing left behind. Not a timing test: no figure is compared.
 */
class Halo3dBenchTest {
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void printsOneCheckedRowPerKindAndSize() throws java.io.IOException {
        JobResult r = Launcher.run(LaunchSpec.of(8, Halo3d.class, "ghost", "1", "both", "4", "8")
            .env("ANCHOR_ITER_DIV", "20").output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(120)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        BenchRows.assertOnePerKindAndSize(r, "halo3d-ghost", "us/iter", "4", "8");
        // no rank reported a wrong ghost, and only rank 0 prints rows
        for (int rank = 0; rank < 8; rank++) {
            assertFalse(r.output(rank).contains("halo3d: rank"), r.output(rank));
            if (rank > 0) {
                assertFalse(r.output(rank).contains("hympj,halo3d"), r.output(rank));
            }
        }
    }

    /**
     * The check checked: rank 5 spoils its ghost before the check (the program's test hook); it says
     * which ghost on stderr, rank 0 prints no row and fails the job naming the size and buffers, the
     * other ranks fail fast on rank 0's exit, and nothing is left behind.
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void aWrongGhostFailsTheJobWithoutARow() throws java.io.IOException {
        JobResult r = Launcher.run(LaunchSpec.of(8, Halo3d.class, "ghost", "1", "heap", "4", "8")
            .env("ANCHOR_ITER_DIV", "20").jvmArg("-Dhympj.halo3d.corruptGhostOfRank=5")
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(120)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        assertTrue(r.exitCode() != 0, () -> "the job should have failed:\n" + r.allOutput());
        assertTrue(r.output(5).contains("halo3d: rank 5 N=4 (heap buffers): ghost"), r.output(5));
        assertTrue(r.output(0).contains("halo3d data check FAILED for N=4 (heap buffers)"), r.output(0));
        assertFalse(r.output(0).contains("hympj,halo3d"), r.output(0));
        for (int rank = 0; rank < 8; rank++) {
            if (rank != 5) {
                assertFalse(r.output(rank).contains("halo3d: rank"), r.output(rank));
            }
        }
    }
}
