package org.hympj.shm.emu;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.AtomicBuffer;
import org.hympj.api.RankFailedException;
import org.hympj.model.IntervalTimelines;

/**
 * Resource timelines in the job's shared memory (job.timelines): every rank books on the same
 * ones. A planner holds a spin lock in the file's first word (its rank + 1) for the few
 * microseconds one transfer's plan takes; waiters spin briefly, then yield, then park. A
 * holder that never lets go (killed while planning) is named after {@link #STUCK_NANOS}.
 */
public final class SharedTimelines extends IntervalTimelines {
    /** Bytes before the first resource: the lock word on its own cache line. */
    public static final int HEADER = 64;
    static final long STUCK_NANOS = TimeUnit.SECONDS.toNanos(10);
    private final AtomicBuffer buffer;
    private final long owner;

    public SharedTimelines(AtomicBuffer buffer, int rank) {
        super((int) ((buffer.capacity() - HEADER) / (STRIDE * 8L)));
        this.buffer = buffer;
        this.owner = rank + 1L;
    }

    // plain accesses: only the lock's holder reads or writes them (its compare-and-set and
    // ordered release order them between holders)
    @Override
    protected long word(int index) {
        return buffer.getLong(HEADER + index * 8);
    }

    @Override
    protected void word(int index, long value) {
        buffer.putLong(HEADER + index * 8, value);
    }

    /** Bytes of a job's timelines file for {@code resources} resources. */
    public static long fileBytes(int resources) {
        return HEADER + bytesFor(resources);
    }

    @Override
    public void lock() {
        if (buffer.compareAndSetLong(0, 0L, owner)) {
            return;
        }
        long deadline = 0;
        long lastHeld = 0;
        for (int spins = 0; ; spins++) {
            long held = buffer.getLongVolatile(0);
            if (held == 0 && buffer.compareAndSetLong(0, 0L, owner)) {
                return;
            }
            if (spins < 64) {
                Thread.onSpinWait();
            } else if (spins < 256) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(20_000);
                long now = System.nanoTime();
                if (deadline == 0 || held != lastHeld) {
                    deadline = now + STUCK_NANOS; // measured per holder: only one that never lets go is stuck
                    lastHeld = held;
                } else if (now - deadline > 0 && held != 0) {
                    throw new RankFailedException((int) (held - 1), "it has held the emulated fabric's timelines for "
                        + TimeUnit.NANOSECONDS.toSeconds(STUCK_NANOS) + " s (killed while planning a transfer?)");
                }
            }
        }
    }

    @Override
    public void unlock() {
        buffer.putLongOrdered(0, 0L);
    }
}
