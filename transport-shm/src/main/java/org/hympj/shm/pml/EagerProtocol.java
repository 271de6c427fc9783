package org.hympj.shm.pml;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.shm.fabric.BulkInbound;
import org.hympj.shm.fabric.BulkOutbound;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;

/**
 * The eager protocol: inline (up to the inline limit) the data packed straight into one ring
 * record; bulk (up to the eager limit) packed into the pair's bulk region and announced by an
 * EAGER_BULK notice. No handshake: the send completes once written. When the bulk region is
 * full (the receiver holds unexpected payloads) the message falls back to rendezvous, which
 * needs no bulk space, so a full bulk region cannot deadlock.
 */
final class EagerProtocol {
    private final ShmFabric fabric;
    private final Packer packer;
    private final OutboundQueues outbound;
    private final Completions completions;
    private final RendezvousProtocol rendezvous;
    private final Pacing pacing;
    private final int inlineLimit;

    EagerProtocol(ShmFabric fabric, Packer packer, OutboundQueues outbound, Completions completions,
                  RendezvousProtocol rendezvous, Pacing pacing, int inlineLimit) {
        this.fabric = fabric;
        this.pacing = pacing;
        this.packer = packer;
        this.outbound = outbound;
        this.completions = completions;
        this.rendezvous = rendezvous;
        this.inlineLimit = inlineLimit;
    }

    /** Writes the message if there is room now; true when it is written (or handed on to rendezvous and its RTS written). */
    boolean emit(SendReq s, RingBuffer ring) {
        int n = (int) s.buf.bytes;
        // above the inline limit: the bulk region on this host; to another host, one network frame
        // when it holds the message (64 KiB frames over loopback), else the rendezvous
        if (n > inlineLimit && (fabric.local(s.dest) || Packets.EAGER_HEADER + n > ring.maxMsgLength())) {
            return emitBulk(s, ring, n);
        }
        int idx = ring.tryClaim(Packets.EAGER, Packets.EAGER_HEADER + n);
        if (idx < 0) {
            return false;
        }
        AtomicBuffer b = ring.buffer();
        b.putLong(idx + Packets.VISIBLE_AT_OFFSET, s.visibleAt);
        b.putInt(idx + Packets.EAGER_CONTEXT_OFFSET, s.ctx);
        b.putInt(idx + Packets.EAGER_TAG_OFFSET, s.tag);
        b.putInt(idx + Packets.EAGER_SEQ_OFFSET, s.seq);
        packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0,
            null, b.addressOffset() + idx + Packets.EAGER_HEADER, n);
        ring.commit(idx);
        outbound.wrote();
        completions.completeAt(s, s.senderDoneAt);
        return true;
    }

    /**
     * Too big for one ring record: payload into the pair's bulk region, a notice into the ring (a
     * peer on another host has no bulk region: rendezvous).
     */
    private boolean emitBulk(SendReq s, RingBuffer ring, int n) {
        BulkOutbound bulk = fabric.bulkTo(s.channel, s.dest);
        long start = bulk.tryReserve(n);
        if (start < 0) {
            rendezvous.begin(s);
            return rendezvous.emitRts(s, ring);
        }
        int idx = ring.tryClaim(Packets.EAGER_BULK, Packets.BULK_NOTICE_LENGTH);
        if (idx < 0) {
            return false;
        }
        packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0, null, bulk.address(start), n);
        bulk.commit(start, n);
        AtomicBuffer b = ring.buffer();
        b.putLong(idx + Packets.VISIBLE_AT_OFFSET, s.visibleAt);
        b.putInt(idx + Packets.EAGER_BULK_CONTEXT_OFFSET, s.ctx);
        b.putInt(idx + Packets.EAGER_BULK_TAG_OFFSET, s.tag);
        b.putInt(idx + Packets.EAGER_BULK_SEQ_OFFSET, s.seq);
        b.putInt(idx + Packets.EAGER_BULK_LENGTH_OFFSET, n);
        b.putLong(idx + Packets.EAGER_BULK_START_OFFSET, start);
        ring.commit(idx); // release: the receiver sees the payload once it sees the notice
        outbound.wrote();
        completions.completeAt(s, s.senderDoneAt);
        return true;
    }

    /** Delivers {@code n} eager bytes at (dataBase, dataAddr) into {@code r}: what fits, then its status. */
    void deliver(RecvReq r, int source, int tag, Object dataBase, long dataAddr, long n, long vis) {
        long accept = Math.min(n, r.buf.bytes);
        packer.unpack(dataBase, dataAddr, accept, r.buf.base, r.buf.addr, r.buf.type, r.buf.count, 0);
        completions.recvDone(r, source, tag, accept, n, pacing.eagerArrival(vis));
    }

    /** Delivers a payload waiting in the bulk region of (channel, source), and frees its space there. */
    void deliverBulk(RecvReq r, int channel, int source, int tag, long start, int n, long vis) {
        BulkInbound bulk = fabric.bulkFrom(channel, source);
        deliver(r, source, tag, null, bulk.address(start), n, vis);
        bulk.consumed(start, n);
    }
}
