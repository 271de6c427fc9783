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

    /** True when the packet at {@code index} must stay in its ring for now (not visible yet in modelled time). */
    boolean holds(int type, DirectBuffer buffer, int index) {
        return false;
    }

    /** Plans {@code bytes} of {@code s} over {@code channel}: sets its visibleAt and senderDoneAt. */
    void plan(SendReq s, int channel, long bytes, boolean dstInSegment) {
    }

    /**
     * The real instant a rendezvous handshake packet (RTS, CTS) to {@code dest} arrives,
     * issued no earlier than {@code notBefore} (0: now); 0 when the handshake costs nothing.
     */
    long handshakeArrival(int channel, int dest, long notBefore) {
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
}
