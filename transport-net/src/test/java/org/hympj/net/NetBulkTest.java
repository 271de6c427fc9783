package org.hympj.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bulk sockets of two ranks of different "hosts" in one JVM, both on 127.0.0.1: pieces staged
 * or sent from a buffer's own memory arrive intact and in order (read into staging or straight
 * into the receiver's memory); a connection that answers the challenge without the job's key is
 * refused and the job's own connection goes on; a connection that breaks in the middle of a piece
 * is reported as the sender lost. Everything is polled from the test's thread, as ranks poll.
 */
class NetBulkTest {
    /** Small socket buffers: a piece of {@link NetBulk#PIECE_PAYLOAD} does not fit in them at once. */
    private static final int SOCKET_BUFFER = 16 << 10;
    private final JobKey key = JobKey.generate();
    private final List<String> lost = new CopyOnWriteArrayList<>();
    private final List<NetBulk> made = new ArrayList<>();

    /** Rank {@code rank} of a 2-rank job, its peer on "another host" (the same address). */
    private NetBulk rank(int rank, JobKey k) {
        String[] peers = rank == 0 ? new String[] {null, "127.0.0.1"} : new String[] {"127.0.0.1", null};
        NetBulk b = new NetBulk(k, rank, "127.0.0.1", peers, SOCKET_BUFFER,
            (peer, why) -> lost.add(rank + " lost " + peer + ": " + why));
        made.add(b);
        return b;
    }

    @AfterEach
    void close() {
        for (NetBulk b : made) {
            b.close(false);
        }
    }

    /** What a receiving rank got: bytes by position, from one source. */
    private static class Received implements NetBulk.Sink {
        final byte[] bytes;
        final ByteBuffer memory;
        final long memoryAt;
        int pieces;
        int count;
        int lastRecvId = -1;

        Received(int length, ByteBuffer memory, long memoryAt) {
            this.bytes = new byte[length];
            this.memory = memory;
            this.memoryAt = memoryAt;
        }

        @Override
        public ByteBuffer memory() {
            return memory;
        }

        @Override
        public long into(int src, int recvId, long position, int length) {
            return memory == null ? -1 : memoryAt + position;
        }

        @Override
        public void piece(int src, int recvId, long position, long address, int length) {
            for (int i = 0; i < length; i++) {
                bytes[(int) position + i] = UnsafeApi.getByte(address + i);
            }
            pieces++;
            count += length;
            lastRecvId = recvId;
        }

        @Override
        public void arrived(int src, int recvId, int length) {
            count += length;
            lastRecvId = recvId;
        }
    }

    private static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    /** Polls both ranks until {@code done} (at most 10 s). */
    private static void pollUntil(NetBulk a, NetBulk b, NetBulk.Sink sink, BooleanSupplier done) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            a.poll(sink);
            b.poll(sink);
            if (System.nanoTime() - until > 0) {
                throw new AssertionError("nothing moved for 10 s");
            }
        }
    }

    /** Packets as a receiving PML takes them: each copied out, the first {@code holds} offers of each held. */
    private static final class Packets extends Received {
        final List<String> got = new ArrayList<>();
        int holds;
        int held;

        Packets(int holds) {
            super(0, null, 0);
            this.holds = holds;
        }

        @Override
        public boolean packet(int src, int type, org.agrona.MutableDirectBuffer buffer, int index, int length) {
            if (held < holds) {
                held++;
                return false; // ahead of its sender's sequence: handed again later, nothing read after it meanwhile
            }
            held = 0;
            byte[] b = new byte[length];
            buffer.getBytes(index, b);
            got.add(src + ":" + type + ":" + length + ":" + java.util.Arrays.hashCode(b));
            return true;
        }
    }

    /**
     * Whole packets on a connection the receiver offered: written from the sender's staging
     * buffer, read whole (also when larger than the socket buffers), in order, each held twice by
     * the receiver before it takes it — and nothing after a held packet is handed before it. The
     * connection's end is seen as the sender's clean close.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void packetsOnAnOfferedConnectionArriveWholeAndInOrderAndMayBeHeld() {
        NetBulk sender = rank(0, key);
        NetBulk receiver = rank(1, key);
        sender.enablePackets();
        receiver.enablePackets();
        assertEquals(null, sender.packetLink(1), "no link before the receiver offers its port");
        int port = receiver.offerPort();
        receiver.offeredTo(0);
        sender.portOffered(1, port);
        Packets sink = new Packets(2);
        pollUntil(sender, receiver, sink, () -> sender.packetLink(1) != null);
        int[] lengths = {1024, 64 << 10, 8, NetBulk.PIECE_PAYLOAD};
        List<String> want = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            BulkOut link = sender.packetLink(1);
            int idx;
            while ((idx = link.claimPacket(lengths[i])) < 0) {
                sender.poll(sink);
                receiver.poll(sink); // the previous packet is still being written: the receiver reads
            }
            byte[] b = pattern(lengths[i], i);
            for (int k = 0; k < b.length; k++) {
                UnsafeApi.putByte(link.stagingAddress() + idx + k, b[k]);
            }
            link.commitPacket(100 + i, lengths[i]);
            want.add("0:" + (100 + i) + ":" + lengths[i] + ":" + java.util.Arrays.hashCode(b));
        }
        pollUntil(sender, receiver, sink, () -> sink.got.size() == lengths.length);
        assertEquals(want, sink.got);
        assertEquals(lengths.length, sender.packetsWritten());
        assertEquals(lengths.length, receiver.packetsRead());
        assertTrue(sender.packetsSentTo(1));
        assertTrue(!receiver.closedFrom(0));
        sender.close(true);
        pollUntil(receiver, receiver, sink, () -> receiver.closedFrom(0));
        assertEquals(List.of(), lost);
    }

    /** A packet where the receiver offered no port is a broken connection: the sender is reported lost. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aPacketOnAConnectionNotOfferedIsALostPeer() {
        NetBulk sender = rank(0, key);
        NetBulk receiver = rank(1, key);
        sender.enablePackets();
        receiver.expect(1); // a rendezvous connection: the receiver reads it, but offered no port for packets
        sender.portOffered(1, receiver.port()); // as if it had
        Packets sink = new Packets(0);
        pollUntil(sender, receiver, sink, () -> sender.packetLink(1) != null);
        BulkOut link = sender.packetLink(1);
        int idx = link.claimPacket(2000);
        assertTrue(idx >= 0);
        link.commitPacket(7, 2000);
        pollUntil(sender, receiver, sink, () -> !lost.isEmpty());
        assertEquals(List.of(), sink.got);
        assertTrue(lost.get(0).startsWith("1 lost 0: ") && lost.get(0).contains("where no port was offered"),
            lost.toString());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void stagedPiecesArriveIntactAndInOrder() {
        NetBulk sender = rank(0, key);
        NetBulk receiver = rank(1, key);
        int n = 3 * NetBulk.PIECE_PAYLOAD + 1234; // four pieces, the last a short one
        byte[] data = pattern(n, 7);
        Received got = new Received(n, null, 0);
        receiver.expect(1);
        BulkOut out = sender.out(1, receiver.port());
        int pos = 0;
        while (pos < n) {
            long addr = out.claim();
            if (addr == 0) {
                receiver.poll(got); // the receiver reads while the sender's piece waits for room
                continue;
            }
            int len = Math.min(out.capacity(), n - pos);
            for (int i = 0; i < len; i++) {
                UnsafeApi.putByte(addr + i, data[pos + i]);
            }
            out.commit(42, pos, len);
            pos += len;
        }
        pollUntil(sender, receiver, got, () -> got.count == n);
        receiver.expect(-1);
        assertArrayEquals(data, got.bytes);
        assertEquals(42, got.lastRecvId);
        assertTrue(got.pieces >= 4, "read in " + got.pieces + " parts");
        assertEquals(List.of(), lost);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void bytesOfAMemoryGoStraightIntoTheReceiversMemory() {
        NetBulk sender = rank(0, key);
        NetBulk receiver = rank(1, key);
        int n = 1 << 20;
        ByteBuffer from = ByteBuffer.allocateDirect(n + 100);
        byte[] data = pattern(n, 3);
        from.position(100);
        from.put(data);
        ByteBuffer into = ByteBuffer.allocateDirect(n + 64);
        Received got = new Received(n, into, 64);
        receiver.expect(1);
        BulkOut out = sender.out(1, receiver.port());
        pollUntil(sender, receiver, got, out::idle); // connected
        out.send(7, 0, from, 100, n);
        pollUntil(sender, receiver, got, () -> got.count == n && out.idle());
        byte[] back = new byte[n];
        into.position(64);
        into.get(back);
        assertArrayEquals(data, back);
        assertEquals(0, got.pieces, "no byte went through the staging buffer");
        assertEquals(7, got.lastRecvId);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aConnectionWithoutTheKeyIsRefusedAndTheJobsGoesOn() {
        NetBulk receiver = rank(1, key);
        NetBulk stranger = rank(0, JobKey.generate()); // claims to be rank 0, without the job's key
        NetBulk sender = rank(0, key);
        Received got = new Received(100, null, 0);
        receiver.expect(1);
        int port = receiver.port();
        BulkOut bad = stranger.out(1, port);
        pollUntil(stranger, receiver, got, () -> receiver.refused() == 1);
        long b = bad.claim(); // its hello was written: it may try to send (into a closed connection)
        if (b != 0) {
            bad.commit(99, 0, 100);
        }
        BulkOut good = sender.out(1, port);
        pollUntil(sender, receiver, got, good::idle);
        long a = good.claim();
        byte[] data = pattern(100, 9);
        for (int i = 0; i < 100; i++) {
            UnsafeApi.putByte(a + i, data[i]);
        }
        good.commit(5, 0, 100);
        pollUntil(sender, receiver, got, () -> got.count == 100);
        stranger.poll(got);
        receiver.poll(got);
        assertArrayEquals(data, got.bytes);
        assertEquals(5, got.lastRecvId, "nothing of the stranger's was taken");
        assertEquals(100, got.count);
        assertEquals(1, receiver.refused());
        assertTrue(lost.stream().noneMatch(l -> l.startsWith("1 ")), "the receiver lost nobody: " + lost);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aListenerThatCannotBeReachedLeavesTheLinkUnusableNotAPeerLost() throws Exception {
        NetBulk sender = rank(0, key);
        int closedPort;
        try (java.nio.channels.ServerSocketChannel s = java.nio.channels.ServerSocketChannel.open()) {
            s.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
            closedPort = ((java.net.InetSocketAddress) s.getLocalAddress()).getPort();
        }
        BulkOut out = sender.out(1, closedPort); // nothing listens there any more: refused
        Received none = new Received(1, null, 0);
        pollUntil(sender, sender, none, () -> out.claim() == 0 && out.unusable());
        assertTrue(out.unusable());
        assertEquals(List.of(), lost, "a link never made is no lost peer");
        assertTrue(sender.out(1, closedPort) == out, "the unusable link is kept: no new attempt per message");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aConnectionThatBreaksInAPieceIsALostPeer() {
        NetBulk sender = rank(0, key);
        NetBulk receiver = rank(1, key);
        Received got = new Received(NetBulk.PIECE_PAYLOAD, null, 0);
        receiver.expect(1);
        BulkOut out = sender.out(1, receiver.port());
        pollUntil(sender, receiver, got, out::idle);
        long addr = out.claim();
        out.commit(3, 0, NetBulk.PIECE_PAYLOAD); // more than the sockets' buffers take before the receiver reads
        assertTrue(addr != 0);
        sender.close(false); // the sender's process dies with the piece half written
        pollUntil(sender, receiver, got, () -> !lost.isEmpty());
        assertTrue(got.count < NetBulk.PIECE_PAYLOAD, "the piece was not complete: " + got.count);
        assertEquals(1, lost.size(), lost.toString());
        assertTrue(lost.get(0).startsWith("1 lost 0: the bulk connection from rank 0 broke"), lost.get(0));
    }
}
