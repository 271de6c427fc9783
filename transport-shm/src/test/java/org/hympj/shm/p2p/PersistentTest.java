package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Persistent requests over every buffer path, many iterations; start while active or after
 * free is refused and changes nothing. See {@link PersistentRank}.
 */
class PersistentTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void persistentRequestsRepeatAndRefuseMisuse(int np) {
        MultiRank.runAndPass(np, PersistentRank.class, PersistentRank.SCENARIOS, PersistentRank.SCENARIOS);
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void startAllWithAFreedRequestStartsNothing() {
        MultiRank.runAndPass(2, PersistentRank.class, new String[] {PersistentRank.STARTALL_FREED},
            PersistentRank.STARTALL_FREED);
    }
}
