package org.hympj.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.agrona.MutableDirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bulk path between hosts: the payload of a large message on a TCP stream per ordered pair of
 * ranks, while its envelope and handshake (RTS, CTS) stay on Aeron. Why: a payload over Aeron
 * crosses both hosts' term buffers and two driver threads (four copies and two more threads to
 * schedule); a socket takes two copies and none (docs/PERFORMANCE.md, "Ranks on several hosts").
 *
 * <p>The receiving rank opens one listening socket on its host's own address when it first
 * clears a large message from another host to be sent this way ({@link #port}: no port is open
 * before it is needed) and names its port in the clear-to-send. The sending rank connects once
 * per receiver ({@link #out}). A connection proves it belongs to the job before it carries a
 * byte: the listener sends a fresh random challenge, the sender answers with its rank and the
 * job key's HMAC of (sender, receiver, challenge); a wrong answer, a rank not of another host or
 * a second connection from the same rank is refused and closed, and the job goes on.
 *
 * <p>On a connection, pieces follow each other: a header (receive id, length, position in the
 * message) and that many bytes, which {@link #poll} hands to the {@link Sink} as they are read.
 * A connection that breaks while the job runs is a lost peer ({@link Lost}).
 *
 * <p>The same connections carry whole packets of the PML (eager messages, fragments) of at least
 * {@link #packetsFrom} bytes, so that they are written and read by the two ranks themselves, not
 * by the hosts' media drivers (one rank of each host runs it: every datagram of the host's ranks
 * waits for that rank to get a core). A receiver names its port to a sender ({@link #offer}) when
 * the first such packet arrives over Aeron, or when it clears a large message to its socket; from
 * then on it reads its connections in every pass while the PML awaits a packet they may bring
 * ({@link Sink#awaitsPackets}), else every {@link #READ_INTERVAL_NS}; the sender writes its large
 * packets here once its connection is made ({@link #packetLink}). A packet is a piece whose receive id is {@link #PACKET} (its kind in the
 * position field); the receiver hands it whole to {@link Sink#packet}, which may hold it (it is
 * ahead of its sender's sequence: a smaller one is still on the Aeron path), and then the
 * connection is not read further until it is taken. Single-threaded: every method is called by
 * the rank's own thread, from its progress passes; no call blocks.
 *
 * <p>What lives where: this class keeps the listener, the connections and their progress
 * ({@link #poll}, {@link #busy}, {@link #close}), the per-peer state of packet offers and the
 * counters; {@link BulkIn} is one accepted connection (admission, then reading pieces and
 * packets), {@link BulkOut} one outgoing connection (connect, handshake, staging buffer, writes),
 * {@link BulkHello} the handshake both sides share. The connections ask and tell this class
 * through its package-private methods.
 */
public final class NetBulk implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetBulk.class);
    /** Bytes of a piece header: receive id (int), length (int), position (long). */
    public static final int PIECE_HEADER = 16;
    /** Payload bytes of one piece, as the sender's staging buffer holds them. */
    public static final int PIECE_PAYLOAD = 256 << 10;
    /**
     * The largest packet that may go on a connection: an eager message of up to 64 KiB and its
     * header (as Open MPI's TCP eager limit), above what one Aeron frame holds between real hosts.
     */
    public static final int PACKET_LIMIT = (64 << 10) + 64;
    /** The receive id of a piece that is a whole packet of the PML (its kind in the position field). */
    public static final int PACKET = -1;
    /**
     * Packets of at least this many bytes take the connections once a receiver offered its port
     * ({@code -Dhympj.net.socketPacketsFrom=BYTES}; 0 turns it off). Smaller ones stay on Aeron,
     * where an 8-byte trip is faster than a system call each way.
     */
    public static final int PACKETS_FROM = Integer.getInteger("hympj.net.socketPacketsFrom", 1024);

    /** Where the pieces read go. */
    public interface Sink {
        /** The memory receives may be read straight into (the rank's shared segment), or null. */
        ByteBuffer memory();

        /**
         * Where bytes [position, position + length) of receive {@code recvId} from {@code src} may
         * be read straight into: an index of {@link #memory}, or, when {@link #intoArray} then names
         * an array, an Unsafe offset in it; or -1: they are read into a staging buffer and handed
         * to {@link #piece}.
         */
        long into(int src, int recvId, long position, int length);

        /**
         * The array the last {@link #into} answered for (read into only where the bulk has
         * {@link ArraySockets}), or null: {@link #memory}.
         */
        default Object intoArray() {
            return null;
        }

        /** {@code length} bytes at native {@code address} are bytes [position, position + length) of receive {@code recvId} from {@code src}. */
        void piece(int src, int recvId, long position, long address, int length);

        /** {@code length} more bytes of receive {@code recvId} were read into the view {@link #into} gave. */
        void arrived(int src, int recvId, int length);

        /**
         * A whole packet of kind {@code type} from {@code src} at {@code index} of {@code buffer}
         * (valid during the call); false holds it: it is handed again in a later poll, and its
         * connection is read no further until then.
         */
        default boolean packet(int src, int type, MutableDirectBuffer buffer, int index, int length) {
            throw new IllegalStateException("a packet from rank " + src + " where none was offered");
        }

        /**
         * True while a packet on the connections would complete something the rank waits for:
         * they are read in every pass; otherwise at most every {@link #READ_INTERVAL_NS}.
         */
        default boolean awaitsPackets() {
            return true;
        }
    }

    /** What a broken connection is reported to. */
    public interface Lost {
        void lost(int peer, String why);
    }

    private final JobKey key;
    private final int rank;
    private final String localAddress;
    private final String[] peerAddresses;
    private final int socketBuffer;
    private final Lost lost;
    private final SecureRandom random = new SecureRandom();

    private ServerSocketChannel listener;
    private final List<BulkIn> ins = new ArrayList<>();
    /** Socket I/O from and into arrays, or null: arrays' bytes are staged ({@link #arraysVia}). */
    private ArraySockets arrays;
    private final BulkOut[] outs;
    /** Receives cleared to come this way and not yet complete: while any, the connections are read. */
    private int expected;
    /** Outgoing connections with bytes still to write, or still being set up. */
    private int outsBusy;
    private int refused;
    private boolean closed;
    /** An unusable link was warned of (once per rank: the others go the same way). */
    private boolean warnedUnusable;
    /** Packets may take the connections: the PML reads them in every pass ({@link #enablePackets}). */
    private boolean packets;
    /** Sends an offer of this rank's port to a peer (the network transport's frame; null: none). */
    private Offerer offerer;
    /** The peers this rank named its port to for packets (they may write packets to it). */
    private final boolean[] offered;
    private int offeredPeers;
    /** Per peer: the port it offered for packets (0: none), kept until this rank takes packets. */
    private final int[] offeredPorts;
    /** Per peer: its connection to this rank was admitted (once); and how many offered peers' were. */
    private final boolean[] admitted;
    private int admittedOffers;
    /** Ranks on other hosts (each connects at most once) and how many of them have been admitted. */
    private final int remotePeers;
    private int admittedPeers;
    private long lastAccept;
    /** Per peer: this rank wrote packets on its connection to it (its goodbye says so). */
    private final boolean[] packetsSent;
    /** Per peer: its connection to this rank ended cleanly (everything it wrote was read). */
    private final boolean[] closedFrom;

    /**
     * @param peerAddresses each rank's host address (null for the ranks of this host, which use shared memory)
     * @param socketBuffer  the sockets' send and receive buffers (the kernel caps them)
     */
    public NetBulk(JobKey key, int rank, String localAddress, String[] peerAddresses, int socketBuffer, Lost lost) {
        this.key = key;
        this.rank = rank;
        this.localAddress = localAddress;
        this.peerAddresses = peerAddresses.clone();
        this.socketBuffer = socketBuffer;
        this.lost = lost;
        this.outs = new BulkOut[peerAddresses.length];
        this.offered = new boolean[peerAddresses.length];
        this.offeredPorts = new int[peerAddresses.length];
        this.packetsSent = new boolean[peerAddresses.length];
        this.closedFrom = new boolean[peerAddresses.length];
        this.admitted = new boolean[peerAddresses.length];
        int remote = 0;
        for (String a : peerAddresses) {
            remote += a == null ? 0 : 1;
        }
        this.remotePeers = remote;
    }

    /**
     * Writes and reads pieces of contiguous arrays through {@code a} from now on (connections made
     * before keep staging), instead of staging them in direct buffers.
     */
    public void arraysVia(ArraySockets a) {
        this.arrays = a;
    }

    /** The array socket I/O connections use, or null. */
    ArraySockets arrays() {
        return arrays;
    }

    // ---------------------------------------------------------------- packets

    /**
     * The PML polls this rank's connections from now on: its ports may be offered and its large
     * packets may take the connections (a rank that never calls it offers none and writes none,
     * and works with ranks that do).
     */
    public void enablePackets() {
        packets = PACKETS_FROM > 0 && !closed;
        for (int p = 0; packets && p < offeredPorts.length; p++) {
            if (offeredPorts[p] > 0) {
                out(p, offeredPorts[p]).forPackets = true; // a peer that offered before this rank took packets
            }
        }
    }

    /**
     * Sends an offer of this rank's port to a peer. An interface of its own, not {@code IntConsumer}:
     * C2 inlined the one {@code IntConsumer} loaded when it compiled the matching that calls it, and
     * the first other one a program loaded threw that code away (a class-hierarchy dependency,
     * {@code -XX:+LogCompilation}), to be compiled again inside a benchmark's first sizes (session 22).
     */
    @FunctionalInterface
    public interface Offerer {
        /** Offers this rank's port to {@code peer}. */
        void offer(int peer);
    }

    /** How an offer of this rank's port reaches a peer ({@link #offer}). */
    public void offerVia(Offerer o) {
        this.offerer = o;
    }

    /**
     * Offers this rank's port to {@code peer} for packets if it was not yet (a receiver that
     * clears a large message to come over its socket does, so that the sender's later messages
     * of eager size take the same connection).
     */
    public void offer(int peer) {
        if (packets && !offered[peer] && offerer != null) {
            offerer.offer(peer);
        }
    }

    /** The least packet length that takes the connections, or 0 when none does. */
    public int packetsFrom() {
        return packets ? PACKETS_FROM : 0;
    }

    private long packetsWritten;
    private long packetsRead;
    private long arrayBytesWritten;
    private long arrayBytesRead;

    /** Payload bytes written straight from arrays ({@link ArraySockets}) so far (since {@link #clearCounters}). */
    public long arrayBytesWritten() {
        return arrayBytesWritten;
    }

    /** Payload bytes read straight into arrays so far (since {@link #clearCounters}). */
    public long arrayBytesRead() {
        return arrayBytesRead;
    }

    void arrayBytesWritten(long n) {
        arrayBytesWritten += n;
    }

    void arrayBytesRead(long n) {
        arrayBytesRead += n;
    }

    /** Packets written on the connections so far (since {@link #clearCounters}). */
    public long packetsWritten() {
        return packetsWritten;
    }

    /** Packets read from the connections and taken so far (since {@link #clearCounters}). */
    public long packetsRead() {
        return packetsRead;
    }

    /** Starts the counts again (the JIT warm-up's packets are not the program's). */
    public void clearCounters() {
        packetsWritten = 0;
        packetsRead = 0;
        arrayBytesWritten = 0;
        arrayBytesRead = 0;
    }

    /** True when this rank named its port to {@code peer} (or cannot: it never will). */
    public boolean offered(int peer) {
        return offered[peer] || !packets;
    }

    /**
     * The port to name to a peer so that it writes its large packets to this rank (the
     * listener opened now if it is not yet), or -1 when it cannot be opened (logged; packets stay
     * on Aeron). {@link #offeredTo} once the offer is sent.
     */
    public int offerPort() {
        try {
            return port();
        } catch (IllegalStateException e) {
            LOG.warn("{}; packets from other hosts stay on the network transport", e.getMessage());
            packets = false;
            return -1;
        }
    }

    /** The offer of this rank's port went to {@code peer}: its connection is read from now on. */
    public void offeredTo(int peer) {
        if (!offered[peer]) {
            offered[peer] = true;
            offeredPeers++;
            LOG.debug("rank {}: offered its bulk port to rank {} for packets", rank, peer);
            admittedOffers += admitted[peer] ? 1 : 0;
        }
    }

    /**
     * The connection packets to {@code peer} take now, or null: the peer offered none, it is not
     * made yet, or it cannot be (they go over Aeron).
     */
    public BulkOut packetLink(int peer) {
        BulkOut o = outs[peer];
        return packets && o != null && o.ready() && o.forPackets ? o : null;
    }

    /** {@code peer} offered {@code port} for packets: the connection is made (without blocking) if it is not yet. */
    public void portOffered(int peer, int port) {
        if (!ofAnotherHost(peer) || port <= 0 || port > 65535) {
            return;
        }
        offeredPorts[peer] = port;
        if (packets && !closed) {
            out(peer, port).forPackets = true;
            LOG.debug("rank {}: rank {} offered its bulk port {} for packets", rank, peer, port);
        }
    }

    /** True when packets were written on the connection to {@code peer}: its reader must see it end. */
    public boolean packetsSentTo(int peer) {
        return packetsSent[peer];
    }

    /** True when {@code peer}'s connection to this rank ended cleanly: everything written on it was read. */
    public boolean closedFrom(int peer) {
        return closedFrom[peer];
    }

    // ---------------------------------------------------------------- receiving side

    /**
     * The port of this rank's listening socket, opened on its host's address at the first call.
     *
     * @throws IllegalStateException naming the address when it cannot be bound
     */
    public int port() {
        if (listener == null) {
            try {
                ServerSocketChannel s = ServerSocketChannel.open();
                try {
                    s.setOption(StandardSocketOptions.SO_RCVBUF, socketBuffer);
                    s.bind(new InetSocketAddress(localAddress, 0), 16);
                    s.configureBlocking(false);
                } catch (IOException | RuntimeException e) {
                    s.close();
                    throw e;
                }
                listener = s;
            } catch (IOException e) {
                throw new IllegalStateException("rank " + rank + ": cannot open the bulk socket on " + localAddress
                    + ": " + e.getMessage(), e);
            }
        }
        return ((InetSocketAddress) listener.socket().getLocalSocketAddress()).getPort();
    }

    /** A receive was cleared to come by this path ({@code +1}), or completed ({@code -1}). */
    public void expect(int delta) {
        expected += delta;
    }

    /** Connections refused so far (a wrong key, a rank not of another host, a second connection). */
    public int refused() {
        return refused;
    }

    // ---------------------------------------------------------------- sending side

    /** The connection to {@code peer}'s listener at {@code port} of its host (made at the first call). */
    public BulkOut out(int peer, int port) {
        BulkOut o = outs[peer];
        if (o == null || o.port != port) {
            if (o != null) {
                o.close();
            }
            o = new BulkOut(this, key, rank, localAddress, socketBuffer, peer, peerAddresses[peer], port);
            outs[peer] = o;
        }
        return o;
    }

    // ---------------------------------------------------------------- progress

    /**
     * True when a pass has something to do here (a receive expected, bytes to write, a connection
     * being made, or a port offered: packets may come).
     */
    public boolean busy() {
        return (expected > 0 || outsBusy > 0 || offeredPeers > 0) && !closed;
    }

    /** Accepts, reads and writes what the sockets allow now; returns the work done (0: nothing). */
    public int poll(Sink sink) {
        if (closed) {
            return 0;
        }
        int work = outsBusy > 0 ? advanceOuts() : 0;
        if ((expected > 0 || offeredPeers > 0) && listener != null) {
            if (expected == 0 && !sink.awaitsPackets() && !readNow()) {
                return work;
            }
            if ((expected > 0 || admittedOffers < offeredPeers) && acceptNow()) {
                work += accept(); // a system call: only while a connection may still come
            }
            for (int i = 0; i < ins.size(); i++) {
                BulkIn in = ins.get(i);
                int w = in.read(sink);
                if (w < 0) {
                    ins.remove(i--);
                } else {
                    work += w;
                    lastRead = w > 0 ? 0 : lastRead; // something came: read again in the next pass
                }
            }
        }
        return work;
    }

    /**
     * Whether a pass in which nothing on the connections is awaited reads them now: when the
     * previous read found something, or {@link #READ_INTERVAL_NS} after the previous read (a
     * packet nobody waits for yet — an unexpected message, one a probe looks for — is read then).
     * A read that finds nothing is a system call, which every pass of a waiting rank (one every
     * few hundred nanoseconds) would otherwise pay before it looks at its rings again.
     */
    private boolean readNow() {
        long now = System.nanoTime();
        if (lastRead != 0 && now - lastRead < READ_INTERVAL_NS) {
            return false;
        }
        lastRead = now;
        return true;
    }

    /** At most this long between reads of the connections while packets may come but none is expected. */
    private static final long READ_INTERVAL_NS = Long.getLong("hympj.net.socketReadIntervalNs", 20_000);
    private long lastRead;

    /**
     * Whether this pass asks the listener: every pass while a peer of another host has not been
     * admitted yet, then only every {@link #ACCEPT_INTERVAL_NS} (a stray client is still answered and
     * refused). A non-blocking accept that finds nothing still allocates and frees a socket in the
     * kernel: a receiver of window-64 bandwidth between hosts asked 86,000 times a second (2 % of
     * the samples in accept, inode set-up and release; session 21).
     */
    private boolean acceptNow() {
        if (admittedPeers < remotePeers) {
            return true;
        }
        long now = System.nanoTime();
        if (now - lastAccept < ACCEPT_INTERVAL_NS) {
            return false;
        }
        lastAccept = now;
        return true;
    }

    private static final long ACCEPT_INTERVAL_NS = 1_000_000L;

    /** Moves every outgoing connection that has something to do; returns the work done. */
    private int advanceOuts() {
        int work = 0;
        for (BulkOut o : outs) {
            if (o != null && o.busy()) {
                work += Math.max(0, o.advance());
            }
        }
        return work;
    }

    private int accept() {
        int work = 0;
        while (true) {
            SocketChannel c;
            try {
                c = listener.accept();
            } catch (IOException e) {
                LOG.warn("rank {}: bulk socket: accept failed: {}", rank, e.toString());
                return work;
            }
            if (c == null) {
                return work;
            }
            try {
                c.configureBlocking(false);
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ins.add(new BulkIn(this, key, rank, c, random));
                work++;
            } catch (IOException e) {
                closeQuietly(c);
            }
        }
    }

    /** How long {@link #close} goes on writing the pieces still in the staging buffers. */
    private static final long FLUSH_NS = 10_000_000_000L;

    /** Writes what is still staged (the last piece of a send completed before it was written), then closes. */
    @Override
    public void close() {
        close(true);
    }

    /** Closes every socket; {@code flush}: first writes what is staged (at most {@link #FLUSH_NS}). */
    public void close(boolean flush) {
        long until = System.nanoTime() + FLUSH_NS;
        while (flush && !closed && outsBusy > 0 && System.nanoTime() - until < 0) {
            advanceOuts();
            Thread.yield();
        }
        closed = true;
        for (BulkIn in : ins) {
            in.close();
        }
        ins.clear();
        for (int i = 0; i < outs.length; i++) {
            if (outs[i] != null) {
                outs[i].close();
                outs[i] = null;
            }
        }
        if (listener != null) {
            closeQuietly(listener);
        }
    }

    // ---------------------------------------------------------------- for the connections (BulkIn, BulkOut)

    /** True when {@code peer} is a rank of another host: one whose bulk connections this rank takes and makes. */
    boolean ofAnotherHost(int peer) {
        return peer >= 0 && peer < peerAddresses.length && peerAddresses[peer] != null;
    }

    /** True when an admitted connection from {@code src} is open (one whose hello is being checked has no source yet). */
    boolean connectedFrom(int src) {
        for (BulkIn in : ins) {
            if (in.src() == src) {
                return true;
            }
        }
        return false;
    }

    /** A connection was refused ({@link #refused}). */
    void countRefused() {
        refused++;
    }

    /** A connection from {@code src} was admitted. */
    void admitted(int src) {
        if (!admitted[src]) {
            admitted[src] = true;
            admittedPeers++;
            admittedOffers += offered[src] ? 1 : 0;
        }
    }

    /** True when this rank named its port to {@code src}: its connection may carry packets. */
    boolean offeredPortTo(int src) {
        return offered[src];
    }

    /** A packet read from a connection was taken by the sink ({@link #packetsRead}). */
    void packetTaken() {
        packetsRead++;
    }

    /** The connection from {@code src} ended cleanly ({@link #closedFrom}). */
    void closedCleanly(int src) {
        closedFrom[src] = true;
    }

    /** A packet was written on the connection to {@code peer} ({@link #packetsSentTo}, {@link #packetsWritten}). */
    void packetWritten(int peer) {
        packetsSent[peer] = true;
        packetsWritten++;
    }

    /** An outgoing connection has bytes to write or is being set up ({@code true}), or no longer ({@code false}). */
    void outBusyChanged(boolean busy) {
        outsBusy += busy ? 1 : -1;
    }

    /** True the first time a link is found unusable: its warning is logged, the later ones' are not. */
    boolean firstUnusable() {
        boolean first = !warnedUnusable;
        warnedUnusable = true;
        return first;
    }

    /** The connection to or from {@code peer} broke: a lost peer, unless this rank closed its bulk path. */
    void peerLost(int peer, String why) {
        if (!closed) {
            lost.lost(peer, why);
        }
    }

    static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing: nothing to do
        }
    }
}
