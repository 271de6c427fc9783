package mpijava;

import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * The non-blocking collectives of MPJ Express ({@code Ibarrier}, {@code Ibcast}, {@code Ireduce},
 * {@code Iallreduce}, {@code Igather(v)}, {@code Iscatter(v)}, {@code Iallgather(v)},
 * {@code Ialltoall(v)}) and
 * the MPI-4 persistent ones ({@code Barrier_init} … {@code Alltoall_init}) in the mpiJava style:
 * results against the blocking calls, several outstanding at once and completed by
 * {@code Request.Waitall}/{@code Waitany}/{@code Test}, progress inside a blocked {@code Recv},
 * persistent requests started many times (with {@code Prequest.Startall}) on changing data,
 * BOOLEAN buffers, and MPIException for bad input with the communicator usable afterwards.
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

    static void errors() {
        double[] b = new double[4];
        expectMpiException(() -> world.Ibcast(b, 0, 4, MPI.DOUBLE, size), "root");
        expectMpiException(() -> world.Iallreduce(b, 0, b, 0, 5, MPI.DOUBLE, MPI.SUM), "past the end");
        expectMpiException(() -> world.Iallreduce(b, 0, b, 0, 4, MPI.DOUBLE, null), "op");
        expectMpiException(() -> world.Allreduce_init(b, 0, b, 0, 4, MPI.DOUBLE, MPI.BAND), "BAND");
        expectMpiException(() -> world.Ialltoall(new Object[size], 0, 1, MPI.OBJECT, new Object[size], 0, 1,
            MPI.OBJECT), "OBJECT");
        expectMpiException(() -> world.Igather(b, 0, 1, MPI.INT, b, 0, 1, MPI.INT, 0), "int[]");
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
