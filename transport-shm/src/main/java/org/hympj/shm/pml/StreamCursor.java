package org.hympj.shm.pml;

/**
 * One stream of a rendezvous message's bytes [pos, end) over one channel, after the
 * receiver's clear-to-send without a segment address. A striped message has two, one per
 * fabric. Reused by its send request: a start allocates nothing.
 */
final class StreamCursor implements Outbound {
    final SendReq owner;
    int channel;
    long pos;
    long end;
    long visibleAt;
    long senderDoneAt;
    /** The port of the receiver's bulk socket the bytes go to (a receiver on another host), or 0: the packet ring. */
    int netPort;

    StreamCursor(SendReq owner) {
        this.owner = owner;
    }

    @Override
    public boolean emit() {
        return owner.engine.emitStream(this);
    }
}
