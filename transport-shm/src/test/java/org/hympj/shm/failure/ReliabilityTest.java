package org.hympj.shm.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failure injection through the real launcher, for the items of issue 19 that a job run in
 * this JVM can show (the launcher as a process: {@code launch.LauncherReliabilityTest}).
 * Each job has the launcher's timeout; processes and files are checked gone afterwards.
 */
class ReliabilityTest {
    @TempDir
    Path tmp;

    /** A rank that exits 0 without close(): the launcher names it and exits 125; peers are told. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void rankExitingWithoutFinalizeFailsTheJob() {
        JobResult r = MultiRank.launch(MultiRank.spec(3, MisbehavingRank.class, "noclose", "1"));
        String report = MultiRank.report(r);
        assertEquals(JobResult.NOT_FINALIZED_EXIT, r.exitCode(), () -> "exit code\n" + report);
        assertEquals(1, r.failedRank(), () -> report);
        assertTrue(r.message().contains("rank 1 exited with code 0 without finalizing"), r.message());
        for (int rank : new int[] {0, 2}) {
            List<String> caught = MultiRank.lines(r, rank, "CAUGHT ");
            assertEquals(1, caught.size(), () -> "peer did not fail\n" + report);
            assertTrue(caught.get(0).startsWith("CAUGHT 1 rank 1 failed"), () -> report);
        }
        Processes.assertAllGone(r, 3);
    }

    /**
     * A receive posted for a peer that finalized and exited fails naming it; the message it
     * sent before finalizing (still in the rings) is received first, not lost.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void receiveFromAFinalizedExitedPeerFails() {
        JobResult r = MultiRank.launch(MultiRank.spec(3, MisbehavingRank.class, "recv-after-close", "2"));
        String report = MultiRank.report(r);
        assertEquals(0, r.exitCode(), () -> report);
        for (int rank : new int[] {0, 1}) {
            assertEquals(List.of("GOT " + (40 + rank)), MultiRank.lines(r, rank, "GOT "), report);
            List<String> caught = MultiRank.lines(r, rank, "CAUGHT ");
            assertEquals(1, caught.size(), () -> "the second receive did not fail\n" + report);
            assertTrue(caught.get(0).contains("CAUGHT 2 ") && caught.get(0).contains("rank 2 has finalized and exited"),
                () -> report);
        }
        Processes.assertAllGone(r, 3);
    }

    /** A launched rank has the launcher watchdog; a program run alone (no launcher) does not. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void watchdogRunsOnlyInLaunchedRanks() throws Exception {
        JobResult r = MultiRank.launch(MultiRank.spec(2, MisbehavingRank.class, "watchdog"));
        assertEquals(0, r.exitCode(), () -> MultiRank.report(r));
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(List.of("WATCHDOG true"), MultiRank.lines(r, rank, "WATCHDOG "), MultiRank.report(r));
        }
        org.hympj.shm.testing.JavaProcess alone =
            org.hympj.shm.testing.JavaProcess.run(MisbehavingRank.class, java.util.Map.of(), "watchdog");
        assertEquals(0, alone.exit, alone.report());
        assertEquals(List.of("false"), alone.values("WATCHDOG "), alone.report());
    }

    @Test
    void nonPositiveTimeoutIsRefused() {
        LaunchSpec s = MultiRank.spec(2, MisbehavingRank.class, "quick");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> s.timeout(Duration.ofSeconds(-5)));
        assertTrue(e.getMessage().contains("timeout must be positive"), e.getMessage());
    }

    /** --model with a value out of range: refused before any rank starts, naming key, value and range. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void badModelParameterIsRefusedBeforeAnyRankStarts() throws IOException {
        Path model = tmp.resolve("bad.properties");
        Files.writeString(model, "base = ha-pacs\ntca.dma.engines = 0\n");
        LaunchSpec s = MultiRank.spec(2, MisbehavingRank.class, "quick").model(model.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Launcher.run(s));
        assertTrue(e.getMessage().contains("tca.dma.engines = 0: must be an integer >= 1"), e.getMessage());
    }

    /** A rank-* symbolic link in the trace directory is refused and its target left alone. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void traceRefusesASymbolicLinkAndLeavesItsTargetAlone() throws IOException {
        Path victim = Files.createDirectories(tmp.resolve("victim"));
        Files.writeString(victim.resolve("precious.cq4"), "keep me");
        Path trace = Files.createDirectories(tmp.resolve("trace"));
        Files.createSymbolicLink(trace.resolve("rank-0"), victim);
        LaunchSpec s = MultiRank.spec(2, MisbehavingRank.class, "quick").trace(trace);
        IOException e = assertThrows(IOException.class, () -> Launcher.run(s));
        assertTrue(e.getMessage().contains(trace.resolve("rank-0").toString()) && e.getMessage().contains("symbolic link"),
            e.getMessage());
        assertEquals("keep me", Files.readString(victim.resolve("precious.cq4")));
        assertTrue(Files.isSymbolicLink(trace.resolve("rank-0")), "the link itself is left too");
    }

    /** A traced job: the trace directory it creates and every rank directory are 0700, the journals 0600. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void traceDirectoriesAndFilesArePrivate() throws IOException {
        Path trace = tmp.resolve("new/trace");
        JobResult r = MultiRank.launch(MultiRank.spec(2, MisbehavingRank.class, "quick").trace(trace));
        assertEquals(0, r.exitCode(), () -> MultiRank.report(r));
        assertEquals("rwx------", perms(trace));
        for (int rank = 0; rank < 2; rank++) {
            Path d = trace.resolve("rank-" + rank);
            assertEquals("rwx------", perms(d), d.toString());
            int files = 0;
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
                for (Path f : ds) {
                    assertEquals("rw-------", perms(f), f.toString());
                    files++;
                }
            }
            assertTrue(files > 0, "rank " + rank + " wrote a journal");
        }
        assertFalse(Files.exists(r.jobDir()));
    }

    /** Files a job reserves are really allocated: the job directory uses as much as it may need. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aJobsSharedMemoryIsReservedWhenItStarts() throws IOException {
        // before issue 19 the files were sparse: du showed a few KiB for a job of 16 MiB of segments
        org.hympj.shm.job.JobConfig c = org.hympj.shm.job.JobConfig.defaults("reserve-test-" + System.nanoTime(), 2)
            .with(8L << 20, 256 << 10, 256 << 10, 8 << 10, 32 << 10, "none", 2, "auto", "");
        JobDirectory jd = JobDirectory.create(c);
        try {
            // du counts the blocks really allocated (sparse files count only what was touched)
            Process du = new ProcessBuilder("du", "-s", "-B1", jd.path().toString()).redirectErrorStream(true).start();
            String out = new String(du.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            long allocated = Long.parseLong(out.trim().split("\\s+")[0]);
            long segments = 2 * (8L << 20);
            assertTrue(allocated >= segments, "allocated " + allocated + " bytes, the segments alone are " + segments);
        } finally {
            jd.delete();
        }
    }

    private static String perms(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }
}
