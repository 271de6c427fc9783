package org.hympj.shm.p2p;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

/**
 * The point-to-point scenarios again under non-default job configurations, where the
 * corner paths are the common ones: tiny rings and bulk regions (many fragments, full
 * rings, bulk fallback), no inline and no eager range at all (every non-empty message is a
 * rendezvous), and the explicit idle policies with more ranks than cores.
 */
class ConfigVariantsTest {
    @ParameterizedTest(name = "{0}: ring {1}, bulk {2}, inline {3}, eager {4}, idle {5}, {6} ranks: {7}")
    @CsvSource({
        "tiny buffers,   65536,  65536, 1024, 4096, auto,    3, Matching Truncation Transfer",
        "all rendezvous,     0,      0,    0,    0, auto,    3, Matching Truncation",
        "spin,               0,      0,   -1,   -1, spin,    2, Matching",
        "backoff,            0,      0,   -1,   -1, backoff, 3, Matching",
    })
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void pointToPointUnderConfiguration(String name, int ring, int bulk, int inline, int eager, String idle, int np,
                                        String programs) {
        for (String program : programs.split(" ")) {
            Class<?> main;
            String[] scenarios;
            String[] args = new String[0];
            switch (program) {
                case "Matching":
                    main = MatchingRank.class;
                    scenarios = MatchingRank.SCENARIOS;
                    break;
                case "Truncation":
                    main = TruncationRank.class;
                    scenarios = TruncationRank.SCENARIOS;
                    break;
                default:
                    main = TransferRank.class;
                    scenarios = new String[] {"segments"};
                    args = scenarios;
                    break;
            }
            LaunchSpec spec = MultiRank.spec(np, main, args)
                .ringBytes(ring).bulkBytes(bulk).inlineLimit(inline).eagerLimit(eager).idle(idle);
            JobResult r = MultiRank.runAndPass(spec, scenarios);
            if (inline >= 0) {
                String expected = "PROTOCOL inline " + inline + " eager " + eager;
                assertTrue(MultiRank.lines(r, 0, "PROTOCOL").contains(expected),
                    () -> main.getSimpleName() + " did not run with " + expected + "\n" + MultiRank.report(r));
            }
        }
    }
}
