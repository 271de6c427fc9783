package org.hympj.perf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The batches of {@code -Dhympj.perf.batches=true}, noted in arrays sized up front and printed at
 * the end, so that noting them runs little code between timed batches. Per batch: its figure,
 * the JIT's compile time during it, its start by the wall clock and by {@code System.nanoTime} (on
 * Linux CLOCK_MONOTONIC, as {@code perf record -k mono}) and its length, to line it up with a JFR
 * recording or a scheduler trace, and what Linux's scheduler says of the timing thread meanwhile
 * ({@code /proc/thread-self/schedstat}: time spent runnable on a run queue, times scheduled in).
 * A slow batch with run-queue wait was kept off its CPU; one without was slow on it.
 */
final class BatchLog {
    private static final int CAPACITY = 1024;
    private static final String[] TEST = new String[CAPACITY];
    private static final long[] SIZE = new long[CAPACITY];
    private static final int[] BATCH = new int[CAPACITY];
    private static final double[] VALUE = new double[CAPACITY];
    private static final long[] JIT_MS = new long[CAPACITY];
    private static final long[] START_MS = new long[CAPACITY];
    private static final long[] START_NS = new long[CAPACITY];
    private static final long[] LENGTH_NS = new long[CAPACITY];
    private static final long[] QUEUED_NS = new long[CAPACITY];
    private static final long[] SLICES = new long[CAPACITY];
    private static final ByteBuffer STAT = ByteBuffer.allocate(128);
    private static final long[] SCHED = new long[3];
    private static FileChannel schedstat;
    private static int count;
    private static int dropped;
    private static long startMs;
    private static long startNs;
    private static long queuedNs;
    private static long slices;

    private BatchLog() {
    }

    static void start() {
        readSchedstat();
        queuedNs = SCHED[1];
        slices = SCHED[2];
        startMs = System.currentTimeMillis();
        startNs = System.nanoTime();
    }

    static void end(String test, long size, int batch, double value, long jitMs) {
        long lengthNs = System.nanoTime() - startNs;
        if (count == CAPACITY) {
            dropped++;
            return;
        }
        readSchedstat();
        int i = count++;
        TEST[i] = test;
        SIZE[i] = size;
        BATCH[i] = batch;
        VALUE[i] = value;
        JIT_MS[i] = jitMs;
        START_MS[i] = startMs;
        START_NS[i] = startNs;
        LENGTH_NS[i] = lengthNs;
        QUEUED_NS[i] = SCHED[0] < 0 ? -1 : SCHED[1] - queuedNs;
        SLICES[i] = SCHED[0] < 0 ? -1 : SCHED[2] - slices;
    }

    static void print() {
        for (int i = 0; i < count; i++) {
            System.out.println(String.format(Locale.ROOT,
                "# %s %d batch %d: %.3f, JIT %d ms during it, start %d ms (monotonic %d ns), %.2f ms long, queued %.1f us,"
                + " %d slices", TEST[i], SIZE[i], BATCH[i], VALUE[i], JIT_MS[i], START_MS[i], START_NS[i],
                LENGTH_NS[i] * 1e-6, QUEUED_NS[i] * 1e-3, SLICES[i]));
        }
        if (dropped > 0) {
            System.out.println("# " + dropped + " later batches not noted (the log holds " + CAPACITY + ")");
        }
        System.out.flush();
    }

    /** Fills SCHED with the three numbers of schedstat (SCHED[0] = -1 when Linux does not say). */
    private static void readSchedstat() {
        try {
            if (schedstat == null) {
                // thread-self: the timing thread's own figures; a benchmark times on one thread
                schedstat = FileChannel.open(Paths.get("/proc/thread-self/schedstat"), StandardOpenOption.READ);
            }
            STAT.clear();
            schedstat.read(STAT, 0);
            int field = 0;
            long v = 0;
            for (int p = 0; p < STAT.position() && field < 3; p++) {
                byte b = STAT.get(p);
                if (b >= '0' && b <= '9') {
                    v = v * 10 + (b - '0');
                } else {
                    SCHED[field++] = v;
                    v = 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            SCHED[0] = -1;
        }
    }
}
