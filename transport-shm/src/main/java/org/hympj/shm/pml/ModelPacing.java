package org.hympj.shm.pml;

import org.agrona.DirectBuffer;
import org.hympj.model.JobFabric;
import org.hympj.shm.emu.FabricTiming;

/**
 * Pacing under a timing model: the sender plans each message on the model when its data
 * starts to move, its packets carry the real instant the data is visible at the receiver,
 * which leaves them in the ring until then, and sends complete when the modelled engine is done.
 */
class ModelPacing extends Pacing {
    final FabricTiming timing;
    private final TraceEvents events;
    /** The clock of the current progress pass, read once per pass. */
    private long now;
    private long wakeAt = Long.MAX_VALUE;

    ModelPacing(FabricTiming timing, TraceEvents events) {
        this.timing = timing;
        this.events = events;
    }

    /**
     * The pacing of a modelled job. Typed Pacing, and called only when a model is on, so a
     * native JVM never loads this class: Pacing's calls there have one implementation.
     */
    static Pacing of(FabricTiming timing, TraceEvents events) {
        return new ModelPacing(timing, events);
    }

    @Override
    boolean modelled() {
        return true;
    }

    @Override
    void beginPass() {
        now = System.nanoTime();
        wakeAt = Long.MAX_VALUE;
    }

    @Override
    long now() {
        return now;
    }

    @Override
    long wakeAt() {
        return wakeAt;
    }

    @Override
    void wakeBy(long at) {
        wakeAt = Math.min(wakeAt, at);
    }

    @Override
    boolean holds(int type, int channel, int src, org.agrona.MutableDirectBuffer buffer, int index) {
        // A put's completion notice (FIN) and streamed pieces (FRAG, FRAG_BULK) are taken at once
        // and complete the receive at their instant: left in the ring they would hold up every
        // packet behind them, e.g. the clear-to-send of the opposite direction's message (a 3x3
        // SCALE-LES3 exchange took twice its schedule: false serialisation)
        if (type == Packets.FIN || type == Packets.FRAG || type == Packets.FRAG_BULK) {
            return false;
        }
        long vis = buffer.getLong(index + Packets.VISIBLE_AT_OFFSET);
        if (vis != 0 && vis - now > 0) {
            wakeBy(vis);
            return true;
        }
        return false;
    }

    /** The stamp a transfer of {@code s} is planned at: the real clock now. */
    long planStamp(SendReq s) {
        return System.nanoTime();
    }

    @Override
    void plan(SendReq s, int channel, long bytes, boolean dstInSegment) {
        // a put RSched scheduled goes straight into the receive buffer (Transfer.setMessage)
        timing.plan(JobFabric.fabricOf(channel), s.dest, s.buf.type, s.buf.count, bytes, s.buf.base == null,
            dstInSegment, s.registered, s.engineHint, s.recvEngineHint, planStamp(s));
        events.putIssued(s, channel, bytes, timing);
        s.visibleAt = timing.visibleAtReal;
        s.senderDoneAt = timing.senderDoneReal;
    }

    @Override
    long handshakeArrival(boolean paid, int channel, int dest, long notBefore) {
        // rndv (a communicator's policy): the rendezvous handshake is paid for on the model, as in
        // S3's original eager/rendezvous protocol: RTS and CTS are control puts on the DMA engines
        // (RSched's persistent puts exchange addresses once, at init, and pay none of it)
        if (!paid) {
            return 0;
        }
        timing.planControl(JobFabric.fabricOf(channel), dest, notBefore, System.nanoTime());
        return timing.visibleAtReal;
    }

    @Override
    boolean scheduled(SendReq s) {
        return s.channel == 0 && s.engineHint >= 0 && !s.stripe;
    }

    @Override
    void registerPersistent(SendReq s) {
        s.registered = true;
        if (s.channel == 0) {
            timing.registerPersistentTca();
        }
    }

    @Override
    void releasePersistent(SendReq s) {
        if (s.registered && s.channel == 0) {
            timing.releasePersistentTca();
        }
        s.registered = false;
    }
}
