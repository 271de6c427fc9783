package org.hympj.shm.pml;

import org.hympj.api.MpjException;
import org.hympj.api.Request;

/**
 * Progress and waiting. No background thread: a progress pass completes the timed requests
 * whose instant has come, reads every inbound ring and writes what waits in the outbound
 * queues; waits loop over passes and idle between them (Idler: spin, yield, park; an idle step
 * also watches for failures).
 */
final class Progress {
    /** Waits for a modelled instant closer than this yield instead of parking (parks overshoot by ~60 us). */
    private static final long SHORT_WAIT_NS = 2_000_000L;
    /** A wait for a turn to book this long is a bug of the order (VirtualOrder), reported rather than hung. */
    private static final long STUCK_TURN_NS = 20_000_000_000L;

    private final Inbound inbound;
    private final OutboundQueues outbound;
    private final Completions completions;
    private final Pacing pacing;
    private final Idler idler;
    private final TraceEvents events;
    private final DetachedRequests detached;
    private final RendezvousProtocol rendezvous;
    /** A pass is running (a booking inside it must not wait for its turn: passes do not nest). */
    private boolean inPass;
    private final ActiveSchedules schedules;
    /** The one-sided engine on virtual time (its rounds are part of every pass), or null. */
    private DrivenEngine driven;
    /**
     * A send numbered in its pair's sequence waits for its turn to book (virtual time): the passes
     * meanwhile start no collective round, whose sends to the same peer would be numbered after
     * it and could be written before it — the receiver would hold them back for it, and the
     * stamps of what it holds back could hold back the very turn awaited.
     */
    private boolean inTurn;

    Progress(Inbound inbound, RendezvousProtocol rendezvous, OutboundQueues outbound, Completions completions,
             Pacing pacing, Idler idler, TraceEvents events, DetachedRequests detached, ActiveSchedules schedules) {
        this.rendezvous = rendezvous;
        this.detached = detached;
        this.schedules = schedules;
        this.inbound = inbound;
        this.outbound = outbound;
        this.completions = completions;
        this.pacing = pacing;
        this.idler = idler;
        this.events = events;
    }

    /** Makes {@code e}'s rounds part of every pass. */
    void drive(DrivenEngine e) {
        this.driven = e;
    }

    /** One pass; returns the work done (0: nothing happened). */
    int progress() {
        int work = 0;
        inPass = true;
        try {
            pacing.beginPass();
            if (completions.timedCount() > 0) {
                work += completions.completeDue();
            }
            work += inbound.poll();
            if (rendezvous.hasDeferred()) {
                work += rendezvous.runDeferred();
            }
            if (outbound.pendingCount() > 0) {
                long before = outbound.written();
                work += outbound.flush();
                work += (int) (outbound.written() - before);
            }
            if (driven != null) {
                work += driven.round();
            }
            if (rendezvous.netBusy()) {
                work += rendezvous.pollNet();
            }
        } finally {
            inPass = false;
        }
        if (schedules.count() > 0 && !inTurn) {
            // non-blocking collectives: start the rounds whose predecessors completed; after the pass, as a
            // library call starts its sends (a start that must wait for its turn on virtual time may make passes)
            work += schedules.advance();
        }
        return work;
    }

    /**
     * Virtual time: waits, making progress, until this rank may book the shared timelines at
     * modelled instant {@code t} (VirtualOrder) — for a booking a library call makes (a send's
     * start, a clear-to-send for a message found waiting). A packet's booking inside a pass never
     * waits here: its handler asked {@link Pacing#mayBook} before it took the packet, and left it
     * in its ring otherwise (passes do not nest).
     */
    void awaitTurn(long t) {
        if (inPass) {
            return;
        }
        boolean outer = !inTurn;
        inTurn = true;
        try {
            waitTurn(t);
        } finally {
            inTurn = !outer;
        }
    }

    private void waitTurn(long t) {
        pacing.awaitingTurn(t);
        if (!pacing.mayBook(t)) {
            idler.reset();
            long since = System.nanoTime();
            do {
                int work = progress();
                pacing.awaitingTurn(t); // what the pass took is booked or deferred: the floor is this booking again
                idle(work, false);
                if (System.nanoTime() - since > STUCK_TURN_NS) {
                    throw new MpjException("internal: no turn to book on virtual time for "
                        + java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(STUCK_TURN_NS) + " s: "
                        + pacing.describeTurn(t));
                }
            } while (!pacing.mayBook(t));
        }
        if (rendezvous.hasDeferred() || (driven != null && driven.hasDeferred())) {
            progress(); // this rank's own deferred bookings at earlier instants go first
            pacing.awaitingTurn(t);
        }
    }

    /** Blocks until {@code r}'s transfer is done. */
    void await(Req r) {
        idler.reset();
        while (!r.done) {
            int work = progress();
            if (r.done) {
                break;
            }
            idle(work);
        }
    }

    /** Idles after a pass of a wait that did {@code work}. */
    void idle(int work) {
        idle(work, true);
    }

    /** Idles after a pass that did {@code work}; {@code waiting}: the rank waits for a packet (blocked if none came). */
    private void idle(int work, boolean waiting) {
        if (work > 0) {
            idler.reset();
            return;
        }
        if (waiting) {
            pacing.blocked();
        }
        if (pacing.wakeAt() != Long.MAX_VALUE && pacing.wakeAt() - System.nanoTime() < SHORT_WAIT_NS) {
            idler.idleBriefly(); // a modelled instant is near: parking would overshoot it
        } else {
            idler.idle();
        }
    }

    static Req req(Request q) {
        if (!(q instanceof Req)) {
            throw new IllegalArgumentException("request is not a HyMPJ shared-memory request: " + q);
        }
        return (Req) q;
    }

    /** The index of the first active request from {@code from} on whose transfer is not done, or the length. */
    private static int firstNotDone(Request[] requests, int from) {
        for (int i = from; i < requests.length; i++) {
            Request q = requests[i];
            if (q != null && req(q).active && !req(q).done) {
                return i;
            }
        }
        return requests.length;
    }

    private static boolean allDone(Request[] requests) {
        for (Request q : requests) {
            if (q != null && req(q).active && !req(q).done) {
                return false;
            }
        }
        return true;
    }

    /** Makes every active request inactive; throws the first error after all are consumed. */
    static void consumeAll(Request[] requests) {
        MpjException first = null;
        for (Request q : requests) {
            if (q != null && req(q).active) {
                try {
                    req(q).consume();
                } catch (MpjException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Blocks until every active request's transfer is done (the caller consumes them). */
    void awaitAll(Request[] requests) {
        idler.reset();
        events.waitBegin(requests.length, "waitAll");
        // a request that is done stays done while we wait: each pass looks from the first one that was not
        int from = 0;
        while ((from = firstNotDone(requests, from)) < requests.length) {
            idle(progress());
        }
        events.waitEnd(requests.length, "waitAll");
    }

    boolean testAll(Request[] requests) {
        if (!allDone(requests)) {
            progress();
            if (!allDone(requests)) {
                polledNothing();
                return false;
            }
        }
        consumeAll(requests);
        return true;
    }

    /** Index of the first active request that is done, NONE_COMPLETED, or UNDEFINED if none is active. */
    private static int firstDone(Request[] requests) {
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            Request q = requests[i];
            if (q != null && req(q).active) {
                anyActive = true;
                if (req(q).done) {
                    return i;
                }
            }
        }
        return anyActive ? Request.NONE_COMPLETED : Request.UNDEFINED;
    }

    int waitAny(Request[] requests) {
        idler.reset();
        int i;
        while ((i = firstDone(requests)) == Request.NONE_COMPLETED) {
            idle(progress());
        }
        if (i >= 0) {
            req(requests[i]).consume();
        }
        return i;
    }

    int testAny(Request[] requests) {
        int i = firstDone(requests);
        if (i == Request.NONE_COMPLETED) {
            progress();
            i = firstDone(requests);
            if (i == Request.NONE_COMPLETED) {
                polledNothing();
            }
        }
        if (i >= 0) {
            req(requests[i]).consume();
        }
        return i;
    }

    /**
     * Progress until every pending outbound packet is written, every timed completion is due
     * and every freed request's data is delivered (at finalize).
     */
    void flush() {
        idler.reset();
        while (outbound.pendingCount() > 0 || completions.timedCount() > 0 || detached.mustFinish()) {
            idle(progress());
        }
    }

    /** Failure checks for polling calls that do not idle (test, iprobe), which found nothing. */
    void pollFailures() {
        polledNothing();
    }

    private void polledNothing() {
        pacing.polledNothing();
        idler.poll();
    }
}
