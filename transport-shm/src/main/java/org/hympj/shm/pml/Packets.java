package org.hympj.shm.pml;

/**
 * Packet kinds (the ring record's message type) and their layouts. All offsets are from the
 * start of the record's payload; the sender is implied by the ring the packet arrives in.
 *
 * <pre>
 * EAGER  ctx:int tag:int seq:int pad:int | data…                     (whole small message)
 * RTS    ctx:int tag:int seq:int sendId:int total:long srcSegOff:long (rendezvous request)
 * CTS    sendId:int recvId:int accept:long dstSegOff:long             (receiver is ready)
 * FRAG   recvId:int pad:int offset:long | data…                       (streamed piece)
 * FIN    recvId:int                                                    (sender's put is done)
 * ACK    sendId:int                                                    (receiver pulled the data)
 * EAGER_BULK  ctx:int tag:int seq:int len:int start:long              (payload in the bulk region)
 * FRAG_BULK   recvId:int len:int offset:long start:long               (streamed piece, in bulk)
 * </pre>
 * srcSegOff / dstSegOff are -1 when the data is not one contiguous run in a segment.
 */
final class Packets {
    static final int EAGER = 1;
    static final int RTS = 2;
    static final int CTS = 3;
    static final int FRAG = 4;
    static final int FIN = 5;
    static final int ACK = 6;
    static final int EAGER_BULK = 7;
    static final int FRAG_BULK = 8;

    static final int EAGER_HEADER = 16;
    static final int RTS_LENGTH = 32;
    static final int CTS_LENGTH = 24;
    static final int FRAG_HEADER = 16;
    static final int ID_LENGTH = 8;
    static final int BULK_NOTICE_LENGTH = 24;

    private Packets() {
    }
}
