package org.hympj.shm.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.standalone.SingleRankMain;
import org.hympj.shm.testing.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JobDirectory}: private modes, removal, the free-space check before anything is
 * created, detection of stale jobs, and the HYMPJ_SHM_ROOT override.
 */
class JobDirectoryTest {
    private static final long PID = ProcessHandle.current().pid();

    private static JobConfig config(String id, int size, long segment, long launcherPid) {
        JobConfig d = JobConfig.defaults(id, size);
        return new JobConfig(id, size, launcherPid, 0, segment, d.ringBytes, d.bulkBytes, d.inlineLimit, d.eagerLimit,
            "none", size, "auto");
    }

    private static String uniqueId(String what) {
        return "test-" + what + "-" + PID + "-" + Long.toHexString(System.nanoTime());
    }

    @Test
    void createsPrivateFilesAndDeletesThem() throws IOException {
        JobDirectory jd = JobDirectory.create(config(uniqueId("modes"), 2, 1 << 20, PID));
        Path dir = jd.path();
        try {
            assertEquals(JobDirectory.root().resolve(JobDirectory.PREFIX + jd.config().jobId), dir);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            try (Stream<Path> files = Files.list(dir)) {
                List<Path> all = files.toList();
                assertTrue(all.contains(dir.resolve("job.properties")), all::toString);
                assertTrue(all.contains(jd.controlFile()), all::toString);
                for (int r = 0; r < 2; r++) {
                    assertTrue(all.contains(jd.ringFile(r)) && all.contains(jd.segmentFile(r)), all::toString);
                    assertEquals(1 << 20, Files.size(jd.segmentFile(r)));
                }
                for (Path f : all) {
                    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f::toString);
                    assertFalse(f.getFileName().toString().endsWith(".tmp"), "temporary file left: " + f);
                }
            }
            assertFalse(JobDirectory.stale().contains(dir), "a job whose launcher (this JVM) lives is not stale");
        } finally {
            jd.delete();
        }
        assertFalse(Files.exists(dir));
        jd.delete(); // quiet when already gone
    }

    @Test
    void tooLittleFreeSpaceIsRefusedBeforeCreatingAnything() {
        String id = uniqueId("space");
        IOException e = assertThrows(IOException.class, () -> JobDirectory.create(config(id, 4, 1L << 40, PID)));
        String m = e.getMessage();
        assertTrue(m.contains("not enough free space") && m.contains(JobDirectory.root().toString())
            && m.contains("--segment-size"), m);
        assertFalse(Files.exists(JobDirectory.root().resolve(JobDirectory.PREFIX + id)));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void launcherRefusesAJobThatDoesNotFit() throws IOException {
        LaunchSpec spec = LaunchSpec.of(2, SingleRankMain.class).segmentBytes(1L << 40)
            .output(LaunchSpec.Output.CAPTURE).timeout(java.time.Duration.ofSeconds(30));
        IOException e = assertThrows(IOException.class, () -> Launcher.run(spec));
        assertTrue(e.getMessage().contains("not enough free space"), e.getMessage());
        assertEquals(List.of(), jobDirsOfThisLauncher(), "a refused job left a directory");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void jobOfADeadLauncherIsStale() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        JobDirectory jd = JobDirectory.create(config(uniqueId("stale"), 1, 4096, p.pid()));
        try {
            assertTrue(JobDirectory.stale().contains(jd.path()), "job of dead pid " + p.pid() + " not listed as stale");
        } finally {
            jd.delete();
        }
    }

    /** HYMPJ_SHM_ROOT moves the jobs of a process elsewhere (here: a single rank started alone). */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shmRootFromEnvironment(@TempDir Path root) throws Exception {
        JavaProcess r = JavaProcess.run(SingleRankMain.class, Map.of("HYMPJ_SHM_ROOT", root.toString()), "ok");
        assertEquals(0, r.exit, r::report);
        List<String> dirs = r.values("JOBDIR ");
        assertEquals(1, dirs.size(), r::report);
        assertTrue(dirs.get(0).startsWith(root.toString() + "/" + JobDirectory.PREFIX), r::report);
        try (Stream<Path> s = Files.list(root)) {
            assertEquals(List.of(), s.toList(), "left under HYMPJ_SHM_ROOT");
        }
    }

    /** Jobs the launcher in this JVM created (its job ids start with its pid in base 36). */
    private static List<Path> jobDirsOfThisLauncher() throws IOException {
        String mine = JobDirectory.PREFIX + Long.toString(PID, 36) + "-";
        try (Stream<Path> s = Files.list(JobDirectory.root())) {
            return s.filter(p -> p.getFileName().toString().startsWith(mine)).sorted().toList();
        }
    }
}
