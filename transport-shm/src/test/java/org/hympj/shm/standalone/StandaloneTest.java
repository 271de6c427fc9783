package org.hympj.shm.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.testing.JavaProcess;
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
        JavaProcess r = JavaProcess.run(SingleRankMain.class, Map.of(), "ok");
        assertEquals(0, r.exit, r::report);
        assertTrue(r.lines.contains("PASS single-rank"), r::report);
        assertTrue(r.lines.contains("PASS removed-at-close"), r::report);
        assertNothingLeft(r, JobDirectory.root());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void crashingSingleRankRemovesItsJob() throws Exception {
        JavaProcess r = JavaProcess.run(SingleRankMain.class, Map.of(), "crash");
        assertEquals(1, r.exit, r::report);
        assertTrue(r.output.contains("deliberate crash of a single rank"), r::report);
        assertNothingLeft(r, JobDirectory.root());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void singleRankExitingWithoutCloseRemovesItsJob() throws Exception {
        JavaProcess r = JavaProcess.run(SingleRankMain.class, Map.of(), "exit");
        assertEquals(5, r.exit, r::report);
        assertNothingLeft(r, JobDirectory.root());
    }

    /** The job directory the program reported is gone, and so is anything else its pid created under root. */
    static void assertNothingLeft(JavaProcess r, Path root) throws IOException {
        List<String> dirs = r.values("JOBDIR ");
        assertEquals(1, dirs.size(), () -> "the program did not report its job directory\n" + r.report());
        Path dir = Paths.get(dirs.get(0));
        assertEquals(root.toAbsolutePath(), dir.getParent().toAbsolutePath(), r::report);
        assertTrue(dir.getFileName().toString().startsWith(JobDirectory.PREFIX), r::report);
        assertFalse(Files.exists(dir), () -> "job directory " + dir + " left behind\n" + r.report());
        try (Stream<Path> s = Files.list(root)) {
            String mine = JobDirectory.PREFIX + "single-" + r.pid + "-";
            List<Path> left = s.filter(p -> p.getFileName().toString().startsWith(mine)).toList();
            assertTrue(left.isEmpty(), () -> "left in " + root + ": " + left + "\n" + r.report());
        }
    }
}
