package org.hympj.shm.coll;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Non-blocking (MPI-3) and persistent (MPI-4) collectives through the launcher at 1, 2, 3, 4
 * and 8 ranks: results against the blocking collectives, overlap, several outstanding at once,
 * persistent starts with changing data, the Cartesian neighbour exchange, bad arguments. See
 * {@link NbcRank}. The same scenarios also run under a timing model on the wall clock (the
 * internal transfers are paced like any others), with the one-sided engine for point-to-point
 * (whose waits advance the collectives, which run on the two-sided engine), and on virtual
 * time.
 */
class NbcTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void nonBlockingAndPersistentCollectives(int np) {
        Jobs.runAndPassAll(np, NbcRank.class, NbcRank.SCENARIOS);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ha-pacs wall clock", "onesided"})
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void underATimingModelAndWithTheOneSidedEngine(String variant) {
        LaunchSpec spec = MultiRank.spec(4, NbcRank.class).timeout(Duration.ofSeconds(150));
        spec = variant.equals("onesided") ? spec.p2p("onesided") : spec.model("ha-pacs").subcluster(2).clock("wall");
        Jobs.runAndPassAll(spec, NbcRank.SCENARIOS);
    }

    /**
     * On virtual time (the default under a model), where a send waiting for its turn to book
     * makes progress passes: no collective round may start in them (its sends would overtake
     * the waiting one in its pair's sequence; the receiver would hold them back, and with them
     * the turn awaited).
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {3, 4})
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void onVirtualTime(int np) {
        Jobs.runAndPassAll(MultiRank.spec(np, NbcRank.class).model("ha-pacs").subcluster(2)
            .timeout(Duration.ofSeconds(150)), NbcRank.SCENARIOS);
    }
}
