package org.hympj.shm.coll;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.Arrays;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.Primitive;
import org.hympj.shm.coll.Ref.Shape;
import org.hympj.shm.testing.Layout;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Pattern;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program: every collective against a serial reference computed here, on the world
 * communicator of any size (1 … 8, powers of two or not). Every buffer is filled with
 * sentinels first and compared whole afterwards, so a misplaced element, a write into a gap
 * or into a non-root's receive buffer, and a modified send buffer are all caught.
 *
 * <ul>
 * <li>bcast: every primitive, predefined and derived (vector, vector of vector) types, roots
 *     rotating through every rank, all roots for INT;</li>
 * <li>reduce / allreduce: every primitive and every predefined op where defined (CHAR: MAX and
 *     MIN), non-zero offsets, IN_PLACE, roots other than 0; inputs chosen so the exact result is
 *     known (integer wrap-around, exact floating-point values);</li>
 * <li>user-ops: commutative user ops (XOR on LONG, largest magnitude on DOUBLE) and
 *     non-commutative ones (byte-string concatenation packed in LONGs, 2x2 matrix product on
 *     groups of 4 DOUBLEs) whose result shows the order of combination: it must be rank order,
 *     at every root;</li>
 * <li>gather / allgather / scatter / alltoall: every primitive, predefined and derived types on
 *     either or both sides (receive blocks placed by the receive type's extent);</li>
 * <li>segment-buffers and large: the same through segment buffers, and messages above the
 *     inline and eager limits (bulk region and rendezvous);</li>
 * <li>reduce- and allreduce-noncommutative-in-place (last, as they are the riskiest): IN_PLACE with a
 *     non-commutative op.</li>
 * </ul>
 *
 * <p>Argument {@code sub}: afterwards, the same battery (without the large and segment parts) on
 * sub-communicators of 3, 5 and 7 ranks made by split with keys reversing the order, so local
 * ranks differ from world ranks.
 */
public final class CollectivesRank {
    static final String[] SCENARIOS = {"bcast", "reduce", "allreduce", "user-ops", "gather", "allgather", "scatter",
        "alltoall", "segment-buffers", "large", "reduce-noncommutative-in-place", "allreduce-noncommutative-in-place"};
    static final int[] SUB_SIZES = {3, 5, 7};

    private final Comm c;
    private final int me;
    private final int np;
    private int salt;

    CollectivesRank(Comm c, int salt) {
        this.c = c;
        this.me = c.rank();
        this.np = c.size();
        this.salt = salt;
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            Protocol proto = Protocol.of(mpj);
            print(proto.toString());
            CollectivesRank t = new CollectivesRank(world, 1);
            t.bcastAll();
            pass("bcast");
            t.reduceAll();
            pass("reduce");
            t.allreduceAll();
            pass("allreduce");
            t.userOps();
            pass("user-ops");
            t.gatherAll(false);
            pass("gather");
            t.allgatherAll(false);
            pass("allgather");
            t.scatterAll(false);
            pass("scatter");
            t.alltoallAll(false);
            pass("alltoall");
            t.segmentBuffers();
            pass("segment-buffers");
            t.large(proto);
            pass("large");
            if (Arrays.asList(args).contains("sub")) {
                for (int k : SUB_SIZES) {
                    // keys reverse the order: local rank = k-1-world rank
                    Comm sub = world.split(world.rank() < k ? 0 : Comm.UNDEFINED, -world.rank());
                    if (sub != null) {
                        check(sub.size() == k && sub.rank() == k - 1 - world.rank(), "split: rank %d of %d, expected %d of %d",
                            sub.rank(), sub.size(), k - 1 - world.rank(), k);
                        CollectivesRank s = new CollectivesRank(sub, 1000 * k);
                        s.bcastAll();
                        s.reduceAll();
                        s.allreduceAll();
                        s.userOps();
                        s.gatherAll(false);
                        s.allgatherAll(false);
                        s.scatterAll(false);
                        s.alltoallAll(false);
                    }
                    world.barrier();
                    pass("sub" + k);
                }
            }
            t.reduceNoncommutativeInPlace();
            pass("reduce-noncommutative-in-place");
            // every rank has passed (or failed) the reduce before any starts the allreduce
            world.barrier();
            t.allreduceNoncommutativeInPlace();
            pass("allreduce-noncommutative-in-place");
        }
        pass(MultiRank.FINALIZED);
    }

    private String where(String what) {
        return what + " [rank " + me + " of " + np + "]";
    }

    // ------------------------------------------------------------------ bcast

    void bcastAll() {
        for (Primitive p : Ref.PRIMITIVES) {
            List<Shape> shapes = Ref.shapes(p, true);
            for (int s = 0; s < shapes.size(); s++) {
                Shape sh = shapes.get(s);
                if (p == Primitive.INT && s == 0) {
                    for (int root = 0; root < np; root++) {
                        bcast(false, sh.send, sh.sendCount, root);
                    }
                } else {
                    bcast(false, sh.send, sh.sendCount, (p.ordinal() * 5 + s) % np);
                }
            }
        }
    }

    void bcast(boolean segment, Layout l, int count, int root) {
        int salt = ++this.salt;
        int base = 2;
        int n = Ref.length(l, count, 1, base);
        Mem buf = Mem.of(segment, c, l.primitive(), n);
        buf.fillSentinel(salt);
        int[] off = l.message(count);
        if (me == root) {
            Ref.fill(buf, base, off, root, salt);
        }
        c.bcast(buf.buffer(), base, count, l.type, root);
        long[] img = Ref.sentinelImage(l.primitive(), n, salt);
        Ref.place(img, l.primitive(), base, off, root, salt);
        Ref.check(buf, img, where("bcast " + l + " x" + count + " root " + root + (segment ? " segment" : "")));
    }

    // ------------------------------------------------------------------ reduce / allreduce

    void reduceAll() {
        int k = 0;
        for (Primitive p : Ref.PRIMITIVES) {
            for (Op op : Ref.OPS) {
                if (!Ref.defined(op, p)) {
                    continue;
                }
                int root = (np - 1 + k++) % np;   // starts at the last rank, then every rank in turn
                reduce(p, op, 7, root, false);
                reduce(p, op, 5, (root + 1) % np, true);
            }
        }
        reduce(Primitive.INT, Op.SUM, 0, np - 1, false);
    }

    /** reduce of n elements, send offset 2, receive offset 1; IN_PLACE at the root if asked. */
    void reduce(Primitive p, Op op, int n, int root, boolean inPlace) {
        int salt = ++this.salt;
        Datatype t = Datatype.of(p);
        Object send = Ref.sentinels(p, n + 4, salt);
        Object recv = Ref.sentinels(p, n + 3, salt + 7);
        Object mine = inPlace && me == root ? recv : send;
        int at = mine == recv ? 1 : 2;
        for (int i = 0; i < n; i++) {
            Ref.put(mine, at + i, Ref.input(p, op, me, salt, i));
        }
        long[] sendBefore = Ref.snapshot(send, n + 4);
        long[] recvBefore = Ref.snapshot(recv, n + 3);
        String what = where("reduce " + p + " " + Ref.name(op) + " n=" + n + " root " + root + (inPlace ? " IN_PLACE" : ""));
        c.reduce(mine == recv ? Comm.IN_PLACE : send, 2, recv, 1, n, t, op, root);
        Ref.checkAll(send, sendBefore, p, what + ": send buffer changed");
        if (me == root) {
            long[] want = recvBefore.clone();
            long[] ref = Ref.reduce(p, op, np, salt, n);
            System.arraycopy(ref, 0, want, 1, n);
            Ref.checkAll(recv, want, p, what);
        } else {
            Ref.checkAll(recv, recvBefore, p, what + ": a non-root's receive buffer was written");
        }
    }

    void allreduceAll() {
        for (Primitive p : Ref.PRIMITIVES) {
            for (Op op : Ref.OPS) {
                if (Ref.defined(op, p)) {
                    allreduce(p, op, 7, false);
                    allreduce(p, op, 6, true);
                }
            }
        }
        allreduce(Primitive.DOUBLE, Op.SUM, 0, false);
        allreduce(Primitive.LONG, Op.MAX, 0, true);
    }

    void allreduce(Primitive p, Op op, int n, boolean inPlace) {
        int salt = ++this.salt;
        Datatype t = Datatype.of(p);
        Object send = Ref.sentinels(p, n + 4, salt);
        Object recv = Ref.sentinels(p, n + 3, salt + 7);
        Object mine = inPlace ? recv : send;
        int at = inPlace ? 1 : 2;
        for (int i = 0; i < n; i++) {
            Ref.put(mine, at + i, Ref.input(p, op, me, salt, i));
        }
        long[] sendBefore = Ref.snapshot(send, n + 4);
        long[] want = Ref.snapshot(recv, n + 3);
        String what = where("allreduce " + p + " " + Ref.name(op) + " n=" + n + (inPlace ? " IN_PLACE" : ""));
        c.allreduce(inPlace ? Comm.IN_PLACE : send, 2, recv, 1, n, t, op);
        Ref.checkAll(send, sendBefore, p, what + ": send buffer changed");
        System.arraycopy(Ref.reduce(p, op, np, salt, n), 0, want, 1, n);
        Ref.checkAll(recv, want, p, what);
    }

    // ------------------------------------------------------------------ user operations

    void userOps() {
        // commutative: XOR on LONG, largest magnitude on DOUBLE
        for (int root : new int[] {np - 1, np / 2}) {
            xor(root);
            absmax(root);
        }
        xor(-1);
        absmax(-1);
        // non-commutative: rank order at every root and in allreduce
        for (int root = 0; root < np; root++) {
            concat(root, false);
            matmul(root, false);
        }
        concat(-1, false);
        matmul(-1, false);
    }

    /** root -1: allreduce. */
    private void runReduction(Object send, int sendOffset, Object recv, int recvOffset, int n, Datatype t, Op op,
                              int root) {
        if (root < 0) {
            c.allreduce(send, sendOffset, recv, recvOffset, n, t, op);
        } else {
            c.reduce(send, sendOffset, recv, recvOffset, n, t, op, root);
        }
    }

    private String label(String op, int root, boolean inPlace) {
        return where((root < 0 ? "allreduce " : "reduce root " + root + " ") + op + (inPlace ? " IN_PLACE" : ""));
    }

    void xor(int root) {
        int salt = ++this.salt;
        int n = 9;
        long[] send = new long[n + 1];
        long[] recv = new long[n + 2];
        Arrays.fill(recv, 77);
        for (int i = 0; i < n; i++) {
            send[1 + i] = Pattern.value(me, salt, i);
        }
        runReduction(send, 1, recv, 2, n, Datatype.LONG, Ref.XOR, root);
        String what = label("XOR", root, false);
        check(recv[0] == 77 && recv[1] == 77, "%s: wrote before the receive offset", what);
        if (root < 0 || me == root) {
            for (int i = 0; i < n; i++) {
                long want = 0;
                for (int r = 0; r < np; r++) {
                    want ^= Pattern.value(r, salt, i);
                }
                check(recv[2 + i] == want, "%s: element %d: expected %x, found %x", what, i, want, recv[2 + i]);
            }
        }
    }

    void absmax(int root) {
        int salt = ++this.salt;
        int n = 9;
        double[] send = new double[n];
        double[] recv = new double[n];
        for (int i = 0; i < n; i++) {
            send[i] = (double) ((Pattern.value(me, salt, i) >> 40) % 8) / 2;
        }
        runReduction(send, 0, recv, 0, n, Datatype.DOUBLE, Ref.ABSMAX, root);
        String what = label("ABSMAX", root, false);
        if (root < 0 || me == root) {
            for (int i = 0; i < n; i++) {
                double want = (double) ((Pattern.value(0, salt, i) >> 40) % 8) / 2;
                for (int r = 1; r < np; r++) {
                    want = Ref.absmax(want, (double) ((Pattern.value(r, salt, i) >> 40) % 8) / 2);
                }
                check(Double.doubleToRawLongBits(recv[i]) == Double.doubleToRawLongBits(want),
                    "%s: element %d: expected %s, found %s", what, i, want, recv[i]);
            }
        }
    }

    /** Byte strings: the result must read rank 0's letter, then rank 1's, … */
    void concat(int root, boolean inPlace) {
        ++this.salt;
        int n = 6;
        long[] send = new long[n + 3];
        long[] recv = new long[n + 1];
        long[] mine = inPlace ? recv : send;
        int at = inPlace ? 1 : 3;
        for (int i = 0; i < n; i++) {
            mine[at + i] = Ref.concatInput(me, i);
        }
        Object sendArg = inPlace && (root < 0 || me == root) ? Comm.IN_PLACE : send;
        if (inPlace && root >= 0 && me != root) {
            // IN_PLACE is only for the root: the others send from their input as usual
            for (int i = 0; i < n; i++) {
                send[3 + i] = Ref.concatInput(me, i);
            }
        }
        runReduction(sendArg, 3, recv, 1, n, Datatype.LONG, Ref.CONCAT, root);
        String what = label("CONCAT (non-commutative)", root, inPlace);
        if (root < 0 || me == root) {
            for (int i = 0; i < n; i++) {
                long want = Ref.concatInput(0, i);
                for (int r = 1; r < np; r++) {
                    want = Ref.concat(want, Ref.concatInput(r, i));
                }
                check(recv[1 + i] == want, "%s: element %d: expected \"%s\" (rank order), found \"%s\"", what, i,
                    Ref.concatText(want), Ref.concatText(recv[1 + i]));
            }
        }
    }

    /** 2x2 matrices: the result must be M0 × M1 × … × M(p-1). */
    void matmul(int root, boolean inPlace) {
        int salt = ++this.salt;
        int groups = 5;
        int n = 4 * groups;
        double[] send = new double[n + 4];
        double[] recv = new double[n + 4];
        double[] mine = inPlace ? recv : send;
        for (int i = 0; i < n; i++) {
            mine[4 + i] = Ref.matInput(me, salt, i);
            if (inPlace && root >= 0 && me != root) {
                send[4 + i] = Ref.matInput(me, salt, i);
            }
        }
        Object sendArg = inPlace && (root < 0 || me == root) ? Comm.IN_PLACE : send;
        runReduction(sendArg, 4, recv, 4, n, Datatype.DOUBLE, Ref.MATMUL, root);
        String what = label("MATMUL (non-commutative)", root, inPlace);
        if (root < 0 || me == root) {
            double[] acc = new double[n];
            for (int i = 0; i < n; i++) {
                acc[i] = Ref.matInput(0, salt, i);
            }
            for (int r = 1; r < np; r++) {
                double[] next = new double[n];
                for (int i = 0; i < n; i++) {
                    next[i] = Ref.matInput(r, salt, i);
                }
                for (int g = 0; g < n; g += 4) {
                    Ref.matmul(acc, g, next, g);    // next := acc × next
                }
                acc = next;
            }
            for (int i = 0; i < n; i++) {
                check(recv[4 + i] == acc[i], "%s: element %d (matrix %d): expected %s, found %s (product in rank order: %s)",
                    what, i, i / 4, acc[i], recv[4 + i], Arrays.toString(Arrays.copyOfRange(acc, i / 4 * 4, i / 4 * 4 + 4)));
            }
        }
    }

    void reduceNoncommutativeInPlace() {
        concat(np - 1, true);
        matmul(np / 2, true);
    }

    void allreduceNoncommutativeInPlace() {
        concat(-1, true);
        matmul(-1, true);
    }

    // ------------------------------------------------------------------ gather / allgather / scatter / alltoall

    void gatherAll(boolean segment) {
        int k = 0;
        for (Primitive p : Ref.PRIMITIVES) {
            for (Shape sh : Ref.shapes(p, true)) {
                gather(segment, sh, (np - 1 + k++) % np);
            }
        }
    }

    void gather(boolean segment, Shape sh, int root) {
        int salt = ++this.salt;
        Primitive p = sh.send.primitive();
        int sb = 1;
        int rb = 2;
        int sn = Ref.length(sh.send, sh.sendCount, 1, sb);
        int rn = Ref.length(sh.recv, sh.recvCount, np, rb);
        Mem send = Mem.of(segment, c, p, sn);
        Mem recv = Mem.of(segment, c, p, rn);
        send.fillSentinel(salt);
        recv.fillSentinel(salt + 1);
        int[] soff = sh.send.message(sh.sendCount);
        Ref.fill(send, sb, soff, me, salt);
        c.gather(send.buffer(), sb, sh.sendCount, sh.send.type, recv.buffer(), rb, sh.recvCount, sh.recv.type, root);
        String what = where("gather " + sh + " root " + root + (segment ? " segment" : ""));
        long[] simg = Ref.sentinelImage(p, sn, salt);
        Ref.place(simg, p, sb, soff, me, salt);
        Ref.check(send, simg, what + ": send buffer changed");
        long[] img = Ref.sentinelImage(p, rn, salt + 1);
        if (me == root) {
            int[] roff = sh.recv.message(sh.recvCount);
            for (int i = 0; i < np; i++) {
                Ref.place(img, p, Ref.block(sh.recv, sh.recvCount, i, rb), roff, i, salt);
            }
        }
        Ref.check(recv, img, what + (me == root ? "" : ": a non-root's receive buffer"));
    }

    void allgatherAll(boolean segment) {
        for (Primitive p : Ref.PRIMITIVES) {
            for (Shape sh : Ref.shapes(p, true)) {
                allgather(segment, sh);
            }
        }
    }

    void allgather(boolean segment, Shape sh) {
        int salt = ++this.salt;
        Primitive p = sh.send.primitive();
        int sb = 2;
        int rb = 1;
        int sn = Ref.length(sh.send, sh.sendCount, 1, sb);
        int rn = Ref.length(sh.recv, sh.recvCount, np, rb);
        Mem send = Mem.of(segment, c, p, sn);
        Mem recv = Mem.of(segment, c, p, rn);
        send.fillSentinel(salt);
        recv.fillSentinel(salt + 1);
        int[] soff = sh.send.message(sh.sendCount);
        Ref.fill(send, sb, soff, me, salt);
        c.allgather(send.buffer(), sb, sh.sendCount, sh.send.type, recv.buffer(), rb, sh.recvCount, sh.recv.type);
        String what = where("allgather " + sh + (segment ? " segment" : ""));
        long[] simg = Ref.sentinelImage(p, sn, salt);
        Ref.place(simg, p, sb, soff, me, salt);
        Ref.check(send, simg, what + ": send buffer changed");
        long[] img = Ref.sentinelImage(p, rn, salt + 1);
        int[] roff = sh.recv.message(sh.recvCount);
        for (int i = 0; i < np; i++) {
            Ref.place(img, p, Ref.block(sh.recv, sh.recvCount, i, rb), roff, i, salt);
        }
        Ref.check(recv, img, what);
    }

    void scatterAll(boolean segment) {
        int k = 0;
        for (Primitive p : Ref.PRIMITIVES) {
            for (Shape sh : Ref.shapes(p, true)) {
                scatter(segment, sh, (np - 1 + k++) % np);
            }
        }
    }

    /** Block i of the root's buffer holds value(64*root + i, salt, k). */
    void scatter(boolean segment, Shape sh, int root) {
        int salt = ++this.salt;
        Primitive p = sh.send.primitive();
        int sb = 3;
        int rb = 1;
        int sn = Ref.length(sh.send, sh.sendCount, np, sb);
        int rn = Ref.length(sh.recv, sh.recvCount, 1, rb);
        Mem send = Mem.of(segment, c, p, sn);
        Mem recv = Mem.of(segment, c, p, rn);
        send.fillSentinel(salt);
        recv.fillSentinel(salt + 1);
        int[] soff = sh.send.message(sh.sendCount);
        long[] simg = Ref.sentinelImage(p, sn, salt);
        if (me == root) {
            for (int i = 0; i < np; i++) {
                Ref.fill(send, Ref.block(sh.send, sh.sendCount, i, sb), soff, 64 * root + i, salt);
                Ref.place(simg, p, Ref.block(sh.send, sh.sendCount, i, sb), soff, 64 * root + i, salt);
            }
        }
        c.scatter(send.buffer(), sb, sh.sendCount, sh.send.type, recv.buffer(), rb, sh.recvCount, sh.recv.type, root);
        String what = where("scatter " + sh + " root " + root + (segment ? " segment" : ""));
        Ref.check(send, simg, what + ": send buffer changed");
        long[] img = Ref.sentinelImage(p, rn, salt + 1);
        Ref.place(img, p, rb, sh.recv.message(sh.recvCount), 64 * root + me, salt);
        Ref.check(recv, img, what);
    }

    void alltoallAll(boolean segment) {
        for (Primitive p : Ref.PRIMITIVES) {
            for (Shape sh : Ref.shapes(p, true)) {
                alltoall(segment, sh);
            }
        }
    }

    /** Rank r's block j holds value(64*r + j, salt, k): what j must find in its block r. */
    void alltoall(boolean segment, Shape sh) {
        int salt = ++this.salt;
        Primitive p = sh.send.primitive();
        int sb = 1;
        int rb = 2;
        int sn = Ref.length(sh.send, sh.sendCount, np, sb);
        int rn = Ref.length(sh.recv, sh.recvCount, np, rb);
        Mem send = Mem.of(segment, c, p, sn);
        Mem recv = Mem.of(segment, c, p, rn);
        send.fillSentinel(salt);
        recv.fillSentinel(salt + 1);
        int[] soff = sh.send.message(sh.sendCount);
        long[] simg = Ref.sentinelImage(p, sn, salt);
        for (int j = 0; j < np; j++) {
            Ref.fill(send, Ref.block(sh.send, sh.sendCount, j, sb), soff, 64 * me + j, salt);
            Ref.place(simg, p, Ref.block(sh.send, sh.sendCount, j, sb), soff, 64 * me + j, salt);
        }
        c.alltoall(send.buffer(), sb, sh.sendCount, sh.send.type, recv.buffer(), rb, sh.recvCount, sh.recv.type);
        String what = where("alltoall " + sh + (segment ? " segment" : ""));
        Ref.check(send, simg, what + ": send buffer changed");
        long[] img = Ref.sentinelImage(p, rn, salt + 1);
        int[] roff = sh.recv.message(sh.recvCount);
        for (int r = 0; r < np; r++) {
            Ref.place(img, p, Ref.block(sh.recv, sh.recvCount, r, rb), roff, 64 * r + me, salt);
        }
        Ref.check(recv, img, what);
    }

    // ------------------------------------------------------------------ segment buffers, large messages

    void segmentBuffers() {
        for (Primitive p : new Primitive[] {Primitive.DOUBLE, Primitive.SHORT}) {
            for (Shape sh : Ref.shapes(p, true)) {
                bcast(true, sh.send, sh.sendCount, np - 1);
                gather(true, sh, np / 2);
                allgather(true, sh);
                scatter(true, sh, np - 1);
                alltoall(true, sh);
            }
        }
    }

    /**
     * Messages through the bulk region (above the inline limit) and by rendezvous (above the
     * eager limit); heap and segment buffers alternate between the collectives and swap
     * between the two sizes, so each collective sees both kinds.
     */
    void large(Protocol proto) {
        Layout d = Layout.of(Primitive.DOUBLE);
        int[] sizes = {proto.bulkDoubles(), proto.rendezvousDoubles()};
        for (int s = 0; s < sizes.length; s++) {
            int n = sizes[s];
            boolean seg = s == 1;
            Shape sh = new Shape(d, n, d, n);
            bcast(seg, d, n, np - 1);
            gather(!seg, sh, 0);
            allgather(seg, sh);
            scatter(!seg, sh, np / 2);
            alltoall(seg, sh);
            reduce(Primitive.DOUBLE, Op.SUM, n, np - 1, false);
            allreduce(Primitive.LONG, Op.SUM, n, s == 0);
        }
        // the world's chunked shared-memory allreduce (above 256 B, predefined ops): several
        // 64 KiB chunks and a last partial one, shares that do not split evenly, IN_PLACE,
        // offsets, every kind of element (the sub-communicators take the message path)
        allreduce(Primitive.DOUBLE, Op.SUM, 3 * 8192 + 5, false);
        allreduce(Primitive.DOUBLE, Op.PROD, 8192 + 1, true);
        allreduce(Primitive.INT, Op.MAX, 2 * 16384 + 3, true);
        allreduce(Primitive.LONG, Op.MIN, 9000, false);
        allreduce(Primitive.BYTE, Op.MIN, 70_001, false);
        allreduce(Primitive.FLOAT, Op.SUM, 16_411, true);
        allreduce(Primitive.SHORT, Op.SUM, 33_333, false);
        allreduce(Primitive.CHAR, Op.MAX, 40_000, false);
        // a strided send type of the same size as a contiguous receive, by rendezvous
        int n = proto.rendezvousDoubles();
        Shape strided = new Shape(d.vector(n, 1, 2), 1, d, n);
        allgather(false, strided);
        alltoall(false, strided);
    }
}
