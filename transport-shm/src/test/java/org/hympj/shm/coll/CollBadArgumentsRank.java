package org.hympj.shm.coll;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.Primitive;
import org.hympj.api.SegmentBuffer;
import org.hympj.shm.coll.Ref.Shape;
import org.hympj.shm.testing.Layout;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: bad arguments to collectives and communicator calls throw
 * IllegalArgumentException naming the argument, and the library stays usable: afterwards every
 * collective still gives the serial reference's result (a message sent or a receive posted by
 * a failed call would be matched by these in its place) and no point-to-point message is
 * pending.
 *
 * <p>Arguments that are checked on every rank (a bad root, op or type, a short send buffer …) are
 * passed by every rank. Arguments only the root checks (its receive buffer in gather and
 * reduce, its send buffer in scatter) are passed by the root while every rank calls, as in a
 * real program ({@link #rootRefusedInStep}): the non-roots have sent already, so the root takes
 * their blocks before it throws (or, in a scatter, tells them it sends nothing).
 *
 * <p>A call that threw IllegalArgumentException without naming the argument is reported
 * ({@code BAD …}) and fails its scenario, but the program goes on (every rank threw, so they are
 * still in step); a call that did not throw ends the rank at once.
 *
 * <p>Argument {@code op-type}: instead, only the reductions with an op not defined on the type
 * (SUM and PROD on CHAR): every rank must throw at the call.
 */
public final class CollBadArgumentsRank {
    static final String[] SCENARIOS = {"bad-roots", "bad-reduction-arguments", "bad-movement-arguments",
        "bad-communicator-arguments", "root-refused-in-step", "usable-afterwards"};
    static final String[] OP_TYPE_SCENARIOS = {"op-not-defined-on-type", "usable-afterwards"};

    private static final List<String> bad = new ArrayList<>();
    private static int refused;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            if (Arrays.asList(args).contains("op-type")) {
                opNotDefinedOnType(c);
                scenario("op-not-defined-on-type");
            } else {
                check(c.size() >= 2, "run with 2 or more ranks");
                badRoots(c);
                scenario("bad-roots");
                badReductions(c);
                scenario("bad-reduction-arguments");
                badMovement(c);
                scenario("bad-movement-arguments");
                badCommunicators(c);
                scenario("bad-communicator-arguments");
                rootRefusedInStep(c);
                pass("root-refused-in-step");
            }
            usableAfterwards(c);
            pass("usable-afterwards");
            print("REFUSED " + refused);
        }
        pass(MultiRank.FINALIZED);
    }

    private static void scenario(String name) {
        if (bad.isEmpty()) {
            pass(name);
        } else {
            print("FAILED " + name + ": " + bad);
            bad.clear();
        }
    }

    /** The call must throw IllegalArgumentException whose message contains every word. */
    private static void expectBad(String what, Runnable call, String... words) {
        refused++;
        IllegalArgumentException e;
        try {
            call.run();
            throw new AssertionError(what + ": expected IllegalArgumentException but nothing was thrown");
        } catch (IllegalArgumentException x) {
            e = x;
        } catch (RuntimeException x) {
            throw new AssertionError(what + ": expected IllegalArgumentException but got " + x, x);
        }
        String m = String.valueOf(e.getMessage());
        for (String w : words) {
            if (!m.contains(w)) {
                String report = what + ": message does not name '" + w + "': " + m;
                print("BAD " + report);
                bad.add(report);
                return;
            }
        }
        print("OK " + what + ": " + m);
    }

    // ------------------------------------------------------------------ roots

    static void badRoots(Comm c) {
        int[] buf = new int[4];
        int np = c.size();
        for (int root : new int[] {-1, np, Comm.PROC_NULL}) {
            expectBad("bcast root " + root, () -> c.bcast(buf, 0, 1, Datatype.INT, root), "bcast", "root");
            expectBad("reduce root " + root, () -> c.reduce(buf, 0, new int[4], 0, 1, Datatype.INT, Op.SUM, root),
                "reduce", "root");
            expectBad("gather root " + root,
                () -> c.gather(buf, 0, 1, Datatype.INT, new int[np], 0, 1, Datatype.INT, root), "gather", "root");
            expectBad("scatter root " + root,
                () -> c.scatter(new int[np], 0, 1, Datatype.INT, buf, 0, 1, Datatype.INT, root), "scatter", "root");
        }
    }

    // ------------------------------------------------------------------ reductions

    static void badReductions(Comm c) {
        int np = c.size();
        int me = c.rank();
        int root = np - 1;
        double[] in = new double[5];
        double[] out = new double[5];
        Datatype vec = Datatype.DOUBLE.vector(2, 1, 2);
        Datatype sub = Datatype.DOUBLE.subarray(new int[] {4}, new int[] {2}, new int[] {1});
        expectBad("Op.user(null)", () -> Op.user(null, true), "function");
        expectBad("allreduce null op", () -> c.allreduce(in, 0, out, 0, 5, Datatype.DOUBLE, null), "allreduce", "op");
        expectBad("reduce null op", () -> c.reduce(in, 0, out, 0, 5, Datatype.DOUBLE, null, root), "reduce", "op");
        // reduce and allreduce take derived types (StagedReductionTest); the prefix reductions not yet
        expectBad("scan vector type", () -> c.scan(in, 0, out, 0, 1, vec, Op.SUM), "scan", "type");
        expectBad("exscan vector type", () -> c.exscan(in, 0, out, 0, 1, vec, Op.MAX), "exscan", "type");
        expectBad("scan subarray type", () -> c.scan(in, 0, out, 0, 1, sub, Op.SUM), "scan", "type");
        expectBad("allreduce null type", () -> c.allreduce(in, 0, out, 0, 5, null, Op.SUM), "allreduce", "type");
        expectBad("allreduce short send buffer", () -> c.allreduce(in, 1, out, 0, 5, Datatype.DOUBLE, Op.SUM),
            "allreduce", "send", "buf");
        expectBad("allreduce short receive buffer", () -> c.allreduce(in, 0, out, 2, 5, Datatype.DOUBLE, Op.SUM),
            "allreduce", "receive", "buf");
        expectBad("allreduce null receive buffer", () -> c.allreduce(in, 0, null, 0, 5, Datatype.DOUBLE, Op.SUM),
            "allreduce", "buf");
        expectBad("allreduce negative count", () -> c.allreduce(in, 0, out, 0, -1, Datatype.DOUBLE, Op.SUM),
            "allreduce", "count");
        expectBad("allreduce negative offset", () -> c.allreduce(in, -1, out, 0, 2, Datatype.DOUBLE, Op.SUM),
            "allreduce", "offset");
        expectBad("allreduce int[] for DOUBLE", () -> c.allreduce(new int[5], 0, out, 0, 5, Datatype.DOUBLE, Op.SUM),
            "allreduce", "buf");
        expectBad("reduce short send buffer", () -> c.reduce(in, 3, out, 0, 5, Datatype.DOUBLE, Op.SUM, root),
            "reduce", "send", "buf");
        SegmentBuffer seg = c.allocDoubles(5);
        expectBad("scan segment buffer", () -> c.scan(seg, 0, out, 0, 5, Datatype.DOUBLE, Op.SUM),
            "scan", "segment");
        // IN_PLACE where no result is received: refused at each non-root's call, before it sends (the root
        // does not call: its receive side, checked by it alone, is root-refused-in-step's)
        if (me != root) {
            expectBad("reduce IN_PLACE at a non-root",
                () -> c.reduce(Comm.IN_PLACE, 0, out, 0, 5, Datatype.DOUBLE, Op.SUM, root), "reduce", "IN_PLACE");
        }
    }

    /** SUM and PROD are not defined on CHAR (Op's documentation): a bad argument on every rank. */
    static void opNotDefinedOnType(Comm c) {
        char[] in = {'a', 'b', 'c'};
        char[] out = new char[3];
        for (Op op : new Op[] {Op.SUM, Op.PROD}) {
            expectBad("allreduce CHAR " + op, () -> c.allreduce(in, 0, out, 0, 3, Datatype.CHAR, op), op.toString(),
                "CHAR");
            expectBad("reduce CHAR " + op, () -> c.reduce(in, 0, out, 0, 3, Datatype.CHAR, op, 0), op.toString(),
                "CHAR");
        }
        check(Arrays.equals(out, new char[3]), "a refused reduction wrote the receive buffer: %s", Arrays.toString(out));
    }

    // ------------------------------------------------------------------ data movement

    static void badMovement(Comm c) {
        int np = c.size();
        int me = c.rank();
        int root = np / 2;
        long[] four = new long[4];
        long[] big = new long[4 * np];
        long[] small = new long[4 * np - 1];
        Datatype vec = Datatype.LONG.vector(2, 1, 3);   // extent 4, 2 elements
        expectBad("bcast short buffer", () -> c.bcast(four, 1, 4, Datatype.LONG, root), "bcast", "buf");
        expectBad("bcast vector past the end", () -> c.bcast(four, 0, 2, vec, root), "bcast", "buf");
        expectBad("bcast null buffer", () -> c.bcast(null, 0, 1, Datatype.LONG, root), "bcast", "buf");
        expectBad("bcast null type", () -> c.bcast(four, 0, 1, null, root), "bcast", "type");
        expectBad("bcast negative count", () -> c.bcast(four, 0, -2, Datatype.LONG, root), "bcast", "count");
        expectBad("bcast double[] for LONG", () -> c.bcast(new double[4], 0, 4, Datatype.LONG, root), "bcast", "buf");
        expectBad("gather short send buffer",
            () -> c.gather(four, 2, 4, Datatype.LONG, big, 0, 4, Datatype.LONG, root), "gather", "send", "buf");
        expectBad("gather IN_PLACE send buffer",
            () -> c.gather(Comm.IN_PLACE, 0, 4, Datatype.LONG, big, 0, 4, Datatype.LONG, root), "gather", "buf");
        expectBad("allgather short receive buffer",
            () -> c.allgather(four, 0, 4, Datatype.LONG, small, 0, 4, Datatype.LONG), "allgather", "receive", "buf");
        expectBad("allgather short send buffer",
            () -> c.allgather(four, 0, 5, Datatype.LONG, big, 0, 4, Datatype.LONG), "allgather", "send", "buf");
        expectBad("allgather null receive type",
            () -> c.allgather(four, 0, 4, Datatype.LONG, big, 0, 4, null), "allgather", "type");
        expectBad("scatter short receive buffer",
            () -> c.scatter(big, 0, 4, Datatype.LONG, four, 1, 4, Datatype.LONG, root), "scatter", "receive", "buf");
        expectBad("alltoall short send buffer",
            () -> c.alltoall(small, 0, 4, Datatype.LONG, big, 0, 4, Datatype.LONG), "alltoall", "send", "buf");
        expectBad("alltoall short receive buffer",
            () -> c.alltoall(big, 0, 4, Datatype.LONG, small, 0, 4, Datatype.LONG), "alltoall", "receive", "buf");
        expectBad("alltoall vector receive past the end",
            () -> c.alltoall(big, 0, 2, Datatype.LONG, new long[4 * np - 1], 0, 1, vec), "alltoall", "receive", "buf");
    }

    // ------------------------------------------------------------------ communicators and topology

    static void badCommunicators(Comm c) {
        int np = c.size();
        expectBad("barrier(null)", () -> c.barrier(null), "barrier", "algorithm");
        expectBad("split negative color", () -> c.split(-5, 0), "split", "color");
        expectBad("createCart null dims", () -> c.createCart(null, new boolean[1], false), "createCart", "dims");
        expectBad("createCart dims/periods lengths", () -> c.createCart(new int[] {1, 1}, new boolean[1], false),
            "createCart", "periods");
        expectBad("createCart zero dim", () -> c.createCart(new int[] {0, 1}, new boolean[2], false), "createCart",
            "dims[0]");
        expectBad("createCart grid larger than the communicator",
            () -> c.createCart(new int[] {np + 1}, new boolean[1], false), "createCart", "dims");
        CartComm cart = c.createCart(new int[] {np}, new boolean[] {false}, false);
        check(cart != null && cart.size() == np, "createCart {%d} gave %s", np, cart);
        expectBad("shift dim 1 of 1", () -> cart.shift(1, 1), "shift", "dim");
        expectBad("shift dim -1", () -> cart.shift(-1, 1), "shift", "dim");
        expectBad("coords(-1)", () -> cart.coords(-1), "coords", "rank");
        expectBad("coords(size)", () -> cart.coords(np), "coords", "rank");
        expectBad("rankOf two coordinates in 1D", () -> cart.rankOf(0, 0), "rankOf", "coordinates");
        expectBad("rankOf off a non-periodic grid", () -> cart.rankOf(np), "rankOf", "coordinates");
        expectBad("rankOf null", () -> cart.rankOf((int[]) null), "rankOf", "coordinates");
        expectBad("sub two flags in 1D", () -> cart.sub(true, false), "sub");
    }

    // ------------------------------------------------------------------ afterwards

    /** Every collective gives the reference result; no point-to-point message is pending. */
    /**
     * A root-only argument refused while every rank calls, as a real program does: the non-roots
     * of a gather or reduce have sent already, so the root takes their blocks before it throws;
     * the non-roots of a scatter wait for theirs, so the root sends them empty ones and they return
     * with their buffers unchanged. Then the same collective, called right, gives the right data — not the
     * blocks of the refused call (before, the next gather at the root returned those).
     */
    static void rootRefusedInStep(Comm c) {
        int np = c.size();
        int me = c.rank();
        int root = np - 1;
        long[] mine = {10L * me, 10L * me + 1};
        // gather: the root's receive buffer holds one block too few
        expectAtRoot(c, root, "gather", () -> c.gather(mine, 0, 2, Datatype.LONG, me == root ? new long[2 * np - 2] : null,
            0, 2, Datatype.LONG, root), "receive");
        long[] all = new long[2 * np];
        c.gather(new long[] {100L * me, 100L * me + 1}, 0, 2, Datatype.LONG, all, 0, 2, Datatype.LONG, root);
        for (int r = 0; me == root && r < np; r++) {
            check(all[2 * r] == 100L * r && all[2 * r + 1] == 100L * r + 1, "gather after a refused one: %s",
                Arrays.toString(all));
        }
        // gatherv: a displacement past the end at the root
        int[] counts = new int[np];
        int[] displs = new int[np];
        for (int r = 0; r < np; r++) {
            counts[r] = 2;
            displs[r] = 2 * r;
        }
        int[] badDispls = displs.clone();
        badDispls[0] = 2 * np;
        expectAtRoot(c, root, "gatherv", () -> c.gatherv(mine, 0, 2, Datatype.LONG, me == root ? new long[2 * np] : null,
            0, counts, badDispls, Datatype.LONG, root), "gatherv");
        long[] allV = new long[2 * np];
        c.gatherv(new long[] {7L * me, 7L * me + 1}, 0, 2, Datatype.LONG, allV, 0, counts, displs, Datatype.LONG, root);
        for (int r = 0; me == root && r < np; r++) {
            check(allV[2 * r] == 7L * r && allV[2 * r + 1] == 7L * r + 1, "gatherv after a refused one: %s",
                Arrays.toString(allV));
        }
        // reduce: the root's receive buffer is short (and, second, null with IN_PLACE)
        double[] x = {me + 1, 2 * (me + 1)};
        expectAtRoot(c, root, "reduce", () -> c.reduce(x, 0, me == root ? new double[1] : null, 0, 2, Datatype.DOUBLE,
            Op.SUM, root), "receive");
        expectAtRoot(c, root, "reduce", () -> c.reduce(me == root ? Comm.IN_PLACE : x, 0, null, 0, 2, Datatype.DOUBLE,
            Op.SUM, root), "buf");
        double[] sum = new double[2];
        c.reduce(x, 0, sum, 0, 2, Datatype.DOUBLE, Op.SUM, root);
        double want = np * (np + 1) / 2.0;
        check(me != root || (sum[0] == want && sum[1] == 2 * want), "reduce after refused ones: %s",
            Arrays.toString(sum));
        // igather: refused at the root, the others' requests complete (small blocks go eagerly); every rank
        // still took the call's tag, so the next igather matches its own blocks, not the refused call's
        if (me == root) {
            expectAtRoot(c, root, "igather", () -> c.igather(mine, 0, 2, Datatype.LONG, new long[1], 0, 2,
                Datatype.LONG, root), "receive");
        } else {
            c.igather(mine, 0, 2, Datatype.LONG, null, 0, 2, Datatype.LONG, root).waitFor();
        }
        long[] allI = new long[2 * np];
        c.igather(new long[] {3L * me, 3L * me + 1}, 0, 2, Datatype.LONG, allI, 0, 2, Datatype.LONG, root).waitFor();
        for (int r = 0; me == root && r < np; r++) {
            check(allI[2 * r] == 3L * r && allI[2 * r + 1] == 3L * r + 1, "igather after a refused one: %s",
                Arrays.toString(allI));
        }
        // scatter and scatterv: the root's send buffer is short; it sends each non-root an empty block, which
        // returns with its buffer as it was (instead of waiting; 0 items where more are received is accepted, as
        // MPICH and Open MPI accept it)
        long[] got = new long[2];
        for (String call : new String[] {"scatter", "scatterv"}) {
            Runnable bad = call.equals("scatter")
                ? () -> c.scatter(new long[2 * np - 1], 0, 2, Datatype.LONG, got, 0, 2, Datatype.LONG, root)
                : () -> c.scatterv(new long[2 * np - 1], 0, counts, displs, Datatype.LONG, got, 0, 2, Datatype.LONG,
                    root);
            Arrays.fill(got, -9);
            expectAtRoot(c, root, call, bad, "send");
            check(me == root || (got[0] == -9 && got[1] == -9), "%s refused at the root changed a non-root's buffer: %s",
                call, Arrays.toString(got));
            long[] src = new long[2 * np];
            for (int i = 0; i < src.length; i++) {
                src[i] = 1000 + i;
            }
            Arrays.fill(got, -1);
            c.scatter(src, 0, 2, Datatype.LONG, got, 0, 2, Datatype.LONG, root);
            check(got[0] == 1000 + 2 * me && got[1] == 1001 + 2 * me, "scatter after a refused %s: %s", call,
                Arrays.toString(got));
        }
    }

    /** At the root the call throws IllegalArgumentException naming the call and {@code word}; elsewhere it returns. */
    private static void expectAtRoot(Comm c, int root, String call, Runnable run, String word) {
        if (c.rank() != root) {
            run.run();
            return;
        }
        refused++;
        try {
            run.run();
            throw new AssertionError(call + ": the root's bad argument was not refused");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().startsWith(call) && e.getMessage().contains(word), "%s at the root: %s", call,
                e.getMessage());
            print("OK " + call + " refused at the root while every rank called: " + e.getMessage());
        }
    }

    static void usableAfterwards(Comm c) {
        int np = c.size();
        CollectivesRank t = new CollectivesRank(c, 9000);
        Layout l = Layout.of(Primitive.LONG);
        Shape sh = new Shape(l, 4, l, 4);
        for (int root = 0; root < np; root++) {
            t.bcast(false, l, 4, root);
            t.reduce(Primitive.DOUBLE, Op.SUM, 5, root, false);
            t.reduce(Primitive.CHAR, Op.MAX, 3, root, false);
            t.gather(false, sh, root);
            t.scatter(false, sh, root);
        }
        t.allreduce(Primitive.DOUBLE, Op.SUM, 5, false);
        t.allreduce(Primitive.CHAR, Op.MIN, 3, false);
        t.allgather(false, sh);
        t.alltoall(false, sh);
        Comm d = c.dup();
        check(d.size() == np, "dup after the failures: size %d", d.size());
        new CollectivesRank(d, 9500).allgather(false, sh);
        c.barrier();
        check(c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) == null, "a point-to-point message is pending after the failures");
    }
}
