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

    private final Inbound inbound;
    private final OutboundQueues outbound;
    private final Completions completions;
    private final Pacing pacing;
    private final Idler idler;
    private final TraceEvents events;
    private final DetachedRequests detached;

    Progress(Inbound inbound, OutboundQueues outbound, Completions completions, Pacing pacing, Idler idler,
             TraceEvents events, DetachedRequests detached) {
        this.detached = detached;
        this.inbound = inbound;
        this.outbound = outbound;
        this.completions = completions;
        this.pacing = pacing;
        this.idler = idler;
        this.events = events;
    }

    /** One pass; returns the work done (0: nothing happened). */
    int progress() {
        int work = 0;
        pacing.beginPass();
        if (completions.timedCount() > 0) {
            work += completions.completeDue();
        }
        work += inbound.poll();
        if (outbound.pendingCount() > 0) {
            long before = outbound.written();
            work += outbound.flush();
            work += (int) (outbound.written() - before);
        }
        return work;
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

    /** Idles after a pass that did {@code work}. */
    void idle(int work) {
        if (work > 0) {
            idler.reset();
        } else if (pacing.wakeAt() != Long.MAX_VALUE && pacing.wakeAt() - System.nanoTime() < SHORT_WAIT_NS) {
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
        while (!allDone(requests)) {
            idle(progress());
        }
        events.waitEnd(requests.length, "waitAll");
    }

    boolean testAll(Request[] requests) {
        if (!allDone(requests)) {
            progress();
            if (!allDone(requests)) {
                idler.poll();
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
                idler.poll();
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

    /** Failure checks for polling calls that do not idle (test, iprobe). */
    void pollFailures() {
        idler.poll();
    }
}
