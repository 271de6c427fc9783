package mpijava;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Graphcomm, Intercomm and Bsend_init through the real launcher ({@link TopologyConformance}). */
class MpiJavaTopologyTest {
    static final String[] SCENARIOS = {"graph", "intercomm", "bsend-init"};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void topologyConformance(int np) {
        Jobs.runAndPass(np, TopologyConformance.class, SCENARIOS);
    }
}
