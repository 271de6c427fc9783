package org.hympj.shm.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.launch.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A program started with plain {@code java} (the flags of {@link Launcher#jvmFlags()}, no
 * launcher) is a job of one rank: it works, talking to itself, and leaves nothing in
 * /dev/shm, also when it crashes or exits without closing. See {@link SingleRankMain}.
 */
class StandaloneTest {
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void singleRankWithoutLauncherWorksAndCleansUp() throws Exception {
        Run r = start("ok");
        assertEquals(0, r.exit, r::report);
        assertTrue(r.lines.contains("PASS single-rank"), r::report);
        assertTrue(r.lines.contains("PASS removed-at-close"), r::report);
        r.assertNothingLeft();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void crashingSingleRankRemovesItsJob() throws Exception {
        Run r = start("crash");
        assertEquals(1, r.exit, r::report);
        assertTrue(r.output.contains("deliberate crash of a single rank"), r::report);
        r.assertNothingLeft();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void singleRankExitingWithoutCloseRemovesItsJob() throws Exception {
        Run r = start("exit");
        assertEquals(5, r.exit, r::report);
        r.assertNothingLeft();
    }

    /** One run of the program. */
    private static final class Run {
        long pid;
        int exit;
        String output;
        List<String> lines;

        String report() {
            return "exit " + exit + ", pid " + pid + ", output:\n" + output;
        }

        void assertNothingLeft() throws IOException {
            List<String> dirs = new ArrayList<>();
            for (String l : lines) {
                if (l.startsWith("JOBDIR ")) {
                    dirs.add(l.substring(7));
                }
            }
            assertEquals(1, dirs.size(), "the program did not report its job directory\n" + report());
            Path dir = Paths.get(dirs.get(0));
            assertTrue(dir.getFileName().toString().startsWith(JobDirectory.PREFIX), report());
            assertFalse(Files.exists(dir), "job directory " + dir + " left behind\n" + report());
            try (Stream<Path> s = Files.list(JobDirectory.root())) {
                String mine = JobDirectory.PREFIX + "single-" + pid + "-";
                List<Path> left = s.filter(p -> p.getFileName().toString().startsWith(mine)).toList();
                assertTrue(left.isEmpty(), "left in " + JobDirectory.root() + ": " + left + "\n" + report());
            }
        }
    }

    private static Run start(String mode) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        cmd.addAll(Launcher.jvmFlags());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(SingleRankMain.class.getName());
        cmd.add(mode);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove(ShmMpj.ENV_JOB_DIR);
        pb.environment().remove(ShmMpj.ENV_RANK);
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        Run r = new Run();
        r.pid = p.pid();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("single-rank program did not end within 60 s");
        }
        r.exit = p.exitValue();
        r.output = out.get(10, TimeUnit.SECONDS);
        r.lines = Arrays.asList(r.output.split("\n"));
        return r;
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output unreadable: " + e + ")";
        }
    }
}
