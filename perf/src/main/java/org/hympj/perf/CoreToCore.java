package org.hympj.perf;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How far apart the machine's two busiest CPUs are: the one-way trip of a cache line between two
 * threads that hand a counter back and forth, in ns. On the shared 2-vCPU machines these figures
 * come from, it moves between two values within minutes and takes every shared-memory figure with
 * it — 25–60 ns when the host places the two vCPUs near each other, about 200 ns when far apart
 * (Open MPI's own 8-byte ping-pong 0.10–0.12 against 0.36–0.38 µs; docs/PERFORMANCE.md, "Native
 * speed (issue 18): session 18").
 * {@code hympj-compare} (and {@code hympj-bench --quiet}) take it just before each launch, once the CPUs are
 * idle, so that a table can say which launches ran in which mode.
 *
 * <p>Two threads, no pinning: on an idle machine with two CPUs or more the scheduler runs them on
 * two. NaN on a single CPU, or when a trip stalls (a thread not scheduled within 1 s).
 */
public final class CoreToCore {
    private static final int WARM_TRIPS = 20_000;
    private static final int TRIPS = 50_000;
    private static final int SAMPLES = 5;
    private static final long GIVE_UP_NS = 1_000_000_000L;
    private static volatile boolean warmed;

    private CoreToCore() {
    }

    /**
     * The fastest of five samples of {@value #TRIPS} round trips, after a warm-up; ns per one-way trip,
     * or NaN. The fastest, not the median: a sample can only be slowed (an interrupt, a thread moved),
     * and with the vCPUs near each other one sample in three or four read 125–240 ns where the others
     * read 23–38.
     */
    public static double oneWayNanos() {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Double.NaN;
        }
        // the JIT first (the first call of a JVM: its loops are compiled by the time ten samples are done)
        for (int i = warmed ? 8 : 0; i < 10; i++) {
            if (Double.isNaN(sample(WARM_TRIPS))) {
                return Double.NaN;
            }
        }
        warmed = true;
        double fastest = Double.MAX_VALUE;
        for (int i = 0; i < SAMPLES; i++) {
            double s = sample(TRIPS);
            if (Double.isNaN(s)) {
                return Double.NaN;
            }
            fastest = Math.min(fastest, s);
        }
        return fastest;
    }

    /** {@code trips} round trips of a counter between this thread and another; ns per one-way trip, or NaN. */
    static double sample(int trips) {
        AtomicLong line = new AtomicLong();
        long deadline = System.nanoTime() + GIVE_UP_NS;
        Thread pong = new Thread(() -> {
            for (long i = 0; i < trips; i++) {
                if (!await(line, 2 * i + 1, deadline)) {
                    return;
                }
                line.lazySet(2 * i + 2);
            }
        }, "core-to-core");
        pong.setDaemon(true);
        pong.start();
        long t0 = System.nanoTime();
        boolean done = true;
        for (long i = 0; i < trips && done; i++) {
            line.lazySet(2 * i + 1);
            done = await(line, 2 * i + 2, deadline);
        }
        long t1 = System.nanoTime();
        if (!done) {
            line.set(-1); // the other thread gives up at its deadline
        }
        try {
            pong.join(GIVE_UP_NS / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
        return done ? (t1 - t0) / (2.0 * trips) : Double.NaN;
    }

    /** Spins until {@code line} holds {@code value}; false at the deadline. */
    private static boolean await(AtomicLong line, long value, long deadline) {
        int spins = 0;
        while (line.get() != value) {
            Thread.onSpinWait();
            if ((++spins & 0x3FF) == 0 && System.nanoTime() - deadline > 0) {
                return false;
            }
        }
        return true;
    }
}
