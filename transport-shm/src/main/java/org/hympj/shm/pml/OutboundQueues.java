package org.hympj.shm.pml;

import java.util.ArrayDeque;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.shm.fabric.ShmFabric;

/**
 * Outbound packets that did not fit in a full ring, one FIFO per (channel, destination) so a
 * pair's order is kept, written by later progress passes; the small control packets (CTS,
 * FIN, ACK) and their pool; the count of packets written (a wait that wrote something made
 * progress, even if nothing arrived).
 */
final class OutboundQueues {
    private final ShmFabric fabric;
    private final int size;
    /** Per [channel * size + dest], in order. */
    private final ArrayDeque<Outbound>[] pending;
    private int pendingCount;
    private long written;
    private Control freeControl;

    @SuppressWarnings("unchecked")
    OutboundQueues(ShmFabric fabric) {
        this.fabric = fabric;
        this.size = fabric.size();
        this.pending = new ArrayDeque[fabric.channels() * size];
        for (int i = 0; i < pending.length; i++) {
            pending[i] = new ArrayDeque<>();
        }
    }

    /** True when nothing waits to be written to {@code dest} over {@code channel} (a new packet may go at once). */
    boolean clear(int channel, int dest) {
        return pending[channel * size + dest].isEmpty();
    }

    /** Queues {@code o} behind what waits for (channel, dest); later progress writes it. */
    void enqueue(int channel, int dest, Outbound o) {
        pending[channel * size + dest].addLast(o);
        pendingCount++;
    }

    /** Outbound items still queued. */
    int pendingCount() {
        return pendingCount;
    }

    /** Packets written so far. */
    long written() {
        return written;
    }

    /** A packet was committed to a ring. */
    void wrote() {
        written++;
    }

    /** Writes what the rings take now, each queue in order; returns the items finished. */
    int flush() {
        int work = 0;
        for (int i = 0; i < pending.length; i++) {
            ArrayDeque<Outbound> q = pending[i];
            Outbound o;
            while ((o = q.peekFirst()) != null) {
                if (!o.emit()) {
                    break;
                }
                q.pollFirst();
                pendingCount--;
                work++;
            }
        }
        return work;
    }

    /**
     * Sends a control packet now if the ring has room and nothing is queued before it, else
     * queues it (a pooled Control). CTS: a = sendId, b = recvId, c = accept, d = dstSegOff;
     * FIN: a = recvId, c = bytes; ACK: a = sendId.
     */
    void sendControl(int channel, int dest, int type, int a, int b, long c, long d, long vis) {
        if (clear(channel, dest) && writeControl(channel, dest, type, a, b, c, d, vis)) {
            return;
        }
        Control k = freeControl;
        if (k != null) {
            freeControl = k.nextFree;
        } else {
            k = new Control(this);
        }
        k.channel = channel;
        k.dest = dest;
        k.type = type;
        k.a = a;
        k.b = b;
        k.c = c;
        k.d = d;
        k.vis = vis;
        enqueue(channel, dest, k);
    }

    /** Writes a control packet if the ring has room now (fields as for sendControl). */
    boolean writeControl(int channel, int dest, int type, int a, int b, long c, long d, long vis) {
        RingBuffer ring = fabric.ring(channel, dest);
        int len = type == Packets.CTS ? Packets.CTS_LENGTH : type == Packets.FIN ? Packets.FIN_LENGTH : Packets.ACK_LENGTH;
        int idx = ring.tryClaim(type, len);
        if (idx < 0) {
            return false;
        }
        AtomicBuffer buf = ring.buffer();
        buf.putLong(idx + Packets.VISIBLE_AT_OFFSET, vis);
        if (type == Packets.CTS) {
            buf.putInt(idx + Packets.CTS_SEND_ID_OFFSET, a);
            buf.putInt(idx + Packets.CTS_RECV_ID_OFFSET, b);
            buf.putLong(idx + Packets.CTS_ACCEPT_OFFSET, c);
            buf.putLong(idx + Packets.CTS_DST_SEG_OFFSET, d);
        } else if (type == Packets.FIN) {
            buf.putInt(idx + Packets.FIN_RECV_ID_OFFSET, a);
            buf.putLong(idx + Packets.FIN_BYTES_OFFSET, c);
            buf.putLong(idx + Packets.FIN_WRITTEN_OFFSET, d);
        } else {
            buf.putInt(idx + Packets.ACK_SEND_ID_OFFSET, a);
        }
        ring.commit(idx);
        written++;
        return true;
    }

    /** Returns a written Control to the pool. */
    void releaseControl(Control k) {
        k.nextFree = freeControl;
        freeControl = k;
    }
}
