package org.hympj.shm.emu;

import org.agrona.concurrent.AtomicBuffer;
import org.hympj.shm.model.Timelines;

/** Resource timelines in the job's shared memory (job.timelines): every rank reserves on the same ones. */
public final class SharedTimelines implements Timelines {
    private final AtomicBuffer buffer;
    private final int resources;

    public SharedTimelines(AtomicBuffer buffer) {
        this.buffer = buffer;
        this.resources = buffer.capacity() / 8;
    }

    private int at(int resource) {
        if (resource < 0 || resource >= resources) {
            throw new IllegalArgumentException("resource " + resource + " outside the timelines (" + resources + ")");
        }
        return resource * 8;
    }

    @Override
    public long busyUntil(int resource) {
        return buffer.getLongVolatile(at(resource));
    }

    @Override
    public boolean reserve(int resource, long expect, long update) {
        return buffer.compareAndSetLong(at(resource), expect, update);
    }
}
