package org.hympj.shm.pml;

import org.hympj.api.Comm;

/**
 * The posted receives that a packet on a bulk socket from another host could complete
 * ({@link NetPieces}): while there is one, the rank reads its sockets in every progress pass;
 * otherwise only now and then, since a read that finds nothing is a system call and a waiting
 * rank makes a pass every few hundred nanoseconds. Counted as receives enter and leave the posted queues
 * ({@link MatchQueue}); a receive too small for a socket's packets, or from a rank of this host,
 * is not counted. Single-threaded: the rank's own thread.
 */
final class SocketWatch {
    private final boolean[] remote;
    /** The least packet on the sockets, in bytes; above any message until packets may come that way. */
    private int from = Integer.MAX_VALUE;
    private int watched;

    SocketWatch(boolean[] remote) {
        this.remote = remote;
    }

    /** Packets of {@code least} bytes and more may come over the sockets from now on. */
    void packetsFrom(int least) {
        from = least;
    }

    /** True while a posted receive may be completed by a packet on a socket. */
    boolean any() {
        return watched > 0;
    }

    void posted(RecvReq r) {
        int s = r.source;
        if (Packets.EAGER_HEADER + r.buf.bytes >= from
            && (s == Comm.ANY_SOURCE || s < 0 || s >= remote.length || remote[s])) {
            r.socketWatched = true;
            watched++;
        }
    }

    /**
     * A matched receive from another host streams its message in packets ({@code +1}, small
     * rendezvous: they may take the socket), or is complete ({@code -1}).
     */
    void streams(int delta) {
        watched += delta;
    }

    void unposted(RecvReq r) {
        if (r.socketWatched) {
            r.socketWatched = false;
            watched--;
        }
    }
}
