package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A message longer than the receive buffer: TruncationException, truncated status, no byte
 * written past the buffer, library still usable. See {@link TruncationRank}.
 */
class TruncationTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void truncationIsReportedAndWritesNothingPastTheBuffer(int np) {
        MultiRank.runAndPass(np, TruncationRank.class, TruncationRank.SCENARIOS);
    }
}
