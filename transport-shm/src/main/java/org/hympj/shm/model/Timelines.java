package org.hympj.shm.model;

/**
 * Resource timelines: for each resource (an engine, a link direction) the modelled time
 * until which it is reserved. The emulator keeps them in the job's shared memory (so ranks
 * contend for real); the simulator in an array.
 */
public interface Timelines {
    long busyUntil(int resource);

    /** Atomically replaces {@code expect} with {@code update}; false if someone reserved meanwhile. */
    boolean reserve(int resource, long expect, long update);
}
