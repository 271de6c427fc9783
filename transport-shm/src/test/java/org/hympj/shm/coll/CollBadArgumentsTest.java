package org.hympj.shm.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad arguments to collectives and communicator calls (roots out of range, null op,
 * non-predefined types for reductions, short, null and mistyped buffers, IN_PLACE where it is
 * not allowed, bad Cartesian arguments, ops not defined on the type) throw
 * IllegalArgumentException naming the argument, and the library stays usable. See
 * {@link CollBadArgumentsRank}.
 */
class CollBadArgumentsTest {
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void badArgumentsThrowNamingTheArgumentAndChangeNothing() {
        int np = 3;
        JobResult r = Jobs.runAndPassAll(np, CollBadArgumentsRank.class, CollBadArgumentsRank.SCENARIOS);
        for (int rank = 0; rank < np; rank++) {
            List<String> total = Jobs.values(r, rank, "REFUSED ");
            assertEquals(1, total.size(), MultiRank.report(r));
            int refused = Integer.parseInt(total.get(0));
            assertTrue(refused >= 50, "too few bad calls tried: " + refused);
            assertEquals(refused, Jobs.values(r, rank, "OK ").size(), MultiRank.report(r));
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void opNotDefinedOnTheTypeIsRefusedAtTheCall() {
        Jobs.runAndPassAll(MultiRank.spec(2, CollBadArgumentsRank.class, "op-type"),
            CollBadArgumentsRank.OP_TYPE_SCENARIOS);
    }
}
