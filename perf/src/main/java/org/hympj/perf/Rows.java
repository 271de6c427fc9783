package org.hympj.perf;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the rank programs share with the anchors: the median of the batch timings and the
 * CSV row format {@code system,test,variant,size,rep,value,unit} (the anchors' own).
 */
public final class Rows {
    /** The system column of every row a HyMPJ benchmark prints. */
    public static final String SYSTEM = "hympj";
    /** Timed iterations are split into this many batches, as in the anchors. */
    public static final int NBATCH = 5;
    /**
     * Opt-in ({@code --jvm-arg -Dhympj.perf.prepass=true}): before the timed sizes, run the
     * first size's whole measurement once and discard it, so the JIT has compiled the loop.
     * Off by default: the default runs time exactly what the anchors time.
     */
    public static final boolean PREPASS = Boolean.getBoolean("hympj.perf.prepass");

    /**
     * Opt-in ({@code --verbose --jvm-arg -Dhympj.perf.batches=true}): every rank prints each
     * batch's figure and the JIT's compile time during it, to tell a slow batch that shared a
     * core with the compiler from one that did not.
     */
    public static final boolean BATCHES = Boolean.getBoolean("hympj.perf.batches");

    private Rows() {
    }

    /**
     * Sleeps until the JIT has compiled nothing for {@code stillMs} (compile time read every 5 ms), at
     * most {@code maxMs}; returns the ms waited. For a rank program between its set-up and its first
     * timed size: filling its 4 MB buffers has HotSpot compile the fill loops two or three times
     * (3–13 ms each), in the background, into the first timed batches; asleep, the ranks leave the
     * cores to the compiler threads. Nothing timed changes.
     */
    public static long settleJit(long stillMs, long maxMs) {
        long start = System.nanoTime();
        long last = compileMillis();
        long stillSince = start;
        while (true) {
            long now = System.nanoTime();
            if (now - stillSince >= stillMs * 1_000_000L || now - start >= maxMs * 1_000_000L || last < 0) {
                return (now - start) / 1_000_000L;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return (System.nanoTime() - start) / 1_000_000L;
            }
            long c = compileMillis();
            if (c != last) {
                last = c;
                stillSince = System.nanoTime();
            }
        }
    }

    /** Looked up once: the lookup runs a stream over the platform's beans, code the JIT would compile between batches. */
    private static final java.lang.management.CompilationMXBean COMPILATION =
        java.lang.management.ManagementFactory.getCompilationMXBean();

    /** The JIT's total compile time so far in ms (-1 when the JVM does not say). */
    public static long compileMillis() {
        return COMPILATION != null && COMPILATION.isCompilationTimeMonitoringSupported()
            ? COMPILATION.getTotalCompilationTime() : -1;
    }

    /**
     * With {@link #BATCHES}, just before a batch's clock starts: notes the wall clock (to line the
     * batch up with a JFR recording) and the scheduler's view of this thread ({@link BatchLog});
     * returns the JIT's compile time so far for {@link #batch}.
     */
    public static long batchStart() {
        BatchLog.start();
        return compileMillis();
    }

    /**
     * With {@link #BATCHES}: notes a batch (-1 = the warm-up batch) for {@link #printBatches}. Kept
     * in arrays, printed after the last size: formatting a line between batches would have the JIT
     * compile the formatter during the next ones.
     */
    public static void batch(String test, long size, int batch, double value, long compileMsBefore) {
        if (BATCHES) {
            BatchLog.end(test, size, batch, value, compileMillis() - compileMsBefore);
        }
    }

    /** With {@link #BATCHES}: prints the noted batches, one comment line each. */
    public static void printBatches() {
        if (BATCHES) {
            BatchLog.print();
        }
    }

    /** Median as the anchors compute it: the middle value, or the mean of the two middle ones. */
    public static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        if (n == 0) {
            throw new IllegalArgumentException("median of nothing");
        }
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }

    /** Median of the figures; NaN when there are none. */
    public static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = v.get(i);
        }
        return median(a);
    }

    /** One CSV row; {@code decimals} as the anchor prints the same figure (3 for us, 1 for MB/s, 2 for us/iter). */
    public static String row(String test, String variant, long size, int rep, double value, int decimals, String unit) {
        return String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%." + decimals + "f,%s", SYSTEM, test, variant, size, rep,
            value, unit);
    }

    /** Prints a row on stdout and flushes it (rank 0 only). */
    public static void print(String row) {
        System.out.println(row);
        System.out.flush();
    }
}
