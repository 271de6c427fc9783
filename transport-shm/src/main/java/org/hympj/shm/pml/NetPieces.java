package org.hympj.shm.pml;

import java.nio.ByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.hympj.net.BulkOut;
import org.hympj.net.NetBulk;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;

/**
 * The rendezvous protocol's data on the bulk sockets between hosts ({@link NetBulk}): the sender's
 * pieces of a stream to a receiver on another host, and the receiver's pieces read from its
 * connections; and the large packets that come over them, handed to {@link Inbound} as if read
 * from their rings. Made only for a job on several hosts, so that a job on one host loads no class
 * of transport-net (docs/ARCHITECTURE.md).
 */
final class NetPieces implements NetBulk.Sink {
    private final RendezvousProtocol rendezvous;
    private final NetBulk bulk;
    private final ShmFabric fabric;
    private final Packer packer;
    private final OutboundQueues outbound;
    private Inbound inbound;
    /** The receives a packet on the sockets could complete. */
    private SocketWatch watch;
    /** The array the last {@link #into} named (null: the segment). */
    private Object intoArray;

    private NetPieces(RendezvousProtocol rendezvous, NetBulk bulk, ShmFabric fabric, Packer packer,
                      OutboundQueues outbound) {
        this.rendezvous = rendezvous;
        this.bulk = bulk;
        this.fabric = fabric;
        this.packer = packer;
        this.outbound = outbound;
    }

    /** The bulk sockets' side of {@code rendezvous}, or null when the fabric has none. */
    static NetPieces of(RendezvousProtocol rendezvous, ShmFabric fabric, Packer packer, OutboundQueues outbound) {
        NetBulk b = fabric.netBulk();
        return b == null ? null : new NetPieces(rendezvous, b, fabric, packer, outbound);
    }

    /** Packets from other hosts may come over the sockets from now on: handed to {@code in}. */
    void packetsTo(Inbound in) {
        this.inbound = in;
        this.watch = in.socketWatch();
    }

    /** Large packets may take the sockets from now on (after the JIT warm-up: see {@link Engine#openNetPackets}). */
    void openPackets() {
        bulk.enablePackets();
        int from = bulk.packetsFrom();
        if (from > 0) {
            watch.packetsFrom(from);
        }
    }

    /** Read the sockets in every pass while a receive may be completed by a packet on them. */
    @Override
    public boolean awaitsPackets() {
        return watch.any();
    }

    @Override
    public boolean packet(int src, int type, MutableDirectBuffer buffer, int index, int length) {
        return inbound.deliver(src, type, buffer, index, length);
    }

    boolean busy() {
        return bulk.busy();
    }

    int poll() {
        return bulk.poll(this);
    }

    /** This rank's bulk port (the socket opened at the first call). @throws IllegalStateException if it cannot be */
    int port() {
        return bulk.port();
    }

    /** Offers this rank's port to {@code peer} for its large packets (once). */
    void offer(int peer) {
        bulk.offer(peer);
    }

    /** A receive cleared to come this way ({@code +1}), or complete ({@code -1}). */
    void expect(int delta) {
        bulk.expect(delta);
    }

    /**
     * Streams one part to a receiver on another host over its bulk socket: pieces packed into the
     * connection's staging buffer, each written as the socket takes it; or, contiguous in our
     * segment or in an array the connection writes from, the bytes written from there. True when
     * the part is done (packed, or written).
     */
    boolean emit(StreamCursor c) {
        SendReq s = c.owner;
        BulkOut link = bulk.out(s.dest, c.netPort);
        if (link.unusable()) {
            // the receiver's bulk socket cannot be reached (a firewall, say): the network transport's
            // own frames carry the part (the receiver takes pieces from either)
            c.netPort = 0;
            return rendezvous.emitStream(c);
        }
        boolean fromArray = s.buf.base != null && s.buf.type.isContiguous() && link.sendsArrays();
        if (s.buf.segOffset >= 0 || fromArray) {
            // no copy of ours: the part is done when the socket has taken the bytes (the program
            // may then reuse its buffer)
            if (c.pos < c.end) {
                if (!link.idle()) {
                    return false;
                }
                int length = Math.toIntExact(c.end - c.pos);
                if (fromArray) {
                    link.sendArray(s.recvId, c.pos, s.buf.base, s.buf.addr + c.pos, length);
                } else {
                    link.send(s.recvId, c.pos, fabric.ownSegment(), Math.toIntExact(s.buf.segOffset + c.pos), length);
                }
                outbound.wrote();
                c.pos = c.end;
            }
            if (!link.idle()) {
                return false;
            }
            rendezvous.partDone(s, c.senderDoneAt);
            return true;
        }
        while (c.pos < c.end) {
            long addr = link.claim();
            if (addr == 0) {
                return false; // connecting, or the previous piece not yet written: a later pass goes on
            }
            int chunk = (int) Math.min(link.capacity(), c.end - c.pos);
            packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, c.pos, null, addr, chunk);
            link.commit(s.recvId, c.pos, chunk);
            outbound.wrote();
            c.pos += chunk;
        }
        // the last piece may still be on its way out: the connection writes it in later passes
        rendezvous.partDone(s, c.senderDoneAt);
        return true;
    }

    @Override
    public void piece(int src, int recvId, long position, long address, int length) {
        RecvReq r = rendezvous.netReceive(src, recvId, position, length);
        packer.unpack(null, address, length, r.buf.base, r.buf.addr, r.buf.type, r.buf.count, position);
        rendezvous.pieceArrived(r, length, 0);
    }

    @Override
    public ByteBuffer memory() {
        return fabric.ownSegment();
    }

    /**
     * A receive contiguous in our segment, or in an array, takes the socket's bytes straight into
     * place (into an array only where the bulk reads into arrays: else they are staged).
     */
    @Override
    public long into(int src, int recvId, long position, int length) {
        RecvReq r = rendezvous.netReceive(src, recvId, position, length);
        if (r.buf.segOffset >= 0) {
            intoArray = null;
            return r.buf.segOffset + position;
        }
        if (r.buf.base != null && r.buf.type.isContiguous()) {
            intoArray = r.buf.base;
            return r.buf.addr + position;
        }
        intoArray = null;
        return -1;
    }

    @Override
    public Object intoArray() {
        return intoArray;
    }

    @Override
    public void arrived(int src, int recvId, int length) {
        rendezvous.pieceArrived(rendezvous.netReceive(src, recvId, 0, 0), length, 0);
    }
}
