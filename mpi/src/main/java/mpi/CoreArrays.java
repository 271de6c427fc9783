package mpi;

import org.hympj.api.PersistentRequest;

/**
 * Scratch arrays of core requests for the array calls ({@code Startall}, {@code Waitall}), one
 * of each length, reused from call to call: a halo loop calls them every iteration, and a new
 * array each time was a good part of what the facade added to it. One thread makes MPI calls
 * ({@link MPI#THREAD_FUNNELED}), so one set of arrays serves; each call clears what it filled.
 * Exact lengths, so the core sees the caller's set as it is (its traces count the requests).
 */
final class CoreArrays {
    /** Longer arrays are made for the call. */
    private static final int KEPT = 64;
    private static final PersistentRequest[][] PERSISTENT = new PersistentRequest[KEPT + 1][];
    private static final org.hympj.api.Request[][] ANY = new org.hympj.api.Request[KEPT + 1][];

    private CoreArrays() {
    }

    /** An array of {@code n} nulls, for persistent core requests. */
    static PersistentRequest[] persistent(int n) {
        if (n > KEPT) {
            return new PersistentRequest[n];
        }
        PersistentRequest[] a = PERSISTENT[n];
        if (a == null) {
            a = new PersistentRequest[n];
            PERSISTENT[n] = a;
        }
        return a;
    }

    /** An array of {@code n} nulls, for core requests of any kind. */
    static org.hympj.api.Request[] any(int n) {
        if (n > KEPT) {
            return new org.hympj.api.Request[n];
        }
        org.hympj.api.Request[] a = ANY[n];
        if (a == null) {
            a = new org.hympj.api.Request[n];
            ANY[n] = a;
        }
        return a;
    }

    /** Nulls every entry (so the arrays hold no request between calls). */
    static void clear(Object[] a) {
        java.util.Arrays.fill(a, null);
    }
}
