package org.hympj.perf;

import java.util.Arrays;
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

    private Rows() {
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
