package org.hympj.shm.pml;

import org.agrona.DirectBuffer;

/**
 * How modelled time paces the protocols. This class is the native case: nothing is planned,
 * every packet may be taken at once, a transfer is complete when its bytes are copied.
 * {@link ModelPacing} is the emulated one (a timing model on). A job runs one or the other,
 * so every call site sees one receiver class and the JIT inlines it: natively these calls
 * are empty and cost nothing.
 */
class Pacing {
    static final Pacing NATIVE = new Pacing();

    /** True under a timing model. */
    boolean modelled() {
        return false;
    }

    /** A progress pass begins (under a model: reads the clock once for the pass). */
    void beginPass() {
    }

    /** The clock of the current pass. */
    long now() {
        return System.nanoTime();
    }

    /** Earliest modelled instant something waits for (Long.MAX_VALUE: none). */
    long wakeAt() {
        return Long.MAX_VALUE;
    }

    /** Something waits for the real instant {@code at}. */
    void wakeBy(long at) {
    }

    /**
     * True when the packet at {@code index}, from {@code src} on {@code channel}, must stay in its
     * ring for now (not visible yet in modelled time). On virtual time it may restamp the packet
     * with the instant it is read in its ring's order.
     */
    boolean holds(int type, int channel, int src, org.agrona.MutableDirectBuffer buffer, int index) {
        return false;
    }

    /** Plans {@code bytes} of {@code s} over {@code channel}: sets its visibleAt and senderDoneAt. */
    void plan(SendReq s, int channel, long bytes, boolean dstInSegment) {
    }

    /**
     * The real instant a rendezvous handshake packet (RTS, CTS) to {@code dest} arrives,
     * issued no earlier than {@code notBefore} (0: now); 0 when the handshake costs nothing
     * (not {@code paid}: its communicator's policy is not rndv, or no model is on).
     */
    long handshakeArrival(boolean paid, int channel, int dest, long notBefore) {
        return 0;
    }

    /** True for a put RSched placed on an engine: its transfer runs from its start (S3's persistent protocol). */
    boolean scheduled(SendReq s) {
        return false;
    }

    /** A persistent send keeps its descriptors on this rank's DMACs. */
    void registerPersistent(SendReq s) {
        s.registered = true;
    }

    /** A registered send is freed: its descriptors no longer count against the DMACs' modes. */
    void releasePersistent(SendReq s) {
        s.registered = false;
    }

    // ---- virtual time (VirtualPacing); natively and on the wall clock these do nothing

    /** True on virtual time: a request completes when its data is there, carrying its modelled instant. */
    boolean virtual() {
        return false;
    }

    /** A send starts (virtual time: it takes the rank's clock as its start). */
    void sendStarted(SendReq s) {
    }

    /** A receive is posted (virtual time: it completes no earlier than the rank's clock now). */
    void recvPosted(RecvReq r) {
    }

    /** The stamp an RTS carries: the handshake's arrival under rndv (its communicator's policy), 0 when it costs nothing. */
    long rtsStamp(SendReq s) {
        return handshakeArrival(s.policy.handshakePuts(), s.channel, s.dest, 0);
    }

    /** The stamp a receive matches an RTS that arrived at {@code rtsVis} (0 off virtual time). */
    long matchStamp(RecvReq r, long rtsVis) {
        return 0;
    }

    /** The stamp the CTS of {@code r} carries to the sender: the handshake's arrival under rndv (r's policy), else 0. */
    long ctsStamp(RecvReq r, int channel, int dest, long rtsVis, long matchAt) {
        return handshakeArrival(r.policy.handshakePuts(), channel, dest, rtsVis);
    }

    /** The CTS of {@code s} is read; it carried {@code ctsVis} (virtual time: the data leaves no earlier). */
    void ctsArrived(SendReq s, long ctsVis) {
    }

    /** The stamp eager data is visible at, from its packet's {@code vis} (0: complete at once). */
    long eagerArrival(long vis) {
        return 0;
    }

    /** A completion is observed by a wait or test. */
    void observed(Req r) {
    }

    // ---- virtual time's booking order (VirtualPacing with its VirtualOrder); elsewhere every booking may go at once

    /** Gives the pacing the rank's progress, to wait for its turn to book (virtual time). */
    void attach(Progress progress) {
    }

    /** True when this rank may book the shared timelines at modelled instant {@code t} now. */
    boolean mayBook(long t) {
        return true;
    }

    /** True when a deferred booking at {@code t} may be made now (virtual time). */
    boolean mayMakeDeferred(long t) {
        return true;
    }

    /** The instant the clear-to-send for an RTS stamped {@code rtsVis} that {@code r} matched is booked at (MIN_VALUE: none). */
    long rtsBooking(RecvReq r, long rtsVis) {
        return Long.MIN_VALUE;
    }

    /** The instant the data a CTS stamped {@code ctsVis} releases for {@code s} is booked at (MIN_VALUE: none). */
    long ctsBooking(SendReq s, long ctsVis) {
        return Long.MIN_VALUE;
    }

    /** The earliest booking this rank has deferred to its turn (MAX_VALUE: none). */
    void deferredFrom(long at) {
    }

    /** What the turn to book at {@code t} waits for (a diagnosis). */
    String describeTurn(long t) {
        return "";
    }

    /** A call-level booking at {@code t} waits for its turn (and after each pass while it waits). */
    void awaitingTurn(long t) {
    }

    /** The rank waits in the library with nothing to do (only a packet can wake it). */
    void blocked() {
    }

    /** A polling call (test, iprobe) found nothing. */
    void polledNothing() {
    }

    /** The rank has finalized: it books nothing more. */
    void finished() {
    }

    /** The rank enters a library call. */
    void enterCall() {
    }

    /** The rank leaves a library call. */
    void exitCall() {
    }
}
