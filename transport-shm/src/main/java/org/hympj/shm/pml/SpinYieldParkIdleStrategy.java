package org.hympj.shm.pml;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;

/**
 * Spin, then yield, then park with an exponential back-off — as Agrona's
 * {@code BackoffIdleStrategy}, except that the spin phase does not execute the CPU's spin-wait
 * hint ({@code Thread.onSpinWait}, x86 PAUSE). Inside a virtual machine a loop of PAUSE longer
 * than the hypervisor's window makes the vCPU exit to the host (KVM's pause-loop exiting), which
 * may run something else there. Selected with {@code --idle plain:…}, to measure whether that
 * matters: on this project's 2-vCPU machine the slow launches of the heap path came and went
 * with the machine under every policy, this one included (docs/PERFORMANCE.md), so the
 * default is unchanged.
 */
final class SpinYieldParkIdleStrategy implements IdleStrategy {
    private final long maxSpins;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;
    private long spins;
    private long yields;
    private long parkNs;

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
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
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
}
