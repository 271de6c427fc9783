package org.hympj.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
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
 */
public final class NetBulk implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetBulk.class);
    /** Bytes of a piece header: receive id (int), length (int), position (long). */
    public static final int PIECE_HEADER = 16;
    /** Payload bytes of one piece, as the sender's staging buffer holds them. */
    public static final int PIECE_PAYLOAD = 256 << 10;
    private static final int MAGIC = 0x4842554c; // "HBUL"
    private static final int CHALLENGE = 16;
    private static final int HELLO = 12 + 32;
    private static final int READ_STAGING = 256 << 10;
    /**
     * The largest packet that may go on a connection: an eager message of up to 64 KiB and its
     * header (as Open MPI's TCP eager limit), above what one Aeron frame holds between real hosts.
     */
    public static final int PACKET_LIMIT = (64 << 10) + 64;

    /** Bytes a connection reads ahead between records: a packet of {@link #PACKET_LIMIT} and the next header. */
    private static final int READ_AHEAD = PIECE_HEADER + PACKET_LIMIT + PIECE_HEADER;
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
         * Where in {@link #memory} bytes [position, position + length) of receive {@code recvId}
         * from {@code src} may be read straight into, or -1: they are read into a staging buffer
         * and handed to {@link #piece}.
         */
        long into(int src, int recvId, long position, int length);

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
    private final List<In> ins = new ArrayList<>();
    private final Out[] outs;
    /** Receives cleared to come this way and not yet complete: while any, the connections are read. */
    private int expected;
    /** Outgoing connections with bytes still to write, or still being set up. */
    private int outsBusy;
    private int refused;
    private boolean closed;
    /** Packets may take the connections: the PML reads them in every pass ({@link #enablePackets}). */
    private boolean packets;
    /** Sends an offer of this rank's port to a peer (the network transport's frame; null: none). */
    private java.util.function.IntConsumer offerer;
    /** The peers this rank named its port to for packets (they may write packets to it). */
    private final boolean[] offered;
    private int offeredPeers;
    /** Per peer: the port it offered for packets (0: none), kept until this rank takes packets. */
    private final int[] offeredPorts;
    /** Per peer: its connection to this rank was admitted (once); and how many offered peers' were. */
    private final boolean[] admitted;
    private int admittedOffers;
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
        this.outs = new Out[peerAddresses.length];
        this.offered = new boolean[peerAddresses.length];
        this.offeredPorts = new int[peerAddresses.length];
        this.packetsSent = new boolean[peerAddresses.length];
        this.closedFrom = new boolean[peerAddresses.length];
        this.admitted = new boolean[peerAddresses.length];
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

    /** How an offer of this rank's port reaches a peer ({@link #offer}). */
    public void offerVia(java.util.function.IntConsumer o) {
        this.offerer = o;
    }

    /**
     * Offers this rank's port to {@code peer} for packets if it was not yet (a receiver that
     * clears a large message to come over its socket does, so that the sender's later messages
     * of eager size take the same connection).
     */
    public void offer(int peer) {
        if (packets && !offered[peer] && offerer != null) {
            offerer.accept(peer);
        }
    }

    /** The least packet length that takes the connections, or 0 when none does. */
    public int packetsFrom() {
        return packets ? PACKETS_FROM : 0;
    }

    private long packetsWritten;
    private long packetsRead;

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
    public Out packetLink(int peer) {
        Out o = outs[peer];
        return packets && o != null && o.state == 3 && o.forPackets ? o : null;
    }

    /** {@code peer} offered {@code port} for packets: the connection is made (without blocking) if it is not yet. */
    public void portOffered(int peer, int port) {
        if (peer < 0 || peer >= outs.length || peerAddresses[peer] == null || port <= 0 || port > 65535) {
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
    public Out out(int peer, int port) {
        Out o = outs[peer];
        if (o == null || o.port != port) {
            if (o != null) {
                o.close();
            }
            o = new Out(peer, port);
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
            if (expected > 0 || admittedOffers < offeredPeers) {
                work += accept(); // a system call: only while a connection may still come
            }
            for (int i = 0; i < ins.size(); i++) {
                In in = ins.get(i);
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

    /** Moves every outgoing connection that has something to do; returns the work done. */
    private int advanceOuts() {
        int work = 0;
        for (Out o : outs) {
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
                ins.add(new In(c));
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
        for (In in : ins) {
            closeQuietly(in.channel);
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

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing: nothing to do
        }
    }

    /** What a hello's MAC is taken of: the magic, both ranks and the listener's challenge. */
    private static byte[] helloData(int src, int dst, byte[] challenge) {
        ByteBuffer b = ByteBuffer.allocate(12 + CHALLENGE);
        b.putInt(MAGIC).putInt(src).putInt(dst).put(challenge);
        return b.array();
    }

    // ---------------------------------------------------------------- one incoming connection

    /** A connection accepted by the listener: challenge, hello, then pieces. */
    private final class In {
        final SocketChannel channel;
        private final byte[] challenge = new byte[CHALLENGE];
        private ByteBuffer small = ByteBuffer.allocate(CHALLENGE).order(ByteOrder.BIG_ENDIAN);
        private boolean challenged;
        private int src = -1;
        /**
         * What was read and not yet taken, from {@link #head} to its position: a read takes as
         * much as the socket has (several records in one system call), the records are taken from
         * here; only a piece's rest is read straight into the receiver's memory.
         */
        private ByteBuffer buf;
        private long bufAddress;
        private int head;
        /** The buffer as the sink sees a packet in it; and as a piece's first bytes are copied from it. */
        private UnsafeBuffer packetView;
        private ByteBuffer bufView;
        /** The piece being taken: its receive, where its next byte goes, bytes still to come (0: between records). */
        private int recvId;
        private long position;
        private int left;
        /** The receive's own memory the rest of the current piece is read into, or null (through the buffer). */
        private ByteBuffer direct;
        /** This connection's view of the sink's memory (made at the first piece read straight into it). */
        private ByteBuffer view;

        In(SocketChannel channel) {
            this.channel = channel;
            random.nextBytes(challenge);
            small.put(challenge).flip(); // the challenge, written first
        }

        /** Moves this connection on; returns the work done, or -1 when it is closed. */
        int read(Sink sink) {
            try {
                if (src < 0) {
                    return handshake();
                }
                return pieces(sink);
            } catch (IOException e) {
                closeQuietly(channel);
                if (src >= 0 && !closed) {
                    lost.lost(src, "the bulk connection from rank " + src + " broke: " + e.getMessage());
                }
                return -1;
            }
        }

        private int handshake() throws IOException {
            if (!challenged) {
                channel.write(small);
                if (small.hasRemaining()) {
                    return 0;
                }
                challenged = true;
                small = ByteBuffer.allocate(HELLO).order(ByteOrder.BIG_ENDIAN);
            }
            int n = channel.read(small);
            if (n < 0) {
                closeQuietly(channel);
                return -1;
            }
            if (small.hasRemaining()) {
                return n > 0 ? 1 : 0;
            }
            small.flip();
            int magic = small.getInt();
            int from = small.getInt();
            int to = small.getInt();
            byte[] mac = new byte[32];
            small.get(mac);
            String why = magic != MAGIC ? "not a HyMPJ bulk connection"
                : to != rank ? "addressed to rank " + to
                : from < 0 || from >= peerAddresses.length || peerAddresses[from] == null ? "from rank " + from
                    + ", not a rank of another host"
                : !key.verify(helloData(from, to, challenge), mac) ? "wrong job key"
                : connectedFrom(from) ? "a second connection from rank " + from : null;
            if (why != null) {
                refused++;
                LOG.warn("rank {}: refused a bulk connection from {}: {}", rank, channel.getRemoteAddress(), why);
                closeQuietly(channel);
                return -1;
            }
            src = from;
            if (!admitted[from]) {
                admitted[from] = true;
                admittedOffers += offered[from] ? 1 : 0;
            }
            buf = ByteBuffer.allocateDirect(PIECE_HEADER + READ_STAGING).order(ByteOrder.LITTLE_ENDIAN);
            bufAddress = BufferUtil.address(buf);
            packetView = new UnsafeBuffer(buf);
            bufView = buf.duplicate();
            small = null;
            return 1;
        }

        private boolean connectedFrom(int from) {
            for (In in : ins) {
                if (in != this && in.src == from) {
                    return true;
                }
            }
            return false;
        }

        /** Takes what is buffered, then reads more, until the socket has nothing or a packet is held. */
        private int pieces(Sink sink) throws IOException {
            int work = 0;
            while (true) {
                int buffered = buf.position() - head;
                if (left > 0) {
                    if (buffered > 0) {
                        int n = Math.min(left, buffered);
                        if (direct != null) {
                            bufView.limit(head + n).position(head); // read with the header: copied into place
                            direct.put(bufView);
                            sink.arrived(src, recvId, n);
                        } else {
                            sink.piece(src, recvId, position, bufAddress + head, n);
                        }
                        head += n;
                        position += n;
                        left -= n;
                        work++;
                        continue;
                    }
                    if (direct != null) {
                        int n = channel.read(direct);
                        if (n < 0) {
                            return ended();
                        }
                        if (n == 0) {
                            return work;
                        }
                        left -= n;
                        position += n;
                        sink.arrived(src, recvId, n);
                        work++;
                        continue;
                    }
                } else if (buffered >= PIECE_HEADER) {
                    int at = head;
                    int id = buf.getInt(at);
                    int length = buf.getInt(at + 4);
                    long pos = buf.getLong(at + 8);
                    if (length <= 0) {
                        throw new IOException("a piece header of " + length + " bytes");
                    }
                    if (id == PACKET) {
                        if (length > READ_STAGING || pos < 0 || pos > Integer.MAX_VALUE || !offered[src]) {
                            throw new IOException("a packet of " + length + " bytes, kind " + pos
                                + (offered[src] ? "" : ", where no port was offered"));
                        }
                        if (buffered >= PIECE_HEADER + length) {
                            if (!sink.packet(src, (int) pos, packetView, at + PIECE_HEADER, length)) {
                                return work; // held: taken again in the next poll, nothing after it before
                            }
                            head += PIECE_HEADER + length;
                            packetsRead++;
                            work++;
                            continue;
                        }
                        // the rest of the packet is still to be read (below)
                    } else {
                        head += PIECE_HEADER;
                        recvId = id;
                        left = length;
                        position = pos;
                        direct = null;
                        long into = sink.into(src, recvId, position, left);
                        if (into >= 0) {
                            if (view == null) {
                                view = sink.memory().duplicate();
                            }
                            view.limit(Math.toIntExact(into + left)).position(Math.toIntExact(into));
                            direct = view;
                        }
                        continue;
                    }
                }
                if (head == buf.position()) {
                    buf.clear(); // everything taken: read from the start
                    head = 0;
                } else if (head > 0) {
                    compact(); // part of a record: to the start, so that the whole record fits (each moves once at most)
                }
                // up to the end of a packet begun; the rest of a staged piece and the next header; else at
                // most a packet's worth ahead: of a large piece into the segment little goes through this
                // buffer, the rest is read straight in
                int at = buf.position();
                int packetEnd = left == 0 && at >= PIECE_HEADER && buf.getInt(0) == PACKET ? PIECE_HEADER + buf.getInt(4) : 0;
                long ahead = left > 0 ? (long) left + PIECE_HEADER : READ_AHEAD;
                buf.limit(packetEnd > at ? packetEnd : (int) Math.min(buf.capacity(), at + ahead));
                int n = channel.read(buf);
                buf.limit(buf.capacity());
                if (n < 0) {
                    return ended();
                }
                if (n == 0) {
                    return work;
                }
            }
        }

        /** Moves what is buffered and not taken to the buffer's start. */
        private void compact() {
            buf.limit(buf.position()).position(head);
            buf.compact();
            head = 0;
        }

        /** The sender closed its end: quietly between records, a lost peer in the middle of one. */
        private int ended() throws IOException {
            if (left > 0 || buf.position() > head) {
                throw new IOException("closed in the middle of a piece");
            }
            closeQuietly(channel);
            closedFrom[src] = true;
            return -1;
        }
    }

    // ---------------------------------------------------------------- one outgoing connection

    /** How long a connection may take to be made before the link is given up ({@link Out#unusable}). */
    static final long CONNECT_TIMEOUT_NS = 5_000_000_000L;
    private boolean warnedUnusable;

    /**
     * The connection to one receiver: made without blocking (connect, challenge, hello), then one
     * piece at a time from a staging buffer — {@link #claim} gives the payload's address when the
     * previous piece is written, {@link #commit} sends it. A connection that cannot be made (no
     * route, a firewall, refused, not made within {@link #CONNECT_TIMEOUT_NS}) leaves the link
     * {@link #unusable}: the caller sends another way; one that breaks once made is a lost peer.
     */
    public final class Out {
        private final int peer;
        private final int port;
        private SocketChannel channel;
        /** 0 connecting, 1 reading the challenge, 2 writing the hello, 3 ready, -1 failed or closed, -2 unusable. */
        private int state;
        private final long since = System.nanoTime();
        private final ByteBuffer small = ByteBuffer.allocate(HELLO).order(ByteOrder.BIG_ENDIAN);
        private final ByteBuffer staging = ByteBuffer.allocateDirect(PIECE_HEADER + PIECE_PAYLOAD)
            .order(ByteOrder.LITTLE_ENDIAN);
        private final long stagingAddress = BufferUtil.address(staging);
        /** The header and the caller's bytes of a piece sent from its own memory ({@link #send}). */
        private final ByteBuffer[] gather = {ByteBuffer.allocateDirect(PIECE_HEADER).order(ByteOrder.LITTLE_ENDIAN), null};
        /** This connection's view of the memory {@link #send} takes bytes from, and that memory. */
        private ByteBuffer view;
        private ByteBuffer viewOf;
        private boolean counted;
        /** The peer offered this connection for packets ({@link #portOffered}). */
        boolean forPackets;

        Out(int peer, int port) {
            this.peer = peer;
            this.port = port;
            staging.limit(0);
            try {
                channel = SocketChannel.open();
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.setOption(StandardSocketOptions.SO_SNDBUF, socketBuffer);
                channel.bind(new InetSocketAddress(localAddress, 0));
                if (channel.connect(new InetSocketAddress(peerAddresses[peer], port))) {
                    state = 1;
                }
                small.limit(CHALLENGE);
            } catch (IOException | RuntimeException e) {
                unusable(e.toString());
            }
            busyChanged();
        }

        /** True when the connection could not be made: nothing was sent on it, the caller sends another way. */
        public boolean unusable() {
            return state == -2;
        }

        private void unusable(String why) {
            end(-2);
            if (!warnedUnusable) {
                warnedUnusable = true;
                LOG.warn("rank {}: cannot use the bulk socket of rank {} at {}:{} ({}); large messages to it go over "
                    + "the network transport's own frames instead (slower)", rank, peer, peerAddresses[peer], port, why);
            }
        }

        boolean busy() {
            return state >= 0 && (state < 3 || staging.hasRemaining() || gather[1] != null);
        }

        /** True when the connection is made and every byte given to it is written (a {@link #send}'s memory is free again). */
        public boolean idle() {
            return advance() >= 0 && state == 3 && !staging.hasRemaining() && gather[1] == null;
        }

        /**
         * Sends {@code length} bytes at {@code offset} of {@code memory} (not to be touched until
         * {@link #idle}) as bytes [position, position + length) of receive {@code recvId}, without a
         * copy of ours. Only when {@link #idle}.
         */
        public void send(int recvId, long position, ByteBuffer memory, int offset, int length) {
            if (viewOf != memory) {
                view = memory.duplicate();
                viewOf = memory;
            }
            view.limit(offset + length).position(offset);
            ByteBuffer h = gather[0];
            h.clear();
            h.putInt(0, recvId).putInt(4, length).putLong(8, position);
            gather[1] = view;
            advance();
        }

        private void busyChanged() {
            boolean b = busy();
            if (b != counted) {
                outsBusy += b ? 1 : -1;
                counted = b;
            }
        }

        /** Bytes of payload one piece takes. */
        public int capacity() {
            return PIECE_PAYLOAD;
        }

        /**
         * The address to pack the next piece's payload at, or 0 while the connection is being made
         * or the previous piece is still being written.
         */
        public long claim() {
            if (!idle()) {
                return 0;
            }
            return stagingAddress + PIECE_HEADER;
        }

        /** Sends the piece packed at {@link #claim}'s address: {@code length} bytes at {@code position} of receive {@code recvId}. */
        public void commit(int recvId, long position, int length) {
            staging.clear();
            staging.putInt(0, recvId).putInt(4, length).putLong(8, position);
            staging.limit(PIECE_HEADER + length);
            advance();
        }

        /**
         * Room for one packet of {@code length} bytes: its index in the staging buffer (at
         * {@link #stagingAddress()}), or -1 while the previous piece or packet is being written.
         */
        public int claimPacket(int length) {
            if (length > PIECE_PAYLOAD || !idle()) {
                return -1;
            }
            return PIECE_HEADER;
        }

        /** Where the staging buffer starts (a claimed packet's bytes go at its index from here). */
        public long stagingAddress() {
            return stagingAddress;
        }

        /** Bytes of the staging buffer, header included. */
        public int stagingLength() {
            return PIECE_HEADER + PIECE_PAYLOAD;
        }

        /** Sends the packet of kind {@code type} and {@code length} bytes written at {@link #claimPacket}'s index. */
        public void commitPacket(int type, int length) {
            packetsSent[peer] = true;
            packetsWritten++;
            staging.clear();
            staging.putInt(0, PACKET).putInt(4, length).putLong(8, type);
            staging.limit(PIECE_HEADER + length);
            advance();
        }

        /** Moves the connection on (connect, handshake, write); returns the work done, -1 once failed. */
        int advance() {
            if (state < 0) {
                return -1;
            }
            int work = 0;
            try {
                if (state == 0) {
                    if (!channel.finishConnect()) {
                        if (System.nanoTime() - since > CONNECT_TIMEOUT_NS) {
                            unusable("no connection within " + CONNECT_TIMEOUT_NS / 1_000_000_000L + " s");
                            return -1;
                        }
                        return 0;
                    }
                    state = 1;
                    work++;
                }
                if (state == 1) {
                    int n = channel.read(small);
                    if (n < 0) {
                        throw new IOException("closed before its challenge");
                    }
                    if (small.hasRemaining()) {
                        return work;
                    }
                    byte[] challenge = new byte[CHALLENGE];
                    small.flip().get(challenge);
                    small.clear();
                    small.putInt(MAGIC).putInt(rank).putInt(peer).put(key.mac(helloData(rank, peer, challenge))).flip();
                    state = 2;
                    work++;
                }
                if (state == 2) {
                    channel.write(small);
                    if (small.hasRemaining()) {
                        return work;
                    }
                    state = 3;
                    work++;
                }
                if (staging.hasRemaining() && channel.write(staging) > 0) {
                    work++;
                }
                if (gather[1] != null) {
                    if (channel.write(gather) > 0) {
                        work++;
                    }
                    if (!gather[1].hasRemaining()) {
                        gather[1] = null;
                    }
                }
                return work;
            } catch (IOException e) {
                if (state < 3) {
                    unusable(e.toString()); // not made: nothing of a message went on it
                } else {
                    fail("the bulk connection to rank " + peer + " broke: " + e.getMessage());
                }
                return -1;
            } finally {
                busyChanged();
            }
        }

        private void fail(String why) {
            end(-1);
            if (!closed) {
                lost.lost(peer, why);
            }
        }

        void close() {
            end(-1);
        }

        /** Leaves the connection in {@code finalState} (-1 failed or closed, -2 unusable), its socket closed. */
        private void end(int finalState) {
            state = finalState;
            busyChanged();
            if (channel != null) {
                closeQuietly(channel);
            }
        }
    }
}
