package org.hympj.shm.pml;

import org.hympj.router.RouteChoice;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.trace.Tracer;

/**
 * The engine's --trace events, one method per event: each checks whether tracing is on, so
 * the protocols call them unconditionally and no other class of the PML tests the tracer.
 */
final class TraceEvents {
    private Tracer tracer = Tracer.NONE;
    /** A job on several hosts: per peer "shm" or "net", the label of a send's post; else null. */
    private String[] via;

    /** Records into {@code t} from now on (null: stop recording). */
    void use(Tracer t) {
        tracer = t == null ? Tracer.NONE : t;
    }

    void route(SendReq s, RouteChoice routes, boolean modelled) {
        if (tracer.enabled()) {
            tracer.event(Tracer.ROUTE, s.dest, s.tag, s.buf.bytes, s.channel, -1, -1, 0, 0,
                routes.why(s.dest, s.channel, s.stripe, modelled));
        }
    }

    /** A job on several hosts: a send's post names the transport to its peer (per peer "shm" or "net"). */
    void transports(String[] perPeer) {
        this.via = perPeer;
    }

    void postSend(SendReq s) {
        if (tracer.enabled()) {
            tracer.event(Tracer.POST_SEND, s.dest, s.tag, s.buf.bytes, s.channel, -1, -1, 0, 0,
                s.stripe ? "striped" : via != null && s.dest >= 0 ? via[s.dest] : null);
        }
    }

    void postRecv(RecvReq r) {
        if (tracer.enabled()) {
            tracer.event(Tracer.POST_RECV, r.source, r.tag, r.buf.bytes, -1, -1, -1, 0, 0, null);
        }
    }

    /** A put the model just planned for {@code s} (its figures are the timing's last plan). */
    void putIssued(SendReq s, int channel, long bytes, FabricTiming t) {
        if (tracer.enabled()) {
            tracer.event(Tracer.PUT_ISSUED, s.dest, s.tag, bytes, channel, t.lastEngine(), t.lastLink(),
                t.lastStart(), t.lastSenderDone(), t.lastProtocol());
            s.tracePut(channel, bytes, t.lastEngine(), t.lastLink(), t.lastStart(), t.lastSenderDone(),
                t.lastProtocol());
        }
    }

    /** A send completes: its puts' completions, then its own. */
    void sendCompleted(SendReq s) {
        if (tracer.enabled()) {
            for (int i = 0; i < s.tracedPuts; i++) {
                SendReq.TracedPut p = s.traced[i];
                tracer.event(Tracer.PUT_COMPLETED, s.dest, s.tag, p.bytes, p.channel, p.engine, p.link,
                    p.start, p.end, p.protocol);
            }
            s.tracedPuts = 0;
            tracer.event(Tracer.COMPLETE_SEND, s.dest, s.tag, s.buf.bytes, s.channel, -1, -1, 0, 0, null);
        }
    }

    void recvCompleted(RecvReq r, int source, int tag, long accept) {
        if (tracer.enabled()) {
            tracer.event(Tracer.COMPLETE_RECV, source, tag, accept, r.channel, -1, -1, 0, 0, null);
        }
    }

    void waitBegin(int requests, String call) {
        if (tracer.enabled()) {
            tracer.event(Tracer.WAIT_BEGIN, -1, -1, requests, -1, -1, -1, 0, 0, call);
        }
    }

    void waitEnd(int requests, String call) {
        if (tracer.enabled()) {
            tracer.event(Tracer.WAIT_END, -1, -1, requests, -1, -1, -1, 0, 0, call);
        }
    }

    void startAll(int requests, String policy) {
        if (tracer.enabled()) {
            tracer.event(Tracer.START, -1, -1, requests, -1, -1, -1, 0, 0, policy);
        }
    }

    // ---- the one-sided engine (--p2p onesided), traced on virtual time only: there the rank's thread
    // does its rounds; on the wall clock its polling thread would write the journal beside the application

    /** A one-sided send or receive is issued. */
    void postOneSided(OsRequest q) {
        if (tracer.enabled()) {
            tracer.event(q.send ? Tracer.POST_SEND : Tracer.POST_RECV, q.peer, q.tag, q.buf.bytes, -1, -1, -1, 0, 0,
                "onesided");
        }
    }

    /** A one-sided write the model just planned: a put's data, or a receive's address (to {@code peer}). */
    void oneSidedWrite(int peer, int tag, long bytes, FabricTiming t) {
        if (tracer.enabled()) {
            tracer.event(Tracer.PUT_ISSUED, peer, tag, bytes, channelOf(t), t.lastEngine(), t.lastLink(),
                t.lastStart(), t.lastSenderDone(), t.lastProtocol());
        }
    }

    /** A one-sided send completed (its put: planned by {@code t} just before) or a receive did. */
    void completeOneSided(OsRequest q, long bytes, FabricTiming t) {
        if (tracer.enabled()) {
            if (q.send) {
                tracer.event(Tracer.PUT_COMPLETED, q.peer, q.tag, bytes, channelOf(t), t.lastEngine(), t.lastLink(),
                    t.lastStart(), t.lastSenderDone(), t.lastProtocol());
            }
            tracer.event(q.send ? Tracer.COMPLETE_SEND : Tracer.COMPLETE_RECV, q.peer, q.tag, bytes, -1, -1, -1, 0, 0,
                "onesided");
        }
    }

    private static int channelOf(FabricTiming t) {
        return t.lastProtocol() != null && t.lastProtocol().startsWith("ib") ? 1 : 0;
    }
}
