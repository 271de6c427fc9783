package org.hympj.shm.coll;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.Arrays;
import java.util.Random;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: floating-point reductions give the same bits on every rank and in every run.
 * The inputs make the summation order matter (1e16, 1.0, -1e16, …; random values with
 * exponents from 2^-40 to 2^40; products of random mantissas), which the program confirms by
 * summing them serially forwards and backwards. For every communicator size k = 1 … np
 * (split of the first k world ranks) it runs allreduce (SUM and PROD of DOUBLE, SUM of FLOAT,
 * also IN_PLACE and repeated) and reduce at roots 0 and k-1, checks that repeated and IN_PLACE
 * calls give the same bits, gathers every rank's bits with allgather and compares them with its
 * own, and prints {@code BITS <what> k=<k> <hex…>} (every member), which the JUnit side
 * compares across ranks and across launches.
 *
 * <p>Argument {@code jitter}: every rank sleeps a random 0–3 ms before each reduction, so the
 * order in which contributions arrive differs from the plain launch; the bits must not.
 */
public final class DeterministicRank {
    static final String[] SCENARIOS = {"order-sensitive-inputs", "bitwise-identical"};
    static final int N = 40;

    private static Random jitter;

    public static void main(String[] args) throws InterruptedException {
        if (Arrays.asList(args).contains("jitter")) {
            jitter = new Random(System.nanoTime());
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            int np = world.size();
            // the inputs are order-sensitive: forward and backward serial sums differ
            int differ = 0;
            for (int i = 0; i < N; i++) {
                double fwd = 0;
                double bwd = 0;
                for (int r = 0; r < np; r++) {
                    fwd += sumInput(r, i);
                    bwd += sumInput(np - 1 - r, i);
                }
                if (Double.doubleToRawLongBits(fwd) != Double.doubleToRawLongBits(bwd)) {
                    differ++;
                }
            }
            print("ORDER-SENSITIVE " + differ + " of " + N + " sums depend on the order over " + np + " ranks");
            check(np < 3 || differ >= N / 4, "only %d of %d sums depend on the order: the test would prove little",
                differ, N);
            pass("order-sensitive-inputs");
            for (int k = 1; k <= np; k++) {
                Comm c = world.split(world.rank() < k ? 0 : Comm.UNDEFINED, world.rank());
                if (c != null) {
                    check(c.size() == k, "split gave %d ranks, expected %d", c.size(), k);
                    run(c, k);
                }
                world.barrier();
            }
            pass("bitwise-identical");
        }
        pass(MultiRank.FINALIZED);
    }

    /** Element i of rank r for sums: cancelling giants, ones and wide-exponent random values. */
    static double sumInput(int r, int i) {
        if (i == 0) {
            return r == 0 ? 1e16 : r == 2 ? -1e16 : 1.0;
        }
        if (i == 1) {
            return (r % 2 == 0 ? 1e16 : -1e16) + r;
        }
        Random g = new Random(1000L * r + i);
        double m = 1 + g.nextDouble();
        int e = g.nextInt(81) - 40;
        return (g.nextBoolean() ? m : -m) * Math.scalb(1.0, e);
    }

    /** Element i of rank r for products: random mantissas in [0.5, 2), every product rounds. */
    static double prodInput(int r, int i) {
        Random g = new Random(7919L * r + 31L * i + 5);
        return 0.5 + 1.5 * g.nextDouble();
    }

    private static void pause() throws InterruptedException {
        if (jitter != null) {
            Thread.sleep(jitter.nextInt(4));
        }
    }

    static void run(Comm c, int k) throws InterruptedException {
        int me = c.rank();
        double[] sum = new double[N];
        double[] prod = new double[N];
        float[] fsum = new float[N];
        for (int i = 0; i < N; i++) {
            sum[i] = sumInput(me, i);
            prod[i] = prodInput(me, i);
            fsum[i] = (float) sumInput(me, i);
        }
        double[] a = new double[N];
        pause();
        c.allreduce(sum, 0, a, 0, N, Datatype.DOUBLE, Op.SUM);
        double[] again = new double[N];
        pause();
        c.allreduce(sum, 0, again, 0, N, Datatype.DOUBLE, Op.SUM);
        double[] inPlace = sum.clone();
        pause();
        c.allreduce(Comm.IN_PLACE, 0, inPlace, 0, N, Datatype.DOUBLE, Op.SUM);
        same(a, again, "allreduce SUM repeated", k, me);
        same(a, inPlace, "allreduce SUM IN_PLACE vs not", k, me);
        double[] p = new double[N];
        pause();
        c.allreduce(prod, 0, p, 0, N, Datatype.DOUBLE, Op.PROD);
        float[] f = new float[N];
        pause();
        c.allreduce(fsum, 0, f, 0, N, Datatype.FLOAT, Op.SUM);
        double[] r0 = new double[N];
        pause();
        c.reduce(sum, 0, r0, 0, N, Datatype.DOUBLE, Op.SUM, 0);
        double[] rl = new double[N];
        pause();
        c.reduce(sum, 0, rl, 0, N, Datatype.DOUBLE, Op.SUM, k - 1);
        // every rank's allreduce bits, gathered and compared
        long[] bits = new long[3 * N];
        for (int i = 0; i < N; i++) {
            bits[i] = Double.doubleToRawLongBits(a[i]);
            bits[N + i] = Double.doubleToRawLongBits(p[i]);
            bits[2 * N + i] = Float.floatToRawIntBits(f[i]);
        }
        long[] all = new long[3 * N * k];
        c.allgather(bits, 0, 3 * N, Datatype.LONG, all, 0, 3 * N, Datatype.LONG);
        for (int r = 0; r < k; r++) {
            for (int i = 0; i < 3 * N; i++) {
                long theirs = all[r * 3 * N + i];
                check(theirs == bits[i], "k=%d: rank %d got bits %016x, rank %d got %016x (%s element %d)", k, r, theirs,
                    me, bits[i], i < N ? "allreduce SUM" : i < 2 * N ? "allreduce PROD" : "allreduce FLOAT SUM", i % N);
            }
        }
        print("BITS allreduce-sum k=" + k + " " + hex(a));
        print("BITS allreduce-prod k=" + k + " " + hex(p));
        float[] fh = f;
        StringBuilder b = new StringBuilder();
        for (float v : fh) {
            b.append(String.format("%08x", Float.floatToRawIntBits(v)));
        }
        print("BITS allreduce-float-sum k=" + k + " " + b);
        if (me == 0) {
            print("BITS reduce-root0 k=" + k + " " + hex(r0));
        }
        if (me == k - 1) {
            print("BITS reduce-rootlast k=" + k + " " + hex(rl));
        }
    }

    private static void same(double[] x, double[] y, String what, int k, int me) {
        for (int i = 0; i < x.length; i++) {
            check(Double.doubleToRawLongBits(x[i]) == Double.doubleToRawLongBits(y[i]),
                "k=%d rank %d %s: element %d differs: %s vs %s", k, me, what, i, x[i], y[i]);
        }
    }

    static String hex(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double d : v) {
            b.append(String.format("%016x", Double.doubleToRawLongBits(d)));
        }
        return b.toString();
    }
}
