package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hympj-bench tcp-loop-bw} runs its two JVMs with both buffer kinds (the receiver checking
 * every message) and prints one row per size in the anchors' format (a positive bandwidth); a bad
 * argument is refused before anything starts. Not a timing test: no figure is compared.
 */
class TcpLoopBandwidthTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"heap", "direct"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void printsOneRowPerSize(String buffers) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = TcpLoopBandwidth.run(new String[] {"--buffers", buffers, "4096", "70000"},
            new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        String[] rows = bytes.toString(StandardCharsets.UTF_8).trim().split("\n");
        assertEquals(2, rows.length, String.join("\n", rows));
        for (int i = 0; i < 2; i++) {
            String[] f = rows[i].split(",");
            assertEquals("java-tcp", f[0]);
            assertEquals("bw-window64", f[1]);
            assertEquals(buffers, f[2]);
            assertEquals(i == 0 ? "4096" : "70000", f[3]);
            assertTrue(Double.parseDouble(f[5]) > 0, rows[i]);
            assertEquals("MB/s", f[6]);
        }
    }

    @Test
    void refusesABadArgument() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, TcpLoopBandwidth.run(new String[] {"--buffers", "segment"}, sink));
        assertEquals(2, TcpLoopBandwidth.run(new String[] {"8"}, sink));
    }
}
