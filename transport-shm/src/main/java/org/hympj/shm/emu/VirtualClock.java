package org.hympj.shm.emu;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * One rank's modelled clock under virtual time (SMPI's approach): it advances only by
 * modelled communication (a wait moves it to the completion the model gave), by explicit
 * modelled computation ({@link #compute}), and by the CPU time the rank's thread used between
 * two library calls, times a scale — CPU time, not wall time, so a rank that 2 cores
 * time-slice with 7 others is charged only what it computed. Nothing here waits in real time.
 * Used by the thread that drives the rank (the communicators are MPI_THREAD_FUNNELED).
 */
public final class VirtualClock {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final double computeScale;
    /** Modelled ns since the job's start. */
    private long now;
    /** The thread's CPU time when it last left the library (-1: not yet). */
    private long cpuAtExit = -1;
    /** Library calls nest (a blocking collective calls point-to-point): only the outermost counts. */
    private int depth;
    /** Where the rank publishes its floor for the job's booking order (null: a lone clock). */
    private VirtualOrder order;

    /**
     * What one reading of the thread's CPU clock costs (ns): each burst contains about one, which
     * is the library's cost, not the program's (a ping-pong would otherwise gain a few hundred
     * ns per call). Measured once, as the median of consecutive readings.
     */
    private final long readCost;

    /** @param computeScale weight of a rank's CPU time between library calls (0: communication only) */
    public VirtualClock(double computeScale) {
        this.computeScale = computeScale;
        this.readCost = computeScale > 0 ? readCost() : 0;
    }

    private static long readCost() {
        long[] d = new long[201];
        long last = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < d.length; i++) {
            long t = CPU.getCurrentThreadCpuTime();
            d[i] = t - last;
            last = t;
        }
        java.util.Arrays.sort(d);
        return Math.max(0, d[d.length / 2]);
    }

    /** Publishes this clock's floor in {@code order} at each outermost library call's entry and exit. */
    public void order(VirtualOrder order) {
        this.order = order;
    }

    /** The job's booking order this clock publishes to, or null. */
    public VirtualOrder order() {
        return order;
    }

    /** Now, in modelled ns since the job's start. */
    public long now() {
        return now;
    }

    /** Moves the clock to {@code t} if that is later (a completion the model gave). */
    public void advanceTo(long t) {
        if (t > now) {
            now = t;
        }
    }

    /** Adds {@code ns} of modelled computation (S4's Comp(t)). */
    public void compute(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("compute: the time must be >= 0, was " + ns + " ns");
        }
        now += ns;
    }

    /** The rank enters the library: the computation since it left counts, scaled. */
    public void enter() {
        if (depth++ == 0) {
            if (computeScale > 0 && cpuAtExit >= 0) {
                long burst = CPU.getCurrentThreadCpuTime() - cpuAtExit - readCost;
                if (burst > 0) {
                    now += (long) (burst * computeScale);
                }
            }
            if (order != null) {
                order.entered(now);
            }
        }
    }

    /** The rank leaves the library: its computation starts counting. */
    public void exit() {
        if (--depth == 0) {
            if (order != null) {
                order.left(now);
            }
            if (computeScale > 0) {
                cpuAtExit = CPU.getCurrentThreadCpuTime();
            }
        }
    }
}
