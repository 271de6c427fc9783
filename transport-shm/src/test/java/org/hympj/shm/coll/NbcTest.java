package org.hympj.shm.coll;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Non-blocking (MPI-3) and persistent (MPI-4) collectives through the launcher at 1, 2, 3, 4
 * and 8 ranks: results against the blocking collectives, overlap, several outstanding at once,
 * persistent starts with changing data, the Cartesian neighbour exchange, bad arguments. See
 * {@link NbcRank}.
 */
class NbcTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void nonBlockingAndPersistentCollectives(int np) {
        Jobs.runAndPassAll(np, NbcRank.class, NbcRank.SCENARIOS);
    }
}
