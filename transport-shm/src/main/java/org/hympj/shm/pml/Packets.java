package org.hympj.shm.pml;

/**
 * Packet kinds (the ring record's message type) and their layouts. Every packet starts with
 * {@code visibleAt} (System.nanoTime): the receiver leaves it in the ring until that instant
 * (0 = at once; non-zero only under a timing model). The sender is implied by the ring.
 *
 * <pre>
 * offset      0        8       12      16      20         24           32
 * EAGER       vis:long ctx:int tag:int seq:int pad:int    | data…
 * RTS         vis:long ctx:int tag:int seq:int sendId:int total:long   srcSegOff:long flags:int pad:int
 *             (flag TYPED: then, from 48, the sender's layout, {@link RemoteLayouts})
 * CTS         vis:long sendId:int recvId:int accept:long  dstSegOff:long
 * FRAG        vis:long recvId:int pad:int     offset:long | data…
 * FIN         vis:long recvId:int pad:int     bytes:long written:long     (that many bytes were put; written:
 *                                                                         the stamp the sender wrote it, read on
 *                                                                         virtual time for the ring's order)
 * ACK         vis:long sendId:int pad:int
 * EAGER_BULK  vis:long ctx:int tag:int seq:int len:int    start:long   flags:int pad:int
 *                                                                         (payload in the bulk region)
 * FRAG_BULK   vis:long recvId:int len:int     offset:long start:long      (streamed piece, in bulk)
 * </pre>
 * RTS flags: {@link #RTS_BUFFERABLE}, {@link #RTS_TYPED}; EAGER_BULK flags: {@link #EAGER_BULK_PIPED}.
 * srcSegOff is -1 when the data cannot be pulled from the sender's segment (not there, or a
 * layout an RTS cannot describe); dstSegOff is -1 when the data is not one contiguous run in
 * a segment. Fields
 * are read and written only through the offsets below (from the start of the record), as
 * Agrona's record descriptors do.
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

    /** Every kind: the real instant the packet may be taken (0: at once). */
    static final int VISIBLE_AT_OFFSET = 0;

    // The envelope of the matched kinds (EAGER, EAGER_BULK, RTS): the same three fields at the
    // same offsets, so the receiver checks the sequence and matches before it looks at the kind.
    static final int ENVELOPE_CONTEXT_OFFSET = 8;
    static final int ENVELOPE_TAG_OFFSET = 12;
    static final int ENVELOPE_SEQ_OFFSET = 16;

    static final int EAGER_CONTEXT_OFFSET = ENVELOPE_CONTEXT_OFFSET;
    static final int EAGER_TAG_OFFSET = ENVELOPE_TAG_OFFSET;
    static final int EAGER_SEQ_OFFSET = ENVELOPE_SEQ_OFFSET;
    /**
     * Bytes of packed data (the record may be longer: on a ring of this host every eager record
     * is padded to end on a cache line, {@link EagerProtocol#lineEnd}).
     */
    static final int EAGER_LENGTH_OFFSET = 20;
    /** The packed data follow the header. */
    static final int EAGER_HEADER = 24;

    static final int RTS_CONTEXT_OFFSET = ENVELOPE_CONTEXT_OFFSET;
    static final int RTS_TAG_OFFSET = ENVELOPE_TAG_OFFSET;
    static final int RTS_SEQ_OFFSET = ENVELOPE_SEQ_OFFSET;
    static final int RTS_SEND_ID_OFFSET = 20;
    static final int RTS_TOTAL_OFFSET = 24;
    static final int RTS_SRC_SEG_OFFSET = 32;
    static final int RTS_FLAGS_OFFSET = 40;
    static final int RTS_LENGTH = 48;
    /**
     * RTS flag: a standard-mode send no larger than the eager limit, pullable from the sender's
     * segment — a receiver with no matching receive copies it out at once and ACKs, as it would
     * have buffered the eager message, so the send completes without waiting for the match
     * (within the receiver's budget for that source: {@code Matching}).
     */
    static final int RTS_BUFFERABLE = 1;
    /**
     * RTS flag: the data at srcSegOff is not one contiguous run; the sender's layout follows
     * the RTS's fields ({@link #RTS_LAYOUT_OFFSET}, {@link RemoteLayouts}), and the record is
     * {@link #RTS_TYPED_LENGTH} long.
     */
    static final int RTS_TYPED = 2;
    static final int RTS_LAYOUT_OFFSET = RTS_LENGTH;
    static final int RTS_TYPED_LENGTH = RTS_LAYOUT_OFFSET + RemoteLayouts.LENGTH;

    static final int CTS_SEND_ID_OFFSET = 8;
    static final int CTS_RECV_ID_OFFSET = 12;
    static final int CTS_ACCEPT_OFFSET = 16;
    /**
     * The receiver's segment offset to put into (>= 0), -1 to stream in the packet ring, or (a
     * sender on another host) a value <= -2 naming the port of the receiver's bulk socket to
     * stream to ({@link #ctsNetPort}, {@link #netPort}).
     */
    static final int CTS_DST_SEG_OFFSET = 24;
    static final int CTS_LENGTH = 32;

    /** The CTS_DST_SEG value that sends the data to the receiver's bulk socket at {@code port}. */
    static long ctsNetPort(int port) {
        return -2L - port;
    }

    /** The bulk socket's port a CTS_DST_SEG value names, or 0 when it names none. */
    static int netPort(long dstSeg) {
        return dstSeg <= -2 ? (int) (-2 - dstSeg) : 0;
    }

    static final int FRAG_RECV_ID_OFFSET = 8;
    /** Where the piece goes in the message. */
    static final int FRAG_POSITION_OFFSET = 16;
    /** The packed piece follows the header. */
    static final int FRAG_HEADER = 24;

    static final int FIN_RECV_ID_OFFSET = 8;
    static final int FIN_BYTES_OFFSET = 16;
    static final int FIN_WRITTEN_OFFSET = 24;
    static final int FIN_LENGTH = 32;

    static final int ACK_SEND_ID_OFFSET = 8;
    static final int ACK_LENGTH = 16;

    static final int EAGER_BULK_CONTEXT_OFFSET = ENVELOPE_CONTEXT_OFFSET;
    static final int EAGER_BULK_TAG_OFFSET = ENVELOPE_TAG_OFFSET;
    static final int EAGER_BULK_SEQ_OFFSET = ENVELOPE_SEQ_OFFSET;
    static final int EAGER_BULK_LENGTH_OFFSET = 20;
    /** Where the payload starts in the pair's bulk region. */
    static final int EAGER_BULK_START_OFFSET = 24;

    static final int FRAG_BULK_RECV_ID_OFFSET = 8;
    static final int FRAG_BULK_LENGTH_OFFSET = 12;
    static final int FRAG_BULK_POSITION_OFFSET = 16;
    static final int FRAG_BULK_START_OFFSET = 24;

    static final int EAGER_BULK_FLAGS_OFFSET = 32;
    static final int EAGER_BULK_LENGTH = 40;
    /**
     * EAGER_BULK flag: the notice went out before the payload was packed; the payload starts a
     * cache line after {@code start}, and the long at {@code start} says how many of its bytes
     * are packed so far (written with release after each piece).
     */
    static final int EAGER_BULK_PIPED = 1;
    /** A FRAG_BULK notice. */
    static final int BULK_NOTICE_LENGTH = 32;

    private Packets() {
    }
}
