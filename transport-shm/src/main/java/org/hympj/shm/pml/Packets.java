package org.hympj.shm.pml;

/**
 * Packet kinds (the ring record's message type) and their layouts. Every packet starts with
 * {@code visibleAt} (System.nanoTime): the receiver leaves it in the ring until that instant
 * (0 = at once; non-zero only under a timing model). The sender is implied by the ring.
 *
 * <pre>
 * EAGER       vis:long ctx:int tag:int seq:int pad:int | data…
 * RTS         vis:long ctx:int tag:int seq:int sendId:int total:long srcSegOff:long
 * CTS         vis:long sendId:int recvId:int accept:long dstSegOff:long
 * FRAG        vis:long recvId:int pad:int offset:long | data…
 * FIN         vis:long recvId:int pad:int bytes:long                   (that many bytes were put)
 * ACK         vis:long sendId:int pad:int
 * EAGER_BULK  vis:long ctx:int tag:int seq:int len:int start:long      (payload in the bulk region)
 * FRAG_BULK   vis:long recvId:int len:int offset:long start:long       (streamed piece, in bulk)
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

    /** Offset of the first field after visibleAt. */
    static final int B = 8;
    static final int EAGER_HEADER = B + 16;
    static final int RTS_LENGTH = B + 32;
    static final int CTS_LENGTH = B + 24;
    static final int FRAG_HEADER = B + 16;
    static final int ID_LENGTH = B + 8;
    static final int FIN_LENGTH = B + 16;
    static final int BULK_NOTICE_LENGTH = B + 24;

    private Packets() {
    }
}
