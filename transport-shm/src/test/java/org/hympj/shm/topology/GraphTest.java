package org.hympj.shm.topology;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.coll.Jobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Graph communicators: create (with a self-loop, a chord, repeated edges at 2 ranks), the
 * neighbour queries, an exchange with every neighbour, graphs smaller than the communicator
 * (null beyond, degree 0 nodes, 0 nodes), dup, and bad input refused with nothing changed, at
 * 1, 2, 3, 4 and 8 ranks. See {@link GraphRank}.
 */
class GraphTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void graphTopology(int np) {
        Jobs.runAndPassAll(np, GraphRank.class, GraphRank.SCENARIOS);
    }
}
