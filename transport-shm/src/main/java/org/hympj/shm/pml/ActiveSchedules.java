package org.hympj.shm.pml;

/**
 * The collective schedules of one rank that are running ({@link NbcRequest}s between their start
 * and their last round). Every progress pass advances each of them: a round whose sends and
 * receives have all completed is consumed and the next one is started, so a non-blocking or
 * persistent collective moves on during any library call of the rank, not only in its own wait.
 * Single-threaded (the rank's thread); the array grows when needed and is reused, so starting
 * and finishing a schedule allocates nothing once it is large enough.
 */
final class ActiveSchedules {
    private NbcRequest[] running = new NbcRequest[8];
    private int count;
    /** A round's start can make progress (a receive matching at once): no nested advance meanwhile. */
    private boolean advancing;

    void add(NbcRequest r) {
        if (count == running.length) {
            running = java.util.Arrays.copyOf(running, count * 2);
        }
        running[count++] = r;
    }

    int count() {
        return count;
    }

    /** Advances every running schedule as far as its completed rounds allow; the work done. */
    int advance() {
        if (count == 0 || advancing) {
            return 0;
        }
        advancing = true;
        int work = 0;
        try {
            for (int i = 0; i < count; ) {
                NbcRequest r = running[i];
                work += r.advance();
                if (r.finished()) {
                    running[i] = running[--count]; // order among schedules does not matter: tags keep them apart
                    running[count] = null;
                } else {
                    i++;
                }
            }
        } finally {
            advancing = false;
        }
        return work;
    }
}
