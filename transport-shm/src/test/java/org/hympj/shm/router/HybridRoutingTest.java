package org.hympj.shm.router;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hybrid router: order across fabrics, striping, persistent routes, counted decisions. */
class HybridRoutingTest {
    private static final String[] SCENARIOS = {"order", "striped", "persistent"};

    private static String stats(JobResult r) {
        List<String> s = MultiRank.lines(r, 0, "STATS");
        return s.isEmpty() ? "" : s.get(0);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void nativeHybridRoutingKeepsOrderAndStripes() {
        LaunchSpec spec = MultiRank.spec(2, HybridRank.class).route("hybrid").stripe(1 << 20);
        JobResult r = MultiRank.runAndPass(spec, SCENARIOS);
        String s = stats(r);
        // per round of 24 messages: 16 small ones on TCA, 8 large ones on IB
        assertTrue(s.contains("route.tca.contiguous.messages="), s);
        assertTrue(s.contains("route.ib.contiguous.messages="), s);
        assertTrue(s.contains("route.striped.contiguous.messages=4"), "the four 2 MB messages were striped: " + s);
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void underTheModelWithSubclustersAndStriping() {
        LaunchSpec spec = MultiRank.spec(4, HybridRank.class).model("ha-pacs").subcluster(2).timeDilation(2)
            .stripe(1 << 20);
        JobResult r = MultiRank.runAndPass(spec, SCENARIOS);
        String s = stats(r);
        assertTrue(s.contains("route.striped.contiguous.messages=4"), s);
        assertTrue(s.contains("route.ib.contiguous"), s);
        assertTrue(s.contains("route.tca.contiguous"), s);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void stripingOffSendsEveryLargeMessageOverOneFabric() {
        LaunchSpec spec = MultiRank.spec(2, HybridRank.class).route("hybrid").stripe(0);
        JobResult r = MultiRank.runAndPass(spec, SCENARIOS);
        String s = stats(r);
        assertTrue(!s.contains("striped"), s);
    }
}
