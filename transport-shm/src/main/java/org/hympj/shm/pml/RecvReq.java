package org.hympj.shm.pml;

/** A receive: posted in its context's queue until matched, then filled eagerly or by rendezvous. */
final class RecvReq extends Req {
    int source;
    /** Virtual time: the rank's modelled clock when the receive was posted (it completes no earlier). */
    long postStamp;
    /** World rank → rank in the receiving communicator, for the status. */
    int[] localOf;
    // rendezvous in progress
    long accept;
    long received;
    /** The latest modelled-visibility instant (real clock) of the parts received so far (0: none). */
    long visibleAt;
    int recvId = -1;
    /** Cleared to come over the bulk sockets between hosts (counted in NetBulk's expected receives). */
    boolean netBulk;
    /** Posted and counted by {@link SocketWatch}. */
    boolean socketWatched;
    /** Streamed from another host in packets that may take a socket (counted by {@link SocketWatch#streams}). */
    boolean netPackets;
    /** Channel the rendezvous arrived on (replies go back on it). */
    int channel;
    int matchedSource;
    int matchedTag;
    long sentBytes;
    /** Virtual time: an RTS matched before its clear-to-send's turn to book (DeferredBookings). */
    int deferredRtsSendId;
    long deferredRtsVis;
    // intrusive links of the posted queue
    RecvReq prev;
    RecvReq next;

    RecvReq(Engine engine, boolean persistent) {
        super(engine, persistent);
    }

    @Override
    void doStart() {
        engine.startRecv(this);
    }

    @Override
    public String toString() {
        return "recv[source=" + source + ", tag=" + tag + ", capacity=" + buf.bytes
            + (persistent ? ", persistent" : "") + "]";
    }
}
