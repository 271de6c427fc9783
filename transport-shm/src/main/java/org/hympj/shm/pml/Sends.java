package org.hympj.shm.pml;

import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.api.Comm;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.shm.job.JobConfig;

/**
 * Starts sends: numbers each in its pair's sequence, decides its protocol (eager, or
 * rendezvous: above the eager limit, striped, or pullable from our segment) and hands it to
 * that protocol; a send the ring cannot take now waits in its pair's outbound queue.
 */
final class Sends {
    /** Overrides {@link #pullAbove} (bytes), for measuring. */
    static final String PULL_ABOVE_PROPERTY = "hympj.pullAbove";
    private final ShmFabric fabric;
    private final OutboundQueues outbound;
    private final EagerProtocol eager;
    private final RendezvousProtocol rendezvous;
    private final Pacing pacing;
    private final Routing routing;
    private final TraceEvents events;
    private final int eagerLimit;
    /** Segment data above this many bytes is pulled by its receiver on this host (else sent eager or streamed). */
    private final int pullAbove;
    private final int[] sendSeq;

    Sends(ShmFabric fabric, OutboundQueues outbound, EagerProtocol eager, RendezvousProtocol rendezvous,
          Pacing pacing, Routing routing, TraceEvents events, int inlineLimit, int eagerLimit, boolean sharesCores) {
        this.fabric = fabric;
        this.outbound = outbound;
        this.eager = eager;
        this.rendezvous = rendezvous;
        this.pacing = pacing;
        this.routing = routing;
        this.events = events;
        this.eagerLimit = eagerLimit;
        // ranks sharing cores: an eager send completes without its receiver being scheduled, a pull
        // waits for it — so nothing of eager size is pulled then (halo3d, 8 ranks on 2 cores, segment
        // buffers: N = 16 34 µs eager against 50 pulling its 2 KB faces; N = 64 / 128 192 / 1315 µs
        // eager against 309 / 1682 pulling their 32 / 128 KB faces, docs/PERFORMANCE.md)
        this.pullAbove = Integer.getInteger(PULL_ABOVE_PROPERTY,
            sharesCores ? eagerLimit : Math.min(inlineLimit, JobConfig.PULL_ABOVE));
        this.sendSeq = new int[fabric.size()];
    }

    void start(SendReq s) {
        s.visibleAt = 0;
        s.senderDoneAt = 0;
        if (s.dest == Comm.PROC_NULL) {
            s.complete();
            return;
        }
        s.seq = sendSeq[s.dest]++;
        pacing.sendStarted(s);
        // data in our segment, contiguous or strided: the receiver copies it out once (RGET,
        // reading a strided layout in place), natively, when that beats the two copies of eager
        // (JobConfig.PULL_ABOVE); on this host only
        boolean pull = (s.buf.segOffset >= 0 ? rendezvous.pullable() : s.buf.stridedOffset >= 0 && rendezvous.typedPulls())
            && s.buf.bytes > pullAbove
            && fabric.local(s.dest);
        // eager-sized and standard mode: buffered by an unmatched receiver as eager would be
        s.bufferable = pull && s.buf.bytes <= eagerLimit && !s.synchronous;
        routing.count(s);
        events.postSend(s);
        s.preplanned = false;
        s.tracedPuts = 0;
        if (s.buf.bytes <= eagerLimit && !pull && !s.stripe && !s.synchronous) {
            s.emit = SendReq.EMIT_EAGER;
            pacing.plan(s, s.channel, s.buf.bytes, false); // an eager message starts to move now
            s.preplanned = pacing.scheduled(s); // should it fall back to rendezvous, it keeps this plan
        } else {
            rendezvous.begin(s);
        }
        if (!outbound.clear(s.channel, s.dest) || !emit(s)) {
            outbound.enqueue(s.channel, s.dest, s);
        }
    }

    /** Writes what the send can write now; true when it has nothing more to write. */
    boolean emit(SendReq s) {
        RingBuffer ring = fabric.ring(s.channel, s.dest);
        switch (s.emit) {
            case SendReq.EMIT_EAGER:
                return eager.emit(s, ring);
            case SendReq.EMIT_RTS:
                return rendezvous.emitRts(s, ring);
            default:
                throw new IllegalStateException("internal: unknown emit state " + s.emit);
        }
    }
}
