package org.hympj.shm.testing;

import java.util.Arrays;
import org.hympj.api.Comm;
import org.hympj.api.Request;
import org.hympj.api.Status;

/**
 * Helpers for rank programs (the {@code main} classes the tests launch). A rank checks its
 * own data and throws {@link AssertionError} on any mismatch, which ends its JVM with a
 * non-zero code and fails the job; it prints {@code PASS <scenario>} for every scenario it
 * completed, which the JUnit side requires from every rank.
 */
public final class Ranks {
    private Ranks() {
    }

    public static void check(boolean ok, String format, Object... args) {
        if (!ok) {
            throw new AssertionError(String.format(format, args));
        }
    }

    /**
     * Tests {@code r} for {@code millis} ms (yielding between tests) and fails with the message if
     * it completes in that time: a send that must wait for something the peer has not done yet.
     */
    public static void checkIncompleteFor(Request r, long millis, String format, Object... args) {
        long until = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < until) {
            check(!r.test(), format, args);
            Thread.yield();
        }
    }

    private static long mark = System.nanoTime();

    /** Prints {@code PASS <scenario>}, and how long it took since the previous one (a separate line). */
    public static void pass(String scenario) {
        long now = System.nanoTime();
        System.out.println("PASS " + scenario);
        System.out.println("TIME " + scenario + " " + (now - mark) / 1_000_000 + " ms");
        System.out.flush();
        mark = now;
    }

    public static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** True when the scenario was asked for (no arguments: all of them). */
    public static boolean selected(String[] args, String scenario) {
        return args.length == 0 || Arrays.asList(args).contains(scenario);
    }

    public static int right(Comm c, int k) {
        return (c.rank() + k) % c.size();
    }

    public static int left(Comm c, int k) {
        return ((c.rank() - k) % c.size() + c.size()) % c.size();
    }

    public static void checkStatus(Status st, int source, int tag, long bytes, String what) {
        check(st.source() == source, "%s: status source %d, expected %d (%s)", what, st.source(), source, st);
        check(st.tag() == tag, "%s: status tag %d, expected %d (%s)", what, st.tag(), tag, st);
        check(st.bytes() == bytes, "%s: status bytes %d, expected %d (%s)", what, st.bytes(), bytes, st);
        check(!st.isTruncated(), "%s: status says truncated (%s)", what, st);
    }

    /** Runs {@code body}, which must throw {@code type}; returns the exception. */
    public static <T extends Throwable> T expectThrows(Class<T> type, Runnable body, String what) {
        try {
            body.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            throw new AssertionError(what + ": expected " + type.getSimpleName() + " but got " + t, t);
        }
        throw new AssertionError(what + ": expected " + type.getSimpleName() + " but nothing was thrown");
    }

    /** Like {@link #expectThrows} and also requires each of {@code words} in the message. */
    public static <T extends Throwable> T expectThrows(Class<T> type, Runnable body, String what, String... words) {
        T t = expectThrows(type, body, what);
        String m = String.valueOf(t.getMessage());
        for (String w : words) {
            check(m.contains(w), "%s: message of %s does not name '%s': %s", what, type.getSimpleName(), w, m);
        }
        return t;
    }

    /** A deadline for bounded polling loops inside rank programs. */
    public static long deadline(long seconds) {
        return System.nanoTime() + seconds * 1_000_000_000L;
    }

    public static void checkBefore(long deadline, String what) {
        check(System.nanoTime() - deadline < 0, "%s: timed out", what);
    }
}
