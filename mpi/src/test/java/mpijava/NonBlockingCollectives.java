package mpijava;

import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * The non-blocking collectives of MPJ Express ({@code Ibarrier}, {@code Ibcast}, {@code Ireduce},
 * {@code Iallreduce}, {@code Igather(v)}, {@code Iscatter(v)}, {@code Iallgather(v)},
 * {@code Ialltoall(v)}; and {@code Iscan}, {@code Iexscan}, {@code Ireduce_scatter(_block)}) and
 * the MPI-4 persistent ones ({@code Barrier_init} … {@code Alltoall_init}) in the mpiJava style:
 * results against the blocking calls, several outstanding at once and completed by
 * {@code Request.Waitall}/{@code Waitany}/{@code Test}, progress inside a blocked {@code Recv},
 * persistent requests started many times (with {@code Prequest.Startall}) on changing data,
 * BOOLEAN buffers, irregular types (Indexed, Struct: packed at the call or at each start,
 * unpacked at completion), and MPIException for bad input with the communicator usable afterwards.
 */
public class NonBlockingCollectives {
    static int me;
    static int size;
    static Intracomm world;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        me = world.Rank();
        size = world.Size();
        nonBlocking();
        pass("nonblocking");
        overlap();
        pass("overlap");
        persistent();
        pass("persistent");
        irregular();
        pass("irregular");
        objects();
        pass("objects");
        errors();
        pass("errors");
        MPI.Finalize();
        System.out.println("finalize");
    }

    static void pass(String s) {
        world.Barrier();
        System.out.println("PASS " + s);
    }

    static void nonBlocking() {
        int root = size - 1;
        double[] b1 = new double[10];
        double[] b2 = new double[10];
        if (me == root) {
            for (int i = 0; i < 10; i++) {
                b1[i] = b2[i] = i * 1.5;
            }
        }
        Request r = world.Ibcast(b1, 2, 8, MPI.DOUBLE, root);
        Status st = r.Wait();
        Ring.check(st != null && r.Is_null(), "Ibcast: Wait returns a status and the request becomes null");
        world.Bcast(b2, 2, 8, MPI.DOUBLE, root);
        Ring.check(Arrays.equals(b1, b2), "Ibcast = Bcast");

        int[] in = {me + 1, me * 2};
        int[] sum = new int[2];
        int[] max = new int[3];
        Request[] rs = {
            world.Iallreduce(in, 0, sum, 0, 2, MPI.INT, MPI.SUM),
            world.Ireduce(in, 0, max, 1, 2, MPI.INT, MPI.MAX, root),
            world.Ibarrier()
        };
        Request.Waitall(rs);
        Ring.check(sum[0] == size * (size + 1) / 2 && sum[1] == size * (size - 1), "Iallreduce SUM");
        Ring.check(me != root || (max[1] == size && max[2] == 2 * (size - 1)), "Ireduce MAX at the root");

        int[] mine = {me * 10, me * 10 + 1};
        int[] all = new int[2 * size];
        int[] all2 = new int[2 * size];
        world.Igather(mine, 0, 2, MPI.INT, all, 0, 2, MPI.INT, 0).Wait();
        world.Gather(mine, 0, 2, MPI.INT, all2, 0, 2, MPI.INT, 0);
        Ring.check(Arrays.equals(all, all2), "Igather = Gather");
        int[] part = new int[2];
        int[] src = new int[2 * size];
        for (int i = 0; i < src.length; i++) {
            src[i] = 100 + i;
        }
        world.Iscatter(src, 0, 2, MPI.INT, part, 0, 2, MPI.INT, root).Wait();
        Ring.check(part[0] == 100 + 2 * me && part[1] == 101 + 2 * me, "Iscatter");
        Arrays.fill(all, 0);
        Request ag = world.Iallgather(mine, 0, 2, MPI.INT, all, 0, 2, MPI.INT);
        while (ag.Test() == null) {
            Thread.onSpinWait();
        }
        world.Allgather(mine, 0, 2, MPI.INT, all2, 0, 2, MPI.INT);
        Ring.check(Arrays.equals(all, all2), "Iallgather = Allgather");
        long[] to = new long[size];
        long[] from = new long[size];
        for (int j = 0; j < size; j++) {
            to[j] = me * 1000L + j;
        }
        Request[] a2a = {world.Ialltoall(to, 0, 1, MPI.LONG, from, 0, 1, MPI.LONG), world.Ibarrier()};
        for (int k = 0; k < 2; k++) {
            Status s = Request.Waitany(a2a);
            Ring.check(s.index == 0 || s.index == 1, "Waitany index " + s.index);
        }
        for (int i = 0; i < size; i++) {
            Ring.check(from[i] == i * 1000L + me, "Ialltoall block " + i);
        }
        // v-variants: rank i contributes i + 1 items
        int[] counts = new int[size];
        int[] displs = new int[size];
        int total = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = i + 1;
            displs[i] = total;
            total += i + 1;
        }
        int[] mineV = new int[me + 1];
        Arrays.fill(mineV, me);
        int[] v1 = new int[total];
        int[] v2 = new int[total];
        world.Iallgatherv(mineV, 0, me + 1, MPI.INT, v1, 0, counts, displs, MPI.INT).Wait();
        world.Allgatherv(mineV, 0, me + 1, MPI.INT, v2, 0, counts, displs, MPI.INT);
        Ring.check(Arrays.equals(v1, v2) && v1[total - 1] == size - 1, "Iallgatherv = Allgatherv");
        Arrays.fill(v1, -1);
        world.Igatherv(mineV, 0, me + 1, MPI.INT, v1, 0, counts, displs, MPI.INT, root).Wait();
        Ring.check(me != root || Arrays.equals(v1, v2), "Igatherv");
        int[] back = new int[me + 1];
        world.Iscatterv(v2, 0, counts, displs, MPI.INT, back, 0, me + 1, MPI.INT, 0).Wait();
        Ring.check(back[me] == me, "Iscatterv");
        int[] sc = new int[size];
        int[] sd = new int[size];
        for (int j = 0; j < size; j++) {
            sc[j] = 1;
            sd[j] = j;
        }
        int[] av = new int[size];
        world.Ialltoallv(to2(), 0, sc, sd, MPI.INT, av, 0, sc, sd, MPI.INT).Wait();
        for (int i = 0; i < size; i++) {
            Ring.check(av[i] == i * 100 + me, "Ialltoallv block " + i);
        }
        // BOOLEAN buffers travel as bytes and come back as booleans
        boolean[] flags = new boolean[3];
        if (me == 0) {
            flags[0] = true;
            flags[2] = true;
        }
        world.Ibcast(flags, 0, 3, MPI.BOOLEAN, 0).Wait();
        Ring.check(flags[0] && !flags[1] && flags[2], "Ibcast of BOOLEAN");
        boolean[] any = new boolean[1];
        world.Iallreduce(new boolean[] {me == size - 1}, 0, any, 0, 1, MPI.BOOLEAN, MPI.LOR).Wait();
        Ring.check(any[0], "Iallreduce LOR of BOOLEAN");

        // the scans and reduce-scatters (session 16), against their blocking forms
        long[] x = {me + 1, 10L * me};
        long[] sc1 = new long[3];
        long[] sc2 = new long[3];
        world.Iscan(x, 0, sc1, 1, 2, MPI.LONG, MPI.SUM).Wait();
        world.Scan(x, 0, sc2, 1, 2, MPI.LONG, MPI.SUM);
        Ring.check(Arrays.equals(sc1, sc2) && sc1[1] == (long) (me + 1) * (me + 2) / 2, "Iscan = Scan: "
            + Arrays.toString(sc1));
        long[] ex = {-7, -7};
        world.Iexscan(x, 0, ex, 0, 2, MPI.LONG, MPI.SUM).Wait();
        Ring.check(me == 0 ? ex[0] == -7 && ex[1] == -7 : ex[0] == (long) me * (me + 1) / 2
            && ex[1] == 10L * (me - 1) * me / 2, "Iexscan (rank 0 untouched): " + Arrays.toString(ex));
        int[] rsCounts = new int[size];
        int rsTotal = 0;
        for (int i = 0; i < size; i++) {
            rsCounts[i] = i + 1;
            rsTotal += i + 1;
        }
        int[] vec = new int[rsTotal];
        for (int j = 0; j < rsTotal; j++) {
            vec[j] = j + me;
        }
        int[] rs1 = new int[me + 1];
        int[] rs2 = new int[me + 1];
        world.Ireduce_scatter(vec, 0, rs1, 0, rsCounts, MPI.INT, MPI.SUM).Wait();
        world.Reduce_scatter(vec, 0, rs2, 0, rsCounts, MPI.INT, MPI.SUM);
        int first = me * (me + 1) / 2;
        Ring.check(Arrays.equals(rs1, rs2) && rs1[0] == size * first + size * (size - 1) / 2,
            "Ireduce_scatter = Reduce_scatter: " + Arrays.toString(rs1));
        boolean[] votes = new boolean[size];
        votes[me] = true;
        boolean[] myVote = new boolean[1];
        world.Ireduce_scatter_block(votes, 0, myVote, 0, 1, MPI.BOOLEAN, MPI.LOR).Wait();
        Ring.check(myVote[0], "Ireduce_scatter_block LOR of BOOLEAN");
    }

    static int[] to2() {
        int[] t = new int[size];
        for (int j = 0; j < size; j++) {
            t[j] = me * 100 + j;
        }
        return t;
    }

    /**
     * Ranks other than 0 post Ibarrier and Ibcast, then block in Recv from rank 0, which sends
     * only after both completed there: the collectives advance inside that Recv.
     */
    static void overlap() {
        double[] data = new double[50_000]; // past the eager limit: the broadcast needs the receivers' help
        if (me == 0) {
            Arrays.fill(data, 3.25);
        }
        Request[] rs = {world.Ibarrier(), world.Ibcast(data, 0, data.length, MPI.DOUBLE, 0)};
        int[] token = new int[1];
        if (me == 0) {
            Request.Waitall(rs);
            for (int r = 1; r < size; r++) {
                world.Send(new int[] {7}, 0, 1, MPI.INT, r, 90);
            }
        } else {
            world.Recv(token, 0, 1, MPI.INT, 0, 90);
            Ring.check(token[0] == 7, "overlap token");
            Request.Waitall(rs);
        }
        Ring.check(data[0] == 3.25 && data[data.length - 1] == 3.25, "overlap: Ibcast data");
    }

    static void persistent() {
        int n = 4;
        double[] in = new double[n];
        double[] sum = new double[n];
        double[] red = new double[n];
        int[] bc = new int[3];
        int[] ag = new int[size];
        int[] mine = new int[1];
        int[] a2aIn = new int[size];
        int[] a2aOut = new int[size];
        int[] gat = new int[size];
        int[] sca = new int[size];
        int[] got = new int[1];
        boolean[] flag = new boolean[1];
        int root = size - 1;
        Prequest[] set = {
            world.Allreduce_init(in, 0, sum, 0, n, MPI.DOUBLE, MPI.SUM),
            world.Reduce_init(in, 0, red, 0, n, MPI.DOUBLE, MPI.MIN, root),
            world.Bcast_init(bc, 0, 3, MPI.INT, 0),
            world.Allgather_init(mine, 0, 1, MPI.INT, ag, 0, 1, MPI.INT),
            world.Alltoall_init(a2aIn, 0, 1, MPI.INT, a2aOut, 0, 1, MPI.INT),
            world.Gather_init(mine, 0, 1, MPI.INT, gat, 0, 1, MPI.INT, root),
            world.Scatter_init(sca, 0, 1, MPI.INT, got, 0, 1, MPI.INT, 0),
            world.Bcast_init(flag, 0, 1, MPI.BOOLEAN, root),
            world.Barrier_init()
        };
        for (int it = 0; it < 40; it++) {
            for (int k = 0; k < n; k++) {
                in[k] = me + k + it;
            }
            if (me == 0) {
                bc[0] = it;
                bc[2] = -it;
            }
            mine[0] = me * it;
            for (int j = 0; j < size; j++) {
                a2aIn[j] = me * 100 + j + it;
                sca[j] = j * 7 + it;
            }
            if (me == root) {
                flag[0] = it % 2 == 1;
            }
            if (it % 2 == 0) {
                Prequest.Startall(set);
                Request.Waitall(set);
            } else {
                for (Prequest p : set) {
                    p.Start();
                }
                try {
                    set[0].Start();
                    throw new AssertionError("Start of an active persistent collective was accepted");
                } catch (MPIException expected) {
                    Ring.check(expected.getMessage().contains("active"), "Start while active: "
                        + expected.getMessage());
                }
                for (int i = set.length - 1; i >= 0; i--) {
                    set[i].Wait();
                }
            }
            for (int k = 0; k < n; k++) {
                Ring.check(sum[k] == size * (size - 1) / 2.0 + size * (k + it), "Allreduce_init start " + it);
                Ring.check(me != root || red[k] == k + it, "Reduce_init start " + it);
            }
            Ring.check(bc[0] == it && bc[2] == -it, "Bcast_init start " + it);
            for (int i = 0; i < size; i++) {
                Ring.check(ag[i] == i * it, "Allgather_init start " + it);
                Ring.check(a2aOut[i] == i * 100 + me + it, "Alltoall_init start " + it);
                Ring.check(me != root || gat[i] == i * it, "Gather_init start " + it);
            }
            Ring.check(got[0] == me * 7 + it, "Scatter_init start " + it);
            Ring.check(flag[0] == (it % 2 == 1), "Bcast_init of BOOLEAN start " + it);
        }
        for (Prequest p : set) {
            p.Free();
        }
    }

    /** One item for every rank (the counts of an all-to-all of one item each way). */
    static int[] ones() {
        int[] v = new int[size];
        Arrays.fill(v, 1);
        return v;
    }

    /** Displacements {@code stride} items apart, one per rank. */
    static int[] steps(int stride) {
        int[] v = new int[size];
        for (int r = 0; r < size; r++) {
            v[r] = stride * r;
        }
        return v;
    }

    /** Element e of rank r's buffer in {@link #irregular}. */
    static int val(int r, int e) {
        return 1000 * r + e;
    }

    /**
     * Indexed and Struct types in the non-blocking and persistent collectives: each result equal
     * to the blocking call's (itself checked element by element in Conformance), gaps of the
     * receive layouts untouched, persistent requests packing the send buffer anew at each start,
     * and a root whose receive buffer is refused at init keeping every rank's collectives in step.
     */
    static void irregular() {
        int root = size - 1;
        // one item = elements {2, 0, 1} of three, in that order
        Datatype ix = Datatype.Indexed(new int[] {1, 2}, new int[] {2, 0}, MPI.INT);
        int[] mine = new int[6];
        for (int e = 0; e < 6; e++) {
            mine[e] = val(me, e);
        }
        // Ibcast into a gapped layout: two items a gap of one item apart (a Vector of the Indexed)
        Datatype gapped = Datatype.Vector(2, 1, 2, ix);
        int[] b1 = new int[9];
        int[] b2 = new int[9];
        Arrays.fill(b1, -1);
        Arrays.fill(b2, -1);
        if (me == root) {
            for (int e = 0; e < 9; e++) {
                b1[e] = b2[e] = val(me, e);
            }
        }
        Request ib = world.Ibcast(b1, 0, 1, gapped, root);
        world.Bcast(b2, 0, 1, gapped, root);
        ib.Wait();
        Ring.check(Arrays.equals(b1, b2) && (me == root || (b1[3] == -1 && b1[6] == val(root, 6))),
            "Ibcast of a Vector of Indexed = Bcast: " + Arrays.toString(b1));
        // several at once, completed by one Waitall: gathers, scatters, all-to-alls, reductions
        int[] gat = new int[6 * size];
        int[] gatB = new int[6 * size];
        int[] counts = new int[size];
        int[] displs = new int[size];
        int at = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 3;
            displs[r] = at + 1;
            at += counts[r] + 1;
        }
        int[] mineV = new int[9];
        for (int e = 0; e < 9; e++) {
            mineV[e] = val(me, e);
        }
        int[] agv = new int[3 * at + 3];
        int[] agvB = new int[3 * at + 3];
        Arrays.fill(agv, -7);
        Arrays.fill(agvB, -7);
        int[] rootData = new int[3 * at];
        for (int i = 0; i < rootData.length; i++) {
            rootData[i] = i;
        }
        int[] sv = new int[9];
        int[] svB = new int[9];
        Arrays.fill(sv, -1);
        Arrays.fill(svB, -1);
        int[] a2aIn = new int[6 * size];
        for (int e = 0; e < a2aIn.length; e++) {
            a2aIn[e] = val(me, e);
        }
        int[] a2a = new int[6 * size];
        int[] a2aB = new int[6 * size];
        Datatype dx = Datatype.Indexed(new int[] {1, 1}, new int[] {2, 0}, MPI.DOUBLE); // elements 2, 0 of 3
        double[] dv = {me + 1, -1, 10 * (me + 1)};
        double[] sum = {-5, -5, -5};
        double[] max = {-5, -5, -5};
        Request[] rs = {
            world.Igather(mine, 0, 2, ix, gat, 0, 6, MPI.INT, root),
            world.Iallgatherv(mineV, 0, me % 3, ix, agv, 0, counts, displs, ix),
            world.Iscatterv(rootData, 0, counts, displs, ix, sv, 0, me % 3, ix, 0),
            world.Ialltoall(a2aIn, 0, 2, ix, a2a, 0, 6, MPI.INT),
            world.Iallreduce(dv, 0, sum, 0, 1, dx, MPI.SUM),
            world.Ireduce(dv, 0, max, 0, 1, dx, MPI.MAX, root)
        };
        Request.Waitall(rs);
        world.Gather(mine, 0, 2, ix, gatB, 0, 6, MPI.INT, root);
        world.Allgatherv(mineV, 0, me % 3, ix, agvB, 0, counts, displs, ix);
        world.Scatterv(rootData, 0, counts, displs, ix, svB, 0, me % 3, ix, 0);
        world.Alltoall(a2aIn, 0, 2, ix, a2aB, 0, 6, MPI.INT);
        Ring.check(me != root || (Arrays.equals(gat, gatB) && gat[0] == val(0, 2) && gat[1] == val(0, 0)),
            "Igather of Indexed = Gather: " + Arrays.toString(gat));
        Ring.check(Arrays.equals(agv, agvB) && agv[0] == -7, "Iallgatherv of Indexed = Allgatherv: "
            + Arrays.toString(agv));
        Ring.check(Arrays.equals(sv, svB), "Iscatterv of Indexed = Scatterv: " + Arrays.toString(sv));
        Ring.check(Arrays.equals(a2a, a2aB), "Ialltoall of Indexed = Alltoall: " + Arrays.toString(a2a));
        double s1 = size * (size + 1) / 2.0;
        Ring.check(sum[0] == s1 && sum[1] == -5 && sum[2] == 10 * s1, "Iallreduce of Indexed: " + Arrays.toString(sum));
        Ring.check(me != root || (max[0] == size && max[1] == -5 && max[2] == 10 * size), "Ireduce of Indexed: "
            + Arrays.toString(max));
        // the scans and reduce-scatters of an Indexed (session 16): packed around the core call
        double[] isc = {-5, -5, -5};
        double[] iscB = {-5, -5, -5};
        world.Iscan(dv, 0, isc, 0, 1, dx, MPI.SUM).Wait();
        world.Scan(dv, 0, iscB, 0, 1, dx, MPI.SUM);
        double upTo = (me + 1) * (me + 2) / 2.0;
        Ring.check(Arrays.equals(isc, iscB) && isc[0] == upTo && isc[1] == -5 && isc[2] == 10 * upTo,
            "Iscan of Indexed = Scan: " + Arrays.toString(isc));
        double[] iex = {-5, -5, -5};
        world.Iexscan(dv, 0, iex, 0, 1, dx, MPI.SUM).Wait();
        double below = me * (me + 1) / 2.0;
        Ring.check(me == 0 ? iex[0] == -5 && iex[2] == -5 : iex[0] == below && iex[1] == -5 && iex[2] == 10 * below,
            "Iexscan of Indexed: " + Arrays.toString(iex));
        double[] rsIn = new double[3 * size];
        for (int i = 0; i < size; i++) {
            rsIn[3 * i] = i + me;
            rsIn[3 * i + 1] = -1;
            rsIn[3 * i + 2] = 100 * (i + me);
        }
        double[] rsOut = {-5, -5, -5};
        double[] rsOutB = {-5, -5, -5};
        world.Ireduce_scatter_block(rsIn, 0, rsOut, 0, 1, dx, MPI.SUM).Wait();
        world.Reduce_scatter_block(rsIn, 0, rsOutB, 0, 1, dx, MPI.SUM);
        double mineSum = size * me + size * (size - 1) / 2.0;
        Ring.check(Arrays.equals(rsOut, rsOutB) && rsOut[0] == mineSum && rsOut[1] == -5 && rsOut[2] == 100 * mineSum,
            "Ireduce_scatter_block of Indexed = Reduce_scatter_block: " + Arrays.toString(rsOut));
        double[] rsv = {-5, -5, -5};
        world.Ireduce_scatter(rsIn, 0, rsv, 0, ones(), dx, MPI.SUM).Wait();
        Ring.check(Arrays.equals(rsv, rsOut), "Ireduce_scatter of Indexed: " + Arrays.toString(rsv));
        // the remaining non-blocking forms, one by one against the blocking call
        int[] sc = new int[3];
        int[] scB = new int[3];
        int[] pieces = new int[3 * size];
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = 3 * i + 1;
        }
        world.Iscatter(pieces, 0, 1, ix, sc, 0, 3, MPI.INT, 0).Wait();
        world.Scatter(pieces, 0, 1, ix, scB, 0, 3, MPI.INT, 0);
        Ring.check(Arrays.equals(sc, scB) && sc[0] == pieces[3 * me + 2], "Iscatter of Indexed: " + Arrays.toString(sc));
        int[] ag = new int[3 * size];
        int[] agB = new int[3 * size];
        world.Iallgather(mine, 0, 3, MPI.INT, ag, 0, 1, ix).Wait();
        world.Allgather(mine, 0, 3, MPI.INT, agB, 0, 1, ix);
        Ring.check(Arrays.equals(ag, agB) && ag[2] == val(0, 0), "Iallgather into Indexed: " + Arrays.toString(ag));
        int[] gv = new int[3 * at + 3];
        int[] gvB = new int[3 * at + 3];
        world.Igatherv(mineV, 0, me % 3, ix, gv, 0, counts, displs, ix, root).Wait();
        world.Gatherv(mineV, 0, me % 3, ix, gvB, 0, counts, displs, ix, root);
        Ring.check(Arrays.equals(gv, gvB), "Igatherv of Indexed: " + Arrays.toString(gv));
        int[] ones = ones();
        int[] sd = steps(1);
        int[] rd = steps(2);
        int[] a2av = new int[6 * size];
        int[] a2avB = new int[6 * size];
        Arrays.fill(a2av, -3);
        Arrays.fill(a2avB, -3);
        world.Ialltoallv(a2aIn, 0, ones, sd, ix, a2av, 0, ones, rd, ix).Wait();
        world.Alltoallv(a2aIn, 0, ones, sd, ix, a2avB, 0, ones, rd, ix);
        Ring.check(Arrays.equals(a2av, a2avB) && a2av[3] == -3, "Ialltoallv of Indexed: " + Arrays.toString(a2av));

        // persistent: a Struct (doubles at 1 and 3, UB at 5: extent 4) and the Indexed, started 5 times
        Datatype sx = Datatype.Struct(new int[] {1, 1, 1}, new int[] {1, 3, 5},
            new Datatype[] {MPI.DOUBLE, MPI.DOUBLE, MPI.UB});
        double[] sIn = new double[4 * size + 1];
        double[] sAll = new double[2 * size];
        double[] sGot = {-9, -9, -9, -9};
        double[] sSum = new double[5];
        double[] sMin = new double[5];
        int[] pb = new int[6];
        int[] pIn = new int[6];
        int[] pg = new int[6 * size];
        int[] pa2a = new int[6 * size];
        Prequest[] set = {
            world.Allgather_init(sIn, 0, 1, sx, sAll, 0, 2, MPI.DOUBLE),
            world.Scatter_init(sIn, 0, 1, sx, sGot, 0, 1, sx, root),
            world.Allreduce_init(sIn, 0, sSum, 0, 1, sx, MPI.SUM),
            world.Reduce_init(sIn, 0, sMin, 0, 1, sx, MPI.MIN, 0),
            world.Bcast_init(pb, 0, 2, ix, 0),
            world.Gather_init(pIn, 0, 2, ix, pg, 0, 6, MPI.INT, root),
            world.Alltoall_init(a2aIn, 0, 2, ix, pa2a, 0, 2, ix)
        };
        for (int it = 0; it < 5; it++) {
            for (int i = 0; i < sIn.length; i++) {
                sIn[i] = 100 * it + 10 * me + i;
            }
            for (int e = 0; e < 6; e++) {
                pb[e] = me == 0 ? 10 * it + e : -1;
                pIn[e] = 1000 * me + 10 * it + e;
            }
            Prequest.Startall(set);
            Request.Waitall(set);
            for (int r = 0; r < size; r++) {
                Ring.check(sAll[2 * r] == 100 * it + 10 * r + 1 && sAll[2 * r + 1] == 100 * it + 10 * r + 3,
                    "Allgather_init of Struct, start " + it + ": " + Arrays.toString(sAll));
            }
            Ring.check(sGot[0] == -9 && sGot[2] == -9 && sGot[1] == 100 * it + 10 * root + 4 * me + 1
                && sGot[3] == 100 * it + 10 * root + 4 * me + 3, "Scatter_init of Struct into Struct, start " + it
                + ": " + Arrays.toString(sGot));
            double tens = 10 * size * (size - 1) / 2.0;
            Ring.check(sSum[1] == size * (100 * it + 1) + tens && sSum[3] == size * (100 * it + 3) + tens
                && sSum[0] == 0 && sSum[2] == 0, "Allreduce_init of Struct, start " + it + ": " + Arrays.toString(sSum));
            Ring.check(me != 0 || (sMin[1] == 100 * it + 1 && sMin[3] == 100 * it + 3), "Reduce_init of Struct, start "
                + it + ": " + Arrays.toString(sMin));
            Ring.check(pb[0] == 10 * it && pb[5] == 10 * it + 5, "Bcast_init of Indexed, start " + it + ": "
                + Arrays.toString(pb));
            for (int r = 0; me == root && r < size; r++) {
                Ring.check(pg[6 * r] == 1000 * r + 10 * it + 2 && pg[6 * r + 1] == 1000 * r + 10 * it,
                    "Gather_init of Indexed, start " + it + ": " + Arrays.toString(pg));
            }
            for (int r = 0; r < size; r++) {
                for (int e = 0; e < 6; e++) {
                    Ring.check(pa2a[6 * r + e] == val(r, 6 * me + e), "Alltoall_init of Indexed both sides, start "
                        + it + ": " + Arrays.toString(pa2a));
                }
            }
        }
        for (Prequest p : set) {
            p.Free();
        }
        // a root's receive buffer refused at init: the root's tag sequence stays in step with the others'
        try {
            world.Gather_init(mine, 0, 6, MPI.INT, new int[6 * size - 1], 0, 2, ix, root).Free();
            Ring.check(me != root, "Gather_init into a too short buffer was not refused at the root");
        } catch (MPIException refused) {
            Ring.check(me == root && refused.getMessage().startsWith("Gather_init"), "Gather_init refused at " + me
                + ": " + refused.getMessage());
        }
        try {
            world.Reduce_init(new boolean[] {true}, 0, new int[1], 0, 1, MPI.BOOLEAN, MPI.LAND, root).Free();
            Ring.check(me != root, "Reduce_init into an int[] as BOOLEAN was not refused at the root");
        } catch (MPIException refused) {
            Ring.check(me == root && refused.getMessage().startsWith("Reduce_init"), "Reduce_init refused at " + me
                + ": " + refused.getMessage());
        }
        int[] after = new int[size];
        world.Iallgather(new int[] {me + 1}, 0, 1, MPI.INT, after, 0, 1, MPI.INT).Wait();
        for (int r = 0; r < size; r++) {
            Ring.check(after[r] == r + 1, "Iallgather after refused inits: " + Arrays.toString(after));
        }
        expectMpiException(() -> world.Iallreduce(dv, 0, sum, 0, 1, dx, MPI.MAXLOC), "MAXLOC");
    }

    /** Objects in [slot]: "r:k:it" for rank r, position k, round it. */
    static String obj(int r, int k, int it) {
        return r + ":" + k + ":" + it;
    }

    /**
     * OBJECT buffers in the non-blocking and persistent broadcast, gathers, scatters and
     * all-to-alls: results equal to the blocking calls', several at once, persistent ones started
     * with new objects each time, and a root whose send side is refused: the others' requests
     * complete with an MPIException naming it and the next call is in step.
     */
    static void objects() {
        int root = size - 1;
        Object[] b1 = new Object[5];
        Object[] b2 = new Object[5];
        if (me == root) {
            for (int k = 0; k < 5; k++) {
                b1[k] = b2[k] = obj(root, k, 0);
            }
        }
        Request ib = world.Ibcast(b1, 1, 3, MPI.OBJECT, root);
        world.Bcast(b2, 1, 3, MPI.OBJECT, root);
        ib.Wait();
        Ring.check(Arrays.equals(b1, b2) && b1[2].equals(obj(root, 2, 0)) && (me == root || b1[0] == null),
            "Ibcast of OBJECT = Bcast: " + Arrays.toString(b1));
        String[] mine = {obj(me, 0, 0), obj(me, 1, 0)};
        Object[] gat = new Object[2 * size];
        Object[] allg = new Object[2 * size];
        Object[] a2aIn = new Object[size];
        Object[] a2a = new Object[size];
        for (int j = 0; j < size; j++) {
            a2aIn[j] = obj(me, j, 1);
        }
        Object[] sc = new Object[2 * size];
        for (int j = 0; j < sc.length; j++) {
            sc[j] = obj(0, j, 2);
        }
        Object[] got = new Object[2];
        Request[] rs = {
            world.Igather(mine, 0, 2, MPI.OBJECT, gat, 0, 2, MPI.OBJECT, root),
            world.Iallgather(mine, 0, 2, MPI.OBJECT, allg, 0, 2, MPI.OBJECT),
            world.Ialltoall(a2aIn, 0, 1, MPI.OBJECT, a2a, 0, 1, MPI.OBJECT),
            world.Iscatter(sc, 0, 2, MPI.OBJECT, got, 0, 2, MPI.OBJECT, 0)
        };
        Request.Waitall(rs);
        for (int r = 0; r < size; r++) {
            Ring.check(me != root || (obj(r, 0, 0).equals(gat[2 * r]) && obj(r, 1, 0).equals(gat[2 * r + 1])),
                "Igather of OBJECT: " + Arrays.toString(gat));
            Ring.check(obj(r, 1, 0).equals(allg[2 * r + 1]), "Iallgather of OBJECT: " + Arrays.toString(allg));
            Ring.check(obj(r, me, 1).equals(a2a[r]), "Ialltoall of OBJECT: " + Arrays.toString(a2a));
        }
        Ring.check(obj(0, 2 * me, 2).equals(got[0]) && obj(0, 2 * me + 1, 2).equals(got[1]), "Iscatter of OBJECT: "
            + Arrays.toString(got));
        // v variants: rank r gives r % 3 + 1 objects, one gap of a slot between blocks
        int[] counts = new int[size];
        int[] displs = new int[size];
        int at = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 3 + 1;
            displs[r] = at + 1;
            at += counts[r] + 1;
        }
        Object[] mineV = new Object[3];
        for (int k = 0; k < 3; k++) {
            mineV[k] = obj(me, k, 3);
        }
        Object[] agv = new Object[at];
        Object[] agvB = new Object[at];
        world.Iallgatherv(mineV, 0, me % 3 + 1, MPI.OBJECT, agv, 0, counts, displs, MPI.OBJECT).Wait();
        world.Allgatherv(mineV, 0, me % 3 + 1, MPI.OBJECT, agvB, 0, counts, displs, MPI.OBJECT);
        Ring.check(Arrays.equals(agv, agvB) && agv[0] == null && obj(0, 0, 3).equals(agv[1]),
            "Iallgatherv of OBJECT = Allgatherv: " + Arrays.toString(agv));
        Object[] gv = new Object[at];
        world.Igatherv(mineV, 0, me % 3 + 1, MPI.OBJECT, gv, 0, counts, displs, MPI.OBJECT, root).Wait();
        Ring.check(me != root || Arrays.equals(gv, agvB), "Igatherv of OBJECT: " + Arrays.toString(gv));
        Object[] scv = new Object[3];
        world.Iscatterv(agvB, 0, counts, displs, MPI.OBJECT, scv, 0, me % 3 + 1, MPI.OBJECT, root).Wait();
        Ring.check(obj(me, me % 3, 3).equals(scv[me % 3]), "Iscatterv of OBJECT: " + Arrays.toString(scv));
        int[] ones = ones();
        int[] sd = steps(1);
        int[] rd = steps(2);
        Object[] a2av = new Object[2 * size];
        world.Ialltoallv(a2aIn, 0, ones, sd, MPI.OBJECT, a2av, 0, ones, rd, MPI.OBJECT).Wait();
        for (int r = 0; r < size; r++) {
            Ring.check(obj(r, me, 1).equals(a2av[2 * r]) && a2av[2 * r + 1] == null, "Ialltoallv of OBJECT: "
                + Arrays.toString(a2av));
        }
        // persistent: new objects before each start
        Object[] pb = new Object[2];
        Object[] pIn = new Object[1];
        Object[] pg = new Object[size];
        Object[] pag = new Object[size];
        Object[] pa2a = new Object[size];
        Object[] psc = new Object[size];
        Object[] pgot = new Object[1];
        Prequest[] set = {
            world.Bcast_init(pb, 0, 2, MPI.OBJECT, 0),
            world.Gather_init(pIn, 0, 1, MPI.OBJECT, pg, 0, 1, MPI.OBJECT, root),
            world.Allgather_init(pIn, 0, 1, MPI.OBJECT, pag, 0, 1, MPI.OBJECT),
            world.Alltoall_init(psc, 0, 1, MPI.OBJECT, pa2a, 0, 1, MPI.OBJECT),
            world.Scatter_init(psc, 0, 1, MPI.OBJECT, pgot, 0, 1, MPI.OBJECT, root)
        };
        for (int it = 0; it < 4; it++) {
            if (me == 0) {
                pb[0] = obj(0, 0, 10 + it);
                pb[1] = java.util.List.of(it, "x");
            }
            pIn[0] = obj(me, 0, 10 + it);
            for (int j = 0; j < size; j++) {
                psc[j] = obj(me, j, 10 + it);
            }
            Prequest.Startall(set);
            Request.Waitall(set);
            Ring.check(obj(0, 0, 10 + it).equals(pb[0]) && java.util.List.of(it, "x").equals(pb[1]),
                "Bcast_init of OBJECT, start " + it + ": " + Arrays.toString(pb));
            for (int r = 0; r < size; r++) {
                Ring.check(me != root || obj(r, 0, 10 + it).equals(pg[r]), "Gather_init of OBJECT, start " + it);
                Ring.check(obj(r, 0, 10 + it).equals(pag[r]), "Allgather_init of OBJECT, start " + it);
                Ring.check(obj(r, me, 10 + it).equals(pa2a[r]), "Alltoall_init of OBJECT, start " + it);
            }
            Ring.check(obj(root, me, 10 + it).equals(pgot[0]), "Scatter_init of OBJECT, start " + it + ": "
                + pgot[0]);
        }
        for (Prequest p : set) {
            p.Free();
        }
        // the root's send buffer too short: refused there; each other rank's request completes with an
        // MPIException saying so, its buffer untouched, and the next call is in step
        Object[] keep = {"untouched"};
        Request refusedScatter = null;
        try {
            refusedScatter = world.Iscatter(new Object[size - 1], 0, 1, MPI.OBJECT, keep, 0, 1, MPI.OBJECT, root);
            Ring.check(me != root, "Iscatter of OBJECT from a too short buffer was not refused at the root");
        } catch (MPIException refused) {
            Ring.check(me == root && refused.getMessage().startsWith("Iscatter"), "Iscatter refused at " + me + ": "
                + refused.getMessage());
        }
        if (refusedScatter != null) {
            try {
                refusedScatter.Wait();
                Ring.check(size == 1, "a non-root's Iscatter of a refused root completed without an error");
            } catch (MPIException told) {
                Ring.check(told.getMessage().contains("no objects") && "untouched".equals(keep[0]),
                    "a non-root of a refused Iscatter: " + told.getMessage() + ", " + keep[0]);
            }
        }
        // reductions with a user op: strings joined in rank order (not commutative), item by item
        Op join = new Op(new mpi.User_function() {
            @Override
            public void Call(Object in, int ii, Object inout, int io, int n, mpi.Datatype type) {
                Object[] a = (Object[]) in;
                Object[] b = (Object[]) inout;
                for (int k = 0; k < n; k++) {
                    b[io + k] = a[ii + k] + "|" + b[io + k];
                }
            }
        }, false);
        String[] two = {"a" + me, "b" + me};
        StringBuilder wantA = new StringBuilder("a0");
        StringBuilder wantB = new StringBuilder("b0");
        for (int r = 1; r < size; r++) {
            wantA.append("|a").append(r);
            wantB.append("|b").append(r);
        }
        Object[] joined = new Object[3];
        Object[] atRoot = new Object[2];
        Request[] red = {
            world.Iallreduce(two, 0, joined, 1, 2, MPI.OBJECT, join),
            world.Ireduce(two, 0, atRoot, 0, 2, MPI.OBJECT, join, root)
        };
        Request.Waitall(red);
        Ring.check(joined[0] == null && wantA.toString().equals(joined[1]) && wantB.toString().equals(joined[2]),
            "Iallreduce of OBJECT with a user op: " + Arrays.toString(joined));
        Ring.check(me != root || (wantA.toString().equals(atRoot[0]) && wantB.toString().equals(atRoot[1])),
            "Ireduce of OBJECT with a user op: " + Arrays.toString(atRoot));
        // the scans and reduce-scatters of OBJECT (session 16), against the blocking forms: prefixes in rank order
        Object[] isc = new Object[2];
        Object[] iscB = new Object[2];
        Object[] iex = {"keep", "keep"};
        Object[] iexB = {"keep", "keep"};
        Request[] scans = {
            world.Iscan(two, 0, isc, 0, 2, MPI.OBJECT, join),
            world.Iexscan(two, 0, iex, 0, 2, MPI.OBJECT, join)
        };
        Request.Waitall(scans);
        world.Scan(two, 0, iscB, 0, 2, MPI.OBJECT, join);
        world.Exscan(two, 0, iexB, 0, 2, MPI.OBJECT, join);
        StringBuilder upToA = new StringBuilder("a0");
        for (int r = 1; r <= me; r++) {
            upToA.append("|a").append(r);
        }
        Ring.check(Arrays.equals(isc, iscB) && upToA.toString().equals(isc[0]), "Iscan of OBJECT = Scan: "
            + Arrays.toString(isc));
        Ring.check(Arrays.equals(iex, iexB) && (me != 0 || "keep".equals(iex[0])), "Iexscan of OBJECT = Exscan: "
            + Arrays.toString(iex));
        Object[] vec = new Object[size + 1];
        for (int i = 0; i < vec.length; i++) {
            vec[i] = "v" + i + "r" + me;
        }
        int[] rsCounts = new int[size];
        rsCounts[size - 1] = 2; // rank size - 1 gets two items, the others one
        for (int i = 0; i < size - 1; i++) {
            rsCounts[i] = 1;
        }
        Object[] rsObj = new Object[2];
        Object[] rsB = new Object[2];
        world.Ireduce_scatter(vec, 0, rsObj, 0, rsCounts, MPI.OBJECT, join).Wait();
        world.Reduce_scatter(vec, 0, rsB, 0, rsCounts, MPI.OBJECT, join);
        StringBuilder wantMine = new StringBuilder("v" + me + "r0");
        for (int r = 1; r < size; r++) {
            wantMine.append("|v").append(me).append('r').append(r);
        }
        Ring.check(Arrays.equals(rsObj, rsB) && wantMine.toString().equals(rsObj[0]), "Ireduce_scatter of OBJECT = "
            + "Reduce_scatter: " + Arrays.toString(rsObj) + " and " + Arrays.toString(rsB));
        Object[] blk = new Object[1];
        world.Ireduce_scatter_block(vec, 0, blk, 0, 1, MPI.OBJECT, join).Wait();
        Ring.check(wantMine.toString().equals(blk[0]), "Ireduce_scatter_block of OBJECT: " + blk[0]);
        Object[] pr = new Object[1];
        Object[] pall = new Object[1];
        Object[] pred = new Object[1];
        Prequest[] preds = {
            world.Allreduce_init(pr, 0, pall, 0, 1, MPI.OBJECT, join),
            world.Reduce_init(pr, 0, pred, 0, 1, MPI.OBJECT, join, 0)
        };
        for (int it = 0; it < 3; it++) {
            pr[0] = "s" + it + "r" + me;
            Prequest.Startall(preds);
            Request.Waitall(preds);
            StringBuilder want = new StringBuilder("s" + it + "r0");
            for (int r = 1; r < size; r++) {
                want.append("|s").append(it).append("r").append(r);
            }
            Ring.check(want.toString().equals(pall[0]) && (me != 0 || want.toString().equals(pred[0])),
                "Allreduce_init/Reduce_init of OBJECT, start " + it + ": " + pall[0] + ", " + pred[0]);
        }
        for (Prequest p : preds) {
            p.Free();
        }
        Object[] after = new Object[size];
        world.Iallgather(new Object[] {obj(me, 9, 9)}, 0, 1, MPI.OBJECT, after, 0, 1, MPI.OBJECT).Wait();
        for (int r = 0; r < size; r++) {
            Ring.check(obj(r, 9, 9).equals(after[r]), "Iallgather of OBJECT after a refused call: "
                + Arrays.toString(after));
        }
    }

    static void errors() {
        double[] b = new double[4];
        expectMpiException(() -> world.Ibcast(b, 0, 4, MPI.DOUBLE, size), "root");
        expectMpiException(() -> world.Iallreduce(b, 0, b, 0, 5, MPI.DOUBLE, MPI.SUM), "past the end");
        expectMpiException(() -> world.Iallreduce(b, 0, b, 0, 4, MPI.DOUBLE, null), "op");
        expectMpiException(() -> world.Allreduce_init(b, 0, b, 0, 4, MPI.DOUBLE, MPI.BAND), "BAND");
        expectMpiException(() -> world.Iallreduce(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM),
            "OBJECT");
        expectMpiException(() -> world.Igather(b, 0, 1, MPI.INT, b, 0, 1, MPI.INT, 0), "int[]");
        expectMpiException(() -> world.Iscan(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM),
            "SUM");
        expectMpiException(() -> world.Iexscan(b, 0, b, 0, 1, Datatype.Indexed(new int[] {1}, new int[] {0},
            MPI.DOUBLE), MPI.MAXLOC), "MAXLOC");
        int[] five = new int[size];
        Arrays.fill(five, 5);
        expectMpiException(() -> world.Ireduce_scatter(b, 0, b, 0, five, MPI.DOUBLE, MPI.SUM), "past the end");
        expectMpiException(() -> world.Ireduce_scatter_block(b, 0, b, 0, -1, MPI.DOUBLE, MPI.SUM), "recvCount");
        int[] v = {1};
        world.Iallreduce(new int[] {1}, 0, v, 0, 1, MPI.INT, MPI.SUM).Wait();
        Ring.check(v[0] == size, "usable after errors");
    }

    static void expectMpiException(Runnable call, String word) {
        try {
            call.run();
        } catch (MPIException e) {
            Ring.check(String.valueOf(e.getMessage()).contains(word), "message names '" + word + "': "
                + e.getMessage());
            return;
        }
        throw new AssertionError("expected MPIException naming " + word);
    }
}
