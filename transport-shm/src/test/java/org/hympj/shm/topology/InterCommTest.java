package org.hympj.shm.topology;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.coll.Jobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Intercommunicators between two groups of the world (interleaved and uneven blocks): create,
 * point-to-point on the remote group's ranks with its own matching, the intercommunicator
 * collectives (barrier, bcast, allreduce, allgather, alltoall, gather, scatter, reduce, the v-variants, reduce-scatter), merge, dup and
 * bad arguments, at 1 (overlap refused), 2, 3, 4 and 8 ranks. See {@link InterCommRank}.
 */
class InterCommTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void intercommunicators(int np) {
        Jobs.runAndPassAll(np, InterCommRank.class, InterCommRank.SCENARIOS);
    }
}
