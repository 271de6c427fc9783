package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Segment data pulled by the receiver keeps the completion rules of its send mode: buffered up
 * to the eager limit (head-to-head blocking sends finish), synchronous sends wait for their
 * receive, rendezvous above the eager limit. See {@link SegmentPullRank}. With 3 ranks on 2 cores
 * the ranks share cores and only data above the eager limit is pulled (below it goes eager): the
 * same rules must hold.
 */
class SegmentPullTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void pulledSendsCompleteAsTheirModeSays(int np) {
        MultiRank.runAndPass(np, SegmentPullRank.class, SegmentPullRank.SCENARIOS);
    }
}
