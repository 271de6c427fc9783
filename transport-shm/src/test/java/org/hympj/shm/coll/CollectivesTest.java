package org.hympj.shm.coll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every collective against a serial reference computed in the rank program, on 1, 2, 3, 5,
 * 6 and 8 ranks (8 also runs the battery on split sub-communicators of 3, 5 and 7 ranks with
 * reversed keys): all primitives, all predefined ops where defined, user ops (commutative and
 * not: the order must be rank order), roots other than 0, IN_PLACE, derived types, segment
 * buffers, bulk and rendezvous sizes. See {@link CollectivesRank}.
 */
class CollectivesTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5, 6, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void everyCollectiveMatchesTheSerialReference(int np) {
        List<String> scenarios = new ArrayList<>(Arrays.asList(CollectivesRank.SCENARIOS));
        String[] args = {};
        if (np == 8) {
            args = new String[] {"sub"};
            for (int k : CollectivesRank.SUB_SIZES) {
                scenarios.add("sub" + k);
            }
        }
        Jobs.runAndPassAll(MultiRank.spec(np, CollectivesRank.class, args), scenarios.toArray(new String[0]));
    }
}
