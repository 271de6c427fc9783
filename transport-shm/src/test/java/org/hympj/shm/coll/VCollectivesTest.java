package org.hympj.shm.coll;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gatherv, scatterv, allgatherv, alltoallv, scan, exscan, reduceScatter(+Block) and the
 * logical, bitwise and MINLOC/MAXLOC operations against serial results, at 1, 2, 3, 5 and 8
 * ranks (eager and rendezvous block sizes). See {@link VCollectivesRank}.
 */
class VCollectivesTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void everyNewCollectiveMatchesTheSerialResult(int np) {
        Jobs.runAndPassAll(np, VCollectivesRank.class, VCollectivesRank.SCENARIOS);
    }
}
