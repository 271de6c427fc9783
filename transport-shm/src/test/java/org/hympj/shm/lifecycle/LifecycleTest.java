package org.hympj.shm.lifecycle;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One init per process, nothing after close (issue 19, item 3). See {@link LifecycleRank}. */
class LifecycleTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void secondInitAndCallsAfterCloseAreRefused() {
        MultiRank.runAndPass(2, LifecycleRank.class, LifecycleRank.SCENARIOS);
    }
}
