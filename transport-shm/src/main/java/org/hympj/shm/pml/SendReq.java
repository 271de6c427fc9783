package org.hympj.shm.pml;

/**
 * A send. Small messages go as one EAGER packet (complete once written); larger ones as a
 * rendezvous: RTS, then on the receiver's CTS either one put into its segment followed by
 * FIN, or a stream of FRAG packets; or, when the receiver pulls from our segment, an ACK.
 */
final class SendReq extends Req implements Outbound {
    static final int EMIT_EAGER = 0;
    static final int EMIT_RTS = 1;

    int dest;
    /** The fabric channel (0 natively; 0 = TCA, 1 = IB when emulating), fixed at the call or at init. */
    int channel;
    int seq;
    /** Real instants of the planned transfer (0 without a model). */
    long visibleAt;
    long senderDoneAt;
    int emit;
    /**
     * Synchronous mode (ssend): the message always goes by rendezvous, whose send completes only
     * after the receiver matched it (its clear-to-send or, natively, its pull), never eagerly.
     */
    boolean synchronous;
    /** A pulled send the receiver may copy out before it is matched ({@link Packets#RTS_BUFFERABLE}). */
    boolean bufferable;
    /** Under a model: the stamp of the start (virtual time: the rank's modelled clock then). */
    long startStamp;
    /** Virtual time: the stamp the next part of the data is planned at (the start, or the CTS's arrival). */
    long planAt;
    int sendId = -1;
    /** Real instant the RTS arrives under --sched rndv (its control put); 0: at once. */
    long rtsVisibleAt;
    /**
     * True for a sendInit request: its descriptors are registered on the DMACs for the job.
     * The reused request objects behind blocking sends and collectives are persistent in the
     * API sense only; the model plans their puts like isend's, through the descriptor cache.
     */
    boolean registered;
    /** Layout and route decided at the call or at init (persistent). */
    org.hympj.spi.Layout layout = org.hympj.spi.Layout.CONTIGUOUS;
    /** The send and receive engines RSched assigned in this request's Startall set (-1: the model picks). */
    int engineHint = -1;
    /** Planned on the model at its start (a scheduled rendezvous put): the clear-to-send does not plan it again. */
    boolean preplanned;
    int recvEngineHint = -1;
    /** The receiver's handle for the data packets (from its clear-to-send). */
    int recvId;
    /** Virtual time: a clear-to-send read before its data's turn to book (DeferredBookings): its source, offer and stamp. */
    int deferredCtsSource;
    long deferredCtsAccept;
    long deferredCtsDstSeg;
    long deferredCtsVis;
    /** Split over both fabrics (hybrid router, large contiguous messages). */
    boolean stripe;
    /** Streams or puts still to finish before the send completes. */
    int partsLeft;
    /** Latest sender-done instant over the parts. */
    long partsDoneAt;
    final StreamCursor[] cursors = {new StreamCursor(this), new StreamCursor(this)};
    /** Traced only: the puts planned for this start (at most one per part), for their completion events. */
    int tracedPuts;
    final TracedPut[] traced = {new TracedPut(), new TracedPut()};

    /** A put as {@code put_issued} recorded it. */
    static final class TracedPut {
        int channel;
        long bytes;
        int engine;
        int link;
        long start;
        long end;
        String protocol;
    }

    SendReq(Engine engine, boolean persistent) {
        super(engine, persistent);
    }

    /** Records a planned put (traced runs; a third put of one start is not recorded). */
    void tracePut(int channel, long bytes, int engine, int link, long start, long end, String protocol) {
        if (tracedPuts < traced.length) {
            TracedPut p = traced[tracedPuts++];
            p.channel = channel;
            p.bytes = bytes;
            p.engine = engine;
            p.link = link;
            p.start = start;
            p.end = end;
            p.protocol = protocol;
        }
    }

    @Override
    void doStart() {
        engine.startSend(this);
    }

    @Override
    public boolean emit() {
        return engine.emitSend(this);
    }

    @Override
    public String toString() {
        return "send[dest=" + dest + ", tag=" + tag + ", bytes=" + buf.bytes + (persistent ? ", persistent" : "") + "]";
    }
}
