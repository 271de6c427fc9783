package org.hympj.shm.coll;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.p2p.FabricRoutesVariants;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The collective scenarios over each emulated fabric (see FabricRoutesTest). */
class FabricRoutesCollTest {
    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"tca, 3", "ib, 5", "ha-pacs, 4"})
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void collectiveScenariosPassOnEveryFabric(String variant, int np) {
        Jobs.runAndPassAll(FabricRoutesVariants.apply(MultiRank.spec(np, CollectivesRank.class), variant),
            CollectivesRank.SCENARIOS);
    }
}
