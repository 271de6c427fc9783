package org.hympj.rsched;

import java.util.Arrays;
import java.util.List;

/** Helpers over put lists: input checks and dense numbering of destinations. */
final class Puts {
    private Puts() {
    }

    /** Ids must be 0..n-1 in list order; a direction is diagonal for all its puts or none. */
    static void check(List<Put> puts) {
        if (puts == null) {
            throw new IllegalArgumentException("puts must not be null");
        }
        int maxDir = -1;
        for (int i = 0; i < puts.size(); i++) {
            Put p = puts.get(i);
            if (p == null) {
                throw new IllegalArgumentException("put " + i + " is null");
            }
            if (p.id() != i) {
                throw new IllegalArgumentException("put at index " + i + " has id " + p.id() + ": ids must be 0..n-1 in list order");
            }
            maxDir = Math.max(maxDir, p.direction());
        }
        byte[] diag = new byte[maxDir + 1];
        for (Put p : puts) {
            byte v = (byte) (p.diagonal() ? 2 : 1);
            if (diag[p.direction()] != 0 && diag[p.direction()] != v) {
                throw new IllegalArgumentException("direction " + p.direction() + " is diagonal for some puts and not for others (put " + p.id() + ")");
            }
            diag[p.direction()] = v;
        }
    }

    static int directions(List<Put> puts) {
        int d = 0;
        for (Put p : puts) {
            d = Math.max(d, p.direction() + 1);
        }
        return d;
    }

    /** For each put, its destination's index among the distinct destinations (0..count-1, in rank order). */
    static int[] denseDestinations(List<Put> puts) {
        int n = puts.size();
        int max = -1;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, puts.get(i).dest());
        }
        int[] out = new int[n];
        if (max < 4 * n + 1024) {
            // ranks are small: a direct map
            int[] map = new int[max + 1];
            for (int i = 0; i < n; i++) {
                map[puts.get(i).dest()] = 1;
            }
            int u = 0;
            for (int r = 0; r <= max; r++) {
                if (map[r] != 0) {
                    map[r] = u++;
                }
            }
            for (int i = 0; i < n; i++) {
                out[i] = map[puts.get(i).dest()];
            }
            return out;
        }
        int[] sorted = new int[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = puts.get(i).dest();
        }
        Arrays.sort(sorted);
        int u = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[u++] = sorted[i];
            }
        }
        for (int i = 0; i < n; i++) {
            out[i] = Arrays.binarySearch(sorted, 0, u, puts.get(i).dest());
        }
        return out;
    }

    /** How many distinct values a dense numbering uses. */
    static int count(int[] dense) {
        int c = 0;
        for (int d : dense) {
            c = Math.max(c, d + 1);
        }
        return c;
    }
}
