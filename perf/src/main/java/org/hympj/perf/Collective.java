package org.hympj.perf;

import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;

/**
 * Rank program: collective latencies, timed exactly as the anchors {@code perf/anchors/allreduce.c}
 * and {@code perf/anchors/barrier.c} (modelled on {@code pingpong.c}): per size a warm-up batch
 * and 5 timed batches, a barrier before each, value = rank 0's median batch time divided by
 * the batch's iterations, in µs.
 *
 * <pre>
 * usage: Collective allreduce REP heap SIZE...          (SIZE in bytes of DOUBLE data, SUM)
 *        Collective barrier[=ALGO] REP heap NP          (ALGO: dissemination | rd | ring | default)
 * </pre>
 *
 * <p>allreduce: {@code allreduce(send, 0, recv, 0, SIZE/8, DOUBLE, SUM)} on Java arrays
 * (reductions take arrays only); prints {@code hympj,allreduce,heap,SIZE,REP,us,us}.
 * barrier: {@code barrier(ALGO)} (the job's default {@code barrier()} for "default"); prints
 * {@code hympj,barrier,ALGO,NP,REP,us,us} — the size column holds the rank count, as the
 * barrier anchor's does.
 */
public final class Collective {
    private Collective() {
    }

    /** Warm-up and timed iteration counts of allreduce per size, as {@code iters_for} in allreduce.c. */
    static int[] allreduceIters(long size) {
        if (size <= 8192) {
            return new int[] {2000, 20000};
        } else if (size <= 65536) {
            return new int[] {200, 2000};
        } else if (size <= 1048576) {
            return new int[] {20, 200};
        }
        return new int[] {5, 50};
    }

    /** Warm-up and timed iteration counts of barrier, as barrier.c. */
    static final int[] BARRIER_ITERS = {2000, 20000};

    /** The algorithm of a "barrier=X" mode argument; null for the job's default. */
    static Comm.BarrierAlgorithm algorithm(String label) {
        switch (label) {
            case "dissemination":
                return Comm.BarrierAlgorithm.DISSEMINATION;
            case "rd":
                return Comm.BarrierAlgorithm.RECURSIVE_DOUBLING;
            case "ring":
                return Comm.BarrierAlgorithm.RING;
            case "shm":
                return Comm.BarrierAlgorithm.SHARED_MEMORY;
            case "default":
                return null;
            default:
                throw new IllegalArgumentException("barrier algorithm must be dissemination, rd, ring, shm or default, was "
                    + label);
        }
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: Collective allreduce|barrier[=ALGO] REP heap SIZE...");
        }
        String mode = args[0];
        int rep = Integer.parseInt(args[1]);
        List<BufferKind> kinds = BufferKind.parse(args[2]);
        if (kinds.contains(BufferKind.SEGMENT)) {
            throw new IllegalArgumentException("collective benchmarks use heap buffers only (reductions take arrays)");
        }
        List<Long> sizes = new ArrayList<>();
        for (int a = 3; a < args.length; a++) {
            sizes.add(Long.parseLong(args[a]));
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (mode.equals("allreduce")) {
                long max = 8;
                for (long s : sizes) {
                    max = Math.max(max, s);
                }
                double[] in = new double[(int) (max / 8)];
                double[] out = new double[in.length];
                for (int i = 0; i < in.length; i++) {
                    in[i] = comm.rank() + i * 1e-3;
                }
                if (Rows.PREPASS) {
                    allreduce(comm, in, out, sizes.get(0));
                }
                for (long size : sizes) {
                    double t = allreduce(comm, in, out, size);
                    if (comm.rank() == 0) {
                        Rows.print(Rows.row("allreduce", "heap", size, rep, t, 3, "us"));
                    }
                }
            } else if (mode.equals("barrier") || mode.startsWith("barrier=")) {
                String label = mode.equals("barrier") ? "default" : mode.substring("barrier=".length());
                Comm.BarrierAlgorithm a = algorithm(label);
                for (long size : sizes) {
                    if (size != comm.size()) {
                        throw new IllegalArgumentException("barrier: the size column is the rank count; asked for "
                            + size + " in a job of " + comm.size());
                    }
                }
                if (Rows.PREPASS) {
                    barrier(comm, a);
                }
                double t = barrier(comm, a);
                if (comm.rank() == 0) {
                    Rows.print(Rows.row("barrier", label, comm.size(), rep, t, 3, "us"));
                }
            } else {
                throw new IllegalArgumentException("mode must be allreduce or barrier[=ALGO], was " + mode);
            }
        }
    }

    /** Median over 5 batches of µs per allreduce of size/8 doubles. */
    static double allreduce(Comm comm, double[] in, double[] out, long size) {
        int n = (int) (size / 8);
        int[] wi = allreduceIters(size);
        int per = wi[1] / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int iters = bch < 0 ? wi[0] : per;
            comm.barrier();
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                comm.allreduce(in, 0, out, 0, n, Datatype.DOUBLE, Op.SUM);
            }
            long el = System.nanoTime() - t0;
            if (bch >= 0) {
                bt[bch] = el * 1e-3 / per;
            }
        }
        return Rows.median(bt);
    }

    /** Median over 5 batches of µs per barrier (null: the job's default). */
    static double barrier(Comm comm, Comm.BarrierAlgorithm a) {
        int per = BARRIER_ITERS[1] / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int iters = bch < 0 ? BARRIER_ITERS[0] : per;
            comm.barrier();
            long t0 = System.nanoTime();
            if (a == null) {
                for (int i = 0; i < iters; i++) {
                    comm.barrier();
                }
            } else {
                for (int i = 0; i < iters; i++) {
                    comm.barrier(a);
                }
            }
            long el = System.nanoTime() - t0;
            if (bch >= 0) {
                bt[bch] = el * 1e-3 / per;
            }
        }
        return Rows.median(bt);
    }
}
