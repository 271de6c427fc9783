package org.hympj.rsched;

/** Sorting int arrays with a comparator, without boxing (stable merge sort). */
final class IntSort {
    interface Order {
        int compare(int a, int b);
    }

    private IntSort() {
    }

    /** 0..n-1 sorted by {@code o}. */
    static int[] indices(int n, Order o) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        sort(a, o);
        return a;
    }

    static void sort(int[] a, Order o) {
        int n = a.length;
        if (n < 2) {
            return;
        }
        int[] tmp = new int[n];
        // insertion sort runs of 16, then merge
        final int run = 16;
        for (int lo = 0; lo < n; lo += run) {
            int hi = Math.min(n, lo + run);
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= lo && o.compare(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
        }
        int[] src = a;
        int[] dst = tmp;
        for (int w = run; w < n; w *= 2) {
            for (int lo = 0; lo < n; lo += 2 * w) {
                int mid = Math.min(n, lo + w);
                int hi = Math.min(n, lo + 2 * w);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    dst[k++] = o.compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
                }
                while (i < mid) {
                    dst[k++] = src[i++];
                }
                while (j < hi) {
                    dst[k++] = src[j++];
                }
            }
            int[] x = src;
            src = dst;
            dst = x;
        }
        if (src != a) {
            System.arraycopy(src, 0, a, 0, n);
        }
    }
}
