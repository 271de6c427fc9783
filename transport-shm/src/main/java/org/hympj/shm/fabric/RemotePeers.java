package org.hympj.shm.fabric;

import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.net.NetBulk;

/**
 * The packet rings of the peers on other hosts, as the network transport offers them (the
 * same claim/commit/controlled-read contract as the shared-memory rings).
 */
public interface RemotePeers {
    /** The ring this rank's packets to {@code peer} go into. */
    RingBuffer outbound(int peer);

    /** The ring packets from {@code peer} arrive in. */
    RingBuffer inbound(int peer);

    /** The sockets that carry large payloads to and from the other hosts' ranks; null when there are none. */
    default NetBulk bulk() {
        return null;
    }

    /** Tells the peers of the other hosts that {@code failedRank} failed (this host aborted naming it). */
    void relayFailure(int failedRank, int code);
}
