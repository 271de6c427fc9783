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

    /** The JIT's total compile time so far in ms (-1 when the JVM does not say). */
    public static long compileMillis() {
        java.lang.management.CompilationMXBean c = java.lang.management.ManagementFactory.getCompilationMXBean();
        return c != null && c.isCompilationTimeMonitoringSupported() ? c.getTotalCompilationTime() : -1;
    }

    /** With {@link #BATCHES}: one comment line for a batch (-1 = the warm-up batch). */
    public static void batch(String test, long size, int batch, double value, long compileMsBefore) {
        if (BATCHES) {
            System.out.println(String.format(Locale.ROOT, "# %s %d batch %d: %.3f, JIT %d ms during it", test, size, batch,
                value, compileMillis() - compileMsBefore));
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
