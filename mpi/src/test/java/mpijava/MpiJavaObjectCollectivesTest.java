package mpijava;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** OBJECT buffers in Gatherv, Scatterv, Allgatherv, Alltoall, Alltoallv and the user-op reductions ({@link ObjectCollectivesConformance}). */
class MpiJavaObjectCollectivesTest {
    static final String[] SCENARIOS = {"gatherv", "allgatherv", "scatterv", "alltoall", "alltoallv", "refused",
        "reductions"};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void objectCollectives(int np) {
        Jobs.runAndPass(np, ObjectCollectivesConformance.class, SCENARIOS);
    }
}
