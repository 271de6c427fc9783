package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Vector, contiguous and vector-of-vector datatypes on either or both sides, small and
 * above the eager limit, heap and segment buffers; gaps must stay untouched. See {@link VectorRank}.
 */
class VectorTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void derivedDatatypesPlaceExactlyTheirElements(int np) {
        MultiRank.runAndPass(np, VectorRank.class, VectorRank.SCENARIOS);
    }
}
