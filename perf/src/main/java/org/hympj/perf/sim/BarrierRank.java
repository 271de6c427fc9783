package org.hympj.perf.sim;

import java.util.Locale;
import org.hympj.api.Comm;
import org.hympj.api.Mpj;
import org.hympj.perf.Rows;

/**
 * Emulated counterpart of the simulator's {@code barrier} pattern with few iterations (the
 * {@code Collective} benchmark runs 22,000 barriers, too many under a high time dilation): a
 * barrier, {@code WARMUP} barriers of ALGO, then {@code ITERS} timed ones; rank 0's elapsed
 * {@link Comm#wtime()} (modelled time under a model) ÷ ITERS, in µs; a remark gives the fastest
 * single barrier too (scheduling noise of a loaded machine only ever adds time).
 *
 * <pre>usage: BarrierRank ALGO WARMUP ITERS     (ALGO: dissemination | rd | ring)</pre>
 * Prints {@code hympj,barrier,ALGO,NP,1,us,us}.
 */
public final class BarrierRank {
    private BarrierRank() {
    }

    public static void main(String[] args) {
        Comm.BarrierAlgorithm a;
        switch (args[0]) {
            case "ring":
                a = Comm.BarrierAlgorithm.RING;
                break;
            case "rd":
                a = Comm.BarrierAlgorithm.RECURSIVE_DOUBLING;
                break;
            default:
                a = Comm.BarrierAlgorithm.DISSEMINATION;
        }
        int warm = Integer.parseInt(args[1]);
        int iters = Integer.parseInt(args[2]);
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            comm.barrier();
            for (int i = 0; i < warm; i++) {
                comm.barrier(a);
            }
            double t0 = comm.wtime();
            double min = Double.MAX_VALUE;
            for (int i = 0; i < iters; i++) {
                double b = comm.wtime();
                comm.barrier(a);
                min = Math.min(min, comm.wtime() - b);
            }
            double us = (comm.wtime() - t0) * 1e6 / iters;
            if (comm.rank() == 0) {
                Rows.print(Rows.row("barrier", args[0], comm.size(), 1, us, 3, "us"));
                System.out.printf(Locale.ROOT, "# barrier %s np %d: mean %.3f min %.3f us over %d timed after %d "
                    + "warm-up%n", args[0], comm.size(), us, min * 1e6, iters, warm);
            }
        }
    }
}
