package org.hympj.shm.coll;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * reduce and allreduce over segment buffers and derived types, at 1, 2, 3, 4 and 8 ranks
 * (eager and rendezvous sizes). See {@link StagedReductionRank}.
 */
class StagedReductionTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void reductionsOverSegmentsAndDerivedTypesMatchTheSerialSum(int np) {
        Jobs.runAndPassAll(np, StagedReductionRank.class, StagedReductionRank.SCENARIOS);
    }
}
