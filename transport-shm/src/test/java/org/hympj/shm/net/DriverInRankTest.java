package org.hympj.shm.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --net-driver rank}: a host's first rank runs the host's media driver. While it computes
 * (no library call), its guard thread moves the host's other ranks' network traffic
 * ({@link DriverGuardRank}); the other cases — every size and layout, failures, security, bad
 * input — run in {@link LocalHostsTest}, the {@code *OnTwoHostsTest} classes, {@code HostFailureTest},
 * {@link SecurityTest} and {@link NetBadInputTest}, with the driver in a rank by default.
 */
class DriverInRankTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theHostsOtherRanksReachTheNetworkWhileTheDriverRankComputes() {
        JobResult r = MultiRank.runAndPass(MultiRank.spec(4, DriverGuardRank.class).localHosts(2).netDriver("rank"),
            new String[0]);
        String report = MultiRank.report(r);
        List<String> guard = MultiRank.lines(r, 2, "PASS guard");
        assertEquals(1, guard.size(), () -> "rank 2 computed to its limit: the driver did not run meanwhile\n" + report);
        assertEquals(List.of("PASS pingpong"), MultiRank.lines(r, 3, "PASS pingpong"), report);
        assertEquals(List.of("PASS pingpong"), MultiRank.lines(r, 0, "PASS pingpong"), report);
    }

    /**
     * Connections never used still end with a goodbye, also when the other host starts after this
     * one finished: the drivers' ranks do not wait for one in vain.
     */
    @ParameterizedTest(name = "host 1 starts {0}")
    @ValueSource(strings = {"now", "late"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ranksThatNeverTalkedAcrossHostsStillSayGoodbye(String start) {
        JobResult r = MultiRank.runAndPass(MultiRank.spec(4, LocalPairsRank.class, start).localHosts(2)
            .netDriver("rank"), new String[] {"pair"});
        String report = MultiRank.report(r);
        for (int rank = 0; rank < 4; rank++) {
            int rk = rank;
            assertFalse(r.output(rank).contains("without a goodbye"), () -> "rank " + rk + " waited\n" + report);
        }
    }
}
