package org.hympj.shm.pml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hympj.shm.launch.LaunchSpec;
import org.junit.jupiter.api.Test;

/**
 * What {@code --idle auto} and the media drivers' default idling stand for: no spin phase once
 * busy threads outnumber the cores (ranks, and with --local-hosts the groups' drivers), a short
 * spin without PAUSE otherwise; a driver never spins by default.
 */
class IdlerPolicyTest {
    @Test
    void autoYieldsAtOnceWhenThreadsOutnumberCores() {
        assertEquals(Idler.OVERSUBSCRIBED, Idler.auto(4, 2)); // 2 ranks + 2 local hosts' drivers
        assertEquals("auto", Idler.auto(2, 2));
        assertTrue(Idler.strategy("auto", 3, 2).toString().contains("maxSpins=0,"),
            Idler.strategy("auto", 3, 2).toString());
        String own = Idler.strategy("auto", 2, 2).toString();
        assertTrue(own.startsWith("SpinYieldParkIdleStrategy{") && own.contains("maxSpins=2000,"),
            "a core per rank: spins without PAUSE, then yields: " + own);
    }

    @Test
    void driversDoNotSpinByDefault() {
        String s = Idler.strategy(LaunchSpec.DEFAULT_DRIVER_IDLE, 1, 2).toString();
        assertTrue(s.contains("maxSpins=0,") && s.contains("maxYields=100000,"), s);
    }

    @Test
    void badPoliciesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Idler.strategy("fast", 1, 2));
        assertTrue(e.getMessage().contains("idle policy must be"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Idler.strategy("backoff:1:2:3", 1, 2));
        assertTrue(e.getMessage().contains("expected 4 numbers"), e.getMessage());
    }
}
