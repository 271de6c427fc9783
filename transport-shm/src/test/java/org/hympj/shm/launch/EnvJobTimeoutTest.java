package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** HYMPJ_NET_TIMEOUT as a job without a launcher of ours reads it. */
class EnvJobTimeoutTest {
    @Test
    void unsetIsThreeSecondsSoThatADeadNodeIsNamedWithinFive() {
        assertEquals(3_000_000_000L, EnvJob.netTimeoutNs(null));
    }

    @Test
    void secondsMayHaveAFraction() {
        assertEquals(10_000_000_000L, EnvJob.netTimeoutNs("10"));
        assertEquals(2_500_000_000L, EnvJob.netTimeoutNs(" 2.5 "));
    }

    @Test
    void anythingElseNamesTheVariableAndTheRange() {
        for (String bad : new String[] {"", "ten", "0.4", "-3", "NaN", "1e9"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EnvJob.netTimeoutNs(bad));
            assertTrue(e.getMessage().startsWith("HYMPJ_NET_TIMEOUT must be a number of seconds in 0.5..3600, was '"
                + bad + "'"), e.getMessage());
        }
    }
}
