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

/**
 * {@code hympj-bench ring-pingpong} runs its two JVMs and prints one row per size in the anchors'
 * format (rank 0's median half round trip, a positive number); its file in /dev/shm is gone
 * afterwards; a bad argument is refused before anything starts. Not a timing test: no figure is
 * compared.
 */
class RingPingPongTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void printsOneRowPerSizeAndLeavesNoFile() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = RingPingPong.run(new String[] {"8", "4096"}, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        String[] rows = bytes.toString(StandardCharsets.UTF_8).trim().split("\n");
        assertEquals(2, rows.length, String.join("\n", rows));
        for (int i = 0; i < 2; i++) {
            String[] f = rows[i].split(",");
            assertEquals("ring", f[0]);
            assertEquals("pingpong-copy2", f[1]);
            assertEquals(i == 0 ? "8" : "4096", f[3]);
            assertTrue(Double.parseDouble(f[5]) > 0, rows[i]);
            assertEquals("us", f[6]);
        }
        String[] left = new File("/dev/shm").list((d, name) -> name.startsWith("hympj-ringpp-" + ProcessHandle.current().pid()));
        assertEquals(0, left == null ? 0 : left.length, "files left in /dev/shm");
    }

    @Test
    void refusesABadSize() {
        assertEquals(2, RingPingPong.run(new String[] {"eight"}, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8)));
    }
}
