package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher as a process: signals, the /dev/shm space check, and --clean. */
class LauncherProcessTest {
    private static final Pattern READY = Pattern.compile("READY rank (\\d+) pid (\\d+)");

    private static Process startLauncher(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Launcher.javaCommand());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MpjRun.class.getName());
        for (String a : args) {
            cmd.add(a);
        }
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static List<Path> jobDirsOf(long launcherPid) throws IOException {
        List<Path> out = new ArrayList<>();
        String prefix = JobDirectory.PREFIX + Long.toString(launcherPid, 36) + "-";
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(JobDirectory.root(), prefix + "*")) {
            ds.forEach(out::add);
        }
        return out;
    }

    @Test
    @Timeout(60)
    void sigtermToLauncherEndsEveryRankAndRemovesTheJob() throws Exception {
        Process launcher = startLauncher("-np", "3", "--timeout", "50", SleepingRank.class.getName());
        List<Long> pids = new ArrayList<>();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while (pids.size() < 3 && (line = out.readLine()) != null) {
                Matcher m = READY.matcher(line);
                if (m.find()) {
                    pids.add(Long.parseLong(m.group(2)));
                }
            }
            assertEquals(3, pids.size(), "every rank reported ready");
            assertEquals(1, jobDirsOf(launcher.pid()).size(), "the job directory exists while the job runs");

            launcher.destroy(); // SIGTERM
            assertTrue(launcher.waitFor(20, TimeUnit.SECONDS), "launcher ended after SIGTERM");
            for (long pid : pids) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "rank pid " + pid + " ended");
            }
            assertTrue(jobDirsOf(launcher.pid()).isEmpty(), "job directory removed");
        } finally {
            launcher.destroyForcibly();
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    @Timeout(60)
    void tooLittleSharedMemoryIsAClearErrorBeforeAnythingStarts() throws Exception {
        long free = Files.getFileStore(JobDirectory.root()).getUsableSpace();
        String huge = Long.toString((free >> 30) + 10) + "g";
        Process launcher = startLauncher("-np", "2", "--segment-size", huge, SleepingRank.class.getName());
        String text = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(launcher.waitFor(30, TimeUnit.SECONDS));
        assertEquals(1, launcher.exitValue(), text);
        assertTrue(text.contains("not enough free space"), text);
        assertTrue(text.contains("--segment-size"), "the message says what to change: " + text);
        assertTrue(jobDirsOf(launcher.pid()).isEmpty(), "nothing created");
    }

    @Test
    @Timeout(60)
    void cleanRemovesJobsWhoseLauncherIsGoneAndKeepsLiveOnes() throws Exception {
        // a job "left" by a launcher that no longer exists: a pid that is not running
        long deadPid = 999_999_999L;
        JobConfig dead = new JobConfig("cleantest-dead-" + System.nanoTime(), 1, deadPid, 0,
            JobConfig.DEFAULT_SEGMENT_BYTES, JobConfig.defaultRingBytes(1), JobConfig.defaultBulkBytes(1),
            JobConfig.defaultInlineLimit(JobConfig.defaultRingBytes(1)),
            JobConfig.defaultEagerLimit(JobConfig.defaultBulkBytes(1)), "none", 1, "auto");
        JobDirectory stale = JobDirectory.create(dead);
        JobDirectory live = JobDirectory.create(JobConfig.defaults("cleantest-live-" + System.nanoTime(), 1));
        try {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(stale.path())));
            assertEquals("rw-------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(stale.segmentFile(0))));
            Process p = startLauncher("--clean");
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), text);
            assertFalse(Files.exists(stale.path()), "stale job removed: " + text);
            assertTrue(Files.exists(live.path()), "job of a live launcher kept: " + text);
        } finally {
            stale.delete();
            live.delete();
        }
        assertFalse(Files.exists(Paths.get(stale.path().toString())));
    }
}
