package org.hympj.shm.coll;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;

import java.util.Arrays;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.Primitive;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: the per-rank-count collectives, the prefix reductions, reduce-scatter and the
 * logical, bitwise and (value, index) operations of the core API, each against what the rank
 * computes serially. Block sizes reach past the eager limit so the rendezvous path is used too,
 * and a strided (vector) type is gathered. Bad arguments are refused on every rank before
 * anything moves, and the communicator works afterwards.
 */
public final class VCollectivesRank {
    static final String[] SCENARIOS = {"gatherv", "scatterv", "allgatherv", "alltoallv", "scan", "reduce-scatter",
        "logical-bitwise", "minloc-maxloc", "refused"};

    /** Elements rank i contributes: small for even ranks, past the eager limit (256 KiB) for odd ones. */
    static int count(int i) {
        return i % 2 == 0 ? 3 + i : 40_000 + i;
    }

    static double value(int rank, int k) {
        return rank * 1_000_000.0 + k;
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            int me = c.rank();
            int np = c.size();
            int[] counts = new int[np];
            int[] displs = new int[np];
            int total = 0;
            for (int i = 0; i < np; i++) {
                counts[i] = count(i);
                displs[i] = total + 1; // a one-element gap before every block
                total += counts[i] + 1;
            }
            double[] mine = new double[count(me)];
            for (int k = 0; k < mine.length; k++) {
                mine[k] = value(me, k);
            }

            int root = np / 2;
            double[] all = new double[total];
            Arrays.fill(all, -1);
            c.gatherv(mine, 0, mine.length, Datatype.DOUBLE, all, 0, counts, displs, Datatype.DOUBLE, root);
            if (me == root) {
                checkBlocks("gatherv", all, counts, displs, np);
            }
            // a strided send type: every other element of a doubled array
            double[] spread = new double[2 * mine.length];
            for (int k = 0; k < mine.length; k++) {
                spread[2 * k] = mine[k];
                spread[2 * k + 1] = Double.NaN;
            }
            Arrays.fill(all, -1);
            c.gatherv(spread, 0, 1, Datatype.DOUBLE.vector(mine.length, 1, 2), all, 0, counts, displs,
                Datatype.DOUBLE, 0);
            if (me == 0) {
                checkBlocks("gatherv of a vector type", all, counts, displs, np);
            }
            pass("gatherv");

            double[] back = new double[mine.length];
            if (me != root) {
                Arrays.fill(all, 0); // only the root's send buffer matters
            } else {
                Arrays.fill(all, -1);
                for (int i = 0; i < np; i++) {
                    for (int k = 0; k < counts[i]; k++) {
                        all[displs[i] + k] = value(i, k);
                    }
                }
            }
            c.scatterv(all, 0, counts, displs, Datatype.DOUBLE, back, 0, back.length, Datatype.DOUBLE, root);
            check(Arrays.equals(back, mine), "scatterv: rank %d got the wrong block", me);
            pass("scatterv");

            Arrays.fill(all, -1);
            c.allgatherv(mine, 0, mine.length, Datatype.DOUBLE, all, 0, counts, displs, Datatype.DOUBLE);
            checkBlocks("allgatherv", all, counts, displs, np);
            pass("allgatherv");

            // alltoallv: rank i sends (j + 1) * 1000 ints valued 1000 * i + j to rank j (rendezvous sizes)
            int[] sc = new int[np];
            int[] sd = new int[np];
            int[] rc = new int[np];
            int[] rd = new int[np];
            int st = 0;
            int rt = 0;
            for (int j = 0; j < np; j++) {
                sc[j] = (j + 1) * 1000;
                sd[j] = st;
                st += sc[j];
                rc[j] = (me + 1) * 1000;
                rd[j] = rt;
                rt += rc[j];
            }
            int[] sbuf = new int[st];
            for (int j = 0; j < np; j++) {
                Arrays.fill(sbuf, sd[j], sd[j] + sc[j], 1000 * me + j);
            }
            int[] rbuf = new int[rt];
            c.alltoallv(sbuf, 0, sc, sd, Datatype.INT, rbuf, 0, rc, rd, Datatype.INT);
            for (int i = 0; i < np; i++) {
                for (int k = 0; k < rc[i]; k++) {
                    check(rbuf[rd[i] + k] == 1000 * i + me, "alltoallv: block from %d element %d is %d", i, k,
                        rbuf[rd[i] + k]);
                }
            }
            pass("alltoallv");

            // scan / exscan on every numeric primitive, and IN_PLACE
            for (Primitive p : new Primitive[] {Primitive.BYTE, Primitive.SHORT, Primitive.INT, Primitive.LONG,
                Primitive.FLOAT, Primitive.DOUBLE}) {
                Datatype t = Datatype.of(p);
                long[] in = {me + 1, 2};
                Object x = array(p, in);
                Object s = array(p, new long[2]);
                c.scan(x, 0, s, 0, 2, t, Op.SUM);
                long want = (long) (me + 1) * (me + 2) / 2;
                check(get(s, 0) == want && get(s, 1) == 2L * (me + 1), "scan %s: %d", p, get(s, 0));
                Object e = array(p, new long[] {-1, -1});
                c.exscan(x, 0, e, 0, 2, t, Op.SUM);
                check(me == 0 ? get(e, 0) == -1 : get(e, 0) == (long) me * (me + 1) / 2, "exscan %s: %d", p, get(e, 0));
                Object ip = array(p, in);
                c.scan(Comm.IN_PLACE, 0, ip, 0, 2, t, Op.MAX);
                check(get(ip, 0) == me + 1, "scan IN_PLACE MAX %s: %d", p, get(ip, 0));
            }
            pass("scan");

            // reduce-scatter: rank i gets counts2[i] sums; and the block variant
            int[] counts2 = new int[np];
            int n = 0;
            for (int i = 0; i < np; i++) {
                counts2[i] = i + 1;
                n += counts2[i];
            }
            long[] v = new long[n];
            for (int k = 0; k < n; k++) {
                v[k] = k * (me + 1L);
            }
            long[] got = new long[me + 1];
            c.reduceScatter(v, 0, got, 0, counts2, Datatype.LONG, Op.SUM);
            int first = me * (me + 1) / 2;
            long ranks = (long) np * (np + 1) / 2;
            for (int k = 0; k <= me; k++) {
                check(got[k] == (first + k) * ranks, "reduceScatter element %d: %d", k, got[k]);
            }
            double[] vb = new double[3 * np];
            for (int k = 0; k < vb.length; k++) {
                vb[k] = me == k % np ? 1.5 : 0;
            }
            double[] gb = new double[3];
            c.reduceScatterBlock(vb, 0, gb, 0, 3, Datatype.DOUBLE, Op.SUM);
            for (int k = 0; k < 3; k++) {
                check(gb[k] == 1.5, "reduceScatterBlock element %d: %s", k, gb[k]);
            }
            long[] ipv = v.clone();
            c.reduceScatter(Comm.IN_PLACE, 0, ipv, 0, counts2, Datatype.LONG, Op.SUM);
            for (int k = 0; k <= me; k++) {
                check(ipv[k] == (first + k) * ranks, "reduceScatter IN_PLACE element %d: %d", k, ipv[k]);
            }
            pass("reduce-scatter");

            // logical and bitwise on every integer primitive
            for (Primitive p : new Primitive[] {Primitive.BYTE, Primitive.CHAR, Primitive.SHORT, Primitive.INT,
                Primitive.LONG}) {
                Datatype t = Datatype.of(p);
                Object x = array(p, new long[] {me == 0 ? 1 : 0, 1, 1L << (me % 7)});
                Object r = array(p, new long[3]);
                c.allreduce(x, 0, r, 0, 3, t, Op.LOR);
                check(get(r, 0) == 1 && get(r, 1) == 1, "LOR %s", p);
                c.allreduce(x, 0, r, 0, 3, t, Op.LAND);
                check(get(r, 0) == (np == 1 ? 1 : 0) && get(r, 1) == 1, "LAND %s", p);
                c.allreduce(x, 0, r, 0, 3, t, Op.LXOR);
                check(get(r, 0) == 1 && get(r, 1) == np % 2, "LXOR %s", p);
                long or = 0;
                long xor = 0;
                long and = -1;
                for (int i = 0; i < np; i++) {
                    or |= 1L << (i % 7);
                    xor ^= 1L << (i % 7);
                    and &= 1L << (i % 7);
                }
                c.allreduce(x, 0, r, 0, 3, t, Op.BOR);
                check(get(r, 2) == or, "BOR %s: %d", p, get(r, 2));
                c.allreduce(x, 0, r, 0, 3, t, Op.BXOR);
                check(get(r, 2) == xor, "BXOR %s: %d", p, get(r, 2));
                c.allreduce(x, 0, r, 0, 3, t, Op.BAND);
                check(get(r, 2) == and, "BAND %s: %d", p, get(r, 2));
            }
            pass("logical-bitwise");

            // (value, index) pairs: the value of rank i is |i - np/2|, ties go to the smaller index
            for (Primitive p : new Primitive[] {Primitive.SHORT, Primitive.INT, Primitive.LONG, Primitive.FLOAT,
                Primitive.DOUBLE}) {
                Datatype pair = Datatype.of(p).contiguous(2);
                long val = Math.abs(me - np / 2);
                Object x = array(p, new long[] {val, me, val % 2, me});
                Object r = array(p, new long[4]);
                c.allreduce(x, 0, r, 0, 2, pair, Op.MINLOC);
                check(get(r, 0) == 0 && get(r, 1) == np / 2, "MINLOC %s: (%d, %d)", p, get(r, 0), get(r, 1));
                check(get(r, 2) == 0 && get(r, 3) == (np > 1 ? np / 2 % 2 : 0), "MINLOC tie %s: (%d, %d)", p, get(r, 2),
                    get(r, 3));
                c.reduce(x, 0, r, 0, 2, pair, Op.MAXLOC, np - 1);
                if (me == np - 1) {
                    check(get(r, 0) == np / 2 && get(r, 1) == 0, "MAXLOC %s: (%d, %d)", p, get(r, 0), get(r, 1));
                }
            }
            pass("minloc-maxloc");

            expectThrows(IllegalArgumentException.class, () -> c.allreduce(new double[2], 0, new double[2], 0, 2,
                Datatype.DOUBLE, Op.BAND), "BAND on DOUBLE", "BAND", "DOUBLE");
            expectThrows(IllegalArgumentException.class, () -> c.allreduce(new int[2], 0, new int[2], 0, 2,
                Datatype.INT, Op.MINLOC), "MINLOC on INT", "pair");
            int length = total;
            // the root's displacements are refused at the root; the others send, and the root takes their
            // blocks before it throws (root-refused-in-step in CollBadArgumentsRank)
            if (me == 0) {
                expectThrows(IllegalArgumentException.class, () -> c.gatherv(mine, 0, mine.length, Datatype.DOUBLE,
                    new double[length], 0, counts, new int[] {-1}, Datatype.DOUBLE, 0), "short displs", "displs");
            } else {
                c.gatherv(mine, 0, mine.length, Datatype.DOUBLE, null, 0, null, null, null, 0);
            }
            expectThrows(IllegalArgumentException.class, () -> c.allgatherv(mine, 0, mine.length, Datatype.DOUBLE,
                new double[3], 0, counts, displs, Datatype.DOUBLE), "blocks past the end", "past the end");
            // one entry per rank at least (entries past the group are not read, as MPI says)
            expectThrows(IllegalArgumentException.class, () -> c.reduceScatter(v, 0, got, 0, new int[np - 1],
                Datatype.LONG, Op.SUM), "recvCounts too short", "recvCounts");
            long[] after = new long[1];
            c.allreduce(new long[] {1}, 0, after, 0, 1, Datatype.LONG, Op.SUM);
            check(after[0] == np, "allreduce after refused calls: %d", after[0]);
            pass("refused");
        }
        pass(MultiRank.FINALIZED);
    }

    static void checkBlocks(String what, double[] all, int[] counts, int[] displs, int np) {
        for (int i = 0; i < np; i++) {
            check(all[displs[i] - 1] == -1, "%s: the gap before block %d was written", what, i);
            for (int k = 0; k < counts[i]; k++) {
                check(all[displs[i] + k] == value(i, k), "%s: block %d element %d is %s", what, i, k,
                    all[displs[i] + k]);
            }
        }
    }

    static Object array(Primitive p, long[] v) {
        Object a = java.lang.reflect.Array.newInstance(p.arrayClass().getComponentType(), v.length);
        for (int i = 0; i < v.length; i++) {
            switch (p) {
                case BYTE: ((byte[]) a)[i] = (byte) v[i]; break;
                case CHAR: ((char[]) a)[i] = (char) v[i]; break;
                case SHORT: ((short[]) a)[i] = (short) v[i]; break;
                case INT: ((int[]) a)[i] = (int) v[i]; break;
                case LONG: ((long[]) a)[i] = v[i]; break;
                case FLOAT: ((float[]) a)[i] = v[i]; break;
                default: ((double[]) a)[i] = v[i];
            }
        }
        return a;
    }

    static long get(Object a, int i) {
        if (a instanceof byte[]) {
            return ((byte[]) a)[i];
        }
        if (a instanceof char[]) {
            return ((char[]) a)[i];
        }
        if (a instanceof short[]) {
            return ((short[]) a)[i];
        }
        if (a instanceof int[]) {
            return ((int[]) a)[i];
        }
        if (a instanceof long[]) {
            return ((long[]) a)[i];
        }
        if (a instanceof float[]) {
            return (long) ((float[]) a)[i];
        }
        return (long) ((double[]) a)[i];
    }
}
