package org.hympj.shm.pml;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.shm.fabric.BulkInbound;
import org.hympj.shm.fabric.BulkOutbound;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.shm.job.JobConfig;

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
    /** Piece of a piped bulk message ({@link JobConfig#PIPE_FROM}). */
    static final int PIECE = 16 << 10;
    private final boolean pipes;
    private final Idler idler;

    EagerProtocol(ShmFabric fabric, Packer packer, OutboundQueues outbound, Completions completions,
                  RendezvousProtocol rendezvous, Pacing pacing, int inlineLimit, Idler idler, boolean ownCores) {
        this.fabric = fabric;
        this.pacing = pacing;
        this.packer = packer;
        this.outbound = outbound;
        this.completions = completions;
        this.rendezvous = rendezvous;
        this.inlineLimit = inlineLimit;
        this.idler = idler;
        // a piped receiver waits for the sender's pieces: only when the sender cannot lose its core
        // to a rank that waits, and never under a model (virtual time books whole messages)
        this.pipes = ownCores && !pacing.modelled();
    }

    /** Bytes a bulk payload of {@code n} bytes takes in the bulk region (a piped one: its progress line too). */
    static int reservation(int n, boolean piped) {
        return piped ? n + BulkOutbound.ALIGN : n;
    }

    /** Writes the message if there is room now; true when it is written (or handed on to rendezvous and its RTS written). */
    boolean emit(SendReq s, RingBuffer ring) {
        int n = (int) s.buf.bytes;
        // above the inline limit: the bulk region on this host; to another host, one network frame
        // when it holds the message (64 KiB frames over loopback; a --net-mtu below the inline limit's
        // frame sends even inline-sized ones by rendezvous), else the rendezvous
        boolean local = fabric.local(s.dest);
        if (local ? n > inlineLimit : Packets.EAGER_HEADER + n > ring.maxMsgLength()) {
            return emitBulk(s, ring, n);
        }
        int claim = Packets.EAGER_HEADER + n;
        int idx = ring.tryClaim(Packets.EAGER, local ? lineEnd(ring, claim) : claim);
        if (idx < 0) {
            return false;
        }
        AtomicBuffer b = ring.buffer();
        b.putLong(idx + Packets.VISIBLE_AT_OFFSET, s.visibleAt);
        b.putInt(idx + Packets.EAGER_CONTEXT_OFFSET, s.ctx);
        b.putInt(idx + Packets.EAGER_TAG_OFFSET, s.tag);
        b.putInt(idx + Packets.EAGER_SEQ_OFFSET, s.seq);
        b.putInt(idx + Packets.EAGER_LENGTH_OFFSET, n);
        packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0,
            null, b.addressOffset() + idx + Packets.EAGER_HEADER, n);
        ring.commit(idx);
        outbound.wrote();
        completions.completeAt(s, s.senderDoneAt);
        return true;
    }

    private static final int LINE = 64;

    /**
     * The length to claim for a record of {@code length} bytes so that it ends on a cache line:
     * the next record then starts on one, and a small message is one line that the receiver
     * reads and the sender writes — records of 8-byte messages (40 bytes) straddled two lines
     * in three of five, two lines to move from core to core where Open MPI's fast box moves one.
     * The ring's single producer knows its tail exactly; a claim that wraps starts at the ring's
     * start, which is on a line.
     */
    static int lineEnd(RingBuffer ring, int length) {
        int record = (RecordDescriptor.HEADER_LENGTH + length + RecordDescriptor.ALIGNMENT - 1)
            & -RecordDescriptor.ALIGNMENT;
        int over = (int) ((ring.producerPosition() + record) & (LINE - 1));
        return over == 0 || length + LINE - over > ring.maxMsgLength() ? length : length + LINE - over;
    }

    /**
     * Too big for one ring record: payload into the pair's bulk region, a notice into the ring (a
     * peer on another host has no bulk region: rendezvous).
     */
    private boolean emitBulk(SendReq s, RingBuffer ring, int n) {
        BulkOutbound bulk = fabric.bulkTo(s.channel, s.dest);
        boolean piped = pipes && n >= JobConfig.PIPE_FROM;
        int reserved = reservation(n, piped);
        long start = bulk.tryReserve(reserved);
        if (start < 0) {
            rendezvous.begin(s);
            return rendezvous.emitRts(s, ring);
        }
        int idx = ring.tryClaim(Packets.EAGER_BULK, Packets.EAGER_BULK_LENGTH);
        if (idx < 0) {
            return false;
        }
        long payload = bulk.address(start);
        if (piped) {
            UnsafeApi.putLong(null, payload, 0L); // nothing packed yet; published by the commit below
            payload += BulkOutbound.ALIGN;
        } else {
            packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0, null, payload, n);
        }
        bulk.commit(start, reserved);
        AtomicBuffer b = ring.buffer();
        b.putLong(idx + Packets.VISIBLE_AT_OFFSET, s.visibleAt);
        b.putInt(idx + Packets.EAGER_BULK_CONTEXT_OFFSET, s.ctx);
        b.putInt(idx + Packets.EAGER_BULK_TAG_OFFSET, s.tag);
        b.putInt(idx + Packets.EAGER_BULK_SEQ_OFFSET, s.seq);
        b.putInt(idx + Packets.EAGER_BULK_LENGTH_OFFSET, n);
        b.putLong(idx + Packets.EAGER_BULK_START_OFFSET, start);
        b.putInt(idx + Packets.EAGER_BULK_FLAGS_OFFSET, piped ? Packets.EAGER_BULK_PIPED : 0);
        ring.commit(idx); // release: the receiver sees the payload (or the progress line) once it sees the notice
        if (piped) {
            long progress = payload - BulkOutbound.ALIGN;
            for (int done = 0; done < n; ) {
                int k = Math.min(PIECE, n - done);
                packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, done, null, payload + done, k);
                done += k;
                UnsafeApi.putLongRelease(null, progress, done);
            }
        }
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

    /**
     * Delivers a payload waiting in the bulk region of (channel, source), and frees its space there.
     * A piped one is copied out piece by piece as the sender's progress line says they are packed
     * (the sender packs without waiting for anything, so this wait is as long as its packing; an
     * idle step's failure checks run meanwhile, should the sender die in it).
     */
    void deliverBulk(RecvReq r, int channel, int source, int tag, long start, int n, boolean piped, long vis) {
        BulkInbound bulk = fabric.bulkFrom(channel, source);
        if (!piped) {
            deliver(r, source, tag, null, bulk.address(start), n, vis);
            bulk.consumed(start, n);
            return;
        }
        long progress = bulk.address(start);
        long payload = progress + BulkOutbound.ALIGN;
        long accept = Math.min(n, r.buf.bytes);
        long done = 0;
        int idle = 0;
        while (done < accept) {
            long ready = Math.min(UnsafeApi.getLongAcquire(null, progress), accept);
            if (ready > done) {
                packer.unpack(null, payload + done, ready - done, r.buf.base, r.buf.addr, r.buf.type, r.buf.count, done);
                done = ready;
                idle = 0;
            } else {
                idle = awaitPacker(idle);
                idler.poll();
            }
        }
        completions.recvDone(r, source, tag, accept, n, pacing.eagerArrival(vis));
        bulk.consumed(start, reservation(n, true));
    }

    /**
     * One empty pass of a piped receive: a spin-wait hint, every 256th a yield (the sender lost its
     * core to another process: let it have ours). Returns the passes so far. The launcher keeps it
     * out of {@code deliverBulk} ({@code -XX:CompileCommand=dontinline}, Launcher.WARM_UP_JIT_FLAGS):
     * inlined, the yield was a branch C2 had never seen taken, and the first receive of a program to
     * wait 256 passes threw {@code deliverBulk}'s code away and had C2 compile it again, 28 ms on a
     * rank's core inside the 64 KB ping-pong's timed batches (1 of 24 JVMs under JFR, session 25).
     */
    static int awaitPacker(int idle) {
        if ((++idle & 0xFF) == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
        return idle;
    }
}
