package org.hympj.shm.p2p;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

/**
 * The point-to-point scenarios over each emulated fabric: TCA forced (every rank in one
 * subcluster), IB forced, and under the ha-pacs timing model (TCA inside subclusters of 2, IB
 * across, so both channels carry traffic; a low time dilation, since this checks correctness,
 * not timing).
 */
class FabricRoutesTest {
    static LaunchSpec variant(LaunchSpec spec, String variant) {
        switch (variant) {
            case "tca":
                return spec.route("tca");
            case "ib":
                return spec.route("ib");
            default:
                return spec.model("ha-pacs").subcluster(2).timeDilation(2);
        }
    }

    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"tca, 3", "ib, 3", "ha-pacs, 4"})
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void pointToPointScenariosPassOnEveryFabric(String variant, int np) {
        MultiRank.runAndPass(variant(MultiRank.spec(np, TransferRank.class), variant), TransferRank.SCENARIOS);
        MultiRank.runAndPass(variant(MultiRank.spec(np, VectorRank.class), variant), VectorRank.SCENARIOS);
        MultiRank.runAndPass(variant(MultiRank.spec(np, MatchingRank.class), variant), MatchingRank.SCENARIOS);
        MultiRank.runAndPass(variant(MultiRank.spec(np, CompletionRank.class), variant), CompletionRank.SCENARIOS);
        MultiRank.runAndPass(variant(MultiRank.spec(np, PersistentRank.class), variant), PersistentRank.SCENARIOS);
        MultiRank.runAndPass(variant(MultiRank.spec(np, TruncationRank.class), variant), TruncationRank.SCENARIOS);
    }
}
