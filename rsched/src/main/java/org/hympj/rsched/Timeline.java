package org.hympj.rsched;

import java.util.Arrays;

/**
 * The busy intervals [start, end) of one resource on a planning chart, sorted and disjoint
 * (so ends are sorted too). Zero-length intervals are not kept: they block nothing.
 *
 * <p>{@link #firstFit} skips runs of intervals with no gap wide enough using the widest gap of
 * every block of {@value #B} consecutive intervals, so a search is O(log n + n/B + B).
 */
final class Timeline {
    /** Touching within this many ns is not an overlap (planning times are sums of doubles). */
    static final double EPS = 1e-6;
    private static final int B = 16;

    private double[] s = new double[16];
    private double[] e = new double[16];
    /** Per block of B intervals, the widest gap before one of them (gap before i = s[i] - e[i-1]). */
    private double[] blockMax = new double[1];
    private int n;

    int size() {
        return n;
    }

    double lastEnd() {
        return n == 0 ? 0 : e[n - 1];
    }

    /** The earliest x >= t such that [x, x+d) overlaps no interval. */
    double firstFit(double t, double d) {
        if (n == 0 || e[n - 1] <= t + EPS) {
            return t;   // after everything: the common case
        }
        // first interval that ends after t
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (e[mid] > t + EPS) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if (lo == n || s[lo] >= t + d - EPS) {
            return t;
        }
        // from the end of interval lo on: the first gap before some j > lo that is wide enough
        double need = d - EPS;
        int j = lo + 1;
        int blockEnd = Math.min(n, (j / B + 1) * B);
        for (; j < blockEnd; j++) {
            if (s[j] - e[j - 1] >= need) {
                return e[j - 1];
            }
        }
        if (j >= n) {
            return e[n - 1];
        }
        int b = j / B;
        int blocks = (n + B - 1) / B;
        while (b < blocks && blockMax[b] < need) {
            b++;
        }
        if (b == blocks) {
            return e[n - 1];
        }
        for (j = b * B; j < n; j++) {
            if (s[j] - e[j - 1] >= need) {
                return e[j - 1];
            }
        }
        return e[n - 1];
    }

    /** True when [t, t+d) overlaps no interval. */
    boolean free(double t, double d) {
        return firstFit(t, d) == t;
    }

    /** Adds [start, end); the caller has checked it is free. */
    void add(double start, double end) {
        if (end - start <= 0) {
            return;
        }
        if (n == s.length) {
            s = Arrays.copyOf(s, n * 2);
            e = Arrays.copyOf(e, n * 2);
        }
        int pos;
        if (n == 0 || s[n - 1] < start) {
            pos = n;
        } else {
            int lo = 0;
            int hi = n;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (s[mid] < start) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            pos = lo;
            System.arraycopy(s, pos, s, pos + 1, n - pos);
            System.arraycopy(e, pos, e, pos + 1, n - pos);
        }
        s[pos] = start;
        e[pos] = end;
        n++;
        int blocks = (n + B - 1) / B;
        if (blockMax.length < blocks) {
            blockMax = Arrays.copyOf(blockMax, Math.max(blocks, blockMax.length * 2));
        }
        for (int b = pos / B; b < blocks; b++) {
            double m = Double.NEGATIVE_INFINITY;
            int to = Math.min(n, (b + 1) * B);
            for (int j = Math.max(1, b * B); j < to; j++) {
                m = Math.max(m, s[j] - e[j - 1]);
            }
            blockMax[b] = m;
        }
    }
}
