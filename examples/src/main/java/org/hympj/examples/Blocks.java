package org.hympj.examples;

/**
 * Block decomposition of {@code n} points over {@code parts} ranks along one dimension: part
 * {@code c} owns {@code [start(c), start(c + 1))}; sizes differ by at most one, so any grid
 * size works with any process count (uneven splits exercise halos of different lengths).
 */
final class Blocks {
    private Blocks() {
    }

    /** First point of part {@code c} (0-based). */
    static int start(int n, int parts, int c) {
        return (int) ((long) n * c / parts);
    }

    /** Points owned by part {@code c}. */
    static int size(int n, int parts, int c) {
        return start(n, parts, c + 1) - start(n, parts, c);
    }

    /** Parses "AxBxC" (any number of factors) into ints. */
    static int[] parseDims(String s) {
        String[] f = s.toLowerCase().split("x");
        int[] d = new int[f.length];
        for (int i = 0; i < f.length; i++) {
            d[i] = Integer.parseInt(f[i].trim());
            if (d[i] < 1) {
                throw new IllegalArgumentException("every factor of '" + s + "' must be >= 1");
            }
        }
        return d;
    }

    static String format(int[] d) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < d.length; i++) {
            b.append(i == 0 ? "" : "x").append(d[i]);
        }
        return b.toString();
    }
}
