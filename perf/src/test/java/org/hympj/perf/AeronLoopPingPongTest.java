package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hympj-bench aeron-loop} runs its two JVMs in both threading modes and prints one row per
 * size in the anchors' format (a positive half round trip); its media driver directories in
 * /dev/shm are gone afterwards; a bad argument is refused before anything starts. Not a timing
 * test: no figure is compared.
 */
class AeronLoopPingPongTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shared", "invoker"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void printsOneRowPerSizeAndLeavesNoFile(String threading) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = AeronLoopPingPong.run(new String[] {"--threading", threading, "8", "3000"},
            new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        String[] rows = bytes.toString(StandardCharsets.UTF_8).trim().split("\n");
        assertEquals(2, rows.length, String.join("\n", rows));
        for (int i = 0; i < 2; i++) {
            String[] f = rows[i].split(",");
            assertEquals("aeron", f[0]);
            assertEquals("pingpong-loop", f[1]);
            assertEquals(threading, f[2]);
            assertEquals(i == 0 ? "8" : "3000", f[3]);
            assertTrue(Double.parseDouble(f[5]) > 0, rows[i]);
            assertEquals("us", f[6]);
        }
        String[] left = new File("/dev/shm").list((d, name) -> name.startsWith("hympj-aeronloop-" + ProcessHandle.current().pid()));
        assertEquals(0, left == null ? 0 : left.length, "files left in /dev/shm");
    }

    @Test
    void refusesABadArgument() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, AeronLoopPingPong.run(new String[] {"--threading", "dedicated"}, sink));
        assertEquals(2, AeronLoopPingPong.run(new String[] {"eight"}, sink));
    }
}
