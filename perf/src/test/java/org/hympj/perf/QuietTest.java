package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The benchmark lock: nested use in one JVM reuses the held lock; another process is kept out. */
class QuietTest {
    @Test
    void nestedLockReusesTheOuterOneAndReleasesAtTheEnd() throws Exception {
        Path f = Files.createTempFile("hympj-bench", ".lock");
        String old = System.getProperty("hympj.bench.lock");
        System.setProperty("hympj.bench.lock", f.toString());
        PrintStream log = new PrintStream(new ByteArrayOutputStream());
        try {
            try (Quiet outer = Quiet.lock(Duration.ofSeconds(5), log)) {
                assertTrue(outer.held());
                try (Quiet inner = Quiet.lock(Duration.ofSeconds(1), log)) {
                    assertTrue(inner.held(), "a nested lock in the same JVM reuses the outer one");
                }
                assertTrue(heldByOtherProcess(f), "still held after the nested one closed");
            }
            assertFalse(heldByOtherProcess(f), "released at the end");
        } finally {
            if (old == null) {
                System.clearProperty("hympj.bench.lock");
            } else {
                System.setProperty("hympj.bench.lock", old);
            }
            Files.deleteIfExists(f);
        }
    }

    /** True when /proc/locks lists a POSIX lock on the file (by inode): what another process would see. */
    private static boolean heldByOtherProcess(Path f) throws Exception {
        long inode = (Long) Files.getAttribute(f, "unix:ino");
        for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
            String[] p = line.trim().split("\\s+");
            if (p.length > 5 && p[1].equals("POSIX") && p[5].endsWith(":" + inode)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void idleFractionIsAFraction() {
        double f = Quiet.idleFraction(100);
        assertTrue(Double.isNaN(f) || (f >= 0 && f <= 1), "idle fraction " + f);
    }
}
