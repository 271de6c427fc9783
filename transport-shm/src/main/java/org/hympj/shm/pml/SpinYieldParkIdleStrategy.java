package org.hympj.shm.pml;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;

/**
 * Spin, then yield, then park with an exponential back-off — as Agrona's
 * {@code BackoffIdleStrategy}, except that the spin phase does not execute the CPU's spin-wait
 * hint ({@code Thread.onSpinWait}, x86 PAUSE): an empty pass is followed at once by the next, so
 * a waiting rank sees a packet as soon as its cache line arrives. What {@code --idle auto} is when
 * every rank has a core ({@link Idler#strategy}): on this project's 2-vCPU AMD EPYC a PAUSE after
 * each empty pass put some 20 ns on every one-way trip of an 8-byte ping-pong when the two vCPUs
 * sit near each other (docs/PERFORMANCE.md, session 19). {@code --idle plain:…} gives its numbers.
 * (Inside a virtual machine a long loop of PAUSE may also make the vCPU exit to the host, KVM's
 * pause-loop exiting; a loop without it does not.)
 */
final class SpinYieldParkIdleStrategy implements IdleStrategy {
    private final long maxSpins;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;
    private long spins;
    private long yields;
    private long parkNs;
    /** Parks so far (the warm-up reports whether its long waits reached them). */
    private long parks;

    SpinYieldParkIdleStrategy(long maxSpins, long maxYields, long minParkNs, long maxParkNs) {
        if (maxSpins < 0 || maxYields < 0 || minParkNs < 1 || maxParkNs < minParkNs) {
            throw new IllegalArgumentException("idle strategy: need spins, yields >= 0 and 1 <= min park <= max park, was "
                + maxSpins + ", " + maxYields + ", " + minParkNs + ", " + maxParkNs);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.parkNs = minParkNs;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (spins < maxSpins) {
            spins++; // the caller's next pass is the spin: no PAUSE (see the class comment)
        } else {
            backOff();
        }
    }

    /**
     * Yields, or parks once the yields are spent. The launcher keeps it out of its callers
     * ({@code -XX:CompileCommand=dontinline}, Launcher.WARM_UP_JIT_FLAGS). Why: C2 profiles a branch only
     * in code not yet compiled by C2, so the warm-up's parks ran in C2 code whose profile had been too
     * young to judge, were never counted, and later compilations took the park for a branch never
     * taken; inlined into {@code ShmComm.recv}, {@code Progress.await} and {@code awaitAll}, a program's
     * first park threw them away and C2 compiled them again in its timed batches (in 2 of 26 launches
     * under JFR, sessions 23–24). Kept apart, a park met there costs the recompilation of this method alone,
     * at a moment the rank waits anyway.
     */
    private void backOff() {
        if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            parks++;
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
    }

    /** Parks so far. */
    long parks() {
        return parks;
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = minParkNs;
    }

    @Override
    public String alias() {
        return "spin-yield-park";
    }

    @Override
    public String toString() {
        return "SpinYieldParkIdleStrategy{maxSpins=" + maxSpins + ", maxYields=" + maxYields + ", minParkNs=" + minParkNs
            + ", maxParkNs=" + maxParkNs + "}";
    }
}
