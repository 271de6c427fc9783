package org.hympj.shm.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad arguments fail at the call with a message naming the argument, and change nothing.
 * See {@link BadArgumentsRank}.
 */
class BadArgumentsTest {
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void badArgumentsFailAtTheCallAndChangeNothing() {
        JobResult r = MultiRank.runAndPass(2, BadArgumentsRank.class, BadArgumentsRank.SCENARIOS);
        // each rank printed one OK line (with the exception's message) per refused call
        for (int rank = 0; rank < 2; rank++) {
            List<String> total = MultiRank.lines(r, rank, "REFUSED ");
            assertEquals(1, total.size(), MultiRank.report(r));
            int expected = Integer.parseInt(total.get(0).substring("REFUSED ".length()));
            assertTrue(expected >= 150, "too few bad calls tried: " + expected);
            assertEquals(expected, MultiRank.lines(r, rank, "OK ").size(), MultiRank.report(r));
        }
    }
}
