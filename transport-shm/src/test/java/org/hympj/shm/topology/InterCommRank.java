package org.hympj.shm.topology;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.Arrays;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.InterComm;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: intercommunicators (MPI_Intercomm_create) between two groups split from the
 * world, twice: interleaved (world rank % 2) and in two uneven blocks (the first size/3 ranks,
 * at least 1, against the rest). Expected values are computed here from the world ranks.
 *
 * <ul>
 * <li>inter-create: rank and size are the local group's, remoteSize the other's; overlapping
 *     groups are refused on every rank (at 1 rank: the only test);</li>
 * <li>inter-p2p: every rank sends to every remote rank and receives from each with ANY_SOURCE
 *     (data and status source as remote ranks), a rendezvous-sized message, sendrecv, and
 *     messages of the intercommunicator never match receives on the world or the local group;</li>
 * <li>inter-barrier: nobody leaves before the remote group entered (its ranks send a token on
 *     the world after a sleep and before entering: present at once after the barrier);</li>
 * <li>inter-bcast: ROOT/PROC_NULL in the root's group, the root's rank in the other, both
 *     directions, small and rendezvous-sized;</li>
 * <li>inter-allreduce, inter-allgather: each group gets the other group's sum / blocks;</li>
 * <li>inter-alltoall: block j to remote rank j, small and rendezvous-sized;</li>
 * <li>inter-v: gatherv and scatterv at ROOT, allgatherv, alltoallv, uneven counts, gaps untouched;</li>
 * <li>inter-reduce-scatter: the remote group's sum scattered, even and uneven counts;</li>
 * <li>inter-rooted: gather, scatter and reduce with ROOT;</li>
 * <li>inter-merge: high false/true orders the groups, equal flags give the group of the lowest
 *     world rank first; collectives and point-to-point on the merged communicator;</li>
 * <li>inter-dup: the same groups, separate matching;</li>
 * <li>inter-bad-args: root, dest, source out of range, IN_PLACE, counts of the wrong length,
 *     collectives MPI does not define there, split: each refused naming the argument, the
 *     intercommunicator still works.</li>
 * </ul>
 */
public final class InterCommRank {
    static final String[] SCENARIOS = {"inter-create", "inter-p2p", "inter-barrier", "inter-bcast", "inter-allreduce",
        "inter-allgather", "inter-alltoall", "inter-v", "inter-reduce-scatter", "inter-rooted", "inter-merge", "inter-dup", "inter-bad-args"};

    static int wr;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            wr = world.rank();
            int n = world.size();
            overlap(world);
            if (n == 1) {
                for (String s : SCENARIOS) {
                    pass(s);
                }
            } else {
                int[] interleaved = new int[n];
                int[] blocks = new int[n];
                int k = Math.max(1, n / 3);
                for (int r = 0; r < n; r++) {
                    interleaved[r] = r % 2;
                    blocks[r] = r < k ? 0 : 1;
                }
                Setup a = setup(world, interleaved, 11);
                Setup b = setup(world, blocks, 12);
                pass("inter-create");
                for (Setup s : new Setup[] {a, b}) {
                    p2p(world, s);
                }
                pass("inter-p2p");
                for (Setup s : new Setup[] {a, b}) {
                    barrier(world, s);
                }
                pass("inter-barrier");
                for (Setup s : new Setup[] {a, b}) {
                    bcast(s);
                }
                pass("inter-bcast");
                for (Setup s : new Setup[] {a, b}) {
                    allreduce(s);
                }
                pass("inter-allreduce");
                for (Setup s : new Setup[] {a, b}) {
                    allgather(s);
                }
                pass("inter-allgather");
                for (Setup s : new Setup[] {a, b}) {
                    alltoall(s);
                }
                pass("inter-alltoall");
                for (Setup s : new Setup[] {a, b}) {
                    vCollectives(s);
                }
                pass("inter-v");
                for (Setup s : new Setup[] {a, b}) {
                    reduceScatter(s);
                }
                pass("inter-reduce-scatter");
                for (Setup s : new Setup[] {a, b}) {
                    rooted(s);
                }
                pass("inter-rooted");
                for (Setup s : new Setup[] {a, b}) {
                    merge(s);
                }
                pass("inter-merge");
                for (Setup s : new Setup[] {a, b}) {
                    dup(s);
                }
                pass("inter-dup");
                for (Setup s : new Setup[] {a, b}) {
                    badArgs(s);
                }
                pass("inter-bad-args");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    /** An intercommunicator and what it should be. */
    static final class Setup {
        final int color;
        final int[] mine;
        final int[] theirs;
        final Comm local;
        final InterComm inter;

        Setup(int color, int[] mine, int[] theirs, Comm local, InterComm inter) {
            this.color = color;
            this.mine = mine;
            this.theirs = theirs;
            this.local = local;
            this.inter = inter;
        }
    }

    static int[] membersOf(int[] colors, int color) {
        return java.util.stream.IntStream.range(0, colors.length).filter(r -> colors[r] == color).toArray();
    }

    static Setup setup(Comm world, int[] colors, int tag) {
        int color = colors[wr];
        int[] mine = membersOf(colors, color);
        int[] theirs = membersOf(colors, 1 - color);
        Comm local = world.split(color, wr);
        // leaders: local rank 0 of each group; the remote leader named by its world rank (peer = world)
        InterComm inter = world.rank() == mine[0]
            ? local.createIntercomm(0, world, theirs[0], tag) : local.createIntercomm(0, null, -5, tag);
        check(inter.rank() == local.rank() && inter.size() == mine.length, "local rank/size %d/%d, expected %d/%d",
            inter.rank(), inter.size(), local.rank(), mine.length);
        check(inter.remoteSize() == theirs.length, "remoteSize %d, expected %d", inter.remoteSize(), theirs.length);
        print("INTER color " + color + " local " + Arrays.toString(mine) + " remote " + Arrays.toString(theirs));
        return new Setup(color, mine, theirs, local, inter);
    }

    /** Both groups are the whole world: refused on every rank, and the world still works. */
    static void overlap(Comm world) {
        expectThrows(IllegalArgumentException.class, () -> world.createIntercomm(0, world.rank() == 0 ? world : null,
            0, 3), "overlapping groups", "overlap");
        int[] sum = new int[1];
        world.allreduce(new int[] {1}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
        check(sum[0] == world.size(), "allreduce after the refused intercommunicator: %d", sum[0]);
    }

    static void p2p(Comm world, Setup s) {
        InterComm ic = s.inter;
        int me = ic.rank();
        int rn = s.theirs.length;
        Request[] sends = new Request[rn];
        for (int r = 0; r < rn; r++) {
            sends[r] = ic.isend(new int[] {wr * 100 + r}, 0, 1, Datatype.INT, r, 7);
        }
        boolean[] seen = new boolean[rn];
        int[] in = new int[1];
        for (int i = 0; i < rn; i++) {
            Status st = ic.recv(in, 0, 1, Datatype.INT, Comm.ANY_SOURCE, 7);
            int src = st.source();
            check(src >= 0 && src < rn && !seen[src], "ANY_SOURCE receive: source %d (remote size %d)", src, rn);
            seen[src] = true;
            check(in[0] == s.theirs[src] * 100 + me, "from remote %d (world %d): got %d, expected %d", src,
                s.theirs[src], in[0], s.theirs[src] * 100 + me);
        }
        Request.waitAll(sends);
        // a rendezvous-sized message and sendrecv, between local rank i and remote rank i % rn
        int peer = me % rn;
        double[] big = new double[40_000];
        double[] got = new double[big.length];
        for (int i = 0; i < big.length; i++) {
            big[i] = wr + i * 0.5;
        }
        // local rank i receives one from remote rank i % rn; so I send to each remote j with j % size == me
        Request r = ic.irecv(got, 0, got.length, Datatype.DOUBLE, peer, 8);
        Request[] out = new Request[rn];
        for (int j = 0; j < rn; j++) {
            if (j % ic.size() == me) {
                out[j] = ic.isend(big, 0, big.length, Datatype.DOUBLE, j, 8);
            }
        }
        r.waitFor();
        check(r.status().source() == peer && r.status().count() == got.length, "big message status %s", r.status());
        for (int i = 0; i < got.length; i++) {
            check(got[i] == s.theirs[peer] + i * 0.5, "big message from remote %d: element %d is %f", peer, i, got[i]);
        }
        Request.waitAll(out);
        int[] x = {-1};
        if (me < rn) {
            // local rank i and remote rank i, for i below both sizes
            Status st = ic.sendrecv(new int[] {wr}, 0, 1, Datatype.INT, me, 9, x, 0, 1, Datatype.INT, me, 9);
            check(x[0] == s.theirs[me] && st.source() == me, "sendrecv with remote %d: got %d", me, x[0]);
        }
        // separate matching: a message on the intercommunicator is not seen on the world or the local group
        ic.send(new int[] {1}, 0, 1, Datatype.INT, 0, 10);
        world.barrier();
        check(world.iprobe(Comm.ANY_SOURCE, 10) == null, "a message of the intercommunicator matched on the world");
        check(s.local.iprobe(Comm.ANY_SOURCE, 10) == null, "a message of the intercommunicator matched on the local "
            + "group");
        if (me == 0) {
            for (int i = 0; i < rn; i++) {
                ic.recv(x, 0, 1, Datatype.INT, Comm.ANY_SOURCE, 10);
            }
        }
        world.barrier();
    }

    static void barrier(Comm world, Setup s) {
        InterComm ic = s.inter;
        for (int round = 0; round < 2; round++) {
            int waiting = round % 2;  // this group sleeps and leaves a token before entering
            if (s.color == waiting) {
                sleep(100);
                world.send(new int[] {wr}, 0, 1, Datatype.INT, s.theirs[0], 20 + round);
                ic.barrier();
            } else {
                ic.barrier();
                if (ic.rank() == 0) {
                    // every remote rank sent its token before it entered: it is here now, without waiting
                    int[] t = new int[1];
                    for (int w : s.theirs) {
                        Status st = null;
                        for (int poll = 0; poll < 50 && st == null; poll++) {
                            st = world.iprobe(w, 20 + round);
                        }
                        check(st != null, "round %d: the barrier returned before world rank %d entered it", round, w);
                        world.recv(t, 0, 1, Datatype.INT, w, 20 + round);
                        check(t[0] == w, "token %d from %d", t[0], w);
                    }
                }
            }
        }
        ic.barrier();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static void bcast(Setup s) {
        InterComm ic = s.inter;
        for (int rootColor = 0; rootColor < 2; rootColor++) {
            int rootGroupSize = s.color == rootColor ? s.mine.length : s.theirs.length;
            int root = rootGroupSize - 1;  // the last rank of the root's group
            for (int n : new int[] {5, 30_000}) {
                long[] buf = new long[n + 2];
                int arg;
                if (s.color == rootColor) {
                    arg = ic.rank() == root ? InterComm.ROOT : Comm.PROC_NULL;
                    if (arg == InterComm.ROOT) {
                        for (int i = 0; i < n; i++) {
                            buf[1 + i] = 7L * wr + i;
                        }
                    }
                } else {
                    arg = root;
                }
                buf[0] = -1;
                buf[n + 1] = -1;
                ic.bcast(buf, 1, n, Datatype.LONG, arg);
                int rootWorld = s.color == rootColor ? s.mine[root] : s.theirs[root];
                if (s.color != rootColor) {
                    for (int i = 0; i < n; i++) {
                        check(buf[1 + i] == 7L * rootWorld + i, "bcast from remote %d, %d items: [%d] = %d", root, n, i,
                            buf[1 + i]);
                    }
                } else if (arg == Comm.PROC_NULL) {
                    check(buf[1] == 0 && buf[n] == 0, "bcast wrote into a PROC_NULL rank's buffer");
                }
                check(buf[0] == -1 && buf[n + 1] == -1, "bcast wrote outside its items");
            }
        }
    }

    static void allreduce(Setup s) {
        InterComm ic = s.inter;
        int[] in = {wr, 2 * wr, 1};
        int[] out = new int[4];
        out[3] = -9;
        ic.allreduce(in, 0, out, 0, 3, Datatype.INT, Op.SUM);
        int sum = Arrays.stream(s.theirs).sum();
        check(out[0] == sum && out[1] == 2 * sum && out[2] == s.theirs.length && out[3] == -9,
            "allreduce SUM: %s, expected the remote group's %d, %d, %d", Arrays.toString(out), sum, 2 * sum,
            s.theirs.length);
        double[] d = {wr + 0.25};
        double[] dm = new double[1];
        ic.allreduce(d, 0, dm, 0, 1, Datatype.DOUBLE, Op.MAX);
        check(dm[0] == Arrays.stream(s.theirs).max().getAsInt() + 0.25, "allreduce MAX: %f", dm[0]);
    }

    static void allgather(Setup s) {
        InterComm ic = s.inter;
        int rn = s.theirs.length;
        int[] got = new int[2 * rn + 1];
        got[2 * rn] = -9;
        ic.allgather(new int[] {wr, -wr}, 0, 2, Datatype.INT, got, 0, 2, Datatype.INT);
        for (int j = 0; j < rn; j++) {
            check(got[2 * j] == s.theirs[j] && got[2 * j + 1] == -s.theirs[j], "allgather block %d: %d %d, expected "
                + "world rank %d", j, got[2 * j], got[2 * j + 1], s.theirs[j]);
        }
        check(got[2 * rn] == -9, "allgather wrote past its blocks");
    }

    static void alltoall(Setup s) {
        InterComm ic = s.inter;
        int rn = s.theirs.length;
        int me = ic.rank();
        for (int n : new int[] {2, 20_000}) {
            int[] out = new int[n * rn];
            for (int j = 0; j < rn; j++) {
                out[n * j] = wr * 100 + j;
                out[n * j + n - 1] = j;
            }
            int[] in = new int[n * rn + 1];
            in[n * rn] = -9;
            ic.alltoall(out, 0, n, Datatype.INT, in, 0, n, Datatype.INT);
            for (int j = 0; j < rn; j++) {
                check(in[n * j] == s.theirs[j] * 100 + me && in[n * j + n - 1] == me, "alltoall of %d: block %d from "
                    + "remote %d: %d .. %d", n, j, j, in[n * j], in[n * j + n - 1]);
            }
            check(in[n * rn] == -9, "alltoall wrote past its blocks");
        }
    }

    /** gatherv and scatterv at ROOT, allgatherv and alltoallv: uneven counts, gaps left untouched. */
    static void vCollectives(Setup s) {
        InterComm ic = s.inter;
        int rn = s.theirs.length;
        int me = ic.rank();
        // gatherv at group 0's rank 0: remote j sends j+1 items, placed in reverse order with gaps
        if (s.color == 0) {
            boolean root = me == 0;
            int[] counts = new int[rn];
            int[] displs = new int[rn];
            for (int j = 0; j < rn; j++) {
                counts[j] = j + 1;
                displs[j] = (rn - 1 - j) * (rn + 1);
            }
            int[] got = new int[rn * (rn + 1)];
            Arrays.fill(got, -1);
            ic.gatherv(null, 0, 0, Datatype.INT, got, 0, counts, displs, Datatype.INT,
                root ? InterComm.ROOT : Comm.PROC_NULL);
            for (int j = 0; root && j < rn; j++) {
                for (int t = 0; t <= rn; t++) {
                    int want = t <= j ? s.theirs[j] * 10 + t : -1;
                    check(got[displs[j] + t] == want, "gatherv: remote %d item %d is %d, expected %d", j, t,
                        got[displs[j] + t], want);
                }
            }
        } else {
            int[] mine = new int[me + 1];
            for (int t = 0; t <= me; t++) {
                mine[t] = wr * 10 + t;
            }
            ic.gatherv(mine, 0, me + 1, Datatype.INT, null, 0, null, null, Datatype.INT, 0);
        }
        // scatterv from group 1's rank 0: remote i gets i+1 items
        if (s.color == 1) {
            boolean root = me == 0;
            int[] counts = new int[rn];
            int[] displs = new int[rn];
            int[] data = new int[rn * (rn + 1)];
            for (int i = 0; i < rn; i++) {
                counts[i] = i + 1;
                displs[i] = i * (rn + 1);
                for (int t = 0; t <= i; t++) {
                    data[displs[i] + t] = 1000 * i + t;
                }
            }
            ic.scatterv(data, 0, counts, displs, Datatype.INT, null, 0, 0, Datatype.INT,
                root ? InterComm.ROOT : Comm.PROC_NULL);
        } else {
            int[] mine = new int[me + 2];
            mine[me + 1] = -9;
            ic.scatterv(null, 0, null, null, Datatype.INT, mine, 0, me + 1, Datatype.INT, 0);
            for (int t = 0; t <= me; t++) {
                check(mine[t] == 1000 * me + t, "scatterv: item %d is %d", t, mine[t]);
            }
            check(mine[me + 1] == -9, "scatterv wrote past its block");
        }
        // allgatherv: local rank i sends i+1 items; remote j's land at displs[j], one item of gap after each
        int[] counts = new int[rn];
        int[] displs = new int[rn];
        int at = 0;
        for (int j = 0; j < rn; j++) {
            counts[j] = j + 1;
            displs[j] = at;
            at += j + 2;
        }
        int[] mine = new int[me + 1];
        for (int t = 0; t <= me; t++) {
            mine[t] = wr * 10 + t;
        }
        int[] all = new int[at];
        Arrays.fill(all, -1);
        ic.allgatherv(mine, 0, me + 1, Datatype.INT, all, 0, counts, displs, Datatype.INT);
        for (int j = 0; j < rn; j++) {
            for (int t = 0; t <= j + 1; t++) {
                int want = t <= j ? s.theirs[j] * 10 + t : -1;
                check(all[displs[j] + t] == want, "allgatherv: remote %d item %d is %d, expected %d", j, t,
                    all[displs[j] + t], want);
            }
        }
        // alltoallv: (me + j) % 3 + 1 items to remote j, four slots per peer
        int[] sc = new int[rn];
        int[] sd = new int[rn];
        int[] out = new int[4 * rn];
        int[] in = new int[4 * rn];
        Arrays.fill(in, -1);
        for (int j = 0; j < rn; j++) {
            sc[j] = (me + j) % 3 + 1;
            sd[j] = 4 * j;
            for (int t = 0; t < sc[j]; t++) {
                out[sd[j] + t] = wr * 1000 + j * 10 + t;
            }
        }
        ic.alltoallv(out, 0, sc, sd, Datatype.INT, in, 0, sc, sd, Datatype.INT);
        for (int j = 0; j < rn; j++) {
            for (int t = 0; t < 4; t++) {
                int want = t < sc[j] ? s.theirs[j] * 1000 + me * 10 + t : -1;
                check(in[sd[j] + t] == want, "alltoallv: from remote %d item %d is %d, expected %d", j, t,
                    in[sd[j] + t], want);
            }
        }
    }

    /**
     * Each group gets the remote group's sum, scattered: L x R items in all on both sides; block
     * counts even (reduceScatterBlock, R each) and uneven (rank 0 takes all but one per other rank).
     */
    static void reduceScatter(Setup s) {
        InterComm ic = s.inter;
        int rn = s.theirs.length;
        int ln = ic.size();
        int me = ic.rank();
        int total = ln * rn;
        long[] data = new long[total];
        for (int e = 0; e < total; e++) {
            data[e] = wr + 1000L * e;
        }
        long sum = Arrays.stream(s.theirs).sum();
        long[] got = new long[total + 1];
        got[rn] = -9;
        ic.reduceScatterBlock(data, 0, got, 0, rn, Datatype.LONG, Op.SUM);
        for (int t = 0; t < rn; t++) {
            long e = (long) me * rn + t;
            check(got[t] == sum + 1000L * rn * e, "reduceScatterBlock: item %d is %d, expected %d", t, got[t],
                sum + 1000L * rn * e);
        }
        check(got[rn] == -9, "reduceScatterBlock wrote past its block");
        int[] counts = new int[ln];
        Arrays.fill(counts, 1);
        counts[0] = total - (ln - 1);
        int first = me == 0 ? 0 : counts[0] + me - 1;
        Arrays.fill(got, -9);
        ic.reduceScatter(data, 0, got, 0, counts, Datatype.LONG, Op.SUM);
        for (int t = 0; t < counts[me]; t++) {
            long e = first + t;
            check(got[t] == sum + 1000L * rn * e, "reduceScatter: item %d is %d, expected %d", t, got[t],
                sum + 1000L * rn * e);
        }
        check(got[counts[me]] == -9, "reduceScatter wrote past its block");
    }

    static void rooted(Setup s) {
        InterComm ic = s.inter;
        int rn = s.theirs.length;
        refusedAtRoot(s);
        // gather and scatter rooted at group 0's rank 0, reduce at group 1's last rank
        if (s.color == 0) {
            int arg = ic.rank() == 0 ? InterComm.ROOT : Comm.PROC_NULL;
            int[] got = new int[rn];
            ic.gather(null, 0, 0, Datatype.INT, got, 0, 1, Datatype.INT, arg);
            int[] blocks = new int[2 * rn];
            for (int j = 0; j < rn; j++) {
                blocks[2 * j] = 500 + j;
                blocks[2 * j + 1] = s.theirs[j];
            }
            ic.scatter(blocks, 0, 2, Datatype.INT, null, 0, 0, Datatype.INT, arg);
            if (arg == InterComm.ROOT) {
                check(Arrays.equals(got, s.theirs), "gather at ROOT: %s, expected %s", Arrays.toString(got),
                    Arrays.toString(s.theirs));
            }
            ic.reduce(new int[] {wr, 1}, 0, null, 0, 2, Datatype.INT, Op.SUM, rn - 1);
        } else {
            ic.gather(new int[] {wr}, 0, 1, Datatype.INT, null, 0, 0, Datatype.INT, 0);
            int[] mine = new int[2];
            ic.scatter(null, 0, 0, Datatype.INT, mine, 0, 2, Datatype.INT, 0);
            check(mine[0] == 500 + ic.rank() && mine[1] == wr, "scatter from ROOT: %s", Arrays.toString(mine));
            int arg = ic.rank() == ic.size() - 1 ? InterComm.ROOT : Comm.PROC_NULL;
            int[] red = {-1, -1};
            ic.reduce(null, 0, red, 0, 2, Datatype.INT, Op.SUM, arg);
            if (arg == InterComm.ROOT) {
                check(red[0] == Arrays.stream(s.theirs).sum() && red[1] == rn, "reduce at ROOT: %s",
                    Arrays.toString(red));
            } else {
                check(red[0] == -1, "reduce wrote at a PROC_NULL rank");
            }
        }
    }

    /**
     * The ROOT's own buffer refused while the other group takes part: gather and reduce roots take
     * the blocks sent to them before they throw, a scatter root answers with empty blocks (each
     * remote rank returns with its buffer unchanged); {@link #rooted} then checks the next calls get their own data.
     */
    static void refusedAtRoot(Setup s) {
        InterComm ic = s.inter;
        int rn = s.theirs.length;
        if (s.color == 0) {
            int arg = ic.rank() == 0 ? InterComm.ROOT : Comm.PROC_NULL;
            if (arg == InterComm.ROOT) {
                expectRefused("gather", () -> ic.gather(null, 0, 0, Datatype.INT, new int[rn - 1], 0, 1, Datatype.INT,
                    arg));
                expectRefused("scatter", () -> ic.scatter(new int[2 * rn - 1], 0, 2, Datatype.INT, null, 0, 0,
                    Datatype.INT, arg));
            } else {
                ic.gather(null, 0, 0, Datatype.INT, null, 0, 0, Datatype.INT, arg);
                ic.scatter(null, 0, 0, Datatype.INT, null, 0, 0, Datatype.INT, arg);
            }
            ic.reduce(new int[] {-wr, -1}, 0, null, 0, 2, Datatype.INT, Op.SUM, rn - 1);
        } else {
            ic.gather(new int[] {-wr}, 0, 1, Datatype.INT, null, 0, 0, Datatype.INT, 0);
            int[] kept = {-9, -9};
            ic.scatter(null, 0, 0, Datatype.INT, kept, 0, 2, Datatype.INT, 0); // an empty block: nothing changes
            check(kept[0] == -9 && kept[1] == -9, "a scatter its ROOT refused changed a remote buffer: %s",
                Arrays.toString(kept));
            int arg = ic.rank() == ic.size() - 1 ? InterComm.ROOT : Comm.PROC_NULL;
            if (arg == InterComm.ROOT) {
                expectRefused("reduce", () -> ic.reduce(null, 0, new int[1], 0, 2, Datatype.INT, Op.SUM, arg));
            } else {
                ic.reduce(null, 0, null, 0, 2, Datatype.INT, Op.SUM, arg);
            }
        }
    }

    private static void expectRefused(String call, Runnable run) {
        try {
            run.run();
            throw new AssertionError(call + ": the ROOT's short buffer was not refused");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().startsWith(call), "%s refused: %s", call, e.getMessage());
        }
    }

    static void merge(Setup s) {
        InterComm ic = s.inter;
        for (int variant = 0; variant < 3; variant++) {
            // 0: group 1 high (group 0 first); 1: group 0 high (group 1 first); 2: both false (lower world rank first)
            boolean high = variant == 0 ? s.color == 1 : variant == 1 ? s.color == 0 : false;
            Comm m = ic.merge(high);
            boolean groupZeroFirst = variant == 0 || variant == 2 && s.color == 0 == (s.mine[0] < s.theirs[0])
                || variant == 2 && s.color == 1 && s.theirs[0] < s.mine[0];
            int[] g0 = s.color == 0 ? s.mine : s.theirs;
            int[] g1 = s.color == 0 ? s.theirs : s.mine;
            int[] expect = new int[g0.length + g1.length];
            System.arraycopy(groupZeroFirst ? g0 : g1, 0, expect, 0, (groupZeroFirst ? g0 : g1).length);
            System.arraycopy(groupZeroFirst ? g1 : g0, 0, expect, (groupZeroFirst ? g0 : g1).length,
                (groupZeroFirst ? g1 : g0).length);
            int[] members = new int[m.size()];
            m.allgather(new int[] {wr}, 0, 1, Datatype.INT, members, 0, 1, Datatype.INT);
            check(Arrays.equals(members, expect), "merge variant %d (high %b): members %s, expected %s", variant, high,
                Arrays.toString(members), Arrays.toString(expect));
            int right = (m.rank() + 1) % m.size();
            int left = (m.rank() - 1 + m.size()) % m.size();
            int[] x = {-1};
            m.sendrecv(new int[] {wr}, 0, 1, Datatype.INT, right, 1, x, 0, 1, Datatype.INT, left, 1);
            check(x[0] == expect[left], "merged ring: got %d from %d, expected world rank %d", x[0], left,
                expect[left]);
        }
    }

    static void dup(Setup s) {
        InterComm d = s.inter.dup();
        check(d != s.inter && d.rank() == s.inter.rank() && d.size() == s.inter.size()
            && d.remoteSize() == s.inter.remoteSize(), "dup: %s", d);
        d.send(new int[] {wr}, 0, 1, Datatype.INT, 0, 4);
        d.barrier();
        check(s.inter.iprobe(Comm.ANY_SOURCE, 4) == null, "a message of the dup matched on the original");
        if (d.rank() == 0) {
            int[] x = new int[1];
            for (int i = 0; i < d.remoteSize(); i++) {
                Status st = d.recv(x, 0, 1, Datatype.INT, Comm.ANY_SOURCE, 4);
                check(x[0] == s.theirs[st.source()], "dup: got %d from remote %d", x[0], st.source());
            }
        }
        int[] sum = new int[1];
        d.allreduce(new int[] {1}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
        check(sum[0] == s.theirs.length, "allreduce on the dup: %d", sum[0]);
    }

    static void badArgs(Setup s) {
        InterComm ic = s.inter;
        int rn = s.theirs.length;
        int[] b = new int[4];
        expectThrows(IllegalArgumentException.class, () -> ic.send(b, 0, 1, Datatype.INT, rn, 1), "dest = remote size",
            "dest", "0.." + (rn - 1));
        expectThrows(IllegalArgumentException.class, () -> ic.recv(b, 0, 1, Datatype.INT, rn, 1), "source = remote "
            + "size", "source");
        expectThrows(IllegalArgumentException.class, () -> ic.bcast(b, 0, 1, Datatype.INT, rn), "bcast root", "root",
            "ROOT");
        expectThrows(IllegalArgumentException.class, () -> ic.bcast(b, 0, 1, Datatype.INT, -7), "bcast root -7", "root");
        expectThrows(IllegalArgumentException.class, () -> ic.allreduce(Comm.IN_PLACE, 0, b, 0, 1, Datatype.INT,
            Op.SUM), "IN_PLACE", "IN_PLACE");
        expectThrows(UnsupportedOperationException.class, () -> ic.scan(b, 0, b, 1, 1, Datatype.INT, Op.SUM), "scan",
            "scan", "not defined");
        expectThrows(UnsupportedOperationException.class, () -> ic.exscan(b, 0, b, 1, 1, Datatype.INT, Op.SUM),
            "exscan", "exscan", "not defined");
        expectThrows(IllegalArgumentException.class, () -> ic.allgatherv(b, 0, 1, Datatype.INT, b, 0, new int[rn + 1],
            new int[rn - 1], Datatype.INT), "allgatherv displs too short", "displs");
        expectThrows(IllegalArgumentException.class, () -> ic.reduceScatter(b, 0, b, 0, new int[ic.size() - 1],
            Datatype.INT, Op.SUM), "reduceScatter counts too short", "recvCounts");
        expectThrows(UnsupportedOperationException.class, () -> ic.createCart(new int[] {1}, new boolean[1], false),
            "createCart", "createCart");
        expectThrows(UnsupportedOperationException.class, () -> ic.split(0, 0), "split", "split");
        // still usable
        int[] out = new int[1];
        ic.allreduce(new int[] {wr}, 0, out, 0, 1, Datatype.INT, Op.MAX);
        check(out[0] == Arrays.stream(s.theirs).max().getAsInt(), "allreduce after bad arguments: %d", out[0]);
    }
}
