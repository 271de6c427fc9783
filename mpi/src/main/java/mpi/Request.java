package mpi;

/**
 * A non-blocking operation (mpiJava 1.2). {@link #Wait()} blocks; {@link #Test()} returns
 * null while the operation is in flight. A completed non-persistent request becomes null
 * ({@link #Is_null()}); {@link MPI#REQUEST_NULL} is one from the start. The static calls take
 * arrays that may hold null requests and skip them; {@code Waitany}/{@code Testany} report
 * the position in {@link Status#index}.
 */
public class Request {
    /** Null once a non-persistent request has completed and been reported. */
    Pending impl;
    private final boolean persistent;
    /** Completed (seen by a test of an array call) but not yet reported to the program. */
    private boolean ready;
    /**
     * How many requests are {@link #ready} (completed, not yet reported): while none is, a
     * {@link CoreSet} need not look at its members one by one (with 8 ranks on 2 cores every
     * wrapper object a call touches costs, and the core's other ranks pay for it). Plain
     * counters, as the facade gives {@code THREAD_FUNNELED}.
     */
    static int unreported;
    private final Status readyStatus = new Status();

    Request(Pending impl, boolean persistent) {
        this.impl = impl;
        this.persistent = persistent;
    }

    Request(Pending impl) {
        this(impl, false);
    }

    /** True for a request that stands for nothing (completed and reported, or REQUEST_NULL). */
    public boolean Is_null() {
        return impl == null;
    }

    /** Completed by a test of an array call, not yet reported (so still active to the program). */
    final boolean isReady() {
        return ready;
    }

    boolean isActive() {
        return impl != null && (ready || impl.active());
    }

    /** True (and the status kept for the report) when the operation has completed. */
    private boolean poll() {
        if (ready) {
            return true;
        }
        if (impl.test(readyStatus)) {
            setReady();
        }
        return ready;
    }

    private void setReady() {
        if (!ready) {
            ready = true;
            unreported++;
        }
    }

    private void clearReady() {
        if (ready) {
            ready = false;
            unreported--;
        }
    }

    private Status report(int index) {
        Status s = new Status();
        s.source = readyStatus.source;
        s.tag = readyStatus.tag;
        s.bytes = readyStatus.bytes;
        s.objects = readyStatus.objects;
        s.cancelled = readyStatus.cancelled;
        s.index = index;
        clearReady();
        if (!persistent) {
            impl = null;
        }
        return s;
    }

    /** Reports a core request the core's waitAll has just completed: its status, at {@code index}. */
    private Status completedInCore(int index) {
        Status s = new Status();
        ((CorePending) impl).completed(s);
        s.index = index;
        clearReady();
        if (!persistent) {
            impl = null;
        }
        return s;
    }

    private static Status empty(int index) {
        Status s = new Status();
        s.index = index;
        return s;
    }

    /** Blocks until the operation completes; its status (an empty one for a null or inactive request). */
    public Status Wait() {
        try {
            if (!isActive()) {
                return empty(MPI.UNDEFINED);
            }
            if (!ready) {
                waitFor(impl, readyStatus);
                setReady();
            }
            return report(MPI.UNDEFINED);
        } catch (RuntimeException e) {
            throw MPIException.of("Wait", e);
        }
    }

    /**
     * Waits for {@code p}: blocking in the core, unless object receives are posted — then
     * polling, each poll also probing for them ({@link ObjectRecv#progress}), so that a
     * synchronous send to one of them can complete while this rank waits for something else.
     */
    static void waitFor(Pending p, Status out) {
        if (p instanceof ObjectRecv || !ObjectRecv.anyPosted()) {
            p.waitFor(out);
            return;
        }
        Idle idle = new Idle();
        while (!p.test(out)) {
            ObjectRecv.progress();
            idle.idle();
        }
    }

    /** The status if the operation has completed, else null (an empty status for a null or inactive request). */
    public Status Test() {
        try {
            if (!isActive()) {
                return empty(MPI.UNDEFINED);
            }
            return poll() ? report(MPI.UNDEFINED) : null;
        } catch (RuntimeException e) {
            throw MPIException.of("Test", e);
        }
    }

    /** Releases the request (an active one is completed first, as the core does). */
    public void Free() {
        try {
            if (impl != null) {
                impl.free();
                impl = null;
                clearReady();
            }
        } catch (RuntimeException e) {
            throw MPIException.of("Free", e);
        }
    }

    /**
     * Cancels a receive that has not matched yet (it completes at once, {@link Status#Test_cancelled}
     * true, nothing received); a matched receive or a send completes as usual (not cancelled, as
     * MPI allows). A wait or test must still complete the request. A null request is an error.
     */
    public void Cancel() {
        try {
            if (impl == null) {
                throw new MPIException("Cancel: the request is null (MPI.REQUEST_NULL or freed)");
            }
            impl.cancel();
        } catch (RuntimeException e) {
            throw MPIException.of("Cancel", e);
        }
    }

    // ---------------------------------------------------------------- arrays

    private static void checkArray(String call, Request[] requests) {
        if (requests == null) {
            throw new MPIException(call + ": requests must not be null");
        }
    }

    /** Waits for every request; a status per position (empty for null ones). */
    public static Status[] Waitall(Request[] requests) {
        checkArray("Waitall", requests);
        Status[] out = new Status[requests.length];
        CoreSet set = CoreSet.of(requests);
        if (set != null && set.allActive() && !ObjectRecv.anyPosted()) {
            waitAllOfSet(set, out, false);
            return out;
        }
        RuntimeException coreError = ObjectRecv.anyPosted() ? null : waitAllInCore(requests, out);
        MPIException first = coreError == null ? null : MPIException.of("Wait", coreError); // as the per-request Wait words it
        for (int i = 0; i < requests.length; i++) {
            if (out[i] != null) {
                continue; // completed in the core's waitAll
            }
            Request r = requests[i];
            try {
                out[i] = r == null ? empty(i) : r.Wait();
                out[i].index = i;
            } catch (MPIException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw new MPIException("Waitall: " + first.getMessage(), first);
        }
        return out;
    }

    /**
     * As {@link #Waitall(Request[])}, into the caller's statuses — an extension of mpiJava 1.2,
     * as MPI's C binding takes the array of statuses: {@code statuses[i]} is set to what the
     * one-argument form would return at position i, in the Status object already there (a null
     * entry gets a new one, kept in the array), so a loop that waits for the same requests again
     * and again allocates nothing. The entries must be distinct objects. Why: with 8 ranks on 2
     * cores the 13 new objects the one-argument form returns per call of a 12-request halo
     * exchange were 4 % of an iteration at N = 16 (docs/PERFORMANCE.md, "The mpiJava facade").
     *
     * @throws MPIException if {@code statuses} is null or its length differs from that of
     *     {@code requests} (then nothing is waited for); otherwise as the one-argument form
     */
    public static void Waitall(Request[] requests, Status[] statuses) {
        checkArray("Waitall", requests);
        if (statuses == null || statuses.length != requests.length) {
            throw new MPIException("Waitall: statuses must hold one Status per request (" + requests.length + "), was "
                + (statuses == null ? "null" : "of length " + statuses.length));
        }
        for (int i = 0; i < statuses.length; i++) {
            if (statuses[i] == null) {
                statuses[i] = new Status();
            }
        }
        CoreSet set = CoreSet.of(requests);
        if (set != null && set.allActive() && !ObjectRecv.anyPosted()) {
            waitAllOfSet(set, statuses, true);
            return;
        }
        Status[] done = Waitall(requests);
        for (int i = 0; i < done.length; i++) {
            statuses[i].copy(done[i]);
        }
    }

    /**
     * Every request of a {@link CoreSet} is active: one core waitAll, then each status straight
     * from its core request (the set's requests have no completion step of the facade's own),
     * into new Status objects, or into those {@code out} holds ({@code reuse}).
     */
    private static void waitAllOfSet(CoreSet set, Status[] out, boolean reuse) {
        RuntimeException error = null;
        try {
            org.hympj.api.Request.waitAll(set.cores);
        } catch (RuntimeException e) {
            error = e;
        }
        for (int i = 0; i < out.length; i++) {
            Status s = reuse ? out[i] : new Status();
            s.set(set.statuses[i]);
            s.index = i;
            out[i] = s;
        }
        if (error != null) {
            MPIException first = MPIException.of("Wait", error); // worded as the general path words it
            throw new MPIException("Waitall: " + first.getMessage(), first);
        }
    }

    /**
     * When every active request is an operation of the core (the common case: sends and
     * receives of primitive arrays, segment buffers, persistent ones), waits for all of them in
     * one core {@code waitAll} — one progress loop instead of one per request, and a persistent
     * set started together under {@code --sched} ends together, as the core's own Waitall does
     * — and reports each in {@code out} at its position. Returns the first error the core threw
     * (after every request completed), or null; does nothing when some request is the facade's
     * own (buffered sends, OBJECT receives), which the per-request loop then waits for.
     */
    private static RuntimeException waitAllInCore(Request[] requests, Status[] out) {
        org.hympj.api.Request[] cores = new org.hympj.api.Request[requests.length];
        boolean any = false;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r == null || r.ready || !r.isActive()) {
                continue;
            }
            if (!(r.impl instanceof CorePending)) {
                return null;
            }
            cores[i] = ((CorePending) r.impl).core;
            any = true;
        }
        if (!any) {
            return null;
        }
        RuntimeException error = null;
        try {
            org.hympj.api.Request.waitAll(cores);
        } catch (RuntimeException e) {
            error = e;
        }
        for (int i = 0; i < cores.length; i++) {
            if (cores[i] != null) {
                out[i] = requests[i].completedInCore(i);
            }
        }
        return error;
    }

    /**
     * Waits until one active request completes; its status with {@code index} its position.
     * With none active, an empty status whose index is {@link MPI#UNDEFINED}.
     */
    public static Status Waitany(Request[] requests) {
        checkArray("Waitany", requests);
        Idle idle = new Idle();
        while (true) {
            Status s = testAny("Waitany", requests);
            if (s != null) {
                return s;
            }
            idle.idle();
        }
    }

    /** As {@link #Waitany} without blocking: null when active requests remain and none has completed. */
    public static Status Testany(Request[] requests) {
        checkArray("Testany", requests);
        return testAny("Testany", requests);
    }

    private static Status testAny(String call, Request[] requests) {
        boolean anyActive = false;
        try {
            for (int i = 0; i < requests.length; i++) {
                Request r = requests[i];
                if (r == null || !r.isActive()) {
                    continue;
                }
                anyActive = true;
                if (r.poll()) {
                    return r.report(i);
                }
            }
        } catch (RuntimeException e) {
            throw MPIException.of(call, e);
        }
        return anyActive ? null : empty(MPI.UNDEFINED);
    }

    /**
     * Waits until at least one active request completes; the statuses of all that have (each
     * with its position in {@code index}). With none active, an empty array.
     */
    public static Status[] Waitsome(Request[] requests) {
        checkArray("Waitsome", requests);
        Idle idle = new Idle();
        while (true) {
            Status[] s = testSome("Waitsome", requests);
            if (s == null || s.length > 0) {
                return s == null ? new Status[0] : s;
            }
            idle.idle();
        }
    }

    /** The statuses of the requests that have completed now (possibly none). */
    public static Status[] Testsome(Request[] requests) {
        checkArray("Testsome", requests);
        Status[] s = testSome("Testsome", requests);
        return s == null ? new Status[0] : s;
    }

    /** Completed ones; null when none is active. */
    private static Status[] testSome(String call, Request[] requests) {
        java.util.List<Status> done = new java.util.ArrayList<>();
        boolean anyActive = false;
        try {
            for (int i = 0; i < requests.length; i++) {
                Request r = requests[i];
                if (r == null || !r.isActive()) {
                    continue;
                }
                anyActive = true;
                if (r.poll()) {
                    done.add(r.report(i));
                }
            }
        } catch (RuntimeException e) {
            throw MPIException.of(call, e);
        }
        return anyActive ? done.toArray(new Status[0]) : null;
    }

    /**
     * The statuses of all if every active request has completed; else null, and the ones that
     * have completed keep their status for a later wait or test.
     */
    public static Status[] Testall(Request[] requests) {
        checkArray("Testall", requests);
        try {
            boolean all = true;
            for (Request r : requests) {
                if (r != null && r.isActive() && !r.poll()) {
                    all = false;
                }
            }
            if (!all) {
                return null;
            }
            Status[] out = new Status[requests.length];
            for (int i = 0; i < requests.length; i++) {
                Request r = requests[i];
                out[i] = r != null && r.isActive() ? r.report(i) : empty(i);
            }
            return out;
        } catch (RuntimeException e) {
            throw MPIException.of("Testall", e);
        }
    }

    /** Spin, then yield, then park briefly: how the array waits idle between polls. */
    static final class Idle {
        private int rounds;

        void idle() {
            rounds++;
            if (rounds < 200) {
                Thread.onSpinWait();
            } else if (rounds < 2000) {
                Thread.yield();
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(50_000);
            }
        }
    }
}
