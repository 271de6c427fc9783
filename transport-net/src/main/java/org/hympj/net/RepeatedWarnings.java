package org.hympj.net;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A media driver's errors for the log, without a flood: the driver reports every datagram it could
 * not send (a peer's host cut off: every heartbeat, tens per second), so each distinct message is
 * passed on the first time and then at most once per {@link #PERIOD_NS}, with how many times it
 * came in between. Thread-safe (a driver may run several agent threads).
 */
final class RepeatedWarnings {
    static final long PERIOD_NS = 5_000_000_000L;
    /** Distinct messages remembered at most (beyond that every message passes: nothing is lost). */
    private static final int MAX_KEYS = 64;

    private final Consumer<String> log;
    private final Map<String, long[]> seen = new HashMap<>(); // message -> {last passed at, repeats since}

    RepeatedWarnings(Consumer<String> log) {
        this.log = log;
    }

    synchronized void report(String message, long nowNs) {
        long[] s = seen.get(message);
        if (s == null) {
            if (seen.size() < MAX_KEYS) {
                seen.put(message, new long[] {nowNs, 0});
            }
            log.accept(message);
        } else if (nowNs - s[0] >= PERIOD_NS) {
            log.accept(message + (s[1] > 0 ? " (and " + s[1] + " times more in the last " + (nowNs - s[0]) / 1_000_000_000L
                + " s)" : ""));
            s[0] = nowNs;
            s[1] = 0;
        } else {
            s[1]++;
        }
    }
}
