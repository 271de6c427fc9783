package org.hympj.net;

/**
 * A job's network settings: the Aeron parameters every rank and every host's media driver use,
 * and the channel URIs made from them. One URI string per endpoint, so the subscriptions of a
 * host's ranks share the one UDP socket the host's driver bound (Aeron matches them by their
 * canonical form and refuses differing options).
 *
 * <p>Sizes: every message is one Aeron frame (a claim of at most the MTU's payload), so the MTU
 * must hold the largest eager record (the inline limit plus the packet header); a term holds
 * many frames, and the receiver window (what may be in flight unacknowledged) is half a term.
 */
public final class NetSettings {
    /** Rank r receives on stream {@code STREAM_BASE + r} of its host's endpoint. */
    public static final int STREAM_BASE = 0x1000;
    /** The stream of the host agent's own subscription, which holds the endpoint's socket open. */
    public static final int HOST_STREAM = 1;
    /** Aeron's header before every frame's payload. */
    public static final int FRAME_HEADER = 32;

    /** UDP payload of one frame (Aeron's MTU), a multiple of 32. */
    public final int mtu;
    /** Term length of each publication (and so of the image at the receiver), a power of two. */
    public final int termLength;
    /** Socket buffers of the endpoints (the kernel caps them at net.core.rmem_max / wmem_max). */
    public final int socketBuffer;
    /**
     * How long a silent peer stays connected: a peer's image whose heartbeats stop is dropped after
     * this (a dead host is noticed this fast even without its launcher).
     */
    public final long livenessNs;
    /**
     * Where each host's media driver runs: false in the host agent (or node driver) process, a
     * thread of its own; true in the host's first rank ({@link RankDriver}).
     */
    public final boolean driverInRank;

    public NetSettings(int mtu, int termLength, int socketBuffer, long livenessNs) {
        this(mtu, termLength, socketBuffer, livenessNs, false);
    }

    private NetSettings(int mtu, int termLength, int socketBuffer, long livenessNs, boolean driverInRank) {
        checkMtu("network MTU", mtu);
        if (Integer.bitCount(termLength) != 1 || termLength < 64 << 10 || termLength > 1 << 30) {
            throw new IllegalArgumentException("network term length must be a power of two of 64 KiB..1 GiB, was "
                + termLength);
        }
        if (termLength / 8 < mtu) {
            throw new IllegalArgumentException("network term length " + termLength + " must hold 8 MTUs of " + mtu);
        }
        if (socketBuffer < 64 << 10) {
            throw new IllegalArgumentException("socket buffer must be at least 64 KiB, was " + socketBuffer);
        }
        if (livenessNs < 500_000_000L) {
            throw new IllegalArgumentException("liveness timeout must be at least 0.5 s, was " + livenessNs + " ns");
        }
        this.mtu = mtu;
        this.termLength = termLength;
        this.socketBuffer = socketBuffer;
        this.livenessNs = livenessNs;
        this.driverInRank = driverInRank;
    }

    /** The same settings with each host's driver run by its first rank (true) or its agent (false). */
    public NetSettings withDriverInRank(boolean inRank) {
        return new NetSettings(mtu, termLength, socketBuffer, livenessNs, inRank);
    }

    /**
     * Returns {@code mtu} if Aeron takes it as a frame's UDP payload: a multiple of 32 in 1408..65504.
     *
     * @throws IllegalArgumentException naming {@code what} and the range otherwise
     */
    public static int checkMtu(String what, int mtu) {
        if (mtu < 1408 || mtu > LOOPBACK_MTU || mtu % 32 != 0) {
            throw new IllegalArgumentException(what + " must be a multiple of 32 in 1408..65504 (the UDP payload of one"
                + " network frame), was " + mtu);
        }
        return mtu;
    }

    /** The largest MTU Aeron takes (a multiple of 32 below 64 KiB): frames over loopback. */
    public static final int LOOPBACK_MTU = 65_504;

    /** The smallest MTU that carries a record of {@code recordBytes} (after Aeron's header), at least 1408. */
    public static int mtuFor(int recordBytes) {
        int need = recordBytes + FRAME_HEADER;
        return Math.max(1408, (need + 31) & ~31);
    }

    /** The largest record one frame carries. */
    public int maxRecord() {
        return mtu - FRAME_HEADER;
    }

    /**
     * How long a rank's Aeron client and its host's driver may miss each other's keepalives: far
     * above the peers' liveness, since on a loaded machine a thread can go unscheduled for seconds
     * (measured: 4.5 s on 2 cores running 6 JVMs), and losing the client ends the rank.
     */
    public long clientTimeoutNs() {
        return Math.max(30_000_000_000L, 3 * livenessNs);
    }

    /** Receiver window: half a term, as Aeron's flow control allows at most. */
    public int window() {
        return termLength / 2;
    }

    /** The channel a rank subscribes to at its host's endpoint {@code host:port}. */
    public String subscriptionChannel(String endpoint) {
        return "aeron:udp?endpoint=" + endpoint + "|rcv-wnd=" + window() + "|so-rcvbuf=" + socketBuffer;
    }

    /**
     * The channel of a rank's publication to a peer whose host listens at {@code endpoint}; its
     * socket (which takes the receiver's status messages) binds {@code localAddress}, this host's
     * address, not every interface.
     */
    public String publicationChannel(String endpoint, String localAddress) {
        return "aeron:udp?endpoint=" + endpoint + "|interface=" + localAddress + "|mtu=" + mtu + "|term-length="
            + termLength + "|so-sndbuf=" + socketBuffer + "|sparse=true";
    }

    /** The address part of {@code host:port} (an IPv6 address keeps its brackets). */
    public static String address(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("endpoint '" + endpoint + "' is not address:port");
        }
        return endpoint.substring(0, colon);
    }

    @Override
    public String toString() {
        return "mtu " + mtu + ", term " + termLength + ", socket buffers " + socketBuffer + ", liveness "
            + livenessNs / 1_000_000 + " ms" + (driverInRank ? ", driver in the host's first rank" : "");
    }
}
