package org.hympj.shm.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A rank that dies (SIGKILL, uncaught exception, System.exit(3)) while its peers are blocked
 * in recv, waitAll, barrier, probe, send, sendrecv or an iprobe loop: every peer fails with
 * RankFailedException naming it within 5 s, the launcher exits with the rank's code and
 * names it, no rank process and no job directory is left. See {@link FailingRank}.
 */
class RankFailureTest {
    /** The one time bound of the suite: a peer learns of a dead rank this fast. */
    static final long DETECTION_BOUND_NS = TimeUnit.SECONDS.toNanos(5);

    @ParameterizedTest(name = "{0} ranks, rank {1} killed")
    @CsvSource({"2, 1", "4, 2", "8, 5"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void killedRankIsNamedByEveryBlockedPeer(int np, int victim) {
        JobResult r = runFailing(np, "kill", victim, null);
        assertEquals(128 + 9, r.exitCode(), () -> "launcher exit code\n" + MultiRank.report(r));
        assertTrue(r.message().contains("rank " + victim), () -> "launcher message: " + r.message());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void uncaughtExceptionFailsTheJob() {
        JobResult r = runFailing(4, "throw", 1, null);
        assertEquals(1, r.exitCode(), () -> "launcher exit code\n" + MultiRank.report(r));
        assertTrue(r.output(1).contains("deliberate uncaught exception"), () -> MultiRank.report(r));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void systemExitCodeBecomesTheJobsExitCode() {
        JobResult r = runFailing(3, "exit3", 2, null);
        assertEquals(3, r.exitCode(), () -> "launcher exit code\n" + MultiRank.report(r));
    }

    /** A peer polling test() on a receive from the dead rank learns of the failure too. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void peerPollingWithTestIsToldOfTheFailure() {
        runFailing(2, "kill", 1, "TEST_LOOP");
    }

    /**
     * Runs the job and checks what holds for every failure: the victim is the failed rank,
     * every peer caught RankFailedException naming it within the bound, nothing is left.
     */
    private static JobResult runFailing(int np, String how, int victim, String roles) {
        JobResult r = roles == null
            ? MultiRank.launch(MultiRank.spec(np, FailingRank.class, how, Integer.toString(victim)))
            : MultiRank.launch(MultiRank.spec(np, FailingRank.class, how, Integer.toString(victim), roles));
        String report = MultiRank.report(r);
        assertEquals(victim, r.failedRank(), () -> "failed rank\n" + report);
        assertTrue(r.exitCode() != 0, () -> "exit code 0 for a failed job\n" + report);
        List<String> fail = MultiRank.lines(r, victim, "FAIL ");
        assertEquals(1, fail.size(), () -> "victim did not announce its failure\n" + report);
        long failedAt = Long.parseLong(fail.get(0).split(" ")[1]);
        for (int rank = 0; rank < np; rank++) {
            if (rank == victim) {
                continue;
            }
            List<String> caught = MultiRank.lines(r, rank, "CAUGHT ");
            int rk = rank;
            assertEquals(1, caught.size(), () -> "rank " + rk + " did not catch RankFailedException\n" + report);
            String[] f = caught.get(0).split(" ", 5);
            long at = Long.parseLong(f[1]);
            assertEquals(victim, Integer.parseInt(f[2]), () -> "rank " + rk + " named the wrong rank\n" + report);
            assertTrue(f[4].contains("rank " + victim), () -> "rank " + rk + " message does not name the rank\n" + report);
            assertTrue(at - failedAt >= 0 && at - failedAt < DETECTION_BOUND_NS,
                () -> "rank " + rk + " (" + f[3] + ") caught the failure " + (at - failedAt) / 1e9 + " s after it\n" + report);
        }
        Processes.assertAllGone(r, np);
        return r;
    }
}
