package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.p2p.TransferRankForOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bin/mpjrun} option parsing ({@link MpjRun#run}): every bad command line is an
 * IllegalArgumentException naming the option, raised before any rank starts; options reach
 * the ranks.
 */
class MpjRunTest {
    /** A class that does not exist: if a bad command line got as far as launching, the ranks fail at once. */
    private static final String NO_MAIN = "org.hympj.NoSuchMainClass";

    /** Runs MpjRun.run with stdout/stderr captured (the launcher's echo of --tag-output goes there too). */
    private static final class Captured {
        int code;
        String out;
    }

    private static Captured run(String... argv) throws Exception {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        Captured c = new Captured();
        try {
            System.setOut(ps);
            System.setErr(ps);
            c.code = MpjRun.run(argv);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
            c.out = buf.toString(StandardCharsets.UTF_8);
        }
        return c;
    }

    @ParameterizedTest(name = "mpjrun {0}")
    @CsvSource(delimiter = '|', value = {
        "''                                                 | -np N is required",
        "-np                                                | -np needs a value",
        "-np x " + NO_MAIN + "                              | -np expects a whole number, got 'x'",
        "-np 2                                              | no main class given",
        "-np 0 " + NO_MAIN + "                              | np must be >= 1, was 0",
        "-np -3 " + NO_MAIN + "                             | np must be >= 1",
        "--bogus -np 2 " + NO_MAIN + "                      | unknown option --bogus",
        "-np 2 --subcluster 3 " + NO_MAIN + "               | --subcluster must be 1..2, was 3",
        "-np 2 --segment-size 12q " + NO_MAIN + "           | --segment-size expects a size",
        "-np 2 --eager-limit lots " + NO_MAIN + "           | --eager-limit expects a size",
        "-np 2 --timeout soon " + NO_MAIN + "               | --timeout expects a whole number",
        "-np 2 --ring-size 100000 " + NO_MAIN + "           | ring size must be a power of two",
        "-np 2 --segment-size 1k " + NO_MAIN + "            | segment size must be at least 4 KiB",
        "-np 2 --inline-limit 1m " + NO_MAIN + "            | inline limit",
        "-np 2 --model tca " + NO_MAIN + "                  | --model tca",
        "-np 2 --idle bogus --timeout 20 " + NO_MAIN + "    | idle",
        "-np 2 --jit c3 --timeout 20 " + NO_MAIN + "        | --jit",
        "-np 2 --ring-size 4g --timeout 20 " + NO_MAIN + "  | --ring-size",
        "-np 2 --jvm-arg                                    | --jvm-arg needs a value",
        "-np 2 --model tofu --sched bogus " + NO_MAIN + "   | --sched must be none, rndv or an RSched policy",
    })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void badCommandLineIsRefusedNamingTheOption(String line, String expected) throws Exception {
        String[] argv = line.isBlank() ? new String[0] : line.trim().split("\\s+");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(argv),
            () -> "mpjrun " + line + " was not refused");
        assertTrue(e.getMessage().contains(expected), () -> "message of mpjrun " + line + ": " + e.getMessage());
    }

    @Test
    void sizesTakeSuffixes() {
        assertEquals(123, MpjRun.parseBytes("--x", "123"));
        assertEquals(64L << 10, MpjRun.parseBytes("--x", "64k"));
        assertEquals(16L << 20, MpjRun.parseBytes("--x", "16M"));
        assertEquals(1L << 30, MpjRun.parseBytes("--x", "1g"));
        assertEquals(8L << 10, MpjRun.parseBytes("--x", " 8k "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MpjRun.parseBytes("--x", "k")).getMessage()
            .contains("--x"));
    }

    @Test
    void helpPrintsUsage() throws Exception {
        Captured c = run("--help");
        assertEquals(0, c.code);
        assertTrue(c.out.contains("usage: mpjrun -np N"), c.out);
    }

    /** Protocol options reach every rank (it prints the limits it runs with), and a small configuration works. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void optionsReachTheRanks() throws Exception {
        Captured c = run("-np", "2", "--tag-output", "--timeout", "60", "--ring-size", "64k", "--bulk-size", "64k",
            "--inline-limit", "1k", "--eager-limit", "4k", "--idle", "yield", TransferRankForOptions.class.getName());
        assertEquals(0, c.code, c.out);
        for (int r = 0; r < 2; r++) {
            assertTrue(c.out.contains("[" + r + "] PROTOCOL inline 1024 eager 4096"), c.out);
            assertTrue(c.out.contains("[" + r + "] PASS segments"), c.out);
        }
    }
}
