package org.hympj.shm.coll;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.selected;

import java.util.Arrays;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program of {@link NbcTest}: the non-blocking and persistent collectives of the core API.
 * Results are checked against the blocking collectives and against values computed here;
 * overlap is shown by ranks that block in point-to-point calls which can only complete once the
 * non-blocking collective has moved on in those very calls; several collectives are outstanding
 * at once; persistent ones are started many times with new data; bad arguments are refused.
 */
public final class NbcRank {
    static final String[] SCENARIOS = {"overlap", "results", "prefix", "outstanding", "persistent", "neighbours",
        "refused"};
    /** Doubles past the eager limit (256 KiB), for the rendezvous path. */
    static final int LARGE = 40_000;

    private static Comm c;
    private static int me;
    private static int np;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            c = mpj.world();
            me = c.rank();
            np = c.size();
            // arguments: the scenarios to run (none: all), always in this order
            if (selected(args, "overlap")) {
                overlap();
                pass("overlap");
            }
            if (selected(args, "results")) {
                results();
                pass("results");
            }
            if (selected(args, "prefix")) {
                prefix();
                pass("prefix");
            }
            if (selected(args, "outstanding")) {
                outstanding();
                pass("outstanding");
            }
            if (selected(args, "persistent")) {
                persistent();
                pass("persistent");
            }
            if (selected(args, "neighbours")) {
                neighbours();
                pass("neighbours");
            }
            if (selected(args, "refused")) {
                refused();
                pass("refused");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    /**
     * Every rank but 0 posts the collective and then blocks in a receive from rank 0, which sends
     * only once its own request has completed. Rank 0's completion needs the other ranks' later
     * rounds, so the collective must advance inside their blocked receive: run inside its own
     * wait only, this deadlocks.
     */
    static void overlap() {
        int[] token = new int[1];
        for (int trial = 0; trial < 3; trial++) {
            double[] in = {me + 1.0};
            double[] out = new double[1];
            double[] data = new double[LARGE];
            if (me == 0) {
                Arrays.fill(data, 42.5 + trial);
            }
            Request[] reqs = {
                c.ibarrier(),
                c.iallreduce(in, 0, out, 0, 1, Datatype.DOUBLE, Op.SUM),
                c.ibcast(data, 0, data.length, Datatype.DOUBLE, 0)
            };
            if (me == 0) {
                Request.waitAll(reqs);
                for (int r = 1; r < np; r++) {
                    c.send(new int[] {trial}, 0, 1, Datatype.INT, r, 5);
                }
            } else {
                c.recv(token, 0, 1, Datatype.INT, 0, 5);
                check(token[0] == trial, "overlap: token %d, expected %d", token[0], trial);
                Request.waitAll(reqs);
            }
            check(out[0] == np * (np + 1) / 2.0, "overlap: iallreduce gave %s", out[0]);
            check(data[0] == 42.5 + trial && data[LARGE - 1] == 42.5 + trial, "overlap: ibcast data");
        }
        // polling with test while doing point-to-point work with the neighbours
        int[] src = new int[np];
        int[] dst = new int[np];
        for (int i = 0; i < np; i++) {
            src[i] = me * 100 + i;
        }
        Request a2a = c.ialltoall(src, 0, 1, Datatype.INT, dst, 0, 1, Datatype.INT);
        int[] x = {me};
        int[] y = new int[1];
        // the same number of ring exchanges on every rank (they pair up), testing the collective between them
        for (int round = 0; round < 5; round++) {
            a2a.test();
            c.sendrecv(x, 0, 1, Datatype.INT, (me + 1) % np, 6, y, 0, 1, Datatype.INT, (me - 1 + np) % np, 6);
            check(y[0] == (me - 1 + np) % np, "overlap: ring value %d", y[0]);
        }
        a2a.waitFor();
        for (int i = 0; i < np; i++) {
            check(dst[i] == i * 100 + me, "overlap: ialltoall block %d = %d", i, dst[i]);
        }
    }

    static double value(int rank, int k) {
        return rank * 1000.0 + k;
    }

    /** 2x2 integer matrices (4 longs each) multiplied: associative, not commutative. */
    static Op matmul() {
        return Op.user((in, ii, inout, io, count, type) -> {
            long[] a = (long[]) in;
            long[] b = (long[]) inout;
            for (int i = 0; i < count; i += 4) {
                long p0 = a[ii + i] * b[io + i] + a[ii + i + 1] * b[io + i + 2];
                long p1 = a[ii + i] * b[io + i + 1] + a[ii + i + 1] * b[io + i + 3];
                long p2 = a[ii + i + 2] * b[io + i] + a[ii + i + 3] * b[io + i + 2];
                long p3 = a[ii + i + 2] * b[io + i + 1] + a[ii + i + 3] * b[io + i + 3];
                b[io + i] = p0;
                b[io + i + 1] = p1;
                b[io + i + 2] = p2;
                b[io + i + 3] = p3;
            }
        }, false);
    }

    /** Each non-blocking collective against its blocking counterpart, small and past the eager limit. */
    static void results() {
        for (int n : new int[] {1, 7, LARGE}) {
            for (int root = 0; root < np; root += Math.max(1, np - 1)) {
                // bcast
                double[] b1 = new double[n];
                double[] b2 = new double[n];
                if (me == root) {
                    for (int k = 0; k < n; k++) {
                        b1[k] = b2[k] = value(root, k);
                    }
                }
                c.ibcast(b1, 0, n, Datatype.DOUBLE, root).waitFor();
                c.bcast(b2, 0, n, Datatype.DOUBLE, root);
                check(Arrays.equals(b1, b2), "ibcast n=%d root=%d", n, root);

                // reduce (SUM of exact values, and MAX), into an offset
                double[] mine = new double[n];
                for (int k = 0; k < n; k++) {
                    mine[k] = value(me, k) * 0.5;
                }
                double[] r1 = new double[n + 3];
                double[] r2 = new double[n + 3];
                c.ireduce(mine, 0, r1, 3, n, Datatype.DOUBLE, Op.SUM, root).waitFor();
                c.reduce(mine, 0, r2, 3, n, Datatype.DOUBLE, Op.SUM, root);
                check(Arrays.equals(r1, r2), "ireduce n=%d root=%d", n, root);
                if (me == root) {
                    for (int k = 0; k < n; k++) {
                        double expect = 0;
                        for (int r = 0; r < np; r++) {
                            expect += value(r, k) * 0.5;
                        }
                        check(r1[3 + k] == expect, "ireduce value %d: %s, expected %s", k, r1[3 + k], expect);
                    }
                }
                // IN_PLACE at the root
                double[] ip = mine.clone();
                c.ireduce(me == root ? Comm.IN_PLACE : ip, 0, ip, 0, n, Datatype.DOUBLE, Op.MAX, root).waitFor();
                if (me == root) {
                    for (int k = 0; k < n; k++) {
                        check(ip[k] == value(np - 1, k) * 0.5, "ireduce IN_PLACE MAX %d: %s", k, ip[k]);
                    }
                }

                // gather / scatter
                int[] g1 = new int[n * np];
                int[] g2 = new int[n * np];
                int[] part = new int[n];
                Arrays.fill(part, me + 7);
                c.igather(part, 0, n, Datatype.INT, g1, 0, n, Datatype.INT, root).waitFor();
                c.gather(part, 0, n, Datatype.INT, g2, 0, n, Datatype.INT, root);
                check(Arrays.equals(g1, g2), "igather n=%d root=%d", n, root);
                if (me == root) {
                    for (int i = 0; i < n * np; i++) {
                        check(g1[i] == i / n + 7, "igather element %d = %d", i, g1[i]);
                    }
                }
                int[] s1 = new int[n];
                int[] s2 = new int[n];
                int[] all = new int[n * np];
                for (int i = 0; i < all.length; i++) {
                    all[i] = i * 3 + root;
                }
                c.iscatter(all, 0, n, Datatype.INT, s1, 0, n, Datatype.INT, root).waitFor();
                c.scatter(all, 0, n, Datatype.INT, s2, 0, n, Datatype.INT, root);
                check(Arrays.equals(s1, s2) && s1[0] == me * n * 3 + root, "iscatter n=%d root=%d", n, root);
            }
            // allreduce: commutative (SUM of ints, exact), non-commutative (a user op) against allreduce
            long[] li = new long[n];
            for (int k = 0; k < n; k++) {
                li[k] = me * 31L + k;
            }
            long[] lo = new long[n];
            c.iallreduce(li, 0, lo, 0, n, Datatype.LONG, Op.SUM).waitFor();
            for (int k = 0; k < n; k++) {
                check(lo[k] == 31L * np * (np - 1) / 2 + (long) np * k, "iallreduce SUM %d = %d", k, lo[k]);
            }
            Op matmul = matmul();
            long[] d = new long[8];
            for (int i = 0; i < d.length; i += 4) {
                d[i] = me + 1 + i;
                d[i + 1] = 1;
                d[i + 2] = 1;
                d[i + 3] = 0;
            }
            long[] expect = {1, 0, 0, 1, 1, 0, 0, 1};
            for (int r = 0; r < np; r++) {
                for (int i = 0; i < 8; i += 4) {
                    long[] m = {r + 1 + i, 1, 1, 0};
                    long e0 = expect[i] * m[0] + expect[i + 1] * m[2];
                    long e1 = expect[i] * m[1] + expect[i + 1] * m[3];
                    long e2 = expect[i + 2] * m[0] + expect[i + 3] * m[2];
                    long e3 = expect[i + 2] * m[1] + expect[i + 3] * m[3];
                    expect[i] = e0;
                    expect[i + 1] = e1;
                    expect[i + 2] = e2;
                    expect[i + 3] = e3;
                }
            }
            long[] n1 = new long[d.length];
            long[] n2 = new long[d.length];
            c.iallreduce(d, 0, n1, 0, d.length, Datatype.LONG, matmul).waitFor();
            c.allreduce(d, 0, n2, 0, d.length, Datatype.LONG, matmul);
            check(Arrays.equals(n1, n2) && Arrays.equals(n1, expect), "iallreduce non-commutative: %s, allreduce %s,"
                + " rank-order product %s", Arrays.toString(n1), Arrays.toString(n2), Arrays.toString(expect));
            long[] n3 = new long[d.length];
            c.ireduce(d, 0, n3, 0, d.length, Datatype.LONG, matmul, np - 1).waitFor();
            check(me != np - 1 || Arrays.equals(n3, expect), "ireduce non-commutative: %s", Arrays.toString(n3));
            long[] inPlace = li.clone();
            c.iallreduce(Comm.IN_PLACE, 0, inPlace, 0, n, Datatype.LONG, Op.SUM).waitFor();
            check(Arrays.equals(inPlace, lo), "iallreduce IN_PLACE");

            // allgather, alltoall
            double[] ag1 = new double[n * np];
            double[] ag2 = new double[n * np];
            double[] blk = new double[n];
            for (int k = 0; k < n; k++) {
                blk[k] = value(me, k);
            }
            c.iallgather(blk, 0, n, Datatype.DOUBLE, ag1, 0, n, Datatype.DOUBLE).waitFor();
            c.allgather(blk, 0, n, Datatype.DOUBLE, ag2, 0, n, Datatype.DOUBLE);
            check(Arrays.equals(ag1, ag2) && ag1[n * np - 1] == value(np - 1, n - 1), "iallgather n=%d", n);
            int m = n == LARGE ? LARGE / np : n;
            double[] to = new double[m * np];
            for (int i = 0; i < to.length; i++) {
                to[i] = value(me, i);
            }
            double[] a1 = new double[m * np];
            double[] a2 = new double[m * np];
            c.ialltoall(to, 0, m, Datatype.DOUBLE, a1, 0, m, Datatype.DOUBLE).waitFor();
            c.alltoall(to, 0, m, Datatype.DOUBLE, a2, 0, m, Datatype.DOUBLE);
            check(Arrays.equals(a1, a2), "ialltoall m=%d", m);
            for (int i = 0; i < np; i++) {
                check(a1[i * m] == value(i, me * m), "ialltoall block %d", i);
            }
        }
        // a strided type: every other element gathered into place
        double[] spread = new double[8];
        for (int k = 0; k < 4; k++) {
            spread[2 * k] = value(me, k);
        }
        double[] got = new double[4 * np];
        c.iallgather(spread, 0, 1, Datatype.DOUBLE.vector(4, 1, 2), got, 0, 4, Datatype.DOUBLE).waitFor();
        for (int i = 0; i < 4 * np; i++) {
            check(got[i] == value(i / 4, i % 4), "iallgather of a vector type: element %d", i);
        }
        vVariants();
        // p = 1 and the trivial cases complete
        c.ibarrier().waitFor();
    }

    /** igatherv, iscatterv, iallgatherv, ialltoallv against the blocking v-collectives (gaps between blocks). */
    static void vVariants() {
        int[] counts = new int[np];
        int[] displs = new int[np];
        int total = 0;
        for (int i = 0; i < np; i++) {
            counts[i] = i % 2 == 0 ? 2 + i : LARGE / 4 + i; // some blocks past the eager limit
            displs[i] = total + 1;
            total += counts[i] + 1;
        }
        double[] mine = new double[counts[me]];
        for (int k = 0; k < mine.length; k++) {
            mine[k] = value(me, k);
        }
        int root = np / 2;
        double[] g1 = new double[total];
        double[] g2 = new double[total];
        c.igatherv(mine, 0, mine.length, Datatype.DOUBLE, g1, 0, counts, displs, Datatype.DOUBLE, root).waitFor();
        c.gatherv(mine, 0, mine.length, Datatype.DOUBLE, g2, 0, counts, displs, Datatype.DOUBLE, root);
        check(Arrays.equals(g1, g2), "igatherv");
        if (me == root) {
            check(g1[displs[np - 1]] == value(np - 1, 0), "igatherv: last block");
        }
        double[] all = new double[total];
        for (int i = 0; i < total; i++) {
            all[i] = i * 0.25;
        }
        double[] s1 = new double[counts[me]];
        double[] s2 = new double[counts[me]];
        c.iscatterv(all, 0, counts, displs, Datatype.DOUBLE, s1, 0, counts[me], Datatype.DOUBLE, root).waitFor();
        c.scatterv(all, 0, counts, displs, Datatype.DOUBLE, s2, 0, counts[me], Datatype.DOUBLE, root);
        check(Arrays.equals(s1, s2) && s1[0] == displs[me] * 0.25, "iscatterv");
        Arrays.fill(g1, 0);
        Arrays.fill(g2, 0);
        Request q = c.iallgatherv(mine, 0, mine.length, Datatype.DOUBLE, g1, 0, counts, displs, Datatype.DOUBLE);
        counts[0] = -5; // read at the call: changing them afterwards changes nothing
        q.waitFor();
        counts[0] = 2;
        c.allgatherv(mine, 0, mine.length, Datatype.DOUBLE, g2, 0, counts, displs, Datatype.DOUBLE);
        check(Arrays.equals(g1, g2), "iallgatherv");
        // alltoallv: rank i sends j+1 items to rank j
        int[] sc = new int[np];
        int[] sd = new int[np];
        int[] rc = new int[np];
        int[] rd = new int[np];
        int st = 0;
        int rt = 0;
        for (int j = 0; j < np; j++) {
            sc[j] = j + 1;
            sd[j] = st;
            st += sc[j];
            rc[j] = me + 1;
            rd[j] = rt;
            rt += rc[j];
        }
        int[] out = new int[st];
        for (int k = 0; k < st; k++) {
            out[k] = me * 1000 + k;
        }
        int[] a1 = new int[rt];
        int[] a2 = new int[rt];
        c.ialltoallv(out, 0, sc, sd, Datatype.INT, a1, 0, rc, rd, Datatype.INT).waitFor();
        c.alltoallv(out, 0, sc, sd, Datatype.INT, a2, 0, rc, rd, Datatype.INT);
        check(Arrays.equals(a1, a2), "ialltoallv: %s vs %s", Arrays.toString(a1), Arrays.toString(a2));
    }

    /**
     * iscan, iexscan, ireduceScatter and ireduceScatterBlock against their blocking forms and the
     * exact values (long sums; doubles whose sums are exact), small and past the eager limit: into
     * an offset, in place, exscan leaving rank 0's buffer as it was, blocks of different sizes; a
     * non-commutative op in rank order; several outstanding at once; refused arguments that take
     * nothing (the next collective still matches up).
     */
    static void prefix() {
        for (int n : new int[] {1, 7, LARGE}) {
            long[] mine = new long[n];
            for (int k = 0; k < n; k++) {
                mine[k] = me * 31L + k;
            }
            long[] s1 = new long[n + 2];
            long[] s2 = new long[n + 2];
            c.iscan(mine, 0, s1, 2, n, Datatype.LONG, Op.SUM).waitFor();
            c.scan(mine, 0, s2, 2, n, Datatype.LONG, Op.SUM);
            check(Arrays.equals(s1, s2), "iscan n=%d against scan", n);
            for (int k = 0; k < n; k++) {
                long expect = 31L * me * (me + 1) / 2 + (long) (me + 1) * k;
                check(s1[2 + k] == expect, "iscan n=%d element %d = %d, expected %d", n, k, s1[2 + k], expect);
            }
            long[] e1 = new long[n];
            Arrays.fill(e1, -5);
            c.iexscan(mine, 0, e1, 0, n, Datatype.LONG, Op.SUM).waitFor();
            for (int k = 0; k < n; k++) {
                long expect = me == 0 ? -5 : 31L * (me - 1) * me / 2 + (long) me * k;
                check(e1[k] == expect, "iexscan n=%d element %d = %d, expected %d", n, k, e1[k], expect);
            }
            long[] ip = mine.clone();
            c.iscan(Comm.IN_PLACE, 0, ip, 0, n, Datatype.LONG, Op.SUM).waitFor();
            check(Arrays.equals(ip, Arrays.copyOfRange(s1, 2, n + 2)), "iscan IN_PLACE n=%d", n);

            // reduce-scatter: block i of n + i items to rank i, into an offset
            int[] counts = new int[np];
            int total = 0;
            for (int i = 0; i < np; i++) {
                counts[i] = n + i;
                total += counts[i];
            }
            double[] vec = new double[total];
            for (int j = 0; j < total; j++) {
                vec[j] = value(me, j);
            }
            double[] r1 = new double[counts[me] + 1];
            double[] r2 = new double[counts[me] + 1];
            c.ireduceScatter(vec, 0, r1, 1, counts, Datatype.DOUBLE, Op.SUM).waitFor();
            c.reduceScatter(vec, 0, r2, 1, counts, Datatype.DOUBLE, Op.SUM);
            check(Arrays.equals(r1, r2), "ireduceScatter n=%d against reduceScatter", n);
            int first = 0;
            for (int i = 0; i < me; i++) {
                first += counts[i];
            }
            for (int k = 0; k < counts[me]; k++) {
                double expect = 0;
                for (int r = 0; r < np; r++) {
                    expect += value(r, first + k);
                }
                check(r1[1 + k] == expect, "ireduceScatter n=%d element %d = %s, expected %s", n, k, r1[1 + k], expect);
            }
            // the block form, and in place (the whole vector in the receive buffer, my block left at its start)
            double[] bv = new double[n * np];
            for (int j = 0; j < bv.length; j++) {
                bv[j] = value(me, j);
            }
            double[] b1 = new double[n];
            double[] b2 = new double[n];
            c.ireduceScatterBlock(bv, 0, b1, 0, n, Datatype.DOUBLE, Op.MAX).waitFor();
            c.reduceScatterBlock(bv, 0, b2, 0, n, Datatype.DOUBLE, Op.MAX);
            check(Arrays.equals(b1, b2), "ireduceScatterBlock n=%d against reduceScatterBlock", n);
            for (int k = 0; k < n; k++) {
                check(b1[k] == value(np - 1, me * n + k), "ireduceScatterBlock MAX n=%d element %d = %s", n, k, b1[k]);
            }
            double[] inPlace = bv.clone();
            c.ireduceScatterBlock(Comm.IN_PLACE, 0, inPlace, 0, n, Datatype.DOUBLE, Op.MAX).waitFor();
            check(Arrays.equals(Arrays.copyOf(inPlace, n), b1), "ireduceScatterBlock IN_PLACE n=%d", n);
        }

        // a non-commutative op: rank i gets M_0 M_1 … M_i, as scan gives
        Op matmul = matmul();
        long[] d = {me + 1, 1, 1, 0, me + 2, 1, 1, 0};
        long[] m1 = new long[d.length];
        long[] m2 = new long[d.length];
        c.iscan(d, 0, m1, 0, d.length, Datatype.LONG, matmul).waitFor();
        c.scan(d, 0, m2, 0, d.length, Datatype.LONG, matmul);
        check(Arrays.equals(m1, m2), "iscan non-commutative: %s, scan %s", Arrays.toString(m1), Arrays.toString(m2));
        long[] m3 = new long[d.length];
        long[] m4 = new long[d.length];
        c.iexscan(d, 0, m3, 0, d.length, Datatype.LONG, matmul).waitFor();
        c.exscan(d, 0, m4, 0, d.length, Datatype.LONG, matmul);
        check(Arrays.equals(m3, m4), "iexscan non-commutative: %s, exscan %s", Arrays.toString(m3),
            Arrays.toString(m4));

        // three outstanding at once, completed in reverse order
        long[] a = {me};
        long[] aScan = new long[1];
        long[] aEx = {-1};
        long[] blocks = new long[np];
        Arrays.fill(blocks, me + 1);
        long[] mineBlock = new long[1];
        Request r1 = c.iscan(a, 0, aScan, 0, 1, Datatype.LONG, Op.SUM);
        Request r2 = c.ireduceScatterBlock(blocks, 0, mineBlock, 0, 1, Datatype.LONG, Op.SUM);
        Request r3 = c.iexscan(a, 0, aEx, 0, 1, Datatype.LONG, Op.SUM);
        r3.waitFor();
        r2.waitFor();
        r1.waitFor();
        check(aScan[0] == (long) me * (me + 1) / 2, "outstanding iscan = %d", aScan[0]);
        check(aEx[0] == (me == 0 ? -1 : (long) (me - 1) * me / 2), "outstanding iexscan = %d", aEx[0]);
        check(mineBlock[0] == (long) np * (np + 1) / 2, "outstanding ireduceScatterBlock = %d", mineBlock[0]);

        // refused at the call, nothing taken
        double[] b = new double[4];
        expectThrows(IllegalArgumentException.class, () -> c.ireduceScatter(b, 0, b, 0, new int[np == 1 ? 0 : np - 1],
            Datatype.DOUBLE, Op.SUM), "ireduceScatter short counts", "recvCounts");
        int[] negative = new int[np];
        negative[np - 1] = -1;
        expectThrows(IllegalArgumentException.class, () -> c.ireduceScatter(b, 0, b, 0, negative, Datatype.DOUBLE,
            Op.SUM), "ireduceScatter negative count", "recvCounts[" + (np - 1) + "]");
        expectThrows(IllegalArgumentException.class, () -> c.ireduceScatterBlock(b, 0, b, 0, -2, Datatype.DOUBLE,
            Op.SUM), "ireduceScatterBlock negative", "recvCount");
        expectThrows(IllegalArgumentException.class, () -> c.ireduceScatterBlock(b, 0, new double[5], 0, 5,
            Datatype.DOUBLE, Op.SUM), "ireduceScatterBlock send buffer too short", "past the end");
        expectThrows(IllegalArgumentException.class, () -> c.iscan(b, 0, b, 0, 4, Datatype.DOUBLE, null),
            "iscan op", "op");
        expectThrows(IllegalArgumentException.class, () -> c.iexscan(b, 0, b, 0, 4, Datatype.DOUBLE, Op.BAND),
            "iexscan BAND on DOUBLE", "BAND");
        long[] v = {me};
        c.iscan(Comm.IN_PLACE, 0, v, 0, 1, Datatype.LONG, Op.SUM).waitFor();
        check(v[0] == (long) me * (me + 1) / 2, "after refusals: %d", v[0]);
    }

    /** Several non-blocking collectives at once, completed in another order, with blocking ones in between. */
    static void outstanding() {
        for (int trial = 0; trial < 5; trial++) {
            int[] s1 = {me + trial};
            int[] r1 = new int[1];
            int[] s2 = {me * 2};
            int[] r2 = new int[1];
            int[] bc = new int[3];
            if (me == np - 1) {
                bc[0] = 11;
                bc[1] = 12;
                bc[2] = 13 + trial;
            }
            int[] ag = new int[np];
            Request q1 = c.iallreduce(s1, 0, r1, 0, 1, Datatype.INT, Op.SUM);
            Request q2 = c.ibarrier();
            Request q3 = c.ibcast(bc, 0, 3, Datatype.INT, np - 1);
            Request q4 = c.iallreduce(s2, 0, r2, 0, 1, Datatype.INT, Op.MAX);
            int[] blocking = {1};
            c.allreduce(Comm.IN_PLACE, 0, blocking, 0, 1, Datatype.INT, Op.SUM); // a blocking one meanwhile
            Request q5 = c.iallgather(new int[] {me * me}, 0, 1, Datatype.INT, ag, 0, 1, Datatype.INT);
            check(blocking[0] == np, "blocking allreduce among non-blocking ones: %d", blocking[0]);
            q5.waitFor();
            q4.waitFor();
            Request.waitAll(q3, q1, q2);
            check(r1[0] == np * (np - 1) / 2 + np * trial, "outstanding iallreduce SUM %d", r1[0]);
            check(r2[0] == 2 * (np - 1), "outstanding iallreduce MAX %d", r2[0]);
            check(bc[2] == 13 + trial && bc[0] == 11, "outstanding ibcast %s", Arrays.toString(bc));
            for (int i = 0; i < np; i++) {
                check(ag[i] == i * i, "outstanding iallgather %d", ag[i]);
            }
            check(!q1.isActive() && !q5.isActive(), "completed requests are inactive");
        }
        // waitAny over non-blocking collectives
        Request[] qs = new Request[4];
        for (int i = 0; i < qs.length; i++) {
            qs[i] = c.ibarrier();
        }
        for (int done = 0; done < qs.length; done++) {
            int i = Request.waitAny(qs);
            check(i >= 0 && i < qs.length, "waitAny index %d", i);
        }
        check(Request.waitAny(qs) == Request.UNDEFINED, "waitAny over completed collectives");
        // freed while active: it still finishes in later calls; the next collectives match up
        double[] big = new double[LARGE];
        if (me == 0) {
            Arrays.fill(big, 9.0);
        }
        Request freed = c.ibcast(big, 0, LARGE, Datatype.DOUBLE, 0);
        freed.free();
        expectThrows(IllegalStateException.class, freed::waitFor, "wait on a freed collective", "freed");
        int[] after = {1};
        c.iallreduce(Comm.IN_PLACE, 0, after, 0, 1, Datatype.INT, Op.SUM).waitFor();
        check(after[0] == np, "a collective after a freed one: %d", after[0]);
        c.barrier();
        c.ibarrier().waitFor(); // by now the freed broadcast has had every chance to finish
        long until = System.nanoTime() + 20_000_000_000L;
        int[] token = {me};
        int[] back = new int[1];
        while (big[LARGE - 1] != 9.0) {
            // any call that waits moves it on (a blocking exchange with itself: iprobe is not on --p2p onesided)
            c.sendrecv(token, 0, 1, Datatype.INT, me, 12345, back, 0, 1, Datatype.INT, me, 12345);
            check(System.nanoTime() < until, "the freed ibcast never finished");
        }
    }

    /** Persistent collectives, resolved once, started many times with new data each time. */
    static void persistent() {
        int iters = 60;
        int n = 5;
        double[] in = new double[n];
        double[] sum = new double[n];
        double[] red = new double[n];
        double[] bc = new double[LARGE];
        int[] ag = new int[np * 2];
        int[] mineAg = new int[2];
        int[] a2aIn = new int[np];
        int[] a2aOut = new int[np];
        int[] gat = new int[np];
        int[] sca = new int[np];
        int[] scaOut = new int[1];
        int root = np - 1;
        PersistentRequest pAll = c.allreduceInit(in, 0, sum, 0, n, Datatype.DOUBLE, Op.SUM);
        PersistentRequest pRed = c.reduceInit(in, 0, red, 0, n, Datatype.DOUBLE, Op.MAX, root);
        PersistentRequest pBc = c.bcastInit(bc, 0, LARGE, Datatype.DOUBLE, 0);
        PersistentRequest pAg = c.allgatherInit(mineAg, 0, 2, Datatype.INT, ag, 0, 2, Datatype.INT);
        PersistentRequest pA2a = c.alltoallInit(a2aIn, 0, 1, Datatype.INT, a2aOut, 0, 1, Datatype.INT);
        PersistentRequest pBar = c.barrierInit();
        PersistentRequest pGat = c.gatherInit(new int[] {me}, 0, 1, Datatype.INT, gat, 0, 1, Datatype.INT, 0);
        PersistentRequest pSca = c.scatterInit(sca, 0, 1, Datatype.INT, scaOut, 0, 1, Datatype.INT, root);
        check(!pAll.isActive(), "a persistent collective is inactive after init");
        PersistentRequest[] set = {pAll, pRed, pBc, pAg, pA2a, pBar, pGat, pSca};
        for (int it = 0; it < iters; it++) {
            for (int k = 0; k < n; k++) {
                in[k] = me * 10 + k + it;
            }
            if (me == 0) {
                Arrays.fill(bc, it * 2.0);
            }
            mineAg[0] = me + it;
            mineAg[1] = -me;
            for (int j = 0; j < np; j++) {
                a2aIn[j] = me * 1000 + j * 10 + it;
                sca[j] = j + it * 100;
            }
            if (it % 2 == 0) {
                Request.startAll(set);
                Request.waitAll(set);
            } else {
                for (PersistentRequest p : set) {
                    p.start();
                }
                expectThrows(IllegalStateException.class, pAll::start, "start of an active persistent collective",
                    "active");
                for (int i = set.length - 1; i >= 0; i--) {
                    while (!set[i].test()) {
                        Thread.onSpinWait();
                    }
                }
            }
            for (int k = 0; k < n; k++) {
                double expect = 10.0 * np * (np - 1) / 2 + np * (k + it);
                check(sum[k] == expect, "allreduceInit start %d element %d: %s, expected %s", it, k, sum[k], expect);
                if (me == root) {
                    check(red[k] == (np - 1) * 10 + k + it, "reduceInit start %d element %d: %s", it, k, red[k]);
                }
            }
            check(bc[0] == it * 2.0 && bc[LARGE - 1] == it * 2.0, "bcastInit start %d: %s", it, bc[0]);
            for (int i = 0; i < np; i++) {
                check(ag[2 * i] == i + it && ag[2 * i + 1] == -i, "allgatherInit start %d block %d", it, i);
                check(a2aOut[i] == i * 1000 + me * 10 + it, "alltoallInit start %d block %d: %d", it, i, a2aOut[i]);
                if (me == 0) {
                    check(gat[i] == i, "gatherInit start %d block %d", it, i);
                }
            }
            check(scaOut[0] == me + it * 100, "scatterInit start %d: %d", it, scaOut[0]);
        }
        for (PersistentRequest p : set) {
            p.free();
        }
        expectThrows(IllegalStateException.class, pAll::start, "start of a freed persistent collective", "freed");
    }

    /** The persistent neighbour exchange on a Cartesian grid: periodic in dimension 0 only. */
    static void neighbours() {
        int[] dims = CartComm.dimsCreate(np, new int[2]);
        CartComm cart = c.createCart(dims, new boolean[] {true, false}, false);
        int nb = 4;
        int count = 3;
        double[] send = new double[nb * count];
        double[] recv = new double[nb * count];
        PersistentRequest p = cart.neighborAlltoallInit(send, 0, count, Datatype.DOUBLE, recv, 0, count,
            Datatype.DOUBLE);
        int[] neighbour = new int[nb];
        for (int d = 0; d < 2; d++) {
            CartComm.Shift s = cart.shift(d, 1);
            neighbour[2 * d] = s.source();
            neighbour[2 * d + 1] = s.dest();
        }
        for (int it = 0; it < 40; it++) {
            for (int j = 0; j < nb; j++) {
                for (int k = 0; k < count; k++) {
                    send[j * count + k] = cart.rank() * 1000 + j * 100 + k + it * 10_000; // block j: towards j
                }
            }
            Arrays.fill(recv, -1);
            if (it % 3 == 2) {
                cart.ineighborAlltoall(send, 0, count, Datatype.DOUBLE, recv, 0, count, Datatype.DOUBLE).waitFor();
            } else {
                p.start();
                p.waitFor();
            }
            for (int j = 0; j < nb; j++) {
                int from = neighbour[j];
                // block j comes from neighbour j, which sent it in the opposite direction (its block j^1)
                for (int k = 0; k < count; k++) {
                    double expect = from == Comm.PROC_NULL ? -1 : from * 1000 + (j ^ 1) * 100 + k + it * 10_000;
                    check(recv[j * count + k] == expect, "neighbours dims %s start %d block %d[%d]: %s, expected %s",
                        Arrays.toString(dims), it, j, k, recv[j * count + k], expect);
                }
            }
        }
        p.free();
    }

    /** Bad arguments: IllegalArgumentException naming them, on every rank, nothing changed. */
    static void refused() {
        double[] b = new double[4];
        expectThrows(IllegalArgumentException.class, () -> c.ibcast(b, 0, 4, Datatype.DOUBLE, np), "ibcast root",
            "root");
        expectThrows(IllegalArgumentException.class, () -> c.ibcast(b, 0, 5, Datatype.DOUBLE, 0), "ibcast count",
            "past the end");
        expectThrows(IllegalArgumentException.class, () -> c.iallreduce(b, 0, null, 0, 4, Datatype.DOUBLE, Op.SUM),
            "iallreduce null", "buf");
        expectThrows(IllegalArgumentException.class, () -> c.iallreduce(b, 0, b, 0, 4, Datatype.DOUBLE, null),
            "iallreduce op", "op");
        expectThrows(IllegalArgumentException.class, () -> c.ialltoall(b, 0, -1, Datatype.DOUBLE, b, 0, 1,
            Datatype.DOUBLE), "ialltoall count", "count");
        expectThrows(IllegalArgumentException.class, () -> c.allgatherInit(new int[1], 0, 1, Datatype.DOUBLE,
            b, 0, 1, Datatype.DOUBLE), "allgatherInit type", "int[]");
        expectThrows(IllegalArgumentException.class, () -> c.reduceInit(b, 0, b, 0, 4, Datatype.DOUBLE, Op.BAND, 0),
            "reduceInit op on DOUBLE", "BAND");
        expectThrows(IllegalArgumentException.class, () -> c.iallreduce(b, 0, b, 0, 1,
            Datatype.DOUBLE.vector(2, 1, 2), Op.SUM), "iallreduce of a strided type", "contiguous");
        expectThrows(IllegalArgumentException.class, () -> c.allreduceInit(c.allocDoubles(4), 0, b, 0, 4,
            Datatype.DOUBLE, Op.SUM), "allreduceInit of a segment buffer", "segment buffer");
        // nothing was taken: the collectives still match up
        long[] v = {me};
        c.iallreduce(Comm.IN_PLACE, 0, v, 0, 1, Datatype.LONG, Op.SUM).waitFor();
        check(v[0] == (long) np * (np - 1) / 2, "after refusals: %d", v[0]);
    }
}
