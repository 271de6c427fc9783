package org.hympj.shm.pml;

import java.util.Arrays;

/**
 * Small integer handles for requests in a rendezvous, so packets can name them. Grows
 * (rarely) and otherwise allocates nothing.
 *
 * <p>Every free handle is on the free stack from the start, so {@link #add} has one path until
 * more than {@value #INITIAL} handles are in use at once: with a table that handed out new ids
 * first, the path of a reused id was the only one a warm-up's few rendezvous took, C2 compiled
 * the other as never taken, and a program's first window of 64 large messages threw away the
 * compiled code of every method that had inlined it (JFR {@code jdk.Deoptimization},
 * {@code unstable_if} at {@code add}, session 22).
 */
final class HandleTable<T> {
    static final int INITIAL = 256;
    private Object[] slots = new Object[INITIAL];
    private int[] free = new int[INITIAL];
    private int freeTop;

    HandleTable() {
        pushFree(0, INITIAL);
    }

    int add(T value) {
        if (freeTop == 0) {
            int old = slots.length;
            slots = Arrays.copyOf(slots, old * 2);
            free = Arrays.copyOf(free, old * 2);
            pushFree(old, old * 2);
        }
        int id = free[--freeTop];
        slots[id] = value;
        return id;
    }

    @SuppressWarnings("unchecked")
    T get(int id) {
        if (id < 0 || id >= slots.length || slots[id] == null) {
            throw new IllegalStateException("internal: no request with handle " + id);
        }
        return (T) slots[id];
    }

    void release(int id) {
        slots[id] = null;
        free[freeTop++] = id;
    }

    int inUse() {
        return slots.length - freeTop;
    }

    /** Pushes ids [from, to) so that the lowest is popped first. */
    private void pushFree(int from, int to) {
        for (int id = to - 1; id >= from; id--) {
            free[freeTop++] = id;
        }
    }
}
