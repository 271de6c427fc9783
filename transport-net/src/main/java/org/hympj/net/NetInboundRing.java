package org.hympj.net;

import io.aeron.Image;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * The receiving side of one rank pair over the network, with the consumer half of Agrona's
 * {@link RingBuffer} contract: {@link #controlledRead} hands each frame of the peer's image to
 * the PML's handler as a ring record (kind from the frame's reserved value, the packet where the
 * frame's payload is, in the term buffer: no copy), and keeps a frame the handler aborts for
 * the next read, as a ring does. Until the peer's connection is admitted (its HELLO verified)
 * there is nothing to read.
 */
public final class NetInboundRing implements RingBuffer, ControlledFragmentHandler {
    private static final ControlledFragmentHandler.Action[] ACTIONS = {
        ControlledFragmentHandler.Action.ABORT, ControlledFragmentHandler.Action.BREAK,
        ControlledFragmentHandler.Action.COMMIT, ControlledFragmentHandler.Action.CONTINUE};

    private final NetEndpoint endpoint;
    private final int peer;
    private volatile Image image;
    /** The peer's BYE was read: it finalized, everything it sent on Aeron has been read. */
    private volatile boolean ended;
    /** Its BYE said packets went on its bulk connection too: read all only once that connection ended. */
    private boolean packetsOnBulk;
    private ControlledMessageHandler handler;

    NetInboundRing(NetEndpoint endpoint, int peer) {
        this.endpoint = endpoint;
        this.peer = peer;
    }

    /** The rank this ring receives from. */
    public int peer() {
        return peer;
    }

    void attach(Image img) {
        this.image = img;
    }

    Image image() {
        return image;
    }

    /** True once the peer's BYE was read. */
    public boolean ended() {
        return ended;
    }

    @Override
    public int controlledRead(ControlledMessageHandler h, int messageCountLimit) {
        endpoint.readDuty();
        if (endpoint.arrivals()) {
            endpoint.admit(); // a connection waits for its HELLO to be checked (any ring's read does it)
        }
        Image img = image;
        if (img == null) {
            return 0;
        }
        handler = h;
        return img.controlledPoll(this, messageCountLimit);
    }

    @Override
    public int controlledRead(ControlledMessageHandler h) {
        return controlledRead(h, Integer.MAX_VALUE);
    }

    @Override
    public Action onFragment(DirectBuffer buffer, int offset, int length, Header header) {
        long kind = header.reservedValue();
        if (kind == Hello.TYPE_BYE) {
            packetsOnBulk = length >= 8 && buffer.getInt(offset + 4) != 0;
            ended = true;
            return Action.CONTINUE;
        }
        if (kind == Hello.TYPE_PORT) {
            if (length >= 8 && buffer.getInt(offset) == Hello.MAGIC) {
                endpoint.portOffered(peer, buffer.getInt(offset + 4));
            }
            return Action.CONTINUE;
        }
        if (endpoint.offerDue(peer, length)) {
            endpoint.offer(peer); // a large packet over Aeron: the next ones may take our bulk socket
        }
        if (kind == Hello.TYPE_FAILED) {
            if (length >= 12 && buffer.getInt(offset) == Hello.MAGIC) {
                endpoint.failureReported(peer, buffer.getInt(offset + 4), buffer.getInt(offset + 8));
            }
            return Action.CONTINUE;
        }
        return ACTIONS[handler.onMessage((int) kind, (MutableDirectBuffer) buffer, offset, length).ordinal()];
    }

    /**
     * 1 while the peer may still have frames on the way (its BYE not read yet, or packets on its
     * bulk connection), 0 after: the PML asks before it fails receives only a finalized peer could
     * have matched.
     */
    @Override
    public int size() {
        return ended && (!packetsOnBulk || endpoint.bulkClosedFrom(peer)) ? 0 : 1;
    }

    @Override
    public int capacity() {
        Image img = image;
        return img == null ? 0 : img.termBufferLength();
    }

    @Override
    public long consumerPosition() {
        Image img = image;
        return img == null ? 0 : img.position();
    }

    // ------------------------------------------------------------------ not the consumer's part

    @Override
    public int read(MessageHandler h) {
        return read(h, Integer.MAX_VALUE);
    }

    @Override
    public int read(MessageHandler h, int messageCountLimit) {
        return controlledRead((type, buffer, index, length) -> {
            h.onMessage(type, buffer, index, length);
            return ControlledMessageHandler.Action.CONTINUE;
        }, messageCountLimit);
    }

    @Override
    public boolean write(int msgTypeId, DirectBuffer srcBuffer, int offset, int length) {
        throw producerSide();
    }

    @Override
    public int tryClaim(int msgTypeId, int length) {
        throw producerSide();
    }

    @Override
    public void commit(int index) {
        throw producerSide();
    }

    @Override
    public void abort(int index) {
        throw producerSide();
    }

    @Override
    public int maxMsgLength() {
        throw producerSide();
    }

    @Override
    public long nextCorrelationId() {
        throw producerSide();
    }

    @Override
    public AtomicBuffer buffer() {
        throw producerSide();
    }

    @Override
    public void consumerHeartbeatTime(long time) {
    }

    @Override
    public long consumerHeartbeatTime() {
        return 0;
    }

    @Override
    public long producerPosition() {
        throw producerSide();
    }

    @Override
    public boolean unblock() {
        return false;
    }

    private static UnsupportedOperationException producerSide() {
        return new UnsupportedOperationException("the receiving side of a network connection has no producer");
    }
}
