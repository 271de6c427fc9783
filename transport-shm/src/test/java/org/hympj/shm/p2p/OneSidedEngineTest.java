package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The point-to-point scenarios under {@code --p2p onesided} (S2's isend/irecv from one-sided
 * writes): natively, under the ha-pacs model on virtual time (the default clock: the engine's
 * rounds driven by the ranks' own threads, bookings in modelled-instant order), and — the
 * engine's own scenarios only — on the wall clock with its polling thread (--clock wall, the
 * cross-check). The helper suites' programs that use ANY_SOURCE or probe, which this engine
 * does not support, are left out; OneSidedRank checks that those fail clearly and covers what
 * they would (truncation, order, persistent, self).
 */
class OneSidedEngineTest {
    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"native, 2", "native, 3", "ha-pacs, 4", "ha-pacs wall clock, 2"})
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void pointToPointScenariosPass(String variant, int np) {
        boolean wall = variant.endsWith("wall clock");
        Class<?>[] mains = wall ? new Class<?>[] {OneSidedRank.class}
            : new Class<?>[] {OneSidedRank.class, TransferRank.class, VectorRank.class};
        for (Class<?> main : mains) {
            String[] scenarios = main == TransferRank.class ? TransferRank.SCENARIOS
                : main == VectorRank.class ? VectorRank.SCENARIOS : OneSidedRank.SCENARIOS;
            var spec = MultiRank.spec(np, main).p2p("onesided");
            if (variant.startsWith("ha-pacs")) {
                spec.model("ha-pacs").subcluster(2);
            }
            if (wall) {
                spec.clock("wall").timeDilation(2);
            }
            MultiRank.runAndPass(spec, scenarios);
        }
    }
}
