package org.hympj.shm.topology;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.coll.Jobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * dup (same group, separate matching for point-to-point and collectives) and split (colors,
 * keys reversing the order, equal keys, UNDEFINED, split of split, groups kept apart) on 6
 * ranks. See {@link CommunicatorsRank}.
 */
class CommunicatorsTest {
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void dupAndSplit() {
        Jobs.runAndPassAll(6, CommunicatorsRank.class, CommunicatorsRank.SCENARIOS);
    }
}
