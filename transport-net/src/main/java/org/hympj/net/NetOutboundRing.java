package org.hympj.net;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * The sending side of one rank pair over the network, with the producer half of Agrona's
 * {@link RingBuffer} contract (the PML writes its packets through tryClaim, buffer, commit as
 * into a shared-memory ring): a claim is an Aeron claim in the publication's term buffer, the
 * packet's kind goes in the frame's reserved value, commit publishes the frame. A claim fails
 * (the packet waits in the PML's outbound queue, in order) while the peer is not connected yet
 * or Aeron's flow control holds the publication back: nothing is dropped or reordered.
 *
 * <p>The first frame of the connection is its HELLO (the job key's MAC); the last, at close, a BYE.
 * The consumer methods of the contract belong to {@link NetInboundRing} and throw here.
 *
 * <p>A packet of at least {@link NetBulk#packetsFrom} bytes to a peer that offered its bulk port
 * is claimed in the staging buffer of that connection instead, once it is made
 * ({@link NetBulk#packetLink}): the claimed buffer is rewrapped there, commit writes it to the
 * socket. The receiver takes packets from both in its sender's sequence.
 */
public final class NetOutboundRing implements RingBuffer {
    private final ExclusivePublication publication;
    private final NetEndpoint owner;
    private final BufferClaim claim = new BufferClaim();
    private final AtomicBuffer claimed;
    private final int peer;
    private final byte[] hello;
    private boolean helloSent;
    /** The bulk sockets (null: none, every packet takes Aeron). */
    private NetBulk bulk;
    /** The connection the current claim is on, or null (an Aeron claim). */
    private BulkOut link;
    private int linkType;
    private int linkLength;

    NetOutboundRing(ExclusivePublication publication, int peer, byte[] hello, NetEndpoint owner) {
        this.owner = owner;
        this.publication = publication;
        this.peer = peer;
        this.hello = hello;
        this.claimed = (AtomicBuffer) claim.buffer(); // the claim rewraps this one buffer on every claim
    }

    /** The rank this ring sends to. */
    public int peer() {
        return peer;
    }

    /** Large packets may take {@code b}'s connection to the peer once the peer offers it. */
    void bulk(NetBulk b) {
        this.bulk = b;
    }

    @Override
    public int tryClaim(int msgTypeId, int length) {
        NetBulk b = bulk;
        if (b != null) {
            int from = b.packetsFrom();
            // a packet larger than a frame goes on the socket whatever the threshold: maxMsgLength allowed it
            BulkOut l = from > 0 && (length >= from || length > publication.maxPayloadLength())
                ? b.packetLink(peer) : null;
            if (l != null) {
                int idx = l.claimPacket(length);
                if (idx < 0) {
                    return INSUFFICIENT_CAPACITY; // the previous record is still being written: queued, in order
                }
                claimed.wrap(l.stagingAddress(), l.stagingLength());
                link = l;
                linkType = msgTypeId;
                linkLength = length;
                return idx;
            }
        }
        if (!helloSent && !sendHello()) {
            return INSUFFICIENT_CAPACITY;
        }
        long r = publication.tryClaim(length, claim);
        if (r == Publication.ADMIN_ACTION) {
            r = publication.tryClaim(length, claim); // a term rotated: the next claim goes through
        }
        if (r > 0) {
            claim.reservedValue(msgTypeId);
            return claim.offset();
        }
        if (r == Publication.CLOSED || r == Publication.MAX_POSITION_EXCEEDED) {
            throw new IllegalStateException("the network connection to rank " + peer + " is closed ("
                + Publication.errorString(r) + ")");
        }
        return INSUFFICIENT_CAPACITY; // not connected yet, or back-pressured: the caller queues and retries
    }

    private boolean sendHello() {
        if (publication.tryClaim(hello.length, claim) <= 0) {
            return false;
        }
        claimed.putBytes(claim.offset(), hello);
        claim.reservedValue(Hello.TYPE_HELLO);
        claim.commit();
        helloSent = true;
        return true;
    }

    @Override
    public AtomicBuffer buffer() {
        return claimed;
    }

    @Override
    public void commit(int index) {
        BulkOut l = link;
        if (l != null) {
            link = null;
            l.commitPacket(linkType, linkLength);
            return;
        }
        claim.commit();
        owner.published();
    }

    @Override
    public void abort(int index) {
        if (link != null) {
            link = null; // nothing was written on the connection
            return;
        }
        claim.abort();
    }

    /**
     * The largest packet one frame carries; once the peer's bulk connection takes packets, the
     * larger of that and {@link NetBulk#PACKET_LIMIT} (an eager message of up to 64 KiB goes whole
     * on the socket, where between real hosts a frame holds about 1.4 KB).
     */
    @Override
    public int maxMsgLength() {
        int frame = publication.maxPayloadLength();
        NetBulk b = bulk;
        return b != null && b.packetLink(peer) != null ? Math.max(frame, NetBulk.PACKET_LIMIT) : frame;
    }

    @Override
    public int capacity() {
        return publication.termBufferLength();
    }

    /** True once the peer's image is connected (its HELLO can go). */
    public boolean connected() {
        return publication.isConnected();
    }

    /**
     * Writes the BYE that ends the connection (after every packet before it); false while the
     * publication cannot take it yet.
     */
    boolean tryBye() {
        // a connection this rank never used still opens with its HELLO and ends with a BYE: the
        // rank that runs the peer's host driver waits for a goodbye from every rank of the other hosts
        if (!helloSent && !sendHello()) {
            return publication.isClosed(); // not connected yet: the HELLO and BYE go once it is (the caller's deadline bounds it)
        }
        if (publication.tryClaim(8, claim) <= 0) {
            return publication.isClosed() || !publication.isConnected();
        }
        claimed.putInt(claim.offset(), Hello.MAGIC); // a payload of its own: an empty frame is a heartbeat's shape
        // packets went on the bulk connection too: the peer has read them all only when that connection ends
        claimed.putInt(claim.offset() + 4, bulk != null && bulk.packetsSentTo(peer) ? 1 : 0);
        claim.reservedValue(Hello.TYPE_BYE);
        claim.commit();
        return true;
    }

    /**
     * Tells the peer that {@code failedRank} failed (after every packet before it); false when it
     * could not go (not connected, back-pressured, closed): a best effort, the peer still notices
     * a dead host when its connection falls silent.
     */
    boolean tryFailed(int failedRank, int code) {
        if (!helloSent && !sendHello()) {
            return false; // a connection this rank never used opens with its HELLO, as any other
        }
        if (publication.tryClaim(12, claim) <= 0) {
            return false;
        }
        claimed.putInt(claim.offset(), Hello.MAGIC);
        claimed.putInt(claim.offset() + 4, failedRank);
        claimed.putInt(claim.offset() + 8, code);
        claim.reservedValue(Hello.TYPE_FAILED);
        claim.commit();
        return true;
    }

    /**
     * Names this rank's bulk {@code port} to the peer, which then writes its large packets there
     * (after every frame before it); false when it cannot go now (tried again at a later packet).
     */
    boolean tryPort(int port) {
        if (!helloSent && !sendHello()) {
            return false;
        }
        if (publication.tryClaim(8, claim) <= 0) {
            return false;
        }
        claimed.putInt(claim.offset(), Hello.MAGIC);
        claimed.putInt(claim.offset() + 4, port);
        claim.reservedValue(Hello.TYPE_PORT);
        claim.commit();
        return true;
    }

    void close() {
        publication.close();
    }

    // ------------------------------------------------------------------ not the producer's part

    @Override
    public boolean write(int msgTypeId, DirectBuffer srcBuffer, int offset, int length) {
        int idx = tryClaim(msgTypeId, length);
        if (idx < 0) {
            return false;
        }
        claimed.putBytes(idx, srcBuffer, offset, length);
        commit(idx);
        return true;
    }

    @Override
    public int read(MessageHandler handler) {
        throw consumerSide();
    }

    @Override
    public int read(MessageHandler handler, int messageCountLimit) {
        throw consumerSide();
    }

    @Override
    public int controlledRead(ControlledMessageHandler handler) {
        throw consumerSide();
    }

    @Override
    public int controlledRead(ControlledMessageHandler handler, int messageCountLimit) {
        throw consumerSide();
    }

    @Override
    public long nextCorrelationId() {
        throw consumerSide();
    }

    @Override
    public void consumerHeartbeatTime(long time) {
        throw consumerSide();
    }

    @Override
    public long consumerHeartbeatTime() {
        throw consumerSide();
    }

    @Override
    public long producerPosition() {
        return publication.position();
    }

    @Override
    public long consumerPosition() {
        throw consumerSide();
    }

    /** Bytes published and not yet taken by the peer's flow control window (0 when unknown). */
    @Override
    public int size() {
        return 0;
    }

    @Override
    public boolean unblock() {
        return false;
    }

    private static UnsupportedOperationException consumerSide() {
        return new UnsupportedOperationException("the sending side of a network connection has no consumer");
    }
}
