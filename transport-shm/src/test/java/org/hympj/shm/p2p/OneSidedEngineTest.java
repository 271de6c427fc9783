package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The point-to-point scenarios under {@code --p2p onesided} (S2's isend/irecv from one-sided
 * writes): natively and under the ha-pacs model. The helper suites' programs that use
 * ANY_SOURCE or probe, which this engine does not support, are left out; OneSidedRank checks
 * that those fail clearly and covers what they would (truncation, order, persistent, self).
 */
class OneSidedEngineTest {
    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"native, 2", "native, 3", "ha-pacs, 4"})
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void pointToPointScenariosPass(String variant, int np) {
        for (Class<?> main : new Class<?>[] {OneSidedRank.class, TransferRank.class, VectorRank.class}) {
            String[] scenarios = main == TransferRank.class ? TransferRank.SCENARIOS
                : main == VectorRank.class ? VectorRank.SCENARIOS : OneSidedRank.SCENARIOS;
            var spec = MultiRank.spec(np, main).p2p("onesided");
            if (variant.equals("ha-pacs")) {
                spec.model("ha-pacs").subcluster(2).timeDilation(2);
            }
            MultiRank.runAndPass(spec, scenarios);
        }
    }
}
