package mpijava;

import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Conformance scenarios of the mpi package for OBJECT buffers in the per-rank-count collectives
 * and the all-to-alls (Gatherv, Scatterv, Allgatherv, Alltoall, Alltoallv), at any number of
 * ranks: rank r contributes r + 1 strings (block i of an all-to-all: i + r + 1), blocks land at
 * the displacements given with a gap between them, and the gaps stay untouched. Each rank prints
 * {@code PASS <scenario>} when its checks hold and throws otherwise.
 */
public class ObjectCollectivesConformance {
    static int me;
    static int size;
    static Intracomm world;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        me = world.Rank();
        size = world.Size();
        int root = size / 2;
        int[] counts = new int[size];
        int[] displs = new int[size];
        int total = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = i + 1;
            displs[i] = total + 1; // one slot of gap before every block
            total += counts[i] + 1;
        }
        String[] mine = new String[me + 1];
        for (int k = 0; k < mine.length; k++) {
            mine[k] = "r" + me + "k" + k;
        }

        Object[] all = new Object[total];
        Arrays.fill(all, "gap");
        world.Gatherv(mine, 0, mine.length, MPI.OBJECT, all, 0, counts, displs, MPI.OBJECT, root);
        if (me == root) {
            checkBlocks("Gatherv", all, counts, displs);
        }
        pass("gatherv");

        Object[] every = new Object[total];
        Arrays.fill(every, "gap");
        world.Allgatherv(mine, 0, mine.length, MPI.OBJECT, every, 0, counts, displs, MPI.OBJECT);
        checkBlocks("Allgatherv", every, counts, displs);
        pass("allgatherv");

        Object[] src = new Object[total];
        if (me == root) {
            Arrays.fill(src, "gap");
            for (int i = 0; i < size; i++) {
                for (int k = 0; k < counts[i]; k++) {
                    src[displs[i] + k] = "r" + i + "k" + k;
                }
            }
        }
        Object[] got = new Object[me + 1];
        world.Scatterv(src, 0, counts, displs, MPI.OBJECT, got, 0, me + 1, MPI.OBJECT, root);
        check(Arrays.equals(got, mine), "Scatterv: rank %d got %s", me, Arrays.toString(got));
        pass("scatterv");

        // all-to-all, 2 objects per block
        Object[] out = new Object[2 * size];
        for (int i = 0; i < size; i++) {
            out[2 * i] = me + "->" + i;
            out[2 * i + 1] = Integer.valueOf(me * 100 + i);
        }
        Object[] in = new Object[2 * size];
        world.Alltoall(out, 0, 2, MPI.OBJECT, in, 0, 2, MPI.OBJECT);
        for (int i = 0; i < size; i++) {
            check((i + "->" + me).equals(in[2 * i]) && Integer.valueOf(i * 100 + me).equals(in[2 * i + 1]),
                "Alltoall: block from %d: %s %s", i, in[2 * i], in[2 * i + 1]);
        }
        pass("alltoall");

        // alltoallv: block to rank i has i + me + 1 objects; received block from i has me + i + 1
        int[] sc = new int[size];
        int[] sd = new int[size];
        int[] rc = new int[size];
        int[] rd = new int[size];
        int st = 0;
        int rt = 0;
        for (int i = 0; i < size; i++) {
            sc[i] = i + me + 1;
            sd[i] = st;
            st += sc[i];
            rc[i] = me + i + 1;
            rd[i] = rt + 1;
            rt += rc[i] + 1;
        }
        Object[] sv = new Object[st];
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < sc[i]; k++) {
                sv[sd[i] + k] = me + ">" + i + "#" + k;
            }
        }
        Object[] rv = new Object[rt];
        Arrays.fill(rv, "gap");
        world.Alltoallv(sv, 0, sc, sd, MPI.OBJECT, rv, 0, rc, rd, MPI.OBJECT);
        for (int i = 0; i < size; i++) {
            check("gap".equals(rv[rd[i] - 1]), "Alltoallv: the gap before block %d was written: %s", i, rv[rd[i] - 1]);
            for (int k = 0; k < rc[i]; k++) {
                check((i + ">" + me + "#" + k).equals(rv[rd[i] + k]), "Alltoallv: block from %d [%d]: %s", i, k,
                    rv[rd[i] + k]);
            }
        }
        pass("alltoallv");

        // a receive block too small for what arrives: the error names the truncation, on the root
        if (size > 1) {
            int[] small = counts.clone();
            small[size - 1] = 0;
            Object[] sink = new Object[total];
            boolean refused = false;
            try {
                world.Gatherv(mine, 0, mine.length, MPI.OBJECT, sink, 0, small, displs, MPI.OBJECT, root);
            } catch (MPIException e) {
                refused = true;
                check(me == root && e.getMessage().contains("truncated"), "Gatherv truncation: %s", e.getMessage());
            }
            check(refused == (me == root), "Gatherv truncation: refused=%s at rank %d", refused, me);
        }
        world.Barrier(); // still usable
        // the root's receive buffer too short while every rank calls: the root refuses after taking the
        // others' blocks, so the next Gather returns the next call's objects, not these
        Object[] tooShort = new Object[size - 1];
        try {
            world.Gather(new Object[] {"old " + me}, 0, 1, MPI.OBJECT, tooShort, 0, 1, MPI.OBJECT, root);
            check(me != root, "Gather into a too short buffer was not refused at the root");
        } catch (MPIException e) {
            check(me == root && e.getMessage().startsWith("Gather"), "Gather refused at rank %d: %s", me, e.getMessage());
        }
        Object[] gathered = new Object[size];
        world.Gather(new Object[] {"new " + me}, 0, 1, MPI.OBJECT, gathered, 0, 1, MPI.OBJECT, root);
        for (int r = 0; me == root && r < size; r++) {
            check(("new " + r).equals(gathered[r]), "Gather after a refused one: %s", Arrays.toString(gathered));
        }
        // the root's send buffer too short: it refuses, and every other rank fails naming it instead of waiting
        Object[] one = new Object[1];
        try {
            world.Scatter(new Object[size - 1], 0, 1, MPI.OBJECT, one, 0, 1, MPI.OBJECT, root);
            check(false, "Scatter from a too short buffer returned at rank %d", me);
        } catch (MPIException e) {
            check(e.getMessage().startsWith("Scatter") && (me == root || e.getMessage().contains("rank " + root)),
                "Scatter refused at rank %d: %s", me, e.getMessage());
        }
        Object[] parts = new Object[size];
        for (int r = 0; r < size; r++) {
            parts[r] = "part " + r;
        }
        world.Scatter(parts, 0, 1, MPI.OBJECT, one, 0, 1, MPI.OBJECT, root);
        check(("part " + me).equals(one[0]), "Scatter after a refused one: %s", one[0]);
        pass("refused");
        reductions(root);
        pass("reductions");
        MPI.Finalize();
        System.out.println("finalize");
    }

    /**
     * Reduce, Allreduce, Scan, Exscan and Reduce_scatter(_block) of OBJECT items with a user op that is not commutative (string
     * concatenation: "a" op "b" = "ab"): two items per rank, the result in rank order; the send
     * buffers untouched; a predefined op on objects refused naming it, and nothing changed.
     */
    static void reductions(int root) {
        mpi.Op concat = new mpi.Op(new mpi.User_function() {
            @Override
            public void Call(Object in, int ii, Object inout, int io, int count, mpi.Datatype t) {
                Object[] a = (Object[]) in;
                Object[] b = (Object[]) inout;
                for (int i = 0; i < count; i++) {
                    b[io + i] = (String) a[ii + i] + b[io + i];
                }
            }
        }, false);
        Object[] mine = {"a" + me, "b" + me};
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        String[] prefixA = new String[size];
        for (int r = 0; r < size; r++) {
            a.append("a").append(r);
            b.append("b").append(r);
            prefixA[r] = a.toString();
        }
        Object[] out = {"x", "y", "z"};
        world.Reduce(mine, 0, out, 1, 2, MPI.OBJECT, concat, root);
        check(me != root || (out[0].equals("x") && out[1].equals(a.toString()) && out[2].equals(b.toString())),
            "Reduce of OBJECT: %s", Arrays.toString(out));
        check(mine[0].equals("a" + me) && mine[1].equals("b" + me), "Reduce left the send buffer: %s",
            Arrays.toString(mine));
        Object[] every = new Object[2];
        world.Allreduce(mine, 0, every, 0, 2, MPI.OBJECT, concat);
        check(every[0].equals(a.toString()) && every[1].equals(b.toString()), "Allreduce of OBJECT: %s",
            Arrays.toString(every));
        Object[] scan = new Object[2];
        world.Scan(mine, 0, scan, 0, 2, MPI.OBJECT, concat);
        check(scan[0].equals(prefixA[me]), "Scan of OBJECT: %s", Arrays.toString(scan));
        Object[] ex = {"kept", "kept"};
        world.Exscan(mine, 0, ex, 0, 2, MPI.OBJECT, concat);
        check(me == 0 ? ex[0].equals("kept") : ex[0].equals(prefixA[me - 1]), "Exscan of OBJECT: %s",
            Arrays.toString(ex));
        // Reduce_scatter: rank i gets i + 1 items of the reduction of sum(i + 1) items per rank
        int[] rc = new int[size];
        int total = 0;
        for (int i = 0; i < size; i++) {
            rc[i] = i + 1;
            total += rc[i];
        }
        Object[] items = new Object[total];
        for (int k = 0; k < total; k++) {
            items[k] = "i" + k + "r" + me;
        }
        Object[] part = new Object[me + 1];
        world.Reduce_scatter(items, 0, part, 0, rc, MPI.OBJECT, concat);
        int first = me * (me + 1) / 2;
        for (int k = 0; k <= me; k++) {
            StringBuilder want = new StringBuilder();
            for (int r = 0; r < size; r++) {
                want.append("i").append(first + k).append("r").append(r);
            }
            check(part[k].equals(want.toString()), "Reduce_scatter of OBJECT [%d]: %s", k, part[k]);
        }
        Object[] block = new Object[1];
        Object[] perRank = new Object[size];
        for (int i = 0; i < size; i++) {
            perRank[i] = "b" + i + "r" + me;
        }
        world.Reduce_scatter_block(perRank, 0, block, 0, 1, MPI.OBJECT, concat);
        StringBuilder wantBlock = new StringBuilder();
        for (int r = 0; r < size; r++) {
            wantBlock.append("b").append(me).append("r").append(r);
        }
        check(block[0].equals(wantBlock.toString()), "Reduce_scatter_block of OBJECT: %s", block[0]);
        Object[] untouched = {"u", "v"};
        boolean refused = false;
        try {
            world.Allreduce(mine, 0, untouched, 0, 2, MPI.OBJECT, MPI.SUM);
        } catch (MPIException e) {
            refused = e.getMessage().startsWith("Allreduce") && e.getMessage().contains("SUM");
        }
        check(refused && untouched[0].equals("u"), "a predefined op on OBJECT is refused, nothing changed");
    }

    static void checkBlocks(String what, Object[] all, int[] counts, int[] displs) {
        for (int i = 0; i < size; i++) {
            check("gap".equals(all[displs[i] - 1]), "%s: the gap before block %d was written: %s", what, i,
                all[displs[i] - 1]);
            for (int k = 0; k < counts[i]; k++) {
                check(("r" + i + "k" + k).equals(all[displs[i] + k]), "%s: block %d [%d]: %s", what, i, k,
                    all[displs[i] + k]);
            }
        }
    }

    static void check(boolean ok, String format, Object... args) {
        Ring.check(ok, String.format(java.util.Locale.ROOT, format, args));
    }

    static void pass(String s) {
        world.Barrier();
        System.out.println("PASS " + s);
    }
}
