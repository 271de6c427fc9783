package org.hympj.shm.model;

/** Timelines in a plain array, for one thread (the simulator, tests). */
public final class ArrayTimelines implements Timelines {
    private final long[] until;

    public ArrayTimelines(int resources) {
        until = new long[resources];
    }

    @Override
    public long busyUntil(int resource) {
        return until[resource];
    }

    @Override
    public boolean reserve(int resource, long expect, long update) {
        if (until[resource] != expect) {
            return false;
        }
        until[resource] = update;
        return true;
    }
}
