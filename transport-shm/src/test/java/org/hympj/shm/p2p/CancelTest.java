package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cancel never loses a message that has arrived, wherever it sits in its ring. See {@link CancelRank}. */
class CancelTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anArrivedMessageIsNeverCancelled(int np) {
        MultiRank.runAndPass(np, CancelRank.class, CancelRank.SCENARIOS);
    }
}
