package org.hympj.router;

import java.util.LinkedHashMap;
import java.util.Map;
import org.hympj.spi.Layout;

/**
 * Decisions counted per fabric and layout: messages and bytes. One per rank; not thread-safe.
 * Emulating, the fabrics are TCA, IB or both (striped); in a job on several hosts, the host's
 * shared memory ({@link #SHM}) or the network ({@link #NET}).
 */
public final class RouteStatistics {
    /** A message to a rank of the same host, in a job on several hosts. */
    public static final int SHM = 3;
    /** A message to a rank of another host (the network transport). */
    public static final int NET = 4;
    private static final String[] FABRICS = {"tca", "ib", "striped", "shm", "net"};
    /**
     * The layouts, read once: {@code Layout.values()} clones its array at every call, an
     * allocation per message under C1 (which runs 8 ranks on 2 cores and has no escape analysis).
     */
    private static final Layout[] LAYOUTS = Layout.values();
    private final long[] messages = new long[FABRICS.length * LAYOUTS.length];
    private final long[] bytes = new long[messages.length];

    /** Counts one message; {@code fabric} is HybridPolicy.TCA, .IB, 2 for striped, {@link #SHM} or {@link #NET}. */
    public void count(int fabric, Layout layout, long n) {
        int i = fabric * LAYOUTS.length + layout.ordinal();
        messages[i]++;
        bytes[i] += n;
    }

    /** Forgets every count (what a rank's start-up sent is not the program's). */
    public void clear() {
        java.util.Arrays.fill(messages, 0);
        java.util.Arrays.fill(bytes, 0);
    }

    public long messages(int fabric, Layout layout) {
        return messages[fabric * LAYOUTS.length + layout.ordinal()];
    }

    public long bytes(int fabric, Layout layout) {
        return bytes[fabric * LAYOUTS.length + layout.ordinal()];
    }

    /** "route.tca.contiguous.messages" → count, … (non-zero entries only). */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int f = 0; f < FABRICS.length; f++) {
            for (Layout l : LAYOUTS) {
                int i = f * LAYOUTS.length + l.ordinal();
                if (messages[i] > 0) {
                    m.put("route." + FABRICS[f] + "." + l.key() + ".messages", messages[i]);
                    m.put("route." + FABRICS[f] + "." + l.key() + ".bytes", bytes[i]);
                }
            }
        }
        return m;
    }

    /** One line per non-zero entry. */
    public String summary() {
        StringBuilder b = new StringBuilder();
        for (int f = 0; f < FABRICS.length; f++) {
            for (Layout l : LAYOUTS) {
                int i = f * LAYOUTS.length + l.ordinal();
                if (messages[i] > 0) {
                    b.append(String.format("%-8s %-15s %10d messages %14d bytes%n", FABRICS[f], l.key(), messages[i],
                        bytes[i]));
                }
            }
        }
        return b.toString();
    }
}
