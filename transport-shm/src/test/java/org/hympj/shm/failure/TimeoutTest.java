package org.hympj.shm.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher's timeout ends a hanging job: exit code 124, every process and the directory gone. */
class TimeoutTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void hangingJobIsKilledAtItsTimeout() {
        JobResult r = MultiRank.launch(MultiRank.spec(3, HangingRank.class).timeout(Duration.ofSeconds(3)));
        String report = MultiRank.report(r);
        assertEquals(JobResult.TIMEOUT_EXIT, r.exitCode(), () -> report);
        assertTrue(r.message().contains("timed out"), () -> report);
        assertEquals(1, MultiRank.lines(r, 2, "HANGING").size(), () -> "the hanging rank never hung\n" + report);
        assertTrue(r.elapsedMillis() >= 3000, () -> "ended before its timeout\n" + report);
        Processes.assertAllGone(r, 3);
    }
}
