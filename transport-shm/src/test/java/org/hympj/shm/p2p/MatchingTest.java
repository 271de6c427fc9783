package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Matching: non-overtaking order (eager and rendezvous interleaved, unexpected and posted),
 * ANY_SOURCE / ANY_TAG, posted-receive order with wildcards, zero-length messages,
 * self-sends, probe / iprobe. See {@link MatchingRank}.
 */
class MatchingTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void messagesMatchInMpiOrder(int np) {
        MultiRank.runAndPass(np, MatchingRank.class, MatchingRank.SCENARIOS);
    }
}
