package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ranks' JIT choice: C1 only when the ranks leave no core to the compiler threads; C2 without
 * speculative traps, the warm-up waiting longer, when asked for ({@code steady}).
 */
class LauncherJitTest {
    private static final List<String> C1 = List.of("-XX:TieredStopAtLevel=1", "-Dhympj.jit.c1=true");

    @Test
    void autoTakesC1OnlyWhenEveryCoreRunsARank() {
        assertEquals(C1, Launcher.jitFlags("auto", 8, 2));
        assertEquals(List.of(), Launcher.jitFlags("auto", 2, 2), "a core per rank: tiered (C2)");
        assertEquals(List.of(), Launcher.jitFlags("auto", 2, 16), "free cores: tiered, C2 for long runs");
    }

    @Test
    void explicitChoicesAreTakenAsGiven() {
        assertEquals(C1, Launcher.jitFlags("c1", 2, 16));
        assertEquals(List.of(), Launcher.jitFlags("tiered", 8, 2));
        assertEquals(List.of("-XX:PerMethodTrapLimit=0", "-XX:PerBytecodeTrapLimit=0", "-Dhympj.warmup.budgetMs=12000"),
            Launcher.jitFlags("steady", 8, 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Launcher.jitFlags("c3", 2, 2));
        assertTrue(e.getMessage().contains("--jit") && e.getMessage().contains("c3")
            && e.getMessage().contains("steady"), e.getMessage());
    }
}
