package org.hympj.perf;

import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;

/**
 * Rank program: the 3D halo exchange of the anchor {@code halo3d.c}, mode "ghost".
 *
 * <p>8 ranks on a 2×2×2 periodic grid (rank = x*4 + y*2 + z, row-major as MPI_Cart_create
 * without reordering). Each rank owns an N³ block of doubles b[i][j][k] (k fastest) and sends
 * its 6 faces: i-faces contiguous ({@code DOUBLE} × N*N), j-faces block-strided
 * ({@code DOUBLE.vector(N, N, N*N)}), k-faces element-strided ({@code DOUBLE.vector(N*N, 1, N)}),
 * received into six contiguous N*N ghost buffers. 12 persistent requests, loop
 * {@code Request.startAll} + {@code Request.waitAll}. Timing: barrier, warm-up, barrier,
 * timed iterations; value = max over ranks of elapsed / iterations in µs (reduced onto rank 0
 * with MAX, as the anchor); then a barrier before the next size's set-up (see {@code run}). The
 * anchor's sanity check (the ghost from the low neighbour in dimension 0 equals that neighbour's
 * high i-face) is done on every rank; a wrong value fails the job.
 *
 * <pre>usage (8 ranks): Halo3d ghost REP heap|segment|both N...</pre>
 * env ANCHOR_ITER_DIV=d divides warm-up/iteration counts (min 2/5), as in the anchor.
 */
public final class Halo3d {
    static final int[] DIMS = {2, 2, 2};

    private Halo3d() {
    }

    static int[] coords(int rank) {
        return new int[] {rank / (DIMS[1] * DIMS[2]), (rank / DIMS[2]) % DIMS[1], rank % DIMS[2]};
    }

    static int rankOf(int[] c) {
        return (c[0] * DIMS[1] + c[1]) * DIMS[2] + c[2];
    }

    /** MPI_Cart_shift(d, disp) on the periodic grid: the rank {@code disp} steps along dimension d. */
    static int shift(int rank, int d, int disp) {
        int[] c = coords(rank);
        c[d] = Math.floorMod(c[d] + disp, DIMS[d]);
        return rankOf(c);
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: Halo3d ghost REP heap|segment|both N...");
        }
        String mode = args[0];
        if (!mode.equals("ghost")) {
            throw new IllegalArgumentException("only mode 'ghost' is implemented (the anchor's 'typed' is not yet), was "
                + mode);
        }
        int rep = Integer.parseInt(args[1]);
        List<BufferKind> kinds = BufferKind.parse(args[2]);
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            int np = DIMS[0] * DIMS[1] * DIMS[2];
            if (comm.size() != np) {
                throw new IllegalStateException("halo3d needs exactly " + np + " ranks, the job has " + comm.size());
            }
            if (comm.rank() == 0) {
                System.err.println("# halo3d mode=" + mode + " buffers=" + BufferKind.format(kinds));
            }
            for (BufferKind kind : kinds) {
                if (Rows.PREPASS) {
                    run(comm, kind, mode, rep, Integer.parseInt(args[3]), false); // untimed JIT pre-pass (opt-in)
                }
                for (int a = 3; a < args.length; a++) {
                    int n = Integer.parseInt(args[a]);
                    run(comm, kind, mode, rep, n, true);
                }
            }
        }
    }

    /** {@code -Dhympj.halo3d.corruptGhostOfRank=R}: rank R spoils its ghost before the check, for the check's own test. */
    static final int CORRUPT_GHOST_OF_RANK = Integer.getInteger("hympj.halo3d.corruptGhostOfRank", -1);

    static void run(Comm comm, BufferKind kind, String mode, int rep, int n, boolean print) {
        int rank = comm.rank();
        long n3l = (long) n * n * n;
        if (n3l > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("N=" + n + " is too large for one Java array");
        }
        int n3 = (int) n3l;
        int n2 = n * n;
        int warm;
        int iters;
        if (n <= 16) {
            warm = 200;
            iters = 2000;
        } else if (n <= 32) {
            warm = 100;
            iters = 1000;
        } else if (n <= 64) {
            warm = 20;
            iters = 200;
        } else {
            warm = 5;
            iters = 50;
        }
        String div = System.getenv("ANCHOR_ITER_DIV");
        if (div != null && !div.isEmpty()) {
            int dv = Integer.parseInt(div.trim());
            if (dv > 1) {
                warm = Math.max(2, warm / dv);
                iters = Math.max(5, iters / dv);
            }
        }

        Object b = field(comm, kind, n3);
        Object ghost = zeroed(comm, kind, 6 * n2); // the ghosts

        Datatype[] ftype = {
            Datatype.DOUBLE,                          // i-faces: contiguous, count N*N
            Datatype.DOUBLE.vector(n, n, n2),         // j-faces: N blocks of N
            Datatype.DOUBLE.vector(n2, 1, n)          // k-faces: N*N single doubles, stride N
        };
        int[] fcount = {n2, 1, 1};
        int[] lowoff = {0, 0, 0};
        int[] highoff = {(n - 1) * n2, (n - 1) * n, n - 1};

        PersistentRequest[] req = new PersistentRequest[12];
        int nr = 0;
        for (int d = 0; d < 3; d++) {
            int lo = shift(rank, d, -1);
            int hi = shift(rank, d, +1);
            // tag = 2*d + direction; what I send to hi arrives at hi's "from low" slot
            req[nr++] = comm.recvInit(ghost, (2 * d) * n2, n2, Datatype.DOUBLE, lo, 2 * d);
            req[nr++] = comm.recvInit(ghost, (2 * d + 1) * n2, n2, Datatype.DOUBLE, hi, 2 * d + 1);
            req[nr++] = comm.sendInit(b, highoff[d], fcount[d], ftype[d], hi, 2 * d);
            req[nr++] = comm.sendInit(b, lowoff[d], fcount[d], ftype[d], lo, 2 * d + 1);
        }

        long t0 = 0;
        comm.barrier();
        for (int it = 0; it < warm + iters; it++) {
            if (it == warm) {
                comm.barrier();
                t0 = System.nanoTime();
            }
            Request.startAll(req);
            Request.waitAll(req);
        }
        double el = (System.nanoTime() - t0) * 1e-9;

        // sanity check: ghost from the low neighbour in dim 0 must equal its high i-face
        int lo0 = shift(rank, 0, -1);
        double expect = lo0 + ((long) (n - 1) * n2) * 1e-9;
        if (rank == CORRUPT_GHOST_OF_RANK) {
            // the test of the check (Halo3dBenchTest): this rank's ghost as if its face had come wrong
            if (kind == BufferKind.HEAP) {
                ((double[]) ghost)[0] = expect + 1;
            } else {
                ((SegmentBuffer) ghost).putDouble(0, expect + 1);
            }
        }
        double got = kind == BufferKind.HEAP ? ((double[]) ghost)[0] : ((SegmentBuffer) ghost).getDouble(0);
        double bad = got != expect ? 1 : 0;

        // max over ranks onto rank 0, as the anchor's two MPI_Reduce calls (a send/recv gather, which let
        // every rank but 0 go on at once, read the first pass 9 % slower: docs/PERFORMANCE.md, session 20)
        if (bad != 0) {
            System.err.println("halo3d: rank " + rank + " N=" + n + " (" + kind.label() + " buffers): ghost " + got
                + ", expected " + expect);
        }
        double[] mine = {el, bad};
        double[] max = new double[2];
        comm.reduce(mine, 0, max, 0, 1, Datatype.DOUBLE, Op.MAX, 0);
        comm.reduce(mine, 1, max, 1, 1, Datatype.DOUBLE, Op.MAX, 0);
        // nobody goes on to the next size's set-up while a rank is still in its timed loop: the reduce
        // lets its leaves go at once, and their set-up (cold Java: the field's first loop, new persistent
        // requests, at N = 128 a collection of the young generation) took the cores of ranks still in their
        // last iterations for milliseconds (loop ends 2.6-9.1 ms apart, 0.3-0.8 with this barrier; N = 64
        // 143-173 against 198-216 us: docs/PERFORMANCE.md, session 21). Outside the timed window: the
        // anchor's C set-up is microseconds, so it needs none.
        comm.barrier();
        if (rank == 0) {
            if (max[1] != 0) {
                // fail loudly: no row for a wrong exchange, and the job exits non-zero
                throw new IllegalStateException("halo3d data check FAILED for N=" + n + " (" + kind.label()
                    + " buffers): the ranks' messages above say which");
            }
            if (print) {
                Rows.print(Rows.row("halo3d-" + mode, kind.label(), n, rep, max[0] * 1e6 / iters, 2, "us/iter"));
            }
        }
        for (int r = 0; r < nr; r++) {
            req[r].free();
        }
    }

    /** The halo's field of {@code n3} doubles, heap or segment: b[x] = rank + x·1e-9 (the anchor's values). */
    static Object field(Comm comm, BufferKind kind, int n3) {
        int rank = comm.rank();
        if (kind == BufferKind.HEAP) {
            double[] bh = new double[n3];
            for (int x = 0; x < n3; x++) {
                bh[x] = rank + x * 1e-9;
            }
            return bh;
        }
        SegmentBuffer bs = comm.allocDoubles(n3);
        java.nio.DoubleBuffer db = bs.bytes().asDoubleBuffer();
        for (int x = 0; x < n3; x++) {
            db.put(x, rank + x * 1e-9);
        }
        return bs;
    }

    /** {@code n} zeroed doubles, heap or segment. */
    static Object zeroed(Comm comm, BufferKind kind, int n) {
        return kind == BufferKind.HEAP ? new double[n] : comm.allocDoubles(n);
    }
}
