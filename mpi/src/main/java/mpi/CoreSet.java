package mpi;

import org.hympj.api.PersistentRequest;

/**
 * The core requests behind one array of persistent facade requests, kept while the program
 * passes that array again: a {@code Startall}/{@code Waitall} loop over one array (a halo
 * exchange) then starts and waits for the core array directly, without allocating it or
 * walking every request's wrapper each time. Only plain core requests qualify (no buffered
 * send, no BOOLEAN or OBJECT buffer: those have steps of the facade's own around the core).
 *
 * <p>Why it matters: with 8 ranks on 2 cores every nanosecond a rank spends between its
 * {@code Waitall} and its next {@code Startall} is paid four times over (its core's other ranks
 * wait for it), so the facade's per-call bookkeeping showed as 10–17 % of a halo iteration
 * (docs/PERFORMANCE.md, "The mpiJava facade").
 *
 * <p>Immutable, its arrays filled in the constructor, so the plain static field that keeps the
 * last one publishes it safely (final fields): a program that calls from two threads (beyond the
 * {@code THREAD_FUNNELED} the facade gives) may rebuild a set, never see a mixed one.
 */
final class CoreSet {
    private static CoreSet last;
    /** The array of the last call that had no set: a second call with it builds one. */
    private static Request[] seenOnce;

    private final Request[] owner;
    /** Null when the array holds a request that does not qualify. */
    private final Prequest[] members;
    final PersistentRequest[] cores;
    /** Each core request's status (the request's own object, rewritten at each completion). */
    final org.hympj.api.Status[] statuses;

    private CoreSet(Request[] owner, Prequest[] members, PersistentRequest[] cores) {
        this.owner = owner;
        this.members = members;
        this.cores = cores;
        this.statuses = cores == null ? null : new org.hympj.api.Status[cores.length];
        for (int i = 0; statuses != null && i < cores.length; i++) {
            statuses[i] = cores[i].status();
        }
    }

    /**
     * The set for {@code requests} when every entry is a live persistent request of the core
     * with nothing of the facade's own around it; null otherwise (the caller takes its general
     * path). A set is built the second time in a row the same array comes, so arrays made for
     * one call only cost nothing more.
     */
    static CoreSet of(Request[] requests) {
        CoreSet s = last;
        if (s != null && s.owner == requests) {
            if (s.members == null) {
                return null; // not plain: the general path, without looking again on every call
            }
            if (s.stillHolds(requests)) {
                return s;
            }
        } else if (seenOnce != requests) {
            seenOnce = requests; // first call with this array: nothing made for it yet
            return null;
        }
        s = build(requests);
        if (s == null) {
            return null; // a freed entry: the general path names it
        }
        last = s;
        return s.members == null ? null : s;
    }

    private boolean stillHolds(Request[] requests) {
        if (requests.length != members.length) {
            return false;
        }
        for (int i = 0; i < members.length; i++) {
            if (requests[i] != members[i] || members[i].impl == null) {
                return false;
            }
        }
        return true;
    }

    private static CoreSet build(Request[] requests) {
        Prequest[] members = new Prequest[requests.length];
        PersistentRequest[] cores = new PersistentRequest[requests.length];
        for (int i = 0; i < requests.length; i++) {
            if (!(requests[i] instanceof Prequest)) {
                return new CoreSet(requests, null, null);
            }
            Prequest p = (Prequest) requests[i];
            if (p.impl == null) {
                return null;
            }
            if (!p.plainCore()) {
                return new CoreSet(requests, null, null);
            }
            members[i] = p;
            cores[i] = p.core;
        }
        return new CoreSet(requests, members, cores);
    }

    /**
     * True when no member was completed by a test of an array call and not yet reported: such
     * a request is still active to the program, though not to the core.
     */
    boolean noneReady() {
        if (Request.unreported == 0) {
            return true; // no request anywhere is completed-but-unreported
        }
        for (Prequest p : members) {
            if (p.isReady()) {
                return false;
            }
        }
        return true;
    }

    /** True when every member is active and none was completed by an earlier test. */
    boolean allActive() {
        if (!noneReady()) {
            return false;
        }
        for (PersistentRequest c : cores) {
            if (!c.isActive()) {
                return false;
            }
        }
        return true;
    }
}
