package org.hympj.shm.pml;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.MpjException;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;

/**
 * MPI matching: per context, the posted receives and the unexpected messages (MatchQueue);
 * the per-sender sequence check that keeps MPI's non-overtaking rule when a pair's messages
 * take two fabrics; the pool of Unexpected records. A match hands the message to its protocol.
 */
final class Matching {
    private static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final byte[] NO_DATA = new byte[0];

    private final ShmFabric fabric;
    private final EagerProtocol eager;
    private final RendezvousProtocol rendezvous;
    private final TraceEvents events;
    private final Pacing pacing;
    private final int inlineLimit;
    /**
     * Bytes of bufferable pulled messages a source may have waiting here, copied out (its bulk
     * region's size: what its eager messages may hold here too); beyond, its RTS waits for the
     * matching receive, as a rendezvous does.
     */
    private final long bufferBudget;
    private final long[] bufferedFrom;
    /** The sequence number expected next from each sender. */
    private final int[] recvSeq;
    private MatchQueue[] contexts = new MatchQueue[4];
    /** The posted receives a packet on a socket between hosts could complete. */
    private final SocketWatch socketWatch;
    /** World uses contexts 0 (point-to-point) and 1 (its collectives); each new communicator takes two more. */
    private int nextContext = 2;
    private Unexpected freeUnexpected;

    Matching(ShmFabric fabric, EagerProtocol eager, RendezvousProtocol rendezvous, Pacing pacing,
             TraceEvents events, int inlineLimit, long bufferBudget) {
        this.fabric = fabric;
        this.pacing = pacing;
        this.eager = eager;
        this.rendezvous = rendezvous;
        this.events = events;
        this.inlineLimit = inlineLimit;
        this.bufferBudget = bufferBudget;
        this.bufferedFrom = new long[fabric.size()];
        this.recvSeq = new int[fabric.size()];
        boolean[] remote = new boolean[fabric.size()];
        for (int r = 0; r < remote.length; r++) {
            remote[r] = !fabric.local(r);
        }
        this.socketWatch = new SocketWatch(remote);
    }

    SocketWatch socketWatch() {
        return socketWatch;
    }

    /** The lowest context id this rank has not used; communicators agree on the max over their members. */
    int nextContext() {
        return nextContext;
    }

    /** Marks context ids below {@code next} as used. */
    void reserveContexts(int next) {
        nextContext = Math.max(nextContext, next);
    }

    /** The matching space of a context, made on first use (a peer may send before we made the communicator). */
    private MatchQueue queue(int ctx) {
        if (ctx >= contexts.length) {
            contexts = java.util.Arrays.copyOf(contexts, Math.max(ctx + 1, contexts.length * 2));
        }
        MatchQueue q = contexts[ctx];
        if (q == null) {
            q = new MatchQueue(socketWatch);
            contexts[ctx] = q;
        }
        return q;
    }

    /** Posts a receive: takes the first unexpected message it accepts, or waits in its context's queue. */
    void startRecv(RecvReq r) {
        events.postRecv(r);
        pacing.recvPosted(r);
        if (r.source == Comm.PROC_NULL) {
            r.status.fill(Comm.PROC_NULL, Comm.ANY_TAG, 0, 0, r.buf.type.primitive().bytes(), r.buf.type.size());
            r.complete();
            return;
        }
        MatchQueue mq = queue(r.ctx);
        Unexpected u = mq.findUnexpected(r.source, r.tag, true);
        if (u == null) {
            mq.post(r);
            return;
        }
        if (u.kind == Packets.EAGER) {
            eager.deliver(r, u.source, u.tag, u.data, BYTE_BASE, u.total, u.visibleAt);
        } else if (u.kind == Packets.EAGER_BULK) {
            eager.deliverBulk(r, u.channel, u.source, u.tag, u.bulkStart, (int) u.total, u.piped, u.visibleAt);
        } else {
            rendezvous.matchRtsInTurn(r, u.channel, u.source, u.tag, u.sendId, u.total, u.srcSegOffset, u.srcType,
                u.srcCount, u.rtsVisibleAt);
        }
        if (u.buffered > 0) {
            bufferedFrom[u.source] -= u.buffered;
            u.buffered = 0;
            u.data = NO_DATA; // the pool keeps no array larger than an inline message
        }
        releaseUnexpected(u);
    }

    /** Finds, without receiving, the first unexpected message that (source, tag) accepts. */
    Unexpected probe(int ctx, int source, int tag) {
        return queue(ctx).findUnexpected(source, tag, false);
    }

    /**
     * A matched kind (EAGER, EAGER_BULK, RTS) from {@code src} over {@code channel}: delivered to
     * the first posted receive that accepts it, else kept as unexpected. False when it is ahead
     * of its sequence (an earlier message from src is still on the other fabric): it must stay
     * in its ring, uncopied, until that one is matched — each ring is in order, so the expected
     * packet heads one of them and this cannot deadlock.
     */
    boolean arrived(int type, int channel, int src, DirectBuffer buffer, int index, int length) {
        int ctx = buffer.getInt(index + Packets.ENVELOPE_CONTEXT_OFFSET);
        int tag = buffer.getInt(index + Packets.ENVELOPE_TAG_OFFSET);
        int seq = buffer.getInt(index + Packets.ENVELOPE_SEQ_OFFSET);
        if (seq != recvSeq[src]) {
            if (seq - recvSeq[src] > 0) {
                return false;
            }
            throw new MpjException("internal: packet from rank " + src + " with an old sequence number "
                + seq + " (expected " + recvSeq[src] + ")");
        }
        recvSeq[src] = seq + 1;
        MatchQueue mq = queue(ctx);
        RecvReq r = mq.takePosted(src, tag);
        if (type == Packets.EAGER) {
            long addr = buffer.addressOffset() + index + Packets.EAGER_HEADER;
            int n = buffer.getInt(index + Packets.EAGER_LENGTH_OFFSET); // the record may be padded to a line's end
            if (r != null) {
                eager.deliver(r, src, tag, null, addr, n, buffer.getLong(index + Packets.VISIBLE_AT_OFFSET));
            } else {
                Unexpected u = newUnexpected(Packets.EAGER, channel, src, tag, n);
                u.visibleAt = buffer.getLong(index + Packets.VISIBLE_AT_OFFSET);
                if (u.data.length < n) {
                    u.data = new byte[Math.max(n, inlineLimit)];
                }
                Packer.copy(null, addr, u.data, BYTE_BASE, n);
                mq.addUnexpected(u);
            }
        } else if (type == Packets.EAGER_BULK) {
            int n = buffer.getInt(index + Packets.EAGER_BULK_LENGTH_OFFSET);
            long start = buffer.getLong(index + Packets.EAGER_BULK_START_OFFSET);
            boolean piped = (buffer.getInt(index + Packets.EAGER_BULK_FLAGS_OFFSET) & Packets.EAGER_BULK_PIPED) != 0;
            fabric.bulkFrom(channel, src).arrived(start, EagerProtocol.reservation(n, piped));
            long vis = buffer.getLong(index + Packets.VISIBLE_AT_OFFSET);
            if (r != null) {
                eager.deliverBulk(r, channel, src, tag, start, n, piped, vis);
            } else {
                Unexpected u = newUnexpected(Packets.EAGER_BULK, channel, src, tag, n);
                u.visibleAt = vis;
                u.bulkStart = start; // the payload stays in the bulk region until matched
                u.piped = piped;
                mq.addUnexpected(u);
            }
        } else {
            int sendId = buffer.getInt(index + Packets.RTS_SEND_ID_OFFSET);
            long total = buffer.getLong(index + Packets.RTS_TOTAL_OFFSET);
            long srcSeg = buffer.getLong(index + Packets.RTS_SRC_SEG_OFFSET);
            long rtsVis = buffer.getLong(index + Packets.VISIBLE_AT_OFFSET);
            Datatype srcType = srcSeg < 0 ? null : rendezvous.senderLayout(src, buffer, index);
            int srcCount = srcType == null ? 0 : RendezvousProtocol.senderCount(buffer, index);
            if (r != null) {
                rendezvous.matchRtsInTurn(r, channel, src, tag, sendId, total, srcSeg, srcType, srcCount, rtsVis);
            } else if ((buffer.getInt(index + Packets.RTS_FLAGS_OFFSET) & Packets.RTS_BUFFERABLE) != 0
                && bufferedFrom[src] + total <= bufferBudget) {
                // kept as an eager message would be: copied out now, the sender released
                Unexpected u = newUnexpected(Packets.EAGER, channel, src, tag, total);
                u.visibleAt = 0;
                if (u.data.length < total) {
                    u.data = new byte[(int) Math.max(total, inlineLimit)];
                }
                u.buffered = total;
                bufferedFrom[src] += total;
                rendezvous.pullUnmatched(channel, src, sendId, srcSeg, srcType, srcCount, total, u.data, BYTE_BASE);
                mq.addUnexpected(u);
            } else {
                Unexpected u = newUnexpected(Packets.RTS, channel, src, tag, total);
                u.sendId = sendId;
                u.srcSegOffset = srcSeg;
                u.srcType = srcType;
                u.srcCount = srcCount;
                u.rtsVisibleAt = rtsVis;
                mq.addUnexpected(u);
            }
        }
        return true;
    }

    private Unexpected newUnexpected(int kind, int channel, int src, int tag, long total) {
        Unexpected u = freeUnexpected;
        if (u != null) {
            freeUnexpected = u.next;
            u.next = null;
        } else {
            u = new Unexpected();
        }
        u.kind = kind;
        u.channel = channel;
        u.source = src;
        u.tag = tag;
        u.total = total;
        return u;
    }

    private void releaseUnexpected(Unexpected u) {
        u.prev = null;
        u.srcType = null;
        u.next = freeUnexpected;
        freeUnexpected = u;
    }

    /** Fails the posted receives only finalized, exited peers could match (see {@link MatchQueue#failPostedFrom}). */
    void failPostedFrom(boolean[] exited, boolean allExited, int last) {
        for (MatchQueue q : contexts) {
            if (q != null) {
                q.failPostedFrom(exited, allExited, last);
            }
        }
    }

    /** Withdraws a receive that has not matched yet; true if it was still posted. */
    boolean withdraw(RecvReq r) {
        return r.ctx < contexts.length && contexts[r.ctx] != null && contexts[r.ctx].withdraw(r);
    }
}
