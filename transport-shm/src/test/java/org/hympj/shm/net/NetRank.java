package org.hympj.shm.net;

import java.util.Map;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Status;
import org.hympj.shm.ShmMpj;

/**
 * A rank of a job on local hosts: every pair exchanges messages of every path's size (inline
 * eager, rendezvous streamed in network frames, several MiB) and a strided layout, each byte
 * checked; then says which transport its peers took and what the route statistics counted. With
 * the argument {@code counters}, each host's first rank then prints its host driver's NAKs and
 * retransmits ({@code DRIVER naks=N retransmits=M}).
 */
public final class NetRank {
    static final int[] SIZES = {0, 1, 8, 1000, 8192, 8193, 70_000, 300_000, 4 << 20};

    public static void main(String[] args) throws InterruptedException {
        try (Mpj mpj = Mpj.init(args)) {
            Comm w = mpj.world();
            int rank = w.rank();
            int size = w.size();
            ShmMpj shm = (ShmMpj) mpj;
            StringBuilder where = new StringBuilder();
            for (int p = 0; p < size; p++) {
                where.append(shm.engine().fabric().local(p) ? 'L' : 'R');
            }
            System.out.println("PEERS " + where);
            // how many ranks this rank's waiting and JIT took as sharing its host's cores
            System.out.println("SHARING " + org.hympj.shm.job.Cores.sharing(shm.engine().fabric().localCount()));
            for (int n : SIZES) {
                for (int d = 1; d < size; d++) {
                    int to = (rank + d) % size;
                    int from = (rank - d + size) % size;
                    byte[] out = new byte[n];
                    for (int i = 0; i < n; i++) {
                        out[i] = (byte) (rank * 31 + i * 7 + n);
                    }
                    byte[] in = new byte[n];
                    Status st = w.sendrecv(out, 0, n, Datatype.BYTE, to, n & 0xFFFF, in, 0, n, Datatype.BYTE, from,
                        n & 0xFFFF);
                    if (st.count(Datatype.BYTE) != n || st.source() != from) {
                        throw new AssertionError("size " + n + " from " + from + ": status " + st);
                    }
                    for (int i = 0; i < n; i++) {
                        if (in[i] != (byte) (from * 31 + i * 7 + n)) {
                            throw new AssertionError("size " + n + " from " + from + ": byte " + i + " wrong");
                        }
                    }
                }
            }
            System.out.println("PASS sizes");
            // every other double of 100,000, around the ring: packed at the sender, unpacked at the receiver
            Datatype strided = Datatype.DOUBLE.vector(100_000, 1, 2);
            double[] src = new double[200_000];
            double[] dst = new double[200_000];
            for (int i = 0; i < src.length; i++) {
                src[i] = rank * 1e7 + i;
            }
            int to = (rank + 1) % size;
            int from = (rank - 1 + size) % size;
            w.sendrecv(src, 0, 1, strided, to, 5, dst, 0, 1, strided, from, 5);
            for (int i = 0; i < dst.length; i++) {
                double want = i % 2 == 0 ? from * 1e7 + i : 0;
                if (dst[i] != want) {
                    throw new AssertionError("strided from " + from + ": element " + i + " is " + dst[i]);
                }
            }
            System.out.println("PASS strided");
            // counted before the segment exchanges below (the test knows how many the two above make)
            Map<String, Long> stats = mpj.statistics();
            System.out.println("STATS net=" + stats.getOrDefault("route.net.contiguous.messages", 0L)
                + " shm=" + stats.getOrDefault("route.shm.contiguous.messages", 0L));
            // buffers in the shared segment, around the ring and back: contiguous ones go over the bulk
            // sockets straight from and into the segments (no copy of ours), mixed with Java arrays
            int n = 300_000;
            SegmentBuffer segOut = w.allocDoubles(n + 8);
            SegmentBuffer segIn = w.allocDoubles(n + 8);
            for (int i = 0; i < n; i++) {
                segOut.putDouble(3 + i, rank * 1e7 + i);
            }
            w.sendrecv(segOut, 3, n, Datatype.DOUBLE, to, 6, segIn, 5, n, Datatype.DOUBLE, from, 6);
            for (int i = 0; i < n; i++) {
                if (segIn.getDouble(5 + i) != from * 1e7 + i) {
                    throw new AssertionError("segment to segment from " + from + ": element " + i + " is "
                        + segIn.getDouble(5 + i));
                }
            }
            double[] heapIn = new double[n];
            double[] heapOut = new double[n];
            for (int i = 0; i < n; i++) {
                heapOut[i] = -rank * 1e7 - i;
            }
            w.sendrecv(segOut, 3, n, Datatype.DOUBLE, from, 7, heapIn, 0, n, Datatype.DOUBLE, to, 7);
            w.sendrecv(heapOut, 0, n, Datatype.DOUBLE, to, 8, segIn, 5, n, Datatype.DOUBLE, from, 8);
            for (int i = 0; i < n; i++) {
                if (heapIn[i] != to * 1e7 + i || segIn.getDouble(5 + i) != -from * 1e7 - i) {
                    throw new AssertionError("segment and array mixed, element " + i + ": " + heapIn[i] + ", "
                        + segIn.getDouble(5 + i));
                }
            }
            if (segIn.getDouble(4) != 0 || segIn.getDouble(n + 5) != 0) {
                throw new AssertionError("a receive into the segment wrote outside its elements");
            }
            System.out.println("PASS segment");
            // arrays at odd offsets, a 3 MB message: from and into the arrays by the kernel alone where
            // the native socket I/O is loaded (else staged); the elements around it stay untouched
            double[] wideOut = new double[n + 11];
            double[] wideIn = new double[n + 11];
            java.util.Arrays.fill(wideIn, -1);
            for (int i = 0; i < n; i++) {
                wideOut[7 + i] = rank * 1e7 + i * 0.5;
            }
            w.sendrecv(wideOut, 7, n, Datatype.DOUBLE, to, 9, wideIn, 3, n, Datatype.DOUBLE, from, 9);
            for (int i = 0; i < wideIn.length; i++) {
                double want = i >= 3 && i < 3 + n ? from * 1e7 + (i - 3) * 0.5 : -1;
                if (wideIn[i] != want) {
                    throw new AssertionError("array at an offset from " + from + ": element " + i + " is " + wideIn[i]);
                }
            }
            Map<String, Long> arrays = mpj.statistics();
            System.out.println("ARRAY-BYTES sent=" + arrays.getOrDefault("net.socket.array.bytes.sent", -1L)
                + " received=" + arrays.getOrDefault("net.socket.array.bytes.received", -1L));
            System.out.println("PASS arrays");
            if (java.util.Arrays.asList(args).contains("order")) {
                order(w, rank, size);
                System.out.println("PASS order");
                Map<String, Long> after = mpj.statistics();
                System.out.println("SOCKET-PACKETS sent=" + after.getOrDefault("net.socket.packets.sent", -1L)
                    + " received=" + after.getOrDefault("net.socket.packets.received", -1L));
                late(w, rank, size);
                System.out.println("PASS late");
            }
            if (java.util.Arrays.asList(args).contains("counters")) {
                w.barrier(); // every message of the job is in
                if (rank == 0 || !shm.engine().fabric().local(rank - 1)) { // the host's first rank: its driver's counters
                    Map<String, Long> c = DriverCounters.read();
                    System.out.println("DRIVER naks=" + c.getOrDefault("NAKs sent", 0L) + " retransmits="
                        + c.getOrDefault("Retransmits sent", 0L));
                }
            }
        }
        System.out.println("PASS finalize");
    }

    /** Sizes of {@link #order}: small ones stay on Aeron, the others (1 KiB and more) take the sockets once offered. */
    static final int[] ORDER_SIZES = {8, 1500, 16, 4096, 4, 65536, 100, 20000};
    static final int ORDER_COUNT = 240;

    /**
     * Messages of sizes alternating between the two paths between hosts (Aeron frames, the ranks'
     * sockets), all sent before any is received, with one tag: received in the order sent, each
     * whole, half of them by ANY_SOURCE — the per-pair sequence holds across the two paths.
     */
    private static void order(Comm w, int rank, int size) {
        int to = (rank + size / 2) % size;
        int from = (rank - size / 2 + size) % size;
        org.hympj.api.Request[] sends = new org.hympj.api.Request[ORDER_COUNT];
        for (int i = 0; i < ORDER_COUNT; i++) {
            int n = ORDER_SIZES[i % ORDER_SIZES.length];
            byte[] out = new byte[n];
            fill(out, rank, i);
            sends[i] = w.isend(out, 0, n, Datatype.BYTE, to, 77);
        }
        byte[] in = new byte[65536];
        for (int i = 0; i < ORDER_COUNT; i++) {
            int n = ORDER_SIZES[i % ORDER_SIZES.length];
            Status st = w.recv(in, 0, in.length, Datatype.BYTE, i % 2 == 0 ? from : Comm.ANY_SOURCE, 77);
            if (st.count(Datatype.BYTE) != n || st.source() != from) {
                throw new AssertionError("order: message " + i + " from " + from + " has " + st.count(Datatype.BYTE)
                    + " bytes from " + st.source() + ", sent " + n);
            }
            check(in, n, from, i, "order");
        }
        org.hympj.api.Request.waitAll(sends);
    }

    /**
     * A message sent over the socket just before its sender finalizes, received after a pause in
     * which the receiver makes no progress (its sender's goodbye and the message wait together):
     * it arrives, the receive does not fail for a finalized peer.
     */
    private static void late(Comm w, int rank, int size) throws InterruptedException {
        int to = (rank + size / 2) % size;
        int from = (rank - size / 2 + size) % size;
        byte[] out = new byte[60_000];
        fill(out, rank, 1_000);
        org.hympj.api.Request s = w.isend(out, 0, out.length, Datatype.BYTE, to, 78);
        Thread.sleep(300);
        byte[] in = new byte[60_000];
        Status st = w.recv(in, 0, in.length, Datatype.BYTE, from, 78);
        if (st.count(Datatype.BYTE) != in.length) {
            throw new AssertionError("late: " + st.count(Datatype.BYTE) + " bytes from " + from);
        }
        check(in, in.length, from, 1_000, "late");
        s.waitFor();
    }

    /** Message {@code i} of {@code rank}: its number in the first 4 bytes (when they fit), then a pattern. */
    private static void fill(byte[] b, int rank, int i) {
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (rank * 13 + i + k * 3);
        }
        if (b.length >= 4) {
            java.nio.ByteBuffer.wrap(b).putInt(0, i);
        }
    }

    private static void check(byte[] b, int n, int from, int i, String what) {
        if (n >= 4 && java.nio.ByteBuffer.wrap(b).getInt(0) != i) {
            throw new AssertionError(what + ": message " + i + " from " + from + " carries number "
                + java.nio.ByteBuffer.wrap(b).getInt(0));
        }
        for (int k = 4; k < n; k++) {
            if (b[k] != (byte) (from * 13 + i + k * 3)) {
                throw new AssertionError(what + ": message " + i + " from " + from + ", byte " + k + " wrong");
            }
        }
    }
}
