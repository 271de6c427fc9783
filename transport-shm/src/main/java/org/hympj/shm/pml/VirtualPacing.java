package org.hympj.shm.pml;

import org.agrona.MutableDirectBuffer;
import org.hympj.model.JobFabric;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.emu.VirtualClock;

/**
 * Pacing on virtual time (SMPI's approach, {@code --clock virtual}): every stamp is a modelled
 * instant on the rank's {@link VirtualClock}. A send is planned at the rank's clock when it
 * starts (a rendezvous's data no earlier than the clear-to-send's arrival); a receive
 * completes at the later of its posting and the data's modelled arrival; a wait moves the
 * clock to the completion it observes. Packets are read at once — nothing waits for a real
 * instant — so the modelled figures do not depend on the time dilation, the machine's load
 * or how many ranks share a core. Real data still moves through shared memory.
 *
 * <p>What remains of real time: ranks book the shared timelines in real-time order, and a
 * booking made later at an earlier modelled instant fills the gap it belongs to; two transfers
 * that contend for a resource at overlapping modelled instants are served in the order they
 * were booked (docs/FABRICS.md, "Virtual time").
 */
final class VirtualPacing extends ModelPacing {
    private final VirtualClock clock;
    private final int size;
    /** Per inbound ring (channel, source): the modelled instant its last packet was read. */
    private final long[] ringLast;
    /** Per source: the instant its last message (EAGER, EAGER_BULK, RTS) was read, over both fabrics. */
    private final long[] messageLast;

    private VirtualPacing(FabricTiming timing, boolean handshakePuts, TraceEvents events, int channels, int size) {
        super(timing, handshakePuts, events);
        this.clock = timing.clock();
        this.size = size;
        this.ringLast = new long[channels * size];
        this.messageLast = new long[size];
    }

    static Pacing of(FabricTiming timing, JobFabric jobFabric, TraceEvents events, int channels, int size) {
        return new VirtualPacing(timing, jobFabric.handshakePuts(), events, channels, size);
    }

    @Override
    boolean virtual() {
        return true;
    }

    @Override
    void beginPass() {
        // no real clock to read: nothing is gated
    }

    /**
     * Nothing waits; but a ring is a FIFO, so a packet is read no earlier than the one before it
     * in its ring, and a pair's messages in their order (the simulator's rule): the packet is
     * restamped with that instant before it is handled. A completion notice (FIN) is taken out
     * in ring order at the instant it was written, and completes its receive no earlier than
     * its data is visible. Streamed pieces (FRAG, FRAG_BULK) keep their stamps.
     */
    @Override
    boolean holds(int type, int channel, int src, MutableDirectBuffer buffer, int index) {
        int k = channel * size + src;
        int at = index + Packets.VISIBLE_AT_OFFSET;
        switch (type) {
            case Packets.EAGER:
            case Packets.EAGER_BULK:
            case Packets.RTS: {
                long t = Math.max(buffer.getLong(at), Math.max(ringLast[k], messageLast[src]));
                ringLast[k] = t;
                messageLast[src] = t;
                buffer.putLong(at, t);
                break;
            }
            case Packets.CTS: {
                long t = Math.max(buffer.getLong(at), ringLast[k]);
                ringLast[k] = t;
                buffer.putLong(at, t);
                break;
            }
            case Packets.FIN: {
                long read = Math.max(buffer.getLong(index + Packets.FIN_WRITTEN_OFFSET), ringLast[k]);
                ringLast[k] = read;
                buffer.putLong(at, Math.max(read, buffer.getLong(at)));
                break;
            }
            default:
                break;
        }
        return false;
    }

    @Override
    long planStamp(SendReq s) {
        return s.planAt;
    }

    @Override
    void sendStarted(SendReq s) {
        s.startStamp = clock.now();
        s.planAt = s.startStamp;
        s.vdone = s.startStamp;
    }

    @Override
    void recvPosted(RecvReq r) {
        r.postStamp = clock.now();
        r.vdone = r.postStamp;
    }

    @Override
    long rtsStamp(SendReq s) {
        // the RTS carries the send's start: the clear-to-send cannot leave before it
        if (!handshakePuts) {
            return s.startStamp;
        }
        timing.planControl(JobFabric.fabricOf(s.channel), s.dest, 0, s.startStamp);
        return timing.visibleAtReal;
    }

    @Override
    long matchStamp(RecvReq r, long rtsVis) {
        return Math.max(r.postStamp, rtsVis);
    }

    @Override
    long ctsStamp(int channel, int dest, long rtsVis, long matchAt) {
        if (!handshakePuts) {
            return matchAt;
        }
        timing.planControl(JobFabric.fabricOf(channel), dest, rtsVis, matchAt);
        return timing.visibleAtReal;
    }

    @Override
    void ctsArrived(SendReq s, long ctsVis) {
        s.planAt = Math.max(s.startStamp, ctsVis);
    }

    @Override
    long eagerArrival(long vis) {
        return vis;
    }

    @Override
    void observed(Req r) {
        clock.advanceTo(r.vdone);
    }

    @Override
    void enterCall() {
        clock.enter();
    }

    @Override
    void exitCall() {
        clock.exit();
    }
}
