package mpijava;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** OBJECT buffers in Gatherv, Scatterv, Allgatherv, Alltoall and Alltoallv ({@link ObjectCollectivesConformance}). */
class MpiJavaObjectCollectivesTest {
    static final String[] SCENARIOS = {"gatherv", "allgatherv", "scatterv", "alltoall", "alltoallv", "refused"};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void objectCollectives(int np) {
        Jobs.runAndPass(np, ObjectCollectivesConformance.class, SCENARIOS);
    }
}
