package org.hympj.shm.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A whole host of a job on local hosts dies at once (its agent with its media driver and every
 * rank on it, SIGKILL, as in a crash) while the ranks of the other hosts are blocked waiting for
 * it: each of them fails with RankFailedException naming a rank of the dead host within 5 s, the
 * launcher exits non-zero naming the host, and no rank process and no host's job directory is
 * left. See {@link FailingRank} ({@code host}).
 */
class HostFailureTest {
    @ParameterizedTest(name = "{0} ranks on {1} hosts, the host of rank {2} killed")
    @CsvSource({"4, 2, 3", "8, 2, 5", "6, 3, 0"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyPeerOfTheOtherHostsNamesARankOfTheDeadHost(int np, int hosts, int victim) {
        JobResult r = MultiRank.launch(MultiRank.spec(np, FailingRank.class, "host", Integer.toString(victim))
            .localHosts(hosts));
        String report = MultiRank.report(r);
        int[] dead = deadRanks(np, hosts, victim);
        assertTrue(r.exitCode() != 0, () -> "exit code 0 for a failed job\n" + report);
        assertTrue(r.failedRank() >= dead[0] && r.failedRank() <= dead[1], () -> "failed rank\n" + report);
        assertTrue(r.message().contains("host group-"), () -> "launcher message: " + r.message());
        List<String> fail = MultiRank.lines(r, victim, "FAIL ");
        assertEquals(1, fail.size(), () -> "victim did not announce its failure\n" + report);
        long failedAt = Long.parseLong(fail.get(0).split(" ")[1]);
        for (int rank = 0; rank < np; rank++) {
            if (rank >= dead[0] && rank <= dead[1]) {
                continue;
            }
            int rk = rank;
            List<String> caught = MultiRank.lines(r, rank, "CAUGHT ");
            assertEquals(1, caught.size(), () -> "rank " + rk + " did not catch RankFailedException\n" + report);
            String[] f = caught.get(0).split(" ", 5);
            long at = Long.parseLong(f[1]);
            int named = Integer.parseInt(f[2]);
            assertTrue(named >= dead[0] && named <= dead[1], () -> "rank " + rk + " named rank " + named
                + ", not one of the dead host\n" + report);
            assertTrue(f[4].contains("rank " + named), () -> "rank " + rk + " message does not name the rank\n" + report);
            System.out.printf("%d ranks on %d hosts: rank %d (%s) told of rank %d after %.3f s: %s%n", np, hosts, rank, f[3],
                named, (at - failedAt) / 1e9, f[4]);
            assertTrue(at - failedAt >= 0 && at - failedAt < RankFailureTest.DETECTION_BOUND_NS,
                () -> "rank " + rk + " (" + f[3] + ") caught the failure " + (at - failedAt) / 1e9 + " s after it\n"
                    + report);
        }
        Processes.assertAllGone(r, np);
    }

    /** First and last rank of the victim's host (ranks split as --local-hosts splits them). */
    private static int[] deadRanks(int np, int hosts, int victim) {
        int first = 0;
        for (int h = 0; h < hosts; h++) {
            int count = np / hosts + (h < np % hosts ? 1 : 0);
            if (victim < first + count) {
                return new int[] {first, first + count - 1};
            }
            first += count;
        }
        throw new IllegalArgumentException("victim " + victim);
    }
}
