package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ranks' JIT choice: C1 only when the ranks leave no core to the compiler threads; C2 without
 * speculative traps, the warm-up waiting longer, when asked for ({@code steady}); with the warm-up on,
 * its own code left to the interpreter, so that the library's entry points compile as a program calls them.
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
    void withTheWarmUpOnItsOwnCodeIsNeverCompiled() {
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-Dhympj.jit.c1=true", "-Dhympj.warmup=on",
            "-XX:CompileCommand=quiet", "-XX:CompileCommand=exclude,org/hympj/shm/pml/WarmUp*.*",
            "-XX:CompileCommand=dontinline,org/hympj/shm/pml/SpinYieldParkIdleStrategy.backOff",
            "-XX:CompileCommand=dontinline,org/hympj/shm/pml/EagerProtocol.awaitPacker",
            "-XX:CompileCommand=CompileThresholdScaling,org/hympj/shm/pml/RendezvousProtocol.onFrag,0.2"),
            Launcher.rankJitFlags("auto", "on", 8, 2));
        assertEquals(List.of("-Dhympj.warmup=off"), Launcher.rankJitFlags("tiered", "off", 2, 2));
    }

    /** HotSpot parses the commands and names the warm-up's classes and the waits in them (a malformed one is only warned of). */
    @Test
    @org.junit.jupiter.api.Timeout(60)
    void hotSpotTakesTheWarmUpsCommands() throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Launcher.javaCommand()));
        cmd.addAll(Launcher.WARM_UP_JIT_FLAGS.subList(1, Launcher.WARM_UP_JIT_FLAGS.size())); // not quiet: echoed
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0, out);
        assertTrue(out.contains("CompileCommand: exclude org/hympj/shm/pml/WarmUp*.* bool exclude = true"), out);
        assertTrue(out.contains("CompileCommand: dontinline org/hympj/shm/pml/SpinYieldParkIdleStrategy.backOff"
            + " bool dontinline = true"), out);
        assertTrue(out.contains("CompileCommand: dontinline org/hympj/shm/pml/EagerProtocol.awaitPacker"
            + " bool dontinline = true"), out);
        assertTrue(out.contains("CompileCommand: CompileThresholdScaling org/hympj/shm/pml/RendezvousProtocol.onFrag"
            + " double CompileThresholdScaling = 0.200000"), out);
        // the patterns name the classes and method (a move or rename must take them along)
        assertEquals("org/hympj/shm/pml/WarmUp", org.hympj.shm.pml.WarmUp.class.getName().replace('.', '/'));
        // the warm-up's waiting steps live beside it, under the same pattern
        assertTrue(Class.forName("org.hympj.shm.pml.WarmUpWaits").getName().replace('.', '/')
            .startsWith("org/hympj/shm/pml/WarmUp"));
        Class<?> idle = Class.forName("org.hympj.shm.pml.SpinYieldParkIdleStrategy");
        assertEquals("org/hympj/shm/pml/SpinYieldParkIdleStrategy", idle.getName().replace('.', '/'));
        idle.getDeclaredMethod("backOff");
        Class<?> eager = Class.forName("org.hympj.shm.pml.EagerProtocol");
        assertEquals("org/hympj/shm/pml/EagerProtocol", eager.getName().replace('.', '/'));
        eager.getDeclaredMethod("awaitPacker", int.class);
        Class<?> rendezvous = Class.forName("org.hympj.shm.pml.RendezvousProtocol");
        assertEquals("org/hympj/shm/pml/RendezvousProtocol", rendezvous.getName().replace('.', '/'));
        assertTrue(java.util.Arrays.stream(rendezvous.getDeclaredMethods()).anyMatch(m -> m.getName().equals("onFrag")));
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
