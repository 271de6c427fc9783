package org.hympj.shm.launch;

import static org.hympj.shm.testing.Waits.read;
import static org.hympj.shm.testing.Waits.within;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.testing.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failure injection on the launcher as a process (issue 19): SIGKILL to the launcher, --clean
 * next to live ranks, bad options, and two jobs racing for a small /dev/shm. Every process
 * started is killed and every file removed in a finally block, whatever the outcome.
 */
class LauncherReliabilityTest {
    private static final Pattern READY = Pattern.compile("READY rank (\\d+) pid (\\d+)");
    private static final String RANK = "org.hympj.shm.failure.MisbehavingRank";

    @TempDir
    Path tmp;

    private static Process launcher(Map<String, String> env, Path cwd, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Launcher.javaCommand());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MpjRun.class.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        if (cwd != null) {
            pb.directory(cwd.toFile());
        }
        return pb.start();
    }

    /** SIGKILL to the launcher while ranks compute: each rank halts by itself, naming the launcher, and the job's files go. */
    @Test
    @Timeout(90)
    void ranksHaltSoonAfterTheirLauncherIsKilled() throws Exception {
        // output to a file: a Process's pipe is closed by the JVM when the launcher exits, and the
        // ranks' last words come after that
        Path log = tmp.resolve("launcher.log");
        List<String> cmd = new ArrayList<>(List.of(Launcher.javaCommand(), "-cp", System.getProperty("java.class.path"),
            MpjRun.class.getName(), "-np", "3", "--timeout", "80", RANK, "compute", "60"));
        Process l = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        List<Long> pids = new ArrayList<>();
        try {
            assertTrue(within(60, () -> ready(log).size() == 3), () -> "ranks did not all report ready: " + read(log));
            pids.addAll(ready(log));
            Path jobDir = jobDirOf(l.pid());
            assertTrue(jobDir != null, "the job directory exists while the job runs");
            l.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertTrue(l.waitFor(10, TimeUnit.SECONDS));
            // generous bound: the watchdog checks every 0.25 s
            assertTrue(within(5, () -> pids.stream().noneMatch(Waits::alive)),
                () -> "ranks still computing 5 s after their launcher was killed: " + read(log));
            for (int r = 0; r < 3; r++) {
                String said = "hympj: rank " + r + " of job ";
                assertTrue(read(log).contains(said) && read(log).contains("its launcher (pid " + l.pid() + ") is gone"),
                    read(log));
            }
            assertTrue(within(5, () -> !Files.exists(jobDir)), "the last rank removed the job directory");
        } finally {
            l.destroyForcibly();
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static List<Long> ready(Path log) {
        List<Long> out = new ArrayList<>();
        Matcher m = READY.matcher(read(log));
        while (m.find()) {
            out.add(Long.parseLong(m.group(2)));
        }
        return out;
    }

    /** --clean keeps a job whose launcher is gone while one of its ranks still runs, and says why. */
    @Test
    @Timeout(60)
    void cleanKeepsAJobWhoseRanksStillRun() throws Exception {
        JobConfig dead = new JobConfig("cleanlive-" + System.nanoTime(), 2, 999_999_999L, 0,
            1L << 20, JobConfig.defaultRingBytes(2), 256 << 10, 8 << 10, 32 << 10, "none", 2, "auto");
        JobDirectory jd = JobDirectory.create(dead);
        Process rank = new ProcessBuilder("sleep", "60").start(); // stands for a rank still computing
        try {
            try (JobControl ctl = jd.openControl()) {
                ctl.register(1, rank.pid());
            }
            Process c = launcher(Map.of(), null, "--clean");
            String text = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(c.waitFor(30, TimeUnit.SECONDS));
            assertTrue(Files.exists(jd.path()), "a job with a live rank was removed: " + text);
            assertTrue(text.contains("kept " + jd.path() + ": its launcher (pid 999999999) is gone but rank [1] still run"),
                text);

            rank.destroyForcibly();
            rank.waitFor(10, TimeUnit.SECONDS);
            Process c2 = launcher(Map.of(), null, "--clean");
            String text2 = new String(c2.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(c2.waitFor(30, TimeUnit.SECONDS));
            assertFalse(Files.exists(jd.path()), "once its ranks are gone the job is stale: " + text2);
            assertTrue(text2.contains("removed " + jd.path()), text2);
        } finally {
            rank.destroyForcibly();
            jd.delete();
        }
    }

    @Test
    @Timeout(60)
    void nonPositiveTimeoutIsAClearError() throws Exception {
        for (String t : new String[] {"-5", "0"}) {
            Process l = launcher(Map.of(), null, "-np", "2", "--timeout", t, RANK, "quick");
            String text = new String(l.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(l.waitFor(30, TimeUnit.SECONDS));
            assertEquals(2, l.exitValue(), text);
            assertTrue(text.contains("--timeout must be a positive number of seconds, was " + t), text);
            assertFalse(text.contains("READY") || text.contains("PID "), "no rank started: " + text);
        }
    }

    @Test
    @Timeout(60)
    void badModelIsAClearErrorBeforeAnyRankStarts() throws Exception {
        Path model = tmp.resolve("neg.properties");
        Files.writeString(model, "base = ha-pacs\ntca.pio.latency = -3\n");
        Process l = launcher(Map.of(), null, "-np", "2", "--model", model.toString(), RANK, "quick");
        String text = new String(l.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(l.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, l.exitValue(), text);
        assertTrue(text.contains("tca.pio.latency = -3: must be a finite number >= 0"), text);
        assertFalse(text.contains("PID "), "no rank started: " + text);
    }

    /**
     * Two jobs start at once on a 200 MiB tmpfs; each passes the free-space check alone but
     * both together need more than there is. Before issue 19 a rank then died of SIGBUS while
     * writing its segment (InternalError, an hs_err file, exit 134 or 1); now a job that does
     * not fit fails to start with a message naming the options. Needs root (mount).
     */
    @Test
    @Timeout(180)
    void concurrentJobsNeverFaultOnASmallSharedMemory() throws Exception {
        Path mnt = Files.createDirectories(tmp.resolve("shm"));
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=200m", "tmpfs", mnt.toString())
            .redirectErrorStream(true).start();
        assumeTrue(mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0, "cannot mount a tmpfs here");
        List<Process> jobs = new ArrayList<>();
        try {
            Map<String, String> env = Map.of("HYMPJ_SHM_ROOT", mnt.toString());
            String doubles = Integer.toString((54 << 20) / 8);
            Path cwd = Files.createDirectories(tmp.resolve("cwd"));
            for (int j = 0; j < 2; j++) {
                jobs.add(launcher(env, cwd, "-np", "2", "--timeout", "100", "--segment-size", "55m", RANK, "fill", doubles));
            }
            int ok = 0;
            for (Process p : jobs) {
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(120, TimeUnit.SECONDS));
                assertFalse(text.contains("fault occurred") || text.contains("SIGBUS") || text.contains("hs_err"), text);
                if (p.exitValue() == 0) {
                    ok++;
                    assertTrue(text.contains("FILLED"), text);
                } else {
                    assertEquals(1, p.exitValue(), text);
                    assertTrue(text.contains("cannot reserve") || text.contains("not enough free space"), text);
                    assertTrue(text.contains("--segment-size") && text.contains("-np"), "names the options: " + text);
                    assertFalse(text.contains("PID "), "the job failed before any rank started: " + text);
                }
            }
            int okJobs = ok;
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(cwd, "hs_err*")) {
                assertFalse(ds.iterator().hasNext(), "a JVM crashed (hs_err file)");
            }
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(mnt)) {
                assertFalse(ds.iterator().hasNext(), "files left on the tmpfs after " + okJobs + " successful jobs");
            }
            // both may have failed (their reservations interleaved): nothing was leaked, one alone fits
            Process alone = launcher(env, cwd, "-np", "2", "--timeout", "100", "--segment-size", "55m", RANK, "fill", doubles);
            jobs.add(alone);
            String text = new String(alone.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(alone.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, alone.exitValue(), text);
            assertTrue(text.contains("FILLED"), text);
        } finally {
            for (Process p : jobs) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            new ProcessBuilder("umount", "-l", mnt.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static Path jobDirOf(long launcherPid) throws IOException {
        String prefix = JobDirectory.PREFIX + Long.toString(launcherPid, 36) + "-";
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(JobDirectory.root(), prefix + "*")) {
            for (Path p : ds) {
                return p;
            }
        }
        return null;
    }
}
