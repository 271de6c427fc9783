package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * free() of an active request returns at once; the message is still delivered, a freed
 * receive's data still land, and a freed request refuses waitFor, test and status. See
 * {@link FreeActiveRank}.
 */
class FreeActiveTest {
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void freedRequestsCompleteInTheBackgroundAndRefuseUse() {
        MultiRank.runAndPass(2, FreeActiveRank.class, FreeActiveRank.SCENARIOS);
    }
}
