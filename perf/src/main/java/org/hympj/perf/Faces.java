package org.hympj.perf;

import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.SegmentBuffer;

/**
 * Rank program of {@code bin/hympj-bench jface} and {@code kface}: a halo face ping-pong
 * between ranks 0 and 1, timed exactly as the anchor {@code perf/anchors/faces.c} (warm-up
 * and 5 batches as {@link PingPong}, the counts by the face's bytes). Each rank holds N³
 * doubles; a round trip sends one face of them in its derived datatype and receives the
 * peer's into a contiguous ghost of N² doubles:
 * <ul>
 * <li>{@code j}: {@code vector(N, N, N²)}, blocks of N doubles (a block-stride face);</li>
 * <li>{@code k}: {@code vector(N², 1, N)}, single doubles N apart (an element-stride face).</li>
 * </ul>
 * With segment buffers and a core per rank the receiver pulls the face reading the sender's
 * layout in place; from heap arrays the sender packs it.
 *
 * <pre>usage (2 ranks): Faces j|k REP heap|segment|both N...</pre>
 * Prints {@code hympj,face-<j|k>,<heap|segment>,N,rep,us,us} from rank 0; checks the ghost.
 */
public final class Faces {
    private Faces() {
    }

    public static void main(String[] args) {
        if (args.length < 4 || !(args[0].equals("j") || args[0].equals("k"))) {
            throw new IllegalArgumentException("usage: Faces j|k REP heap|segment|both N...");
        }
        boolean kface = args[0].equals("k");
        int rep = Integer.parseInt(args[1]);
        List<BufferKind> kinds = BufferKind.parse(args[2]);
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (comm.size() != 2) {
                throw new IllegalStateException("jface/kface need exactly 2 ranks, the job has " + comm.size());
            }
            int rank = comm.rank();
            for (BufferKind kind : kinds) {
                for (int a = 3; a < args.length; a++) {
                    int n = Integer.parseInt(args[a]);
                    double t = run(comm, kind, kface, n);
                    if (rank == 0) {
                        Rows.print(Rows.row(kface ? "face-k" : "face-j", kind.label(), n, rep, t, 3, "us"));
                    }
                }
            }
            Rows.printBatches();
        }
    }

    private static double run(Comm comm, BufferKind kind, boolean kface, int n) {
        int rank = comm.rank();
        int peer = 1 - rank;
        int n2 = n * n;
        int n3 = Math.multiplyExact(n2, n);
        Object b = Halo3d.field(comm, kind, n3);
        Object ghost = Halo3d.zeroed(comm, kind, n2);
        Datatype face = kface ? Datatype.DOUBLE.vector(n2, 1, n) : Datatype.DOUBLE.vector(n, n, n2);
        int[] wi = PingPong.itersFor(8L * n2);
        int per = wi[1] / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int k = bch < 0 ? wi[0] : per;
            comm.barrier();
            long jit = Rows.BATCHES ? Rows.batchStart() : 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < k; i++) {
                if (rank == 0) {
                    comm.send(b, 0, 1, face, peer, 1);
                    comm.recv(ghost, 0, n2, Datatype.DOUBLE, peer, 1, null);
                } else {
                    comm.recv(ghost, 0, n2, Datatype.DOUBLE, peer, 1, null);
                    comm.send(b, 0, 1, face, peer, 1);
                }
            }
            long el = System.nanoTime() - t0;
            if (bch >= 0) {
                bt[bch] = el * 1e-3 / (2.0 * per);
            }
            Rows.batch(kface ? "face-k" : "face-j", n, bch, el * 1e-3 / (2.0 * k), jit);
        }
        // the anchor's check: the last ghost element is the peer's last face element
        long last = kface ? (long) (n2 - 1) * n : (long) (n - 1) * n2 + n - 1;
        double got = ghost instanceof double[] ? ((double[]) ghost)[n2 - 1] : ((SegmentBuffer) ghost).getDouble(n2 - 1);
        if (got != peer + last * 1e-9) {
            throw new IllegalStateException("face-" + (kface ? "k" : "j") + " data check FAILED for N=" + n + " ("
                + kind.label() + "): ghost " + got + ", expected " + (peer + last * 1e-9));
        }
        return Rows.median(bt);
    }
}
