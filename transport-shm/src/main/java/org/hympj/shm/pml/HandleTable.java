package org.hympj.shm.pml;

import java.util.Arrays;

/**
 * Small integer handles for requests in a rendezvous, so packets can name them. Grows
 * (rarely) and otherwise allocates nothing.
 */
final class HandleTable<T> {
    private Object[] slots = new Object[64];
    private int[] free = new int[64];
    private int freeTop;
    private int next;

    int add(T value) {
        int id;
        if (freeTop > 0) {
            id = free[--freeTop];
        } else {
            if (next == slots.length) {
                slots = Arrays.copyOf(slots, next * 2);
                free = Arrays.copyOf(free, next * 2);
            }
            id = next++;
        }
        slots[id] = value;
        return id;
    }

    @SuppressWarnings("unchecked")
    T get(int id) {
        if (id < 0 || id >= next || slots[id] == null) {
            throw new IllegalStateException("internal: no request with handle " + id);
        }
        return (T) slots[id];
    }

    void release(int id) {
        slots[id] = null;
        free[freeTop++] = id;
    }

    int inUse() {
        return next - freeTop;
    }
}
