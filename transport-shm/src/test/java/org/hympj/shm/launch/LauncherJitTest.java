package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ranks' JIT choice: tiered with a core per rank; oversubscribed, C2 without speculative
 * traps when the ranks warm up on one host (the warm-up waits for the compilers), else C1 only.
 */
class LauncherJitTest {
    private static final List<String> C1 = List.of("-XX:TieredStopAtLevel=1", "-Dhympj.jit.c1=true");
    private static final List<String> STEADY = List.of("-XX:PerMethodTrapLimit=0", "-XX:PerBytecodeTrapLimit=0",
        "-Dhympj.warmup.budgetMs=12000");

    @Test
    void autoTakesSteadyWhenRanksShareCoresAndWarmUp() {
        assertEquals(STEADY, Launcher.jitFlags("auto", 8, 2, true));
        assertEquals(C1, Launcher.jitFlags("auto", 8, 2, false), "no warm-up: C2's compiles would run in the program");
        assertEquals(List.of(), Launcher.jitFlags("auto", 2, 2, true), "a core per rank: tiered (C2)");
        assertEquals(List.of(), Launcher.jitFlags("auto", 2, 16, false), "free cores: tiered, C2 for long runs");
    }

    @Test
    void explicitChoicesAreTakenAsGiven() {
        assertEquals(C1, Launcher.jitFlags("c1", 2, 16, true));
        assertEquals(List.of(), Launcher.jitFlags("tiered", 8, 2, true));
        assertEquals(STEADY, Launcher.jitFlags("steady", 2, 16, false));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Launcher.jitFlags("c3", 2, 2, true));
        assertTrue(e.getMessage().contains("--jit") && e.getMessage().contains("c3")
            && e.getMessage().contains("steady"), e.getMessage());
    }

    @Test
    void onlyANativeTwoSidedUntracedJobOnOneHostWarmsUp() {
        assertTrue(Launcher.warmsUp(new LaunchSpec()));
        assertFalse(Launcher.warmsUp(new LaunchSpec().warmUp("off")));
        LaunchSpec modelled = new LaunchSpec();
        modelled.model = "ha-pacs";
        assertFalse(Launcher.warmsUp(modelled), "under a model the warm-up would move the virtual clock");
        LaunchSpec traced = new LaunchSpec();
        traced.trace = true;
        assertFalse(Launcher.warmsUp(traced));
        LaunchSpec onesided = new LaunchSpec();
        onesided.p2p = "onesided";
        assertFalse(Launcher.warmsUp(onesided));
        LaunchSpec hosts = new LaunchSpec();
        hosts.localHosts = 2;
        assertFalse(Launcher.warmsUp(hosts), "on several hosts the ranks keep C1");
        LaunchSpec agent = LaunchSpec.ofRankText(new LaunchSpec().main("Main").rankText());
        assertFalse(Launcher.warmsUp(agent), "a host agent starts one host's part of a job on several hosts");
    }
}
