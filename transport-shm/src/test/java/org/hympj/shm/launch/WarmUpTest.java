package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * --warm-up (org.hympj.shm.pml.WarmUp): on by default, the ranks run their paths with their ring
 * neighbours before the program starts and leave nothing behind for the program; off skips it;
 * another value is refused before anything starts.
 */
class WarmUpTest {
    private static final Pattern REPORT = Pattern.compile("# rank (\\d+) warm-up: (\\d+) rounds");

    private static JobResult run(int np, String warmUp) throws java.io.IOException {
        LaunchSpec spec = LaunchSpec.of(np, WarmUpRank.class).jvmArg("-Dhympj.warmup.report=true")
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(90));
        if (warmUp != null) {
            spec.warmUp(warmUp);
        }
        JobResult r = Launcher.run(spec);
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        assertFalse(Files.exists(r.jobDir()), "job directory left behind");
        for (int rank = 0; rank < np; rank++) {
            assertTrue(r.output(rank).contains("CLEAN " + rank), "rank " + rank + ":\n" + r.allOutput());
        }
        return r;
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void onByDefaultAndLeavesNothingForTheProgram() throws Exception {
        for (int np : new int[] {2, 3}) { // a core per rank (C2) and oversubscribed (C1) on 2 cores
            JobResult r = run(np, null);
            for (int rank = 0; rank < np; rank++) {
                Matcher m = REPORT.matcher(r.allOutput());
                boolean found = false;
                while (m.find()) {
                    found |= Integer.parseInt(m.group(1)) == rank && Integer.parseInt(m.group(2)) > 0;
                }
                assertTrue(found, "no warm-up report of rank " + rank + ":\n" + r.allOutput());
            }
            // with a core per rank a long wait spins, yields, then parks: the warm-up's long waits
            // (WarmUpWaits.longWait) reach the park, so C2 never compiles it as a branch never taken;
            // and its stalled streams (WarmUpWaits.stalledStream) fill a window and a packet ring no one drains
            long parks = reportedTotal(PARKED, r.allOutput());
            long stalls = reportedTotal(STALLED, r.allOutput());
            if (np == 2) {
                assertTrue(parks > 0, "the warm-up's long waits never parked:\n" + r.allOutput());
                assertTrue(stalls > 0, "no stream of the warm-up stalled:\n" + r.allOutput());
            } else {
                assertEquals(-1, parks, "ranks sharing cores yield at once: no parks counted\n" + r.allOutput());
                assertEquals(-1, stalls, "ranks sharing cores (C1): no stalled streams\n" + r.allOutput());
            }
        }
    }

    /** The sum of a count every rank's report gives ({@code pattern}'s group 1), or -1 where no report gives it. */
    private static long reportedTotal(Pattern pattern, String output) {
        Matcher m = pattern.matcher(output);
        long total = -1;
        while (m.find()) {
            total = Math.max(total, 0) + Long.parseLong(m.group(1));
        }
        return total;
    }

    private static final Pattern PARKED = Pattern.compile("warm-up: .*, parked (\\d+) times");
    private static final Pattern STALLED = Pattern.compile("warm-up: .*, streams stalled (\\d+) times");

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void offSkipsIt() throws Exception {
        JobResult r = run(2, "off");
        assertFalse(REPORT.matcher(r.allOutput()).find(), r.allOutput());
    }

    @Test
    void badValueRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> LaunchSpec.of(2, WarmUpRank.class).warmUp("yes"));
        assertTrue(e.getMessage().contains("--warm-up must be on or off"), e.getMessage());
    }
}
