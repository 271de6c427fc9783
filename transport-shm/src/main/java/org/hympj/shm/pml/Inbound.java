package org.hympj.shm.pml;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.hympj.api.MpjException;
import org.hympj.shm.fabric.ShmFabric;

/**
 * Reads the inbound rings (every channel, every sender) and hands each packet to its
 * protocol; a packet not yet visible in modelled time, or ahead of its sender's sequence,
 * stays in its ring (and holds up the rest of that ring).
 */
final class Inbound implements ControlledMessageHandler {
    private static final int READ_LIMIT = 64;

    private final ShmFabric fabric;
    private final Pacing pacing;
    private final Matching matching;
    private final RendezvousProtocol rendezvous;
    private final Completions completions;
    private final int channels;
    private final int size;
    private final int rank;
    private int currentSource;
    private int currentChannel;

    Inbound(ShmFabric fabric, Pacing pacing, Matching matching, RendezvousProtocol rendezvous, Completions completions) {
        this.fabric = fabric;
        this.pacing = pacing;
        this.matching = matching;
        this.rendezvous = rendezvous;
        this.completions = completions;
        this.channels = fabric.channels();
        this.size = fabric.size();
        this.rank = fabric.rank();
    }

    /** Reads up to READ_LIMIT packets from every ring; returns how many were taken. */
    int poll() {
        int work = 0;
        boolean self = fabric.selfPending();
        for (int c = 0; c < channels; c++) {
            currentChannel = c;
            for (int s = 0; s < size; s++) {
                if (s == rank && !self) {
                    continue; // nothing this rank sent itself
                }
                currentSource = s;
                work += fabric.inbound(c, s).controlledRead(this, READ_LIMIT);
            }
        }
        if (self && selfEmpty()) {
            fabric.selfDrained();
        }
        return work;
    }

    /**
     * Hands over a whole packet from {@code src} that came another way than its ring (a bulk
     * socket between hosts, {@link NetPieces}); false holds it (ahead of its sender's sequence: the
     * packets before it are still in the ring), to be handed again in a later pass.
     */
    boolean deliver(int src, int type, MutableDirectBuffer buffer, int index, int length) {
        currentChannel = 0;
        currentSource = src;
        return onMessage(type, buffer, index, length) != Action.ABORT;
    }

    SocketWatch socketWatch() {
        return matching.socketWatch();
    }

    private boolean selfEmpty() {
        for (int c = 0; c < channels; c++) {
            if (fabric.inbound(c, rank).size() > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Handles one packet. A packet that completed a request ends this ring's read for the pass
     * (BREAK): the caller may be waiting for just that request, and reading on would first look
     * at the next record's header — a line the sender wrote last (it zeroes the next header when
     * it claims a record), so a cache miss on the critical path of every message: 30–70 ns of an
     * 8-byte one-way trip on two bare rings here (perf's RingReadLimit, docs/PERFORMANCE.md). What
     * is left is read by the next pass.
     */
    @Override
    public Action onMessage(int type, MutableDirectBuffer buffer, int index, int length) {
        if (pacing.holds(type, currentChannel, currentSource, buffer, index)) {
            return Action.ABORT; // not there yet in modelled time: leave it in the ring
        }
        long before = completions.completed();
        Action next = handle(type, buffer, index, length);
        return next == Action.CONTINUE && completions.completed() != before ? Action.BREAK : next;
    }

    private Action handle(int type, MutableDirectBuffer buffer, int index, int length) {
        final int src = currentSource;
        switch (type) {
            case Packets.EAGER:
            case Packets.EAGER_BULK:
            case Packets.RTS:
                return matching.arrived(type, currentChannel, src, buffer, index, length) ? Action.CONTINUE : Action.ABORT;
            case Packets.CTS:
                rendezvous.onCts(src, buffer, index);
                break;
            case Packets.FRAG:
                rendezvous.onFrag(buffer, index, length);
                break;
            case Packets.FRAG_BULK:
                rendezvous.onFragBulk(currentChannel, src, buffer, index);
                break;
            case Packets.FIN:
                rendezvous.onFin(buffer, index);
                break;
            case Packets.ACK:
                rendezvous.onAck(buffer, index);
                break;
            default:
                throw new MpjException("internal: unknown packet type " + type + " from rank " + src);
        }
        return Action.CONTINUE;
    }
}
