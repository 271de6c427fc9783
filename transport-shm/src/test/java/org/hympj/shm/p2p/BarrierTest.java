package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The barrier (default, and each algorithm) makes every rank wait for the last one to enter;
 * 6 ranks add a non-power of two with two extra ranks. See {@link BarrierRank}.
 */
class BarrierTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 6, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void noRankLeavesBeforeAllEntered(int np) {
        MultiRank.runAndPass(np, BarrierRank.class, BarrierRank.SCENARIOS);
    }
}
