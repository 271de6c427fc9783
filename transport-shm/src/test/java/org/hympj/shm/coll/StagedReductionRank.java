package org.hympj.shm.coll;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.SegmentBuffer;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: reduce and allreduce over segment buffers and over derived types (a vector of
 * doubles: every other element), which MPI reduces element by element in the type map; the
 * result lands in the caller's layout and the gaps between its elements stay untouched. Sizes
 * on both sides of the eager limit. Each rank's input is its rank-dependent values; the result
 * is checked against the sum computed serially.
 */
public final class StagedReductionRank {
    static final String[] SCENARIOS = {"allreduce-segment", "allreduce-segment-in-place", "reduce-segment-to-array",
        "allreduce-vector", "reduce-vector-in-segment", "pair-op-on-vector-refused"};

    static double value(int rank, int k) {
        return rank * 1000.0 + k % 997;
    }

    /** The sum over ranks of value(r, k). */
    static double sum(int np, int k) {
        double s = 0;
        for (int r = 0; r < np; r++) {
            s += value(r, k);
        }
        return s;
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            int me = c.rank();
            int np = c.size();
            int root = np - 1;
            for (int n : new int[] {5, 40_000}) {
                SegmentBuffer in = c.allocDoubles(n);
                SegmentBuffer out = c.allocDoubles(n);
                for (int k = 0; k < n; k++) {
                    in.putDouble(k, value(me, k));
                    out.putDouble(k, -1);
                }
                c.allreduce(in, 0, out, 0, n, Datatype.DOUBLE, Op.SUM);
                for (int k = 0; k < n; k++) {
                    check(out.getDouble(k) == sum(np, k), "allreduce-segment n=%d [%d]: %s, expected %s", n, k,
                        out.getDouble(k), sum(np, k));
                }

                c.allreduce(Comm.IN_PLACE, 0, in, 0, n, Datatype.DOUBLE, Op.SUM);
                for (int k = 0; k < n; k++) {
                    check(in.getDouble(k) == sum(np, k), "allreduce-segment-in-place n=%d [%d]: %s", n, k,
                        in.getDouble(k));
                }

                for (int k = 0; k < n; k++) {
                    in.putDouble(k, value(me, k));
                }
                double[] result = new double[n + 2];
                java.util.Arrays.fill(result, -7);
                c.reduce(in, 0, me == root ? result : null, 1, n, Datatype.DOUBLE, Op.SUM, root);
                if (me == root) {
                    check(result[0] == -7 && result[n + 1] == -7, "reduce-segment-to-array n=%d: wrote outside", n);
                    for (int k = 0; k < n; k++) {
                        check(result[k + 1] == sum(np, k), "reduce-segment-to-array n=%d [%d]: %s", n, k, result[k + 1]);
                    }
                }
            }
            pass("allreduce-segment");
            pass("allreduce-segment-in-place");
            pass("reduce-segment-to-array");

            // every other element of a 2n array, n elements per item
            for (int n : new int[] {4, 20_000}) {
                Datatype everyOther = Datatype.DOUBLE.vector(n, 1, 2);
                double[] a = new double[2 * n];
                double[] r = new double[2 * n];
                for (int k = 0; k < n; k++) {
                    a[2 * k] = value(me, k);
                    a[2 * k + 1] = -3;      // a gap: not part of the type
                    r[2 * k] = -1;
                    r[2 * k + 1] = -5;
                }
                c.allreduce(a, 0, r, 0, 1, everyOther, Op.SUM);
                for (int k = 0; k < n; k++) {
                    check(r[2 * k] == sum(np, k), "allreduce-vector n=%d [%d]: %s", n, k, r[2 * k]);
                    check(r[2 * k + 1] == -5, "allreduce-vector n=%d: gap %d written: %s", n, k, r[2 * k + 1]);
                }

                SegmentBuffer seg = c.allocDoubles(2 * n);
                for (int k = 0; k < 2 * n; k++) {
                    seg.putDouble(k, k % 2 == 0 ? -1 : -5);
                }
                c.reduce(a, 0, seg, 0, 1, everyOther, Op.MAX, 0);
                if (me == 0) {
                    for (int k = 0; k < n; k++) {
                        check(seg.getDouble(2 * k) == value(np - 1, k), "reduce-vector-in-segment n=%d [%d]: %s", n, k,
                            seg.getDouble(2 * k));
                        check(seg.getDouble(2 * k + 1) == -5, "reduce-vector-in-segment n=%d: gap %d written", n, k);
                    }
                }
            }
            pass("allreduce-vector");
            pass("reduce-vector-in-segment");

            int[] pairs = new int[8];
            int[] got = new int[8];
            expectThrows(IllegalArgumentException.class,
                () -> c.allreduce(pairs, 0, got, 0, 1, Datatype.INT.vector(2, 2, 4), Op.MAXLOC),
                "pair-op-on-vector-refused", "allreduce", "MAXLOC");
            c.barrier(); // still usable
            pass("pair-op-on-vector-refused");
            pass(MultiRank.FINALIZED);
        }
    }
}
