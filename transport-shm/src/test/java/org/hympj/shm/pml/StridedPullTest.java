package org.hympj.shm.pml;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Strided segment data pulled by the receiver in the sender's layout (every rank has a core:
 * 2 ranks here) arrives intact into contiguous and strided receive buffers, as an unexpected
 * message too; with ranks sharing cores (3 ranks on 2 cores) it is packed as before. See
 * {@link StridedPullRank}.
 */
class StridedPullTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void stridedSegmentDataArrivesIntact(int np) {
        MultiRank.runAndPass(np, StridedPullRank.class, StridedPullRank.SCENARIOS);
    }
}
