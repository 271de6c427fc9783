package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Contiguous messages of every primitive (0 … 4 MiB, around the 16 KiB eager limit, at
 * non-zero offsets) and the four heap/segment buffer combinations of the rendezvous paths,
 * around a ring of N ranks. See {@link TransferRank}.
 */
class TransferTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void everyPrimitiveAndBufferKindArrivesIntact(int np) {
        MultiRank.runAndPass(np, TransferRank.class, TransferRank.SCENARIOS);
    }
}
