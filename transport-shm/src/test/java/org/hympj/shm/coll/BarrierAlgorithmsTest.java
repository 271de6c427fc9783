package org.hympj.shm.coll;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.api.Comm.BarrierAlgorithm;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dissemination, recursive doubling and ring barriers synchronise (one rank 300 ms late: no
 * rank leaves before it entered) on 2, 3, 5 and 8 ranks; {@code barrier()} is dissemination by
 * default, and {@code --coll barrier=ring|rd} makes it the ring or recursive doubling (mixed
 * with explicit calls of that algorithm, so another default would hang or not synchronise).
 * See {@link BarrierAlgorithmsRank}.
 */
class BarrierAlgorithmsTest {
    /** A wrong default hangs the mixed rounds: do not wait the full minute for it. */
    static final Duration MIXED_TIMEOUT = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void everyAlgorithmSynchronisesAndSharedMemoryIsTheDefault(int np) {
        List<String> scenarios = new ArrayList<>();
        for (BarrierAlgorithm a : BarrierAlgorithm.values()) {
            scenarios.add(BarrierAlgorithmsRank.scenario(a));
        }
        scenarios.add(BarrierAlgorithmsRank.DEFAULT_SCENARIO);
        Jobs.runAndPassAll(MultiRank.spec(np, BarrierAlgorithmsRank.class, "expect=SHARED_MEMORY"),
            scenarios.toArray(new String[0]));
    }

    @ParameterizedTest(name = "--coll {0}")
    @CsvSource({"barrier=ring, RING", "barrier=rd, RECURSIVE_DOUBLING", "barrier=dissemination, DISSEMINATION"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void collOptionSelectsTheDefault(String coll, String algorithm) {
        LaunchSpec spec = MultiRank.spec(5, BarrierAlgorithmsRank.class, "expect=" + algorithm, "only-default")
            .coll(coll)
            .timeout(MIXED_TIMEOUT);
        Jobs.runAndPassAll(spec, BarrierAlgorithmsRank.DEFAULT_SCENARIO);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void unknownBarrierChoiceFailsBeforeAnyRankStarts() {
        LaunchSpec spec = MultiRank.spec(2, BarrierAlgorithmsRank.class, "expect=RING").coll("barrier=tree");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Launcher.run(spec));
        assertTrue(e.getMessage().contains("barrier=tree"), e.getMessage());
    }
}
