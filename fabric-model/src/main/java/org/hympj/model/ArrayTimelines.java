package org.hympj.model;

/** Timelines in a private array, for one thread (the simulator, replays, tests): no lock needed. */
public final class ArrayTimelines extends IntervalTimelines {
    private final long[] words;

    public ArrayTimelines(int resources) {
        super(resources);
        words = new long[Math.toIntExact((long) resources * STRIDE)];
    }

    @Override
    protected long word(int index) {
        return words[index];
    }

    @Override
    protected void word(int index, long value) {
        words[index] = value;
    }

    @Override
    public void lock() {
    }

    @Override
    public void unlock() {
    }
}
