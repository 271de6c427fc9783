package org.hympj.shm.pml;

import org.hympj.api.TruncationException;

/**
 * Completes requests: at once, or, under a timing model, once the real clock reaches their
 * modelled instant (the timed list, drained by each progress pass); receives with their status
 * or their truncation error.
 */
final class Completions {
    private final Pacing pacing;
    private final TraceEvents events;
    private Req[] timed = new Req[16];
    private long[] timedAt = new long[16];
    private int timedCount;
    /** Requests completed (or failed) so far: a packet's handler tells by it whether its packet completed one. */
    private long completed;

    Completions(Pacing pacing, TraceEvents events) {
        this.pacing = pacing;
        this.events = events;
    }

    /** Requests waiting for their modelled completion instant. */
    int timedCount() {
        return timedCount;
    }

    /** Completes the requests whose modelled completion instant has passed (the pass's clock). */
    int completeDue() {
        long now = pacing.now();
        int done = 0;
        for (int i = 0; i < timedCount; ) {
            if (timedAt[i] - now <= 0) {
                Req r = timed[i];
                timedCount--;
                timed[i] = timed[timedCount];
                timedAt[i] = timedAt[timedCount];
                timed[timedCount] = null;
                completeNow(r);
                done++;
            } else {
                pacing.wakeBy(timedAt[i]);
                i++;
            }
        }
        return done;
    }

    /** Completes {@code r} now, or once the real clock reaches {@code at} (0: now). */
    void completeAt(Req r, long at) {
        if (pacing.virtual()) {
            r.vdone = Math.max(r.vdone, at); // its modelled instant: the data is already there
            completeNow(r);
            return;
        }
        if (at == 0 || at - System.nanoTime() <= 0) {
            completeNow(r);
            return;
        }
        if (timedCount == timed.length) {
            timed = java.util.Arrays.copyOf(timed, timedCount * 2);
            timedAt = java.util.Arrays.copyOf(timedAt, timedCount * 2);
        }
        timed[timedCount] = r;
        timedAt[timedCount] = at;
        timedCount++;
        pacing.wakeBy(at);
    }

    /** Completes {@code r}; traced, a send records its puts' completion and its own. */
    void completeNow(Req r) {
        if (r instanceof SendReq) {
            events.sendCompleted((SendReq) r);
        }
        completed++;
        r.complete();
    }

    /** How many requests this engine has completed or failed so far. */
    long completed() {
        return completed;
    }

    /**
     * A receive got {@code accept} of the {@code sent} bytes from {@code source}: its status is
     * filled; it fails at once on truncation, else completes once the real clock reaches
     * {@code at} (0: now).
     */
    void recvDone(RecvReq r, int source, int tag, long accept, long sent, long at) {
        events.recvCompleted(r, source, tag, accept);
        r.status.fill(r.localOf[source], tag, accept, sent, r.buf.type.primitive().bytes(), r.buf.type.size());
        if (sent > accept) {
            completed++;
            r.fail(new TruncationException(r.status.copy(), r.buf.bytes));
        } else {
            completeAt(r, at);
        }
    }
}
