package org.hympj.perf;

import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;

/**
 * Rank program: OSU-latency-style ping-pong between ranks 0 and 1, timed exactly as the
 * anchor {@code pingpong.c}: per size a warm-up batch and 5 timed batches, a barrier before
 * each batch, value = median batch of half round trips in µs.
 *
 * <pre>usage (2 ranks): PingPong blocking|persistent REP heap|segment|both SIZE...</pre>
 *
 * <p>blocking: rank 0 {@code send} then {@code recv}, rank 1 the reverse (status ignored:
 * the allocation-free {@code recv(..., Status)} with null). persistent: rank 0
 * {@code Request.startAll} + {@code Request.waitAll} over {recvInit, sendInit}; rank 1 starts and
 * waits its receive, then its send. BYTE messages. Prints
 * {@code hympj,pingpong-<mode>,<heap|segment>,size,rep,us,us} from rank 0.
 */
public final class PingPong {
    private PingPong() {
    }

    /** Warm-up and timed iteration counts per size, as {@code iters_for} in pingpong.c. */
    static int[] itersFor(long size) {
        if (size <= 8192) {
            return new int[] {5000, 50000};
        } else if (size <= 65536) {
            return new int[] {200, 5000};
        } else if (size <= 1048576) {
            return new int[] {50, 1000};
        }
        return new int[] {10, 200};
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: PingPong blocking|persistent REP heap|segment|both SIZE...");
        }
        String mode = args[0];
        boolean persistent;
        if (mode.equals("persistent")) {
            persistent = true;
        } else if (mode.equals("blocking")) {
            persistent = false;
        } else {
            throw new IllegalArgumentException("mode must be blocking or persistent, was " + mode);
        }
        int rep = Integer.parseInt(args[1]);
        List<BufferKind> kinds = BufferKind.parse(args[2]);
        int[] sizes = new int[args.length - 3];
        int maxsz = 1;
        for (int a = 3; a < args.length; a++) {
            sizes[a - 3] = Integer.parseInt(args[a]);
            maxsz = Math.max(maxsz, sizes[a - 3]);
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (comm.size() != 2) {
                throw new IllegalStateException("pingpong needs exactly 2 ranks, the job has " + comm.size());
            }
            int rank = comm.rank();
            int peer = 1 - rank;
            for (BufferKind kind : kinds) {
                Object sbuf;
                Object rbuf;
                if (kind == BufferKind.HEAP) {
                    byte[] s = new byte[maxsz];
                    byte[] r = new byte[maxsz];
                    java.util.Arrays.fill(s, (byte) 'a');
                    java.util.Arrays.fill(r, (byte) 'b');
                    sbuf = s;
                    rbuf = r;
                } else {
                    org.hympj.api.SegmentBuffer s = comm.alloc(Primitive.BYTE, maxsz);
                    org.hympj.api.SegmentBuffer r = comm.alloc(Primitive.BYTE, maxsz);
                    fill(s, (byte) 'a');
                    fill(r, (byte) 'b');
                    sbuf = s;
                    rbuf = r;
                }
                if (Rows.PREPASS) {
                    // untimed JIT pre-pass (opt-in): the first size's whole measurement, discarded
                    if (persistent) {
                        persistent(comm, rank, peer, sbuf, rbuf, sizes[0]);
                    } else {
                        blocking(comm, rank, sbuf, rbuf, sizes[0]);
                    }
                }
                for (int size : sizes) {
                    double t = persistent ? persistent(comm, rank, peer, sbuf, rbuf, size)
                        : blocking(comm, rank, sbuf, rbuf, size);
                    if (rank == 0) {
                        Rows.print(Rows.row("pingpong-" + mode, kind.label(), size, rep, t, 3, "us"));
                    }
                }
            }
        }
    }

    static void fill(org.hympj.api.SegmentBuffer b, byte v) {
        java.nio.ByteBuffer bb = b.bytes();
        for (int i = 0; i < b.length(); i++) {
            bb.put(i, v);
        }
    }

    /** Median over the 5 batches of the half round trip in µs. */
    static double blocking(Comm comm, int rank, Object sbuf, Object rbuf, int size) {
        int[] wi = itersFor(size);
        int warm = wi[0];
        int per = wi[1] / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int n = bch < 0 ? warm : per;
            comm.barrier();
            long jit = Rows.BATCHES ? Rows.compileMillis() : 0;
            long t0 = System.nanoTime();
            if (rank == 0) {
                for (int i = 0; i < n; i++) {
                    comm.send(sbuf, 0, size, Datatype.BYTE, 1, 1);
                    comm.recv(rbuf, 0, size, Datatype.BYTE, 1, 1, null);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    comm.recv(rbuf, 0, size, Datatype.BYTE, 0, 1, null);
                    comm.send(sbuf, 0, size, Datatype.BYTE, 0, 1);
                }
            }
            long el = System.nanoTime() - t0;
            if (bch >= 0) {
                bt[bch] = el * 1e-3 / (2.0 * per);
            }
            Rows.batch("blocking", size, bch, el * 1e-3 / (2.0 * n), jit);
        }
        return Rows.median(bt);
    }

    static double persistent(Comm comm, int rank, int peer, Object sbuf, Object rbuf, int size) {
        int[] wi = itersFor(size);
        int warm = wi[0];
        int per = wi[1] / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        PersistentRequest[] req = {
            comm.recvInit(rbuf, 0, size, Datatype.BYTE, peer, 1),
            comm.sendInit(sbuf, 0, size, Datatype.BYTE, peer, 1)
        };
        PersistentRequest rr = req[0];
        PersistentRequest sr = req[1];
        try {
            for (int bch = -1; bch < Rows.NBATCH; bch++) {
                int n = bch < 0 ? warm : per;
                comm.barrier();
                long jit = Rows.BATCHES ? Rows.compileMillis() : 0;
                long t0 = System.nanoTime();
                if (rank == 0) {
                    // pre-post the reply receive, start the send: Startall/Waitall
                    for (int i = 0; i < n; i++) {
                        Request.startAll(req);
                        Request.waitAll(req);
                    }
                } else {
                    // the echo side must receive before it sends
                    for (int i = 0; i < n; i++) {
                        rr.start();
                        rr.waitFor();
                        sr.start();
                        sr.waitFor();
                    }
                }
                long el = System.nanoTime() - t0;
                if (bch >= 0) {
                    bt[bch] = el * 1e-3 / (2.0 * per);
                }
                Rows.batch("persistent", size, bch, el * 1e-3 / (2.0 * n), jit);
            }
        } finally {
            rr.free();
            sr.free();
        }
        return Rows.median(bt);
    }
}
