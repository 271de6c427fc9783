package org.hympj.shm.pml;

import org.agrona.MutableDirectBuffer;
import org.hympj.model.JobFabric;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.emu.VirtualClock;
import org.hympj.shm.emu.VirtualOrder;

/**
 * Pacing on virtual time (SMPI's approach, {@code --clock virtual}): every stamp is a modelled
 * instant on the rank's {@link VirtualClock}. A send is planned at the rank's clock when it
 * starts (a rendezvous's data no earlier than the clear-to-send's arrival); a receive
 * completes at the later of its posting and the data's modelled arrival; a wait moves the
 * clock to the completion it observes. Packets are read at once — nothing waits for a real
 * instant — so the modelled figures do not depend on the time dilation, the machine's load
 * or how many ranks share a core. Real data still moves through shared memory.
 *
 * <p>Ranks book the shared timelines in modelled-instant order ({@link VirtualOrder}): a
 * library call's booking (a send's start, a clear-to-send for a message found waiting) waits
 * for its turn, making progress meanwhile; a packet whose handler would book (a clear-to-send
 * under --sched rndv, the data a clear-to-send releases) stays in its ring until its turn. What
 * remains of real-time order is written in docs/FABRICS.md ("Virtual time").
 */
final class VirtualPacing extends ModelPacing {
    private final VirtualClock clock;
    private final VirtualOrder order;
    private final int size;
    private Progress progress;
    /** Requests started or posted so far (Req.startOrder). */
    private long started;
    /** Per inbound ring (channel, source): the modelled instant its last packet was read. */
    private final long[] ringLast;
    /** Per source: the instant its last message (EAGER, EAGER_BULK, RTS) was read, over both fabrics. */
    private final long[] messageLast;

    private VirtualPacing(FabricTiming timing, TraceEvents events, int channels, int size, VirtualOrder order) {
        super(timing, events);
        this.clock = timing.clock();
        this.order = order;
        this.size = size;
        this.ringLast = new long[channels * size];
        this.messageLast = new long[size];
    }

    static Pacing of(FabricTiming timing, TraceEvents events, int channels, int size, VirtualOrder order) {
        return new VirtualPacing(timing, events, channels, size, order);
    }

    @Override
    void attach(Progress progress) {
        this.progress = progress;
    }

    @Override
    boolean mayBook(long t) {
        return t == Long.MIN_VALUE || order.mayBook(t);
    }

    @Override
    boolean mayMakeDeferred(long t) {
        // also nothing at or before t still unread in this rank's own rings: what it causes may sort first;
        // and no earlier booking the rank's one-sided engine has deferred
        return order.ownPendingMin() > t && order.firstOfRank(VirtualOrder.TWO_SIDED, t) && order.mayBook(t);
    }

    @Override
    long rtsBooking(RecvReq r, long rtsVis) {
        return r.policy.handshakePuts() ? matchStamp(r, rtsVis) : Long.MIN_VALUE;
    }

    @Override
    long ctsBooking(SendReq s, long ctsVis) {
        return Math.max(s.startStamp, ctsVis);
    }

    @Override
    String describeTurn(long t) {
        return order.describe(t) + " (its clock " + clock.now() + ")";
    }

    @Override
    void deferredFrom(long at) {
        order.deferredFrom(VirtualOrder.TWO_SIDED, at);
    }

    @Override
    void awaitingTurn(long t) {
        // the rank runs at its clock and books at t: nothing it books later is earlier than both
        // (this also covers a rank that waited blocked and woke without a packet: its ring had room again)
        order.publish(Math.min(t, clock.now()));
    }

    @Override
    void blocked() {
        order.blocked();
    }

    @Override
    void polledNothing() {
        order.polledNothing();
    }

    @Override
    void finished() {
        order.done();
        if (order.outOfOrder() > 0) {
            // rare by design (VirtualOrder): say so, the modelled figures are then not exactly the simulator's
            System.err.println("hympj: virtual time: " + order.outOfOrder() + " booking(s) of rank " + clock.order()
                .rank() + " were made after a later one (a rank polling with test/iprobe, or a send made inside a "
                + "progress pass); contention there was served in real-time order");
        }
    }

    /** A booking at {@code t} the rank makes: in its turn (at once inside a pass, whose handler asked). */
    private void turn(long t) {
        if (progress != null) {
            progress.awaitTurn(t);
        }
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
        order.lower(buffer.getLong(at)); // before the packet leaves the ring (VirtualOrder's rule)
        return false;
    }

    @Override
    long planStamp(SendReq s) {
        return s.planAt;
    }

    @Override
    void plan(SendReq s, int channel, long bytes, boolean dstInSegment) {
        turn(s.planAt);
        order.booked(s.planAt);
        super.plan(s, channel, bytes, dstInSegment);
    }

    @Override
    void sendStarted(SendReq s) {
        s.startOrder = ++started;
        s.startStamp = clock.now();
        s.planAt = s.startStamp;
        s.vdone = s.startStamp;
    }

    @Override
    void recvPosted(RecvReq r) {
        r.startOrder = ++started;
        r.postStamp = clock.now();
        r.vdone = r.postStamp;
    }

    @Override
    long rtsStamp(SendReq s) {
        // the RTS carries the send's start: the clear-to-send cannot leave before it
        if (!s.policy.handshakePuts()) {
            return s.startStamp;
        }
        turn(s.startStamp);
        order.booked(s.startStamp);
        timing.planControl(JobFabric.fabricOf(s.channel), s.dest, 0, s.startStamp);
        return timing.visibleAtReal;
    }

    @Override
    long matchStamp(RecvReq r, long rtsVis) {
        return Math.max(r.postStamp, rtsVis);
    }

    @Override
    long ctsStamp(RecvReq r, int channel, int dest, long rtsVis, long matchAt) {
        if (!r.policy.handshakePuts()) {
            return matchAt;
        }
        turn(matchAt);
        order.booked(matchAt);
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
