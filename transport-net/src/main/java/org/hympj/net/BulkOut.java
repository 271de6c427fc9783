package org.hympj.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import org.agrona.BufferUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection to one receiver: made without blocking (connect, challenge, hello), then one
 * piece at a time from a staging buffer — {@link #claim} gives the payload's address when the
 * previous piece is written, {@link #commit} sends it. A connection that cannot be made (no
 * route, a firewall, refused, not made within {@link #CONNECT_TIMEOUT_NS}) leaves the link
 * {@link #unusable}: the caller sends another way; one that breaks once made is a lost peer.
 * Bytes in the caller's own memory go without a copy of ours: from a direct buffer ({@link #send}),
 * or, where the bulk has {@link ArraySockets}, from an array ({@link #sendArray}).
 * Made by {@link NetBulk#out}; what it counts goes through the bulk's package-private methods.
 */
public final class BulkOut {
    /** NetBulk's logger: the bulk path logs under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(NetBulk.class);
    /** How long a connection may take to be made before the link is given up ({@link #unusable}). */
    static final long CONNECT_TIMEOUT_NS = 5_000_000_000L;

    private final NetBulk bulk;
    private final JobKey key;
    private final int rank;
    private final int peer;
    private final String peerAddress;
    /** The port of the receiver's listener this connection goes to. */
    final int port;
    private SocketChannel channel;
    /** 0 connecting, 1 reading the challenge, 2 writing the hello, 3 ready, -1 failed or closed, -2 unusable. */
    private int state;
    private final long since = System.nanoTime();
    private final ByteBuffer small = ByteBuffer.allocate(BulkHello.HELLO).order(ByteOrder.BIG_ENDIAN);
    private final ByteBuffer staging = ByteBuffer.allocateDirect(NetBulk.PIECE_HEADER + NetBulk.PIECE_PAYLOAD)
        .order(ByteOrder.LITTLE_ENDIAN);
    private final long stagingAddress = BufferUtil.address(staging);
    /** The header and the caller's bytes of a piece sent from its own memory ({@link #send}). */
    private final ByteBuffer[] gather = {
        ByteBuffer.allocateDirect(NetBulk.PIECE_HEADER).order(ByteOrder.LITTLE_ENDIAN), null};
    /** This connection's view of the memory {@link #send} takes bytes from, and that memory. */
    private ByteBuffer view;
    private ByteBuffer viewOf;
    /** Writes from arrays, or null; and this connection's descriptor for them (-1: none). */
    private final ArraySockets arrays;
    private int fd = -1;
    private final long headerAddress = BufferUtil.address(gather[0]);
    /** The array a {@link #sendArray} writes from (null: none), where its next byte is, bytes left of it and of its header. */
    private Object array;
    private long arrayOffset;
    private int arrayLeft;
    private int headerLeft;
    private boolean counted;
    /** The peer offered this connection for packets ({@link NetBulk#portOffered}). */
    boolean forPackets;

    /**
     * Starts the connection of rank {@code rank} (of {@code bulk}, from {@code localAddress}) to
     * {@code peer}'s listener at {@code peerAddress:port}, its send buffer {@code socketBuffer}.
     */
    BulkOut(NetBulk bulk, JobKey key, int rank, String localAddress, int socketBuffer, int peer, String peerAddress,
            int port) {
        this.bulk = bulk;
        this.key = key;
        this.rank = rank;
        this.peer = peer;
        this.peerAddress = peerAddress;
        this.port = port;
        this.arrays = bulk.arrays();
        staging.limit(0);
        try {
            channel = SocketChannel.open();
            fd = arrays == null ? -1 : arrays.descriptor(channel);
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, socketBuffer);
            channel.bind(new InetSocketAddress(localAddress, 0));
            if (channel.connect(new InetSocketAddress(peerAddress, port))) {
                state = 1;
            }
            small.limit(BulkHello.CHALLENGE);
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
        if (bulk.firstUnusable()) {
            LOG.warn("rank {}: cannot use the bulk socket of rank {} at {}:{} ({}); large messages to it go over "
                + "the network transport's own frames instead (slower)", rank, peer, peerAddress, port, why);
        }
    }

    /** True when the connection is made: its hello is written, pieces and packets may follow. */
    boolean ready() {
        return state == 3;
    }

    boolean busy() {
        return state >= 0 && (state < 3 || staging.hasRemaining() || gather[1] != null || array != null);
    }

    /** True when the connection is made and every byte given to it is written (a {@link #send}'s memory is free again). */
    public boolean idle() {
        return advance() >= 0 && state == 3 && !staging.hasRemaining() && gather[1] == null && array == null;
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

    /** True when {@link #sendArray} may be called (the bulk writes from arrays and has this socket's descriptor). */
    public boolean sendsArrays() {
        return fd >= 0;
    }

    /**
     * Sends {@code length} bytes of the primitive array {@code array} from its Unsafe offset
     * {@code offset} (not to be touched until {@link #idle}) as bytes [position, position + length)
     * of receive {@code recvId}, without a copy of ours. Only when {@link #idle} and {@link #sendsArrays}.
     */
    public void sendArray(int recvId, long position, Object array, long offset, int length) {
        ByteBuffer h = gather[0];
        h.putInt(0, recvId).putInt(4, length).putLong(8, position);
        this.array = array;
        this.arrayOffset = offset;
        this.arrayLeft = length;
        this.headerLeft = NetBulk.PIECE_HEADER;
        advance();
    }

    private void busyChanged() {
        boolean b = busy();
        if (b != counted) {
            bulk.outBusyChanged(b);
            counted = b;
        }
    }

    /** Bytes of payload one piece takes. */
    public int capacity() {
        return NetBulk.PIECE_PAYLOAD;
    }

    /**
     * The address to pack the next piece's payload at, or 0 while the connection is being made
     * or the previous piece is still being written.
     */
    public long claim() {
        if (!idle()) {
            return 0;
        }
        return stagingAddress + NetBulk.PIECE_HEADER;
    }

    /** Sends the piece packed at {@link #claim}'s address: {@code length} bytes at {@code position} of receive {@code recvId}. */
    public void commit(int recvId, long position, int length) {
        staging.clear();
        staging.putInt(0, recvId).putInt(4, length).putLong(8, position);
        staging.limit(NetBulk.PIECE_HEADER + length);
        advance();
    }

    /**
     * Room for one packet of {@code length} bytes: its index in the staging buffer (at
     * {@link #stagingAddress()}), or -1 while the previous piece or packet is being written.
     */
    public int claimPacket(int length) {
        if (length > NetBulk.PIECE_PAYLOAD || !idle()) {
            return -1;
        }
        return NetBulk.PIECE_HEADER;
    }

    /** Where the staging buffer starts (a claimed packet's bytes go at its index from here). */
    public long stagingAddress() {
        return stagingAddress;
    }

    /** Bytes of the staging buffer, header included. */
    public int stagingLength() {
        return NetBulk.PIECE_HEADER + NetBulk.PIECE_PAYLOAD;
    }

    /** Sends the packet of kind {@code type} and {@code length} bytes written at {@link #claimPacket}'s index. */
    public void commitPacket(int type, int length) {
        bulk.packetWritten(peer);
        staging.clear();
        staging.putInt(0, NetBulk.PACKET).putInt(4, length).putLong(8, type);
        staging.limit(NetBulk.PIECE_HEADER + length);
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
                byte[] challenge = new byte[BulkHello.CHALLENGE];
                small.flip().get(challenge);
                small.clear();
                small.putInt(BulkHello.MAGIC).putInt(rank).putInt(peer)
                    .put(key.mac(BulkHello.helloData(rank, peer, challenge))).flip();
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
            if (array != null) {
                long n = arrays.write(fd, headerAddress + NetBulk.PIECE_HEADER - headerLeft, headerLeft, array,
                    arrayOffset, arrayLeft);
                if (n > 0) {
                    work++;
                    int h = (int) Math.min(n, headerLeft);
                    headerLeft -= h;
                    arrayOffset += n - h;
                    arrayLeft -= (int) (n - h);
                    bulk.arrayBytesWritten(n - h);
                    if (headerLeft == 0 && arrayLeft == 0) {
                        array = null; // every byte is the kernel's: the program may use its array again
                    }
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
        bulk.peerLost(peer, why);
    }

    void close() {
        end(-1);
    }

    /** Leaves the connection in {@code finalState} (-1 failed or closed, -2 unusable), its socket closed. */
    private void end(int finalState) {
        state = finalState;
        array = null;
        busyChanged();
        if (channel != null) {
            NetBulk.closeQuietly(channel);
        }
    }
}
