package org.hympj.perf;

import java.util.List;
import java.util.Locale;
import mpi.MPI;
import mpi.Prequest;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;

/**
 * Rank program of {@code bin/hympj-bench facade-pingpong} and {@code facade-halo3d} (issue 16):
 * what the mpiJava facade (package {@code mpi}) adds to the core API, measured in one launch.
 * The same exchange is timed through the core ({@code org.hympj.api}, as the pingpong and
 * halo3d benchmarks call it) and through the facade ({@code MPI.COMM_WORLD.Send/Recv},
 * {@code Recv_init/Send_init}, {@code Prequest.Startall}, {@code Request.Waitall}) in
 * alternating batches — core first in even rounds, facade first in odd ones, so neither gains
 * from going second — after a warm-up of both.
 *
 * <pre>usage: FacadeCompare pingpong|halo3d REP heap SIZE...</pre>
 *
 * <p>pingpong (2 ranks, BYTE messages, the iteration counts of {@link PingPong}; a variant's
 * figure in a round is the median of its 5 batches, as the pingpong benchmark's figure is): the
 * core's blocking {@code send} and {@code recv(..., null)}, the facade's {@code Send} and
 * {@code Recv} (which returns a new {@code Status}, as mpiJava's does). halo3d (8 ranks, N³ doubles, the
 * faces and counts of {@link Halo3d}): 12 persistent requests, Startall + Waitall, every
 * iteration; halo3d also through {@code Request.Waitall(requests, statuses)} (the caller's
 * statuses reused: variant {@code mpi-statuses}, ratio {@code ratio-statuses}). Rows:
 * {@code hympj,facade-TEST,core|mpi,SIZE,REP,us,us} (median over the rounds
 * of each variant's batch figure) and {@code hympj,facade-TEST,ratio,SIZE,REP,x,ratio} (the
 * median over the rounds of facade ÷ core within a round: the two batches of a round ran
 * seconds apart at most, so a drift of the machine cancels). The data is checked: a wrong
 * value fails the job.
 */
public final class FacadeCompare {
    static final int ROUNDS = 10;

    private FacadeCompare() {
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: FacadeCompare pingpong|halo3d REP heap SIZE...");
        }
        String test = args[0];
        int rep = Integer.parseInt(args[1]);
        if (BufferKind.parse(args[2]).contains(BufferKind.SEGMENT)) {
            throw new IllegalArgumentException("facade comparisons use heap buffers (mpiJava programs pass Java arrays)");
        }
        String[] rest = MPI.Init(args);
        try {
            Comm core = MPI.COMM_WORLD.core();
            for (int a = 3; a < rest.length; a++) {
                int size = Integer.parseInt(rest[a]);
                double[][] t;
                switch (test) {
                    case "pingpong":
                        t = pingpong(core, size);
                        break;
                    case "halo3d":
                        t = halo3d(core, size);
                        break;
                    default:
                        throw new IllegalArgumentException("test must be pingpong or halo3d, was " + test);
                }
                if (core.rank() == 0) {
                    report(test, size, rep, t[0], t[1], "mpi", "ratio");
                    if (t.length > 2) {
                        report(test, size, rep, t[0], t[2], "mpi-statuses", "ratio-statuses");
                    }
                }
            }
        } finally {
            MPI.Finalize();
        }
    }

    private static void report(String test, int size, int rep, double[] coreUs, double[] mpiUs, String variant,
                               String ratioName) {
        double[] ratio = new double[coreUs.length];
        for (int r = 0; r < ratio.length; r++) {
            ratio[r] = mpiUs[r] / coreUs[r];
        }
        int decimals = test.equals("halo3d") ? 2 : 3;
        String unit = test.equals("halo3d") ? "us/iter" : "us";
        if (variant.equals("mpi")) {
            Rows.print(Rows.row("facade-" + test, "core", size, rep, Rows.median(coreUs), decimals, unit));
        }
        Rows.print(Rows.row("facade-" + test, variant, size, rep, Rows.median(mpiUs), decimals, unit));
        Rows.print(Rows.row("facade-" + test, ratioName, size, rep, Rows.median(ratio), 4, "ratio"));
        System.out.println(String.format(Locale.ROOT, "# facade-%s %d: per-round %s/core %s", test, size, variant,
            java.util.Arrays.toString(round3(ratio))));
    }

    private static double[] round3(double[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = Math.round(v[i] * 1000) / 1000.0;
        }
        return r;
    }

    // ------------------------------------------------------------------ ping-pong

    /** Per round: {core µs, facade µs} of one batch each, half round trips. */
    static double[][] pingpong(Comm core, int size) {
        if (core.size() != 2) {
            throw new IllegalStateException("facade-pingpong needs exactly 2 ranks, the job has " + core.size());
        }
        int[] wi = PingPong.itersFor(size);
        int per = wi[1] / Rows.NBATCH;
        byte[] sbuf = new byte[size];
        byte[] rbuf = new byte[size];
        int rank = core.rank();
        corePingpong(core, rank, sbuf, rbuf, size, wi[0]);
        facadePingpong(rank, sbuf, rbuf, size, wi[0]);
        double[][] t = new double[2][ROUNDS];
        double[] batches = new double[Rows.NBATCH];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < 2; k++) {
                boolean facade = (r + k) % 2 == 1; // core first in even rounds, facade first in odd ones
                for (int b = 0; b < batches.length; b++) {
                    batches[b] = facade ? facadePingpong(rank, sbuf, rbuf, size, per)
                        : corePingpong(core, rank, sbuf, rbuf, size, per);
                }
                t[facade ? 1 : 0][r] = Rows.median(batches);
            }
        }
        return t;
    }

    private static double corePingpong(Comm c, int rank, byte[] sbuf, byte[] rbuf, int size, int n) {
        c.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                sbuf[0] = (byte) i;
                c.send(sbuf, 0, size, Datatype.BYTE, 1, 1);
                c.recv(rbuf, 0, size, Datatype.BYTE, 1, 1, null);
                check(rbuf[0] == (byte) (i + 1), "ping-pong (core)");
            } else {
                c.recv(rbuf, 0, size, Datatype.BYTE, 0, 1, null);
                sbuf[0] = (byte) (rbuf[0] + 1);
                c.send(sbuf, 0, size, Datatype.BYTE, 0, 1);
            }
        }
        return (System.nanoTime() - t0) * 1e-3 / (2.0 * n);
    }

    private static double facadePingpong(int rank, byte[] sbuf, byte[] rbuf, int size, int n) {
        mpi.Intracomm w = MPI.COMM_WORLD;
        w.Barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                sbuf[0] = (byte) i;
                w.Send(sbuf, 0, size, MPI.BYTE, 1, 1);
                w.Recv(rbuf, 0, size, MPI.BYTE, 1, 1);
                check(rbuf[0] == (byte) (i + 1), "ping-pong (facade)");
            } else {
                w.Recv(rbuf, 0, size, MPI.BYTE, 0, 1);
                sbuf[0] = (byte) (rbuf[0] + 1);
                w.Send(sbuf, 0, size, MPI.BYTE, 0, 1);
            }
        }
        return (System.nanoTime() - t0) * 1e-3 / (2.0 * n);
    }

    // ------------------------------------------------------------------ halo3d

    /** Per round: {core, facade} µs per iteration of one batch each (max over ranks). */
    static double[][] halo3d(Comm core, int n) {
        int np = Halo3d.DIMS[0] * Halo3d.DIMS[1] * Halo3d.DIMS[2];
        if (core.size() != np) {
            throw new IllegalStateException("facade-halo3d needs exactly " + np + " ranks, the job has " + core.size());
        }
        int rank = core.rank();
        int n2 = n * n;
        int n3 = Math.toIntExact((long) n * n * n);
        double[] b = new double[n3];
        for (int x = 0; x < n3; x++) {
            b[x] = rank + x * 1e-9;
        }
        double[] coreGhost = new double[6 * n2];
        double[] mpiGhost = new double[6 * n2];
        int[] lowoff = {0, 0, 0};
        int[] highoff = {(n - 1) * n2, (n - 1) * n, n - 1};
        int[] fcount = {n2, 1, 1};
        Datatype[] coreType = {Datatype.DOUBLE, Datatype.DOUBLE.vector(n, n, n2), Datatype.DOUBLE.vector(n2, 1, n)};
        mpi.Datatype[] mpiType = {MPI.DOUBLE, mpi.Datatype.Vector(n, n, n2, MPI.DOUBLE),
            mpi.Datatype.Vector(n2, 1, n, MPI.DOUBLE)};
        for (mpi.Datatype t : mpiType) {
            t.Commit();
        }
        PersistentRequest[] coreReq = new PersistentRequest[12];
        Prequest[] mpiReq = new Prequest[12];
        int k = 0;
        for (int d = 0; d < 3; d++) {
            int lo = Halo3d.shift(rank, d, -1);
            int hi = Halo3d.shift(rank, d, +1);
            coreReq[k] = core.recvInit(coreGhost, (2 * d) * n2, n2, Datatype.DOUBLE, lo, 2 * d);
            mpiReq[k++] = MPI.COMM_WORLD.Recv_init(mpiGhost, (2 * d) * n2, n2, MPI.DOUBLE, lo, 2 * d);
            coreReq[k] = core.recvInit(coreGhost, (2 * d + 1) * n2, n2, Datatype.DOUBLE, hi, 2 * d + 1);
            mpiReq[k++] = MPI.COMM_WORLD.Recv_init(mpiGhost, (2 * d + 1) * n2, n2, MPI.DOUBLE, hi, 2 * d + 1);
            coreReq[k] = core.sendInit(b, highoff[d], fcount[d], coreType[d], hi, 2 * d);
            mpiReq[k++] = MPI.COMM_WORLD.Send_init(b, highoff[d], fcount[d], mpiType[d], hi, 2 * d);
            coreReq[k] = core.sendInit(b, lowoff[d], fcount[d], coreType[d], lo, 2 * d + 1);
            mpiReq[k++] = MPI.COMM_WORLD.Send_init(b, lowoff[d], fcount[d], mpiType[d], lo, 2 * d + 1);
        }
        int[] counts = haloIters(n);
        int per = Math.max(1, counts[1] / Rows.NBATCH);
        mpi.Status[] statuses = new mpi.Status[12];
        coreHalo(core, coreReq, counts[0]);
        facadeHalo(mpiReq, counts[0], null);
        facadeHalo(mpiReq, counts[0], statuses);
        double[][] t = new double[3][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int q = 0; q < 3; q++) { // the order turns with the round
                int v = (r + q) % 3;
                t[v][r] = maxOver(core, v == 0 ? coreHalo(core, coreReq, per)
                    : facadeHalo(mpiReq, per, v == 1 ? null : statuses));
            }
        }
        check(statuses[0].source == Halo3d.shift(rank, 0, -1) && statuses[5].index == 5,
            "halo3d: the caller's statuses (" + statuses[0] + ", " + statuses[5] + ")");
        // the anchor's check on both ghosts: from the low neighbour in dimension 0, its high i-face
        double expect = Halo3d.shift(rank, 0, -1) + ((long) (n - 1) * n2) * 1e-9;
        check(coreGhost[0] == expect, "halo3d ghost (core) " + coreGhost[0] + ", expected " + expect);
        check(mpiGhost[0] == expect, "halo3d ghost (facade) " + mpiGhost[0] + ", expected " + expect);
        check(java.util.Arrays.equals(coreGhost, mpiGhost), "halo3d: the facade's ghosts differ from the core's");
        for (int i = 0; i < 12; i++) {
            coreReq[i].free();
            mpiReq[i].Free();
        }
        return t;
    }

    /** The anchor's iteration counts (warm-up, timed) per N, as {@link Halo3d} uses them. */
    static int[] haloIters(int n) {
        if (n <= 16) {
            return new int[] {200, 2000};
        } else if (n <= 32) {
            return new int[] {100, 1000};
        } else if (n <= 64) {
            return new int[] {20, 200};
        }
        return new int[] {5, 50};
    }

    private static double coreHalo(Comm c, PersistentRequest[] req, int iters) {
        c.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            Request.startAll(req);
            Request.waitAll(req);
        }
        return (System.nanoTime() - t0) * 1e-3 / iters;
    }

    /** {@code statuses} null: {@code Waitall(req)} (new statuses each call), else {@code Waitall(req, statuses)}. */
    private static double facadeHalo(Prequest[] req, int iters, mpi.Status[] statuses) {
        MPI.COMM_WORLD.Barrier();
        long t0 = System.nanoTime();
        if (statuses == null) {
            for (int i = 0; i < iters; i++) {
                Prequest.Startall(req);
                mpi.Request.Waitall(req);
            }
        } else {
            for (int i = 0; i < iters; i++) {
                Prequest.Startall(req);
                mpi.Request.Waitall(req, statuses);
            }
        }
        return (System.nanoTime() - t0) * 1e-3 / iters;
    }

    /** The largest of every rank's figure (every rank gets it). */
    private static double maxOver(Comm c, double mine) {
        double[] in = {mine};
        double[] out = new double[1];
        c.allreduce(in, 0, out, 0, 1, Datatype.DOUBLE, org.hympj.api.Op.MAX);
        return out[0];
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("facade comparison: data check FAILED: " + what);
        }
    }
}
