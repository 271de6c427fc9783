package org.hympj.perf;

import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;

/**
 * Rank program: OSU-bw-style streaming bandwidth, timed exactly as the anchor {@code bw.c}:
 * rank 0 posts a window of 64 {@code isend}, rank 1 64 {@code irecv} (all on one buffer),
 * both {@code Request.waitAll}, then rank 1 returns a 4-byte ack (one INT). Per size a
 * warm-up batch and 5 timed batches, a barrier before each; value = median batch rate in MB/s
 * (1 MB = 10^6 bytes).
 *
 * <pre>usage (2 ranks): Bandwidth REP heap|segment|both SIZE...</pre>
 */
public final class Bandwidth {
    static final int WINDOW = 64;

    private Bandwidth() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: Bandwidth REP heap|segment|both SIZE...");
        }
        int rep = Integer.parseInt(args[0]);
        List<BufferKind> kinds = BufferKind.parse(args[1]);
        int[] sizes = new int[args.length - 2];
        int maxsz = 1;
        for (int a = 2; a < args.length; a++) {
            sizes[a - 2] = Integer.parseInt(args[a]);
            maxsz = Math.max(maxsz, sizes[a - 2]);
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (comm.size() != 2) {
                throw new IllegalStateException("bw needs exactly 2 ranks, the job has " + comm.size());
            }
            int rank = comm.rank();
            for (BufferKind kind : kinds) {
                Object buf;
                Object ack;
                if (kind == BufferKind.HEAP) {
                    byte[] b = new byte[maxsz];
                    java.util.Arrays.fill(b, (byte) (rank != 0 ? 'r' : 's'));
                    buf = b;
                    ack = new int[1];
                } else {
                    SegmentBuffer b = comm.alloc(Primitive.BYTE, maxsz);
                    PingPong.fill(b, (byte) (rank != 0 ? 'r' : 's'));
                    buf = b;
                    ack = comm.alloc(Primitive.INT, 1);
                }
                if (Rows.PREPASS) {
                    run(comm, rank, buf, ack, sizes[0]); // untimed JIT pre-pass (opt-in), discarded
                }
                for (int size : sizes) {
                    double mbs = run(comm, rank, buf, ack, size);
                    if (rank == 0) {
                        Rows.print(Rows.row("bw-window64", kind.label(), size, rep, mbs, 1, "MB/s"));
                    }
                }
            }
        }
    }

    static double run(Comm comm, int rank, Object buf, Object ack, int size) {
        int warm = size <= 65536 ? 10 : 2;
        int iters = size <= 65536 ? 100 : (size <= 1048576 ? 40 : 20);
        int per = iters / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        Request[] req = new Request[WINDOW];
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int n = bch < 0 ? warm : per;
            comm.barrier();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (rank == 0) {
                    for (int w = 0; w < WINDOW; w++) {
                        req[w] = comm.isend(buf, 0, size, Datatype.BYTE, 1, 100);
                    }
                    Request.waitAll(req);
                    comm.recv(ack, 0, 1, Datatype.INT, 1, 101, null);
                } else {
                    for (int w = 0; w < WINDOW; w++) {
                        req[w] = comm.irecv(buf, 0, size, Datatype.BYTE, 0, 100);
                    }
                    Request.waitAll(req);
                    comm.send(ack, 0, 1, Datatype.INT, 0, 101);
                }
            }
            long el = System.nanoTime() - t0;
            if (bch >= 0) {
                bt[bch] = (double) size * WINDOW * per / (el * 1e-9) / 1e6;
            }
        }
        return Rows.median(bt);
    }
}
