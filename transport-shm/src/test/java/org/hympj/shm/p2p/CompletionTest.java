package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * waitAll / testAll / waitAny / testAny / test (including lists of only null or inactive
 * requests), sendrecv shifts and PROC_NULL. See {@link CompletionRank}.
 */
class CompletionTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void requestsCompleteAsSpecified(int np) {
        MultiRank.runAndPass(np, CompletionRank.class, CompletionRank.SCENARIOS);
    }
}
