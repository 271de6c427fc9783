package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --loop-compile}: the ping-pong program's timed loops compiled in their warm-up batch, or not. */
class TimedLoopCompileTest {
    private static BenchOptions options(String name, String... argv) {
        BenchOptions o = new BenchOptions();
        o.name = name;
        for (int i = 0; i < argv.length; i++) {
            i = o.option(argv, i);
        }
        return o;
    }

    @Test
    void pingPongLoopsAreCompiledInTheWarmUpByDefault() {
        List<String> args = Bench.spec(options("pingpong"), 1, List.of(BufferKind.HEAP)).jvmArgs();
        assertTrue(args.contains("-XX:CompileCommand=CompileThresholdScaling,org/hympj/perf/PingPong.blockingLoop,0.01"),
            args.toString());
        assertTrue(args.contains("-XX:CompileCommand=BackgroundCompilation,org/hympj/perf/PingPong.persistentLoop,false"),
            args.toString());
        assertTrue(args.contains("-XX:CompileCommand=quiet"), args.toString());
        // the user's own --jvm-arg comes after ours: a CompileCommand of theirs can still override
        List<String> withUser = Bench.spec(options("persistent", "--jvm-arg", "-Dx=1"), 1, List.of(BufferKind.HEAP))
            .jvmArgs();
        assertEquals("-Dx=1", withUser.get(withUser.size() - 1));
    }

    @Test
    void lazyAndOtherBenchmarksAddNoCompileCommand() {
        List<String> lazy = Bench.spec(options("pingpong", "--loop-compile", "lazy"), 1, List.of(BufferKind.HEAP))
            .jvmArgs();
        assertFalse(lazy.stream().anyMatch(a -> a.startsWith("-XX:CompileCommand")), lazy.toString());
        List<String> halo = Bench.spec(options("halo3d"), 1, List.of(BufferKind.HEAP)).jvmArgs();
        assertFalse(halo.stream().anyMatch(a -> a.startsWith("-XX:CompileCommand")), halo.toString());
        assertTrue(Bench.timedLoopFlags(List.of()).isEmpty());
    }

    @Test
    void theNamedLoopsExist() {
        // a renamed method would leave the flags matching nothing, silently: name what they match
        for (String pattern : Benchmarks.get("pingpong").timedLoops()) {
            String cls = pattern.substring(0, pattern.lastIndexOf('.')).replace('/', '.');
            String method = pattern.substring(pattern.lastIndexOf('.') + 1);
            assertEquals(PingPong.class.getName(), cls, pattern);
            assertTrue(Arrays.stream(PingPong.class.getDeclaredMethods()).map(Method::getName).anyMatch(method::equals),
                pattern + " names no method of " + cls);
        }
        assertEquals(Benchmarks.get("pingpong").timedLoops(), Benchmarks.get("persistent").timedLoops());
    }

    @Test
    void badValueIsRefusedAndCopiesKeepTheChoice() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> options("pingpong", "--loop-compile", "eager"));
        assertTrue(e.getMessage().contains("--loop-compile expects warm-up or lazy, got eager"), e.getMessage());
        BenchOptions o = options("pingpong", "--loop-compile", "lazy", "--net-driver", "rank");
        BenchOptions c = o.copy();
        assertEquals("lazy", c.loopCompile);
        assertEquals("rank", c.netDriver);
    }

    @Test
    void definitionsKeepTheirLoopsThroughEveryVariant() {
        BenchDef d = new BenchDef("x", "x", PingPong.class, List.of("blocking"), 2, "x", List.of(8L), "heap",
            java.time.Duration.ofSeconds(1), null).withTimedLoops("a/B.c");
        assertEquals(List.of("a/B.c"), d.withAnchor("s").withAlgorithms(List.of("p")).withRanksAsSizes()
            .withDefaultModel("tofu").withAlgorithmOption("p2p").timedLoops());
    }
}
