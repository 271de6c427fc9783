package org.hympj.shm.pml;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.api.Datatype;
import org.hympj.api.MpjException;
import org.hympj.shm.fabric.BulkInbound;
import org.hympj.shm.fabric.BulkOutbound;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rendezvous protocol: RTS, then the receiver picks the fewest copies its buffers allow —
 * a pull straight out of the sender's segment then ACK (RGET; native only; a strided layout is
 * read in place, {@link RemoteLayouts}), a put straight into
 * its own segment then FIN, or a stream of pieces (FRAG_BULK through the bulk region, FRAG in
 * the ring while the bulk region is full); a receive buffer shorter than the message accepts
 * what fits and reports truncation. A striped message goes as two parts, one per fabric. From a
 * sender on another host the pieces come over the receiver's bulk socket ({@link NetPieces}) when
 * the message is large enough, else in the network's packet ring.
 */
final class RendezvousProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(RendezvousProtocol.class);
    /** From this many bytes a message from another host comes over the bulk sockets, not Aeron. */
    static final long NET_BULK_FROM = 16 << 10;
    private final ShmFabric fabric;
    private final Packer packer;
    private final OutboundQueues outbound;
    private final Completions completions;
    private final Pacing pacing;
    /** Pulling from the sender's segment is a read: native only (TCA writes; a model plans sender puts). */
    private final boolean pullable;
    /**
     * Strided data is pulled too (its layout read in place) — only when every rank has a core:
     * with 8 ranks on 2 cores the halo's strided faces took longer pulled (N = 64, segment:
     * 490–620 µs against 380–430 µs packed eagerly, docs/PERFORMANCE.md), one core per rank
     * they took half the time.
     */
    private final boolean typedPulls;
    private final int bulkChunk;
    /**
     * Bytes of a bulk region a stream may hold at once (at most the region): the sender runs at most
     * this far ahead of the receiver's copy. {@code -Dhympj.streamWindow=BYTES}, default
     * {@link #STREAM_WINDOW}. Why not the whole region: with 2 MiB ahead a heap 4 MB ping-pong read
     * 107–593 µs from launch to launch, mostly near (22 launches, session 23), with 512 KiB 94–100 in
     * 14 of 16; far apart 143–159 against 144–210 (docs/PERFORMANCE.md). Likely the sender's lines
     * are still in its cache when the receiver copies them (this machine's cores have 1 MiB of L2).
     */
    private final int streamWindow;
    /** The default of {@link #streamWindow}. */
    static final int STREAM_WINDOW = 512 << 10;
    private final int fragPayload;
    /** The bulk sockets between hosts (null on one host, or under a model: virtual time books the ring's pieces). */
    private NetPieces net;
    /** The receives a packet on a socket could complete (null: no sockets). */
    private SocketWatch socketWatch;
    private final HandleTable<SendReq> sends = new HandleTable<>();
    private final HandleTable<RecvReq> recvs = new HandleTable<>();
    private final DeferredBookings deferred = new DeferredBookings();
    /** Times a stream found the packet ring too full for its next piece or notice (the warm-up makes it happen: {@link WarmUpWaits#stalledStream}). */
    private long streamStalls;
    /** The senders' strided layouts this receiver has pulled from. */
    private final RemoteLayouts layouts = new RemoteLayouts();
    /** Pieces of a pull that is strided on both sides pass through it (small: it stays in cache); made at first use. */
    private byte[] pullScratch;
    private static final int PULL_SCRATCH = 16 << 10;
    private static final long BYTE_BASE = org.agrona.UnsafeApi.arrayBaseOffset(byte[].class);

    RendezvousProtocol(ShmFabric fabric, Packer packer, OutboundQueues outbound, Completions completions,
                       Pacing pacing, int bulkBytes, boolean typedPulls) {
        this.fabric = fabric;
        this.packer = packer;
        this.outbound = outbound;
        this.completions = completions;
        this.pacing = pacing;
        this.pullable = fabric.channels() == 1 && !pacing.modelled();
        this.typedPulls = pullable && typedPulls;
        this.bulkChunk = Math.min(128 << 10, bulkBytes / 4);
        // at least two pieces: a piece that skips the region's tail still fits an empty window
        this.streamWindow = Math.min(bulkBytes,
            Math.max(2 * bulkChunk, Integer.getInteger("hympj.streamWindow", STREAM_WINDOW)));
        this.fragPayload = fabric.ring(0, fabric.rank()).maxMsgLength() - Packets.FRAG_HEADER;
        // on one host no class of transport-net is loaded (docs/ARCHITECTURE.md)
        this.net = !fabric.singleHost() && fabric.channels() == 1 && !pacing.modelled() && bulkSocketsAllowed()
            ? NetPieces.of(this, fabric, packer, outbound) : null;
    }

    /**
     * False when the rank was started with {@code -Dhympj.net.bulk=off}: no bulk socket is opened or
     * used, large messages between hosts stream in the network transport's frames (for sites whose
     * firewalls let no TCP connection through between hosts; ranks with and without it work together).
     */
    private static boolean bulkSocketsAllowed() {
        return !"off".equals(System.getProperty("hympj.net.bulk"));
    }

    /**
     * Large packets from other hosts may come over the bulk sockets from now on, handed to
     * {@code inbound} as if read from their rings (when there are bulk sockets).
     */
    void packetsTo(Inbound inbound) {
        if (net != null) {
            net.packetsTo(inbound);
            socketWatch = inbound.socketWatch();
        }
    }

    /** Large packets from and to other hosts may take the bulk sockets from now on (when there are any). */
    void openNetPackets() {
        if (net != null) {
            net.openPackets();
        }
    }

    /** True when the bulk sockets have something to do in a pass. */
    boolean netBusy() {
        return net != null && net.busy();
    }

    /** Reads and writes the bulk sockets; returns the work done. */
    int pollNet() {
        return net.poll();
    }

    /** True when a receiver may pull data out of the sender's segment (native, one channel; on one host). */
    boolean pullable() {
        return pullable;
    }

    /** True when strided data is pulled too (every rank has a core). */
    boolean typedPulls() {
        return typedPulls;
    }

    // ------------------------------------------------------------------ sender

    /** The send goes as a rendezvous; under --sched rndv its RTS is planned as a control put now. */
    void begin(SendReq s) {
        s.emit = SendReq.EMIT_RTS;
        s.sendId = sends.add(s);
        s.rtsVisibleAt = pacing.rtsStamp(s);
        if (!s.preplanned && pacing.scheduled(s)) {
            // scheduled: the put runs from its start, in schedule order (S3's persistent protocol
            // has no handshake); the emulator's handshake only carries the real data meanwhile
            pacing.plan(s, s.channel, s.buf.bytes, false);
            s.preplanned = true;
        }
    }

    /** Writes the RTS if the ring has room; the send then waits for CTS or ACK. */
    boolean emitRts(SendReq s, RingBuffer ring) {
        if (s.buf.stridedOffset >= 0 && typedPulls && fabric.local(s.dest)) {
            return emitTypedRts(s, ring);
        }
        int idx = ring.tryClaim(Packets.RTS, Packets.RTS_LENGTH);
        if (idx < 0) {
            return false;
        }
        AtomicBuffer b = ring.buffer();
        b.putLong(idx + Packets.VISIBLE_AT_OFFSET, s.rtsVisibleAt); // 0 unless --sched rndv
        b.putInt(idx + Packets.RTS_CONTEXT_OFFSET, s.ctx);
        b.putInt(idx + Packets.RTS_TAG_OFFSET, s.tag);
        b.putInt(idx + Packets.RTS_SEQ_OFFSET, s.seq);
        b.putInt(idx + Packets.RTS_SEND_ID_OFFSET, s.sendId);
        b.putLong(idx + Packets.RTS_TOTAL_OFFSET, s.buf.bytes);
        b.putLong(idx + Packets.RTS_SRC_SEG_OFFSET, pullable && fabric.local(s.dest) ? s.buf.segOffset : -1L);
        b.putInt(idx + Packets.RTS_FLAGS_OFFSET, s.bufferable ? Packets.RTS_BUFFERABLE : 0);
        ring.commit(idx);
        outbound.wrote();
        return true;
    }

    /** The RTS of strided data the receiver may pull: the sender's layout follows the fields. */
    private boolean emitTypedRts(SendReq s, RingBuffer ring) {
        int idx = ring.tryClaim(Packets.RTS, Packets.RTS_TYPED_LENGTH);
        if (idx < 0) {
            return false;
        }
        AtomicBuffer b = ring.buffer();
        b.putLong(idx + Packets.VISIBLE_AT_OFFSET, s.rtsVisibleAt);
        b.putInt(idx + Packets.RTS_CONTEXT_OFFSET, s.ctx);
        b.putInt(idx + Packets.RTS_TAG_OFFSET, s.tag);
        b.putInt(idx + Packets.RTS_SEQ_OFFSET, s.seq);
        b.putInt(idx + Packets.RTS_SEND_ID_OFFSET, s.sendId);
        b.putLong(idx + Packets.RTS_TOTAL_OFFSET, s.buf.bytes);
        b.putLong(idx + Packets.RTS_SRC_SEG_OFFSET, s.buf.stridedOffset);
        b.putInt(idx + Packets.RTS_FLAGS_OFFSET, (s.bufferable ? Packets.RTS_BUFFERABLE : 0) | Packets.RTS_TYPED);
        RemoteLayouts.write(b, idx + Packets.RTS_LAYOUT_OFFSET, s.buf.type, s.buf.count);
        ring.commit(idx);
        outbound.wrote();
        return true;
    }

    /** The receiver's clear-to-send from {@code src}: put into its segment, or stream. */
    void onCts(int src, DirectBuffer buffer, int index) {
        SendReq s = sends.get(buffer.getInt(index + Packets.CTS_SEND_ID_OFFSET));
        int recvId = buffer.getInt(index + Packets.CTS_RECV_ID_OFFSET);
        long accept = buffer.getLong(index + Packets.CTS_ACCEPT_OFFSET);
        long dstSeg = buffer.getLong(index + Packets.CTS_DST_SEG_OFFSET);
        long ctsVis = buffer.getLong(index + Packets.VISIBLE_AT_OFFSET);
        if (accept == 0) {
            finishSend(s);
            return;
        }
        long bookAt = s.preplanned ? Long.MIN_VALUE : pacing.ctsBooking(s, ctsVis);
        if (bookAt != Long.MIN_VALUE) {
            // virtual time: the data goes in its turn (DeferredBookings), made by this pass or a later one
            s.recvId = recvId;
            s.deferredCtsSource = src;
            s.deferredCtsAccept = accept;
            s.deferredCtsDstSeg = dstSeg;
            s.deferredCtsVis = ctsVis;
            deferred.add(s, bookAt);
            return;
        }
        sendData(s, src, recvId, accept, dstSeg, ctsVis);
    }

    /** Puts (or streams) {@code accept} bytes of {@code s} to {@code src}, whose clear-to-send was stamped {@code ctsVis}. */
    private void sendData(SendReq s, int src, int recvId, long accept, long dstSeg, long ctsVis) {
        if (dstSeg >= 0 && dstSeg + accept > fabric.segmentBytes()) {
            throw new MpjException("internal: CTS from rank " + src + " names segment bytes past its end");
        }
        s.recvId = recvId;
        s.partsDoneAt = 0;
        int netPort = Packets.netPort(dstSeg);
        if (netPort != 0) {
            dstSeg = -1;
        }
        pacing.ctsArrived(s, ctsVis);
        // under --sched rndv the CTS stayed in the ring until its control put arrived (its vis):
        // planning the data at the real clock now plans it at that arrival.
        // A striped message: [0, split) over TCA, [split, accept) over IB
        long split = s.stripe ? s.policy.routes().tcaPart(accept) : accept;
        int parts = s.stripe ? 2 : 1;
        s.partsLeft = parts; // partDone counts it down, possibly within this loop
        for (int part = 0; part < parts; part++) {
            int channel = s.stripe ? part : s.channel;
            long from = part == 0 ? 0 : split;
            long to = part == 0 ? split : accept;
            if (!s.preplanned) {
                pacing.plan(s, channel, to - from, dstSeg >= 0);
            }
            if (dstSeg >= 0) {
                // the put: straight into the receiver's segment, then its completion notice
                packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, from,
                    null, fabric.segmentAddress(src) + dstSeg + from, to - from);
                outbound.sendControl(channel, src, Packets.FIN, recvId, 0, to - from, s.planAt, s.visibleAt);
                partDone(s, s.senderDoneAt);
            } else {
                StreamCursor c = s.cursors[part];
                c.channel = channel;
                c.pos = from;
                c.end = to;
                c.visibleAt = s.visibleAt;
                c.senderDoneAt = s.senderDoneAt;
                c.netPort = net != null ? netPort : 0;
                outbound.enqueue(channel, src, c); // streamed by the outbound flush, in order
            }
        }
    }

    /**
     * Streams one part of a message the receiver cannot take by a put: pieces through the bulk
     * region (one copy in, one out, the receiver copying piece k while we pack piece k+1), or
     * through the packet ring itself while the bulk region is full. True when the part is written.
     */
    boolean emitStream(StreamCursor c) {
        if (c.netPort != 0) {
            return net.emit(c);
        }
        SendReq s = c.owner;
        RingBuffer ring = fabric.ring(c.channel, s.dest);
        BulkOutbound bulk = fabric.bulkTo(c.channel, s.dest);
        // a peer on another host: pieces as large as one network frame carries, no bulk region
        int pieceLimit = fabric.local(s.dest) ? fragPayload : ring.maxMsgLength() - Packets.FRAG_HEADER;
        while (c.pos < c.end) {
            int chunk = (int) Math.min(bulkChunk, c.end - c.pos);
            long start = bulk.tryReserve(chunk, streamWindow);
            boolean inRegion = start >= 0;
            if (!inRegion) {
                // the window is full: pieces in the packet ring itself. Not a wait for room: an eager
                // payload whose receive is posted later may hold the region's head, and a stream that
                // waited behind it never ends (session 23 tried it: MatchingTest hung)
                chunk = (int) Math.min(pieceLimit, c.end - c.pos);
            }
            int idx = inRegion ? ring.tryClaim(Packets.FRAG_BULK, Packets.BULK_NOTICE_LENGTH)
                : ring.tryClaim(Packets.FRAG, Packets.FRAG_HEADER + chunk);
            // One exit for a ring full for either record: C2 compiles a branch by its own profile, and a
            // ring too full for a piece's notice while the window has room is a rare geometry (the
            // warm-up's stalled streams never met it) — as a branch of its own C2 compiled it as never
            // taken and compiled emitStream again (25-37 ms) inside a heap 4 MB ping-pong's timed
            // batches in 4 of 10 launches under JFR (session 24); the full ring for a piece the warm-up
            // meets (WarmUpWaits.stalledStream) keeps this one compiled.
            if (idx < 0) {
                streamStalls++;
                return false;
            }
            AtomicBuffer b = ring.buffer();
            if (inRegion) {
                packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, c.pos, null, bulk.address(start), chunk);
                bulk.commit(start, chunk);
                b.putLong(idx + Packets.VISIBLE_AT_OFFSET, c.visibleAt);
                b.putInt(idx + Packets.FRAG_BULK_RECV_ID_OFFSET, s.recvId);
                b.putInt(idx + Packets.FRAG_BULK_LENGTH_OFFSET, chunk);
                b.putLong(idx + Packets.FRAG_BULK_POSITION_OFFSET, c.pos);
                b.putLong(idx + Packets.FRAG_BULK_START_OFFSET, start);
            } else {
                b.putLong(idx + Packets.VISIBLE_AT_OFFSET, c.visibleAt);
                b.putInt(idx + Packets.FRAG_RECV_ID_OFFSET, s.recvId);
                b.putLong(idx + Packets.FRAG_POSITION_OFFSET, c.pos);
                packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, c.pos,
                    null, b.addressOffset() + idx + Packets.FRAG_HEADER, chunk);
            }
            ring.commit(idx);
            outbound.wrote();
            c.pos += chunk;
        }
        partDone(s, c.senderDoneAt);
        return true;
    }

    /** Times a stream in shared memory found the packet ring too full for its next piece or notice, so far. */
    long streamStalls() {
        return streamStalls;
    }

    /** The receiver pulled the data out of our segment. */
    void onAck(DirectBuffer buffer, int index) {
        finishSend(sends.get(buffer.getInt(index + Packets.ACK_SEND_ID_OFFSET)));
    }

    /** One part of a rendezvous send is written; the send completes with its last part. */
    void partDone(SendReq s, long senderDoneAt) {
        s.partsDoneAt = Math.max(s.partsDoneAt, senderDoneAt);
        if (--s.partsLeft == 0) {
            s.senderDoneAt = s.partsDoneAt;
            finishSend(s);
        }
    }

    private void finishSend(SendReq s) {
        sends.release(s.sendId);
        s.sendId = -1;
        completions.completeAt(s, s.senderDoneAt);
    }

    // ------------------------------------------------------------------ receiver

    /**
     * A receive matched an RTS (as it was read, or found waiting when the receive was posted). On
     * virtual time under --sched rndv, when another rank may still book earlier than its
     * clear-to-send, the clear-to-send waits its turn (DeferredBookings) and the rank goes on —
     * it may be at an instant later than the rank's clock, which the rank's next sends precede;
     * otherwise as {@link #matchRts}.
     */
    void matchRtsInTurn(RecvReq r, int channel, int source, int tag, int sendId, long total, long srcSegOff,
                        Datatype srcType, int srcCount, long rtsVis) {
        long bookAt = srcSegOff < 0 ? pacing.rtsBooking(r, rtsVis) : Long.MIN_VALUE;
        if (bookAt != Long.MIN_VALUE) {
            r.channel = channel;
            r.matchedSource = source;
            r.matchedTag = tag;
            r.sentBytes = total;
            r.deferredRtsSendId = sendId;
            r.deferredRtsVis = rtsVis;
            deferred.add(r, bookAt);
            return;
        }
        matchRts(r, channel, source, tag, sendId, total, srcSegOff, srcType, srcCount, rtsVis);
    }

    /**
     * Makes the deferred bookings whose turn has come, in modelled-instant order; returns how
     * many. Called inside a pass: their own bookings do not wait again.
     */
    int runDeferred() {
        int done = 0;
        while (deferred.size() > 0 && pacing.mayMakeDeferred(deferred.firstAt())) {
            Req q = deferred.takeFirst();
            if (q instanceof SendReq) {
                SendReq s = (SendReq) q;
                sendData(s, s.deferredCtsSource, s.recvId, s.deferredCtsAccept, s.deferredCtsDstSeg, s.deferredCtsVis);
            } else {
                RecvReq r = (RecvReq) q;
                matchRts(r, r.channel, r.matchedSource, r.matchedTag, r.deferredRtsSendId, r.sentBytes, -1L,
                    null, 0, r.deferredRtsVis);
            }
            done++;
        }
        pacing.deferredFrom(deferred.size() > 0 ? deferred.firstAt() : Long.MAX_VALUE);
        return done;
    }

    /** Bookings deferred to their turn (virtual time). */
    boolean hasDeferred() {
        return deferred.size() > 0;
    }

    /**
     * A receive matched an RTS. {@code rtsVis}: the real instant the RTS arrived (0 unless
     * --sched rndv); the CTS leaves no earlier. {@code srcSegOff} >= 0: the data can be pulled
     * from there — one contiguous run ({@code srcType} null) or {@code srcCount} items of the
     * sender's strided {@code srcType}.
     */
    void matchRts(RecvReq r, int channel, int source, int tag, int sendId, long total, long srcSegOff,
                  Datatype srcType, int srcCount, long rtsVis) {
        long accept = Math.min(total, r.buf.bytes);
        r.accept = accept;
        r.received = 0;
        r.matchedSource = source;
        r.matchedTag = tag;
        r.sentBytes = total;
        r.channel = channel;
        // under --sched rndv the CTS is a control put back to the sender, visible when it lands
        // on virtual time the match happens at the later of the post and the RTS's arrival
        long matchAt = pacing.matchStamp(r, rtsVis);
        long ctsVis = srcSegOff < 0 ? pacing.ctsStamp(r, channel, source, rtsVis, matchAt) : 0;
        if (accept == 0) {
            outbound.sendControl(channel, source, Packets.CTS, sendId, -1, 0, -1, ctsVis);
            completions.recvDone(r, source, tag, 0, total, matchAt);
        } else if (srcSegOff >= 0) {
            // one copy straight out of the sender's segment, and no clear-to-send round trip
            pullInto(r, source, srcSegOff, srcType, srcCount, total, accept);
            outbound.sendControl(channel, source, Packets.ACK, sendId, 0, 0, 0, 0);
            completions.recvDone(r, source, tag, accept, total, 0);
        } else {
            r.recvId = recvs.add(r);
            // a sender on another host cannot put into our segment: it streams (to our bulk socket if large)
            long dst = fabric.local(source) ? (r.buf.segOffset >= 0 ? r.buf.segOffset : -1) : netDestination(r, source, accept);
            outbound.sendControl(channel, source, Packets.CTS, sendId, r.recvId, accept, dst, ctsVis);
        }
    }

    /**
     * Where a sender on another host streams {@code accept} bytes of {@code r}: this rank's bulk
     * socket (opened now if it is not yet) for a large message, else the packet ring (-1).
     */
    private long netDestination(RecvReq r, int source, long accept) {
        if (net == null) {
            return -1;
        }
        if (accept < NET_BULK_FROM) {
            if (socketWatch != null) {
                r.netPackets = true; // its pieces, in packets of a frame's size, may take the socket
                socketWatch.streams(1);
            }
            return -1;
        }
        int port;
        try {
            port = net.port();
        } catch (IllegalStateException e) {
            LOG.warn("{}; large messages from other hosts come over the network's packet rings instead", e.getMessage());
            net = null;
            return -1;
        }
        r.netBulk = true;
        net.expect(1);
        net.offer(source); // the sender's later eager-sized messages take the same connection
        return Packets.ctsNetPort(port);
    }

    /**
     * The pull of a matched receive (kept out of {@link #matchRts}, whose size would otherwise
     * pass C2's inlining limit for hot methods, 325 bytecodes: a 4 KB segment ping-pong went from
     * 0.45 to 0.49 µs when it did).
     */
    private void pullInto(RecvReq r, int source, long srcSegOff, Datatype srcType, int srcCount, long total, long accept) {
        if (srcType == null) {
            packer.unpack(null, pullAddress(source, srcSegOff, accept), accept, r.buf.base, r.buf.addr, r.buf.type,
                r.buf.count, 0);
        } else {
            pull(source, srcSegOff, srcType, srcCount, total, accept, r.buf.base, r.buf.addr, r.buf.type, r.buf.count);
        }
    }

    /**
     * An unmatched bufferable RTS: copies the {@code total} bytes out of the sender's segment into
     * {@code dst} and ACKs, so the send completes as an eager one would.
     */
    void pullUnmatched(int channel, int source, int sendId, long srcSegOff, Datatype srcType, int srcCount, long total,
                       byte[] dst, long dstBase) {
        if (srcType == null) {
            Packer.copy(null, pullAddress(source, srcSegOff, total), dst, dstBase, total);
        } else {
            pull(source, srcSegOff, srcType, srcCount, total, total, dst, dstBase, Datatype.BYTE, (int) total);
        }
        outbound.sendControl(channel, source, Packets.ACK, sendId, 0, 0, 0, 0);
    }

    /**
     * The sender's layout of a typed RTS (cached: no allocation for a layout seen before), or
     * null when the RTS's data is one contiguous run.
     */
    Datatype senderLayout(int source, DirectBuffer buffer, int index) {
        if ((buffer.getInt(index + Packets.RTS_FLAGS_OFFSET) & Packets.RTS_TYPED) == 0) {
            return null;
        }
        return layouts.read(buffer, index + Packets.RTS_LAYOUT_OFFSET, source);
    }

    /** The item count of a typed RTS's layout. */
    static int senderCount(DirectBuffer buffer, int index) {
        return RemoteLayouts.count(buffer, index + Packets.RTS_LAYOUT_OFFSET);
    }

    /**
     * Copies the first {@code len} bytes of the {@code total}-byte message of {@code source}
     * out of its segment at {@code srcSegOff} into the typed buffer (dstBase, dstAddr,
     * dstType, dstCount): a plain unpack from a contiguous run; from a strided one ({@code
     * srcType}) a pack straight into a contiguous destination, or piecewise through
     * {@link #pullScratch} into a strided one.
     */
    private void pull(int source, long srcSegOff, Datatype srcType, int srcCount, long total, long len,
                      Object dstBase, long dstAddr, Datatype dstType, int dstCount) {
        if (srcType == null) {
            packer.unpack(null, pullAddress(source, srcSegOff, len), len, dstBase, dstAddr, dstType, dstCount, 0);
            return;
        }
        if ((long) srcCount * srcType.size() != total) {
            throw new MpjException("internal: RTS from rank " + source + " announces " + total + " bytes, its layout "
                + srcCount + " x " + srcType + " holds " + (long) srcCount * srcType.size());
        }
        long src = pullAddress(source, srcSegOff, srcType.span(srcCount) * srcType.primitive().bytes());
        if (dstType.isContiguous()) {
            packer.pack(null, src, srcType, srcCount, 0, dstBase, dstAddr, len);
            return;
        }
        if (pullScratch == null) {
            pullScratch = new byte[PULL_SCRATCH];
        }
        for (long pos = 0; pos < len; pos += PULL_SCRATCH) {
            int n = (int) Math.min(PULL_SCRATCH, len - pos);
            packer.pack(null, src, srcType, srcCount, pos, pullScratch, BYTE_BASE, n);
            packer.unpack(pullScratch, BYTE_BASE, n, dstBase, dstAddr, dstType, dstCount, pos);
        }
    }

    /** Where {@code bytes} bytes at {@code srcSegOff} of {@code source}'s segment are, checked against its end. */
    private long pullAddress(int source, long srcSegOff, long bytes) {
        if (srcSegOff < 0 || srcSegOff + bytes > fabric.segmentBytes()) {
            throw new MpjException("internal: RTS from rank " + source + " names segment bytes past its end");
        }
        return fabric.segmentAddress(source) + srcSegOff;
    }

    /** A streamed piece in the ring itself. */
    void onFrag(DirectBuffer buffer, int index, int length) {
        RecvReq r = recvs.get(buffer.getInt(index + Packets.FRAG_RECV_ID_OFFSET));
        long position = buffer.getLong(index + Packets.FRAG_POSITION_OFFSET);
        int n = length - Packets.FRAG_HEADER;
        packer.unpack(null, buffer.addressOffset() + index + Packets.FRAG_HEADER, n,
            r.buf.base, r.buf.addr, r.buf.type, r.buf.count, position);
        pieceArrived(r, n, buffer.getLong(index + Packets.VISIBLE_AT_OFFSET));
    }

    /** A streamed piece in the bulk region of the pair (channel, src). */
    void onFragBulk(int channel, int src, DirectBuffer buffer, int index) {
        RecvReq r = recvs.get(buffer.getInt(index + Packets.FRAG_BULK_RECV_ID_OFFSET));
        int n = buffer.getInt(index + Packets.FRAG_BULK_LENGTH_OFFSET);
        long position = buffer.getLong(index + Packets.FRAG_BULK_POSITION_OFFSET);
        long start = buffer.getLong(index + Packets.FRAG_BULK_START_OFFSET);
        BulkInbound bulk = fabric.bulkFrom(channel, src);
        bulk.arrived(start, n);
        packer.unpack(null, bulk.address(start), n, r.buf.base, r.buf.addr, r.buf.type, r.buf.count, position);
        bulk.consumed(start, n);
        pieceArrived(r, n, buffer.getLong(index + Packets.VISIBLE_AT_OFFSET));
    }

    /** The receive a piece from {@code src} over the bulk socket is for, checked. */
    RecvReq netReceive(int src, int recvId, long position, int length) {
        RecvReq r = recvId >= 0 ? recvs.get(recvId) : null;
        if (r == null || !r.netBulk || r.matchedSource != src || position < 0 || position + length > r.accept) {
            throw new MpjException("internal: rank " + src + " sent " + length + " bytes at " + position
                + " for a receive (" + recvId + ") not cleared to come from it over the bulk socket");
        }
        return r;
    }

    /** A put's completion notice (its vis is 0 natively; under a model the instant the put is visible). */
    void onFin(DirectBuffer buffer, int index) {
        pieceArrived(recvs.get(buffer.getInt(index + Packets.FIN_RECV_ID_OFFSET)),
            buffer.getLong(index + Packets.FIN_BYTES_OFFSET), buffer.getLong(index + Packets.VISIBLE_AT_OFFSET));
    }

    /**
     * {@code n} bytes of a rendezvous receive are in (a streamed piece, or a put's completion
     * notice): the receive completes with its last bytes, at the latest part's instant (0: now).
     */
    void pieceArrived(RecvReq r, long n, long vis) {
        r.received += n;
        if (vis - r.visibleAt > 0) {
            r.visibleAt = vis;
        }
        if (r.received == r.accept) {
            if (r.netBulk) {
                r.netBulk = false;
                net.expect(-1);
            }
            if (r.netPackets) {
                r.netPackets = false;
                socketWatch.streams(-1);
            }
            long at = r.visibleAt;
            r.visibleAt = 0;
            recvs.release(r.recvId);
            r.recvId = -1;
            completions.recvDone(r, r.matchedSource, r.matchedTag, r.accept, r.sentBytes, at);
        }
    }
}
