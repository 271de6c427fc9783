package org.hympj.shm.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bulk sockets' writes and reads straight from and into arrays: a header and an array's run in
 * one write, read back into arrays of another width at odd offsets, exact — one small run and one of
 * 6 MB that takes many partial writes and reads; runs outside an array and non-arrays refused at the
 * call with nothing written; a closed peer is the end of the stream for a reader and an
 * {@link IOException} for a writer.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeSocketsTest {
    private static final long DOUBLES = UnsafeApi.arrayBaseOffset(double[].class);
    private static final long BYTES = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final long LONGS = UnsafeApi.arrayBaseOffset(long[].class);

    private SocketChannel writer;
    private SocketChannel reader;
    private int wfd;
    private int rfd;
    private final NativeSockets io = NativeSockets.INSTANCE;

    @BeforeEach
    void connect() throws IOException {
        assumeTrue(NativeSockets.AVAILABLE, "no native library here (NativeCopyTest says whether that is right)");
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            writer = SocketChannel.open(listener.getLocalAddress());
            reader = listener.accept();
        }
        writer.configureBlocking(false);
        reader.configureBlocking(false);
        wfd = io.descriptor(writer);
        rfd = io.descriptor(reader);
        assertTrue(wfd >= 0 && rfd >= 0 && wfd != rfd, "descriptors " + wfd + ", " + rfd);
    }

    @AfterEach
    void close() throws IOException {
        if (writer != null) {
            writer.close();
        }
        if (reader != null) {
            reader.close();
        }
    }

    @Test
    void aHeaderAndAnArraysRunArriveExactlyInArraysOfAnotherWidth() throws IOException {
        ByteBuffer header = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0, 42).putInt(4, 7 * 8).putLong(8, 123_456_789L);
        double[] from = new double[20];
        for (int i = 0; i < from.length; i++) {
            from[i] = i * 1.25 - 3;
        }
        // elements [5, 12) of the doubles after the header; the header into bytes at offset 3
        long n = io.write(wfd, BufferUtil.address(header), 16, from, DOUBLES + 5 * 8, 7 * 8);
        assertEquals(16 + 7 * 8, n);
        byte[] head = new byte[21];
        readFully(head, BYTES + 3, 16);
        ByteBuffer got = ByteBuffer.wrap(head, 3, 16).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(42, got.getInt());
        assertEquals(56, got.getInt());
        assertEquals(123_456_789L, got.getLong());
        long[] into = new long[9];
        readFully(into, LONGS + 8, 7 * 8);
        double[] back = new double[7];
        for (int i = 0; i < 7; i++) {
            back[i] = Double.longBitsToDouble(into[1 + i]);
        }
        assertArrayEquals(java.util.Arrays.copyOfRange(from, 5, 12), back);
        assertEquals(0, into[0]);
        assertEquals(0, into[8]);
    }

    @Test
    void sixMegabytesTakeManyPartialWritesAndReadsAndArriveExactly() throws IOException {
        int count = 6 << 20;
        byte[] from = new byte[count + 1];
        for (int i = 0; i < from.length; i++) {
            from[i] = (byte) (i * 31 + 7);
        }
        byte[] into = new byte[count + 2];
        long written = 0;
        long read = 0;
        int writes = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (read < count) {
            assertTrue(System.nanoTime() < deadline, "stuck at " + written + " written, " + read + " read");
            if (written < count) {
                long w = io.write(wfd, 0, 0, from, BYTES + 1 + written, (int) (count - written));
                written += w;
                writes += w > 0 ? 1 : 0;
            }
            long r = io.read(rfd, into, BYTES + 2 + read, (int) Math.min(count - read, 1 << 20));
            assertTrue(r >= 0, "end of stream after " + read);
            read += r;
        }
        assertTrue(writes > 1, "one write took " + count + " bytes: no partial write was tried");
        for (int i = 0; i < count; i++) {
            if (into[2 + i] != from[1 + i]) {
                throw new AssertionError("byte " + i + " is " + into[2 + i] + ", was " + from[1 + i]);
            }
        }
        assertEquals(0, into[0]);
        assertEquals(0, into[1]);
        assertEquals(0, io.read(rfd, into, BYTES, 1), "nothing more on the socket");
    }

    @Test
    void runsOutsideTheArrayAndNonArraysAreRefusedWithNothingWritten() throws IOException {
        int[] ints = new int[4]; // 16 bytes
        ByteBuffer header = ByteBuffer.allocateDirect(16);
        long h = BufferUtil.address(header);
        IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class,
            () -> io.write(wfd, h, 16, ints, UnsafeApi.arrayBaseOffset(int[].class) + 4, 13));
        assertTrue(past.getMessage().contains("[4, 17) of an array of 16 bytes"), past.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> io.read(rfd, ints, UnsafeApi.arrayBaseOffset(int[].class) - 1, 4));
        IllegalArgumentException notArray = assertThrows(IllegalArgumentException.class,
            () -> io.write(wfd, h, 16, "a string", 16, 1));
        assertTrue(notArray.getMessage().contains("not a primitive array"), notArray.getMessage());
        assertEquals(0, io.read(rfd, new byte[8], BYTES, 8), "nothing was written");
    }

    @Test
    void aClosedPeerEndsTheStreamForTheReaderAndFailsTheWriter() throws IOException, InterruptedException {
        writer.close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long r;
        while ((r = io.read(rfd, new byte[8], BYTES, 8)) == 0) {
            assertTrue(System.nanoTime() < deadline, "no end of stream");
            Thread.sleep(1);
        }
        assertEquals(-1, r);
        byte[] data = new byte[1 << 16];
        int rfdOfClosed = rfd;
        // the reader's end now writes to a closed peer: the kernel answers with a reset, then an error
        IOException e = assertThrows(IOException.class, () -> {
            for (int i = 0; i < 1000; i++) {
                io.write(rfdOfClosed, 0, 0, data, BYTES, data.length);
                Thread.sleep(1);
            }
        });
        assertTrue(e.getMessage().startsWith("write: "), e.getMessage());
    }

    private void readFully(Object array, long offset, int length) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int got = 0;
        while (got < length) {
            assertTrue(System.nanoTime() < deadline, "only " + got + " of " + length + " bytes came");
            long r = io.read(rfd, array, offset + got, length - got);
            assertTrue(r >= 0, "end of stream");
            got += (int) r;
        }
    }
}
