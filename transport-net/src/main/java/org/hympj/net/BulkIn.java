package org.hympj.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection accepted by the listener of a {@link NetBulk}: challenge, hello, then pieces. What
 * it asks of the rank's other connections and offers, and what it counts, goes through the bulk's
 * package-private methods.
 */
final class BulkIn {
    /** NetBulk's logger: the bulk path logs under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(NetBulk.class);
    private static final int READ_STAGING = 256 << 10;
    /** Bytes a connection reads ahead between records: a packet of {@link NetBulk#PACKET_LIMIT} and the next header. */
    private static final int READ_AHEAD = NetBulk.PIECE_HEADER + NetBulk.PACKET_LIMIT + NetBulk.PIECE_HEADER;

    private final NetBulk bulk;
    private final JobKey key;
    private final int rank;
    private final SocketChannel channel;
    private final byte[] challenge = new byte[BulkHello.CHALLENGE];
    private ByteBuffer small = ByteBuffer.allocate(BulkHello.CHALLENGE).order(ByteOrder.BIG_ENDIAN);
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
    /** Reads into arrays, or null; and this connection's descriptor for them (-1: none). */
    private final ArraySockets arrays;
    private final int fd;
    /** The receive's own array the rest of the current piece is read into (null: none), and where its next byte goes. */
    private Object intoArray;
    private long arrayAt;

    /** {@code channel}, accepted by rank {@code rank}'s {@code bulk}, is challenged with bytes of {@code random}. */
    BulkIn(NetBulk bulk, JobKey key, int rank, SocketChannel channel, SecureRandom random) {
        this.bulk = bulk;
        this.key = key;
        this.rank = rank;
        this.channel = channel;
        this.arrays = bulk.arrays();
        this.fd = arrays == null ? -1 : arrays.descriptor(channel);
        random.nextBytes(challenge);
        small.put(challenge).flip(); // the challenge, written first
    }

    /** Moves this connection on; returns the work done, or -1 when it is closed. */
    int read(NetBulk.Sink sink) {
        try {
            if (src < 0) {
                return handshake();
            }
            return pieces(sink);
        } catch (IOException e) {
            NetBulk.closeQuietly(channel);
            if (src >= 0) {
                bulk.peerLost(src, "the bulk connection from rank " + src + " broke: " + e.getMessage());
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
            small = ByteBuffer.allocate(BulkHello.HELLO).order(ByteOrder.BIG_ENDIAN);
        }
        int n = channel.read(small);
        if (n < 0) {
            NetBulk.closeQuietly(channel);
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
        String why = magic != BulkHello.MAGIC ? "not a HyMPJ bulk connection"
            : to != rank ? "addressed to rank " + to
            : !bulk.ofAnotherHost(from) ? "from rank " + from + ", not a rank of another host"
            : !key.verify(BulkHello.helloData(from, to, challenge), mac) ? "wrong job key"
            : bulk.connectedFrom(from) ? "a second connection from rank " + from : null;
        if (why != null) {
            bulk.countRefused();
            LOG.warn("rank {}: refused a bulk connection from {}: {}", rank, channel.getRemoteAddress(), why);
            NetBulk.closeQuietly(channel);
            return -1;
        }
        src = from;
        bulk.admitted(from);
        buf = ByteBuffer.allocateDirect(NetBulk.PIECE_HEADER + READ_STAGING).order(ByteOrder.LITTLE_ENDIAN);
        bufAddress = BufferUtil.address(buf);
        packetView = new UnsafeBuffer(buf);
        bufView = buf.duplicate();
        small = null;
        return 1;
    }

    /** The rank this connection is from once its hello is admitted; -1 before. */
    int src() {
        return src;
    }

    /** Closes the socket (the rank closes its bulk path). */
    void close() {
        NetBulk.closeQuietly(channel);
    }

    /** Takes what is buffered, then reads more, until the socket has nothing or a packet is held. */
    private int pieces(NetBulk.Sink sink) throws IOException {
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
                    } else if (intoArray != null) {
                        UnsafeApi.copyMemory(null, bufAddress + head, intoArray, arrayAt, n);
                        arrayAt += n;
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
                if (intoArray != null) {
                    long n = arrays.read(fd, intoArray, arrayAt, left);
                    if (n < 0) {
                        return ended();
                    }
                    if (n == 0) {
                        return work;
                    }
                    arrayAt += n;
                    left -= (int) n;
                    position += n;
                    bulk.arrayBytesRead(n);
                    sink.arrived(src, recvId, (int) n);
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
            } else if (buffered >= NetBulk.PIECE_HEADER) {
                int at = head;
                int id = buf.getInt(at);
                int length = buf.getInt(at + 4);
                long pos = buf.getLong(at + 8);
                if (length <= 0) {
                    throw new IOException("a piece header of " + length + " bytes");
                }
                if (id == NetBulk.PACKET) {
                    if (length > READ_STAGING || pos < 0 || pos > Integer.MAX_VALUE || !bulk.offeredPortTo(src)) {
                        throw new IOException("a packet of " + length + " bytes, kind " + pos
                            + (bulk.offeredPortTo(src) ? "" : ", where no port was offered"));
                    }
                    if (buffered >= NetBulk.PIECE_HEADER + length) {
                        if (!sink.packet(src, (int) pos, packetView, at + NetBulk.PIECE_HEADER, length)) {
                            return work; // held: taken again in the next poll, nothing after it before
                        }
                        head += NetBulk.PIECE_HEADER + length;
                        bulk.packetTaken();
                        work++;
                        continue;
                    }
                    // the rest of the packet is still to be read (below)
                } else {
                    head += NetBulk.PIECE_HEADER;
                    recvId = id;
                    left = length;
                    position = pos;
                    direct = null;
                    intoArray = null;
                    long into = sink.into(src, recvId, position, left);
                    Object array = into >= 0 ? sink.intoArray() : null;
                    if (array != null) {
                        if (fd >= 0) {
                            intoArray = array; // else staged: handed to piece()
                            arrayAt = into;
                        }
                    } else if (into >= 0) {
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
            int packetEnd = left == 0 && at >= NetBulk.PIECE_HEADER && buf.getInt(0) == NetBulk.PACKET
                ? NetBulk.PIECE_HEADER + buf.getInt(4) : 0;
            long ahead = left > 0 ? (long) left + NetBulk.PIECE_HEADER : READ_AHEAD;
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
        NetBulk.closeQuietly(channel);
        bulk.closedCleanly(src);
        return -1;
    }
}
