package org.hympj.model;

/**
 * {@link Timelines} kept as sorted, disjoint booked intervals per resource in words of
 * storage that subclasses provide (an array for one thread, the job's shared memory for many
 * processes, with its lock).
 * Each resource holds at most {@link #CAPACITY} intervals; when one more is booked the oldest
 * is forgotten (it lies in the modelled past of every planner by then). Allocation-free; a
 * call scans at most {@link #CAPACITY} intervals.
 *
 * <p>Layout of a resource from word {@code resource * STRIDE}: the interval count, then
 * {@code CAPACITY + 1} (start, end) pairs, one spare for the merge before the oldest is dropped.
 */
public abstract class IntervalTimelines implements Timelines {
    /** Intervals kept per resource. */
    public static final int CAPACITY = 24;
    /** Words (longs) per resource. */
    public static final int STRIDE = 1 + (CAPACITY + 1) * 2;

    private final int resources;

    protected IntervalTimelines(int resources) {
        this.resources = resources;
    }

    /** Bytes needed for {@code resources} resources. */
    public static long bytesFor(int resources) {
        return (long) resources * STRIDE * 8;
    }

    /** Word {@code index} of the storage. */
    protected abstract long word(int index);

    protected abstract void word(int index, long value);

    public int resources() {
        return resources;
    }

    private int at(int resource) {
        if (resource < 0 || resource >= resources) {
            throw new IllegalArgumentException("resource " + resource + " outside the timelines (" + resources + ")");
        }
        return resource * STRIDE;
    }

    private int count(int r) {
        return (int) word(r);
    }

    private long start(int r, int i) {
        return word(r + 1 + i * 2);
    }

    private long end(int r, int i) {
        return word(r + 2 + i * 2);
    }

    private void set(int r, int i, long s, long e) {
        word(r + 1 + i * 2, s);
        word(r + 2 + i * 2, e);
    }

    @Override
    public long busyUntil(int resource) {
        int r = at(resource);
        int n = count(r);
        return n == 0 ? 0 : end(r, n - 1);
    }

    @Override
    public long fit(int resource, long from, long duration) {
        int r = at(resource);
        int n = count(r);
        long t = from;
        for (int i = 0; i < n; i++) {
            long e = end(r, i);
            if (e <= t) {
                continue;
            }
            if (start(r, i) >= t + duration) {
                return t; // the gap before interval i holds it
            }
            t = e;
        }
        return t;
    }

    @Override
    public long fill(int resource, long from, long work) {
        int r = at(resource);
        int n = count(r);
        long t = from;
        long left = work;
        for (int i = 0; i < n && left > 0; i++) {
            long e = end(r, i);
            if (e <= t) {
                continue;
            }
            long s = start(r, i);
            if (s > t) {
                long gap = s - t;
                if (gap >= left) {
                    break;
                }
                left -= gap;
            }
            t = e;
        }
        long finish = t + left;
        // every idle instant of [from, finish) is now taken: one booking covers them all
        book(resource, from, finish);
        return finish;
    }

    @Override
    public void book(int resource, long s, long e) {
        if (e <= s) {
            return;
        }
        int r = at(resource);
        int n = count(r);
        int i = 0;
        while (i < n && end(r, i) < s) {
            i++;
        }
        int j = i;
        while (j < n && start(r, j) <= e) {
            j++;
        }
        if (j > i) {
            s = Math.min(s, start(r, i));
            e = Math.max(e, end(r, j - 1));
        }
        int merged = j - i;            // intervals i..j-1 become one with [s, e)
        int shift = 1 - merged;        // how far intervals j..n-1 move
        if (shift > 0) {
            for (int k = n - 1; k >= j; k--) {
                set(r, k + shift, start(r, k), end(r, k));
            }
        } else if (shift < 0) {
            for (int k = j; k < n; k++) {
                set(r, k + shift, start(r, k), end(r, k));
            }
        }
        set(r, i, s, e);
        int m = n + shift;
        if (m > CAPACITY) {
            for (int k = 1; k < m; k++) { // forget the oldest
                set(r, k - 1, start(r, k), end(r, k));
            }
            m--;
        }
        word(r, m);
    }
}
