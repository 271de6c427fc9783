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
 * (whose waits advance the collectives, which run on the two-sided engine), and in part on
 * virtual time.
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
     * On virtual time (the default under a model) the scenarios with one collective in flight at
     * a time. With several in flight ("outstanding") or persistent sets started together
     * ("persistent"), the ranks can wait on one another's turn to book (VirtualOrder): a rank
     * leaves a packet in its ring whose handler books later than the packet's stamp, and that
     * stamp holds back the rank whose booking it waits for. Left to the virtual-time work: see
     * the report of branch h16-nbc.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {3, 4})
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void onVirtualTime(int np) {
        String[] scenarios = {"overlap", "results", "refused"};
        Jobs.runAndPassAll(MultiRank.spec(np, NbcRank.class, scenarios).model("ha-pacs").subcluster(2)
            .timeout(Duration.ofSeconds(150)), scenarios);
    }
}
