package org.hympj.shm.topology;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.left;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.right;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: dup and split.
 *
 * <ul>
 * <li>dup: same ranks; a message on the dup never matches a receive posted on the parent
 *     (ANY_SOURCE/ANY_TAG), nor the reverse, also for messages sent before the dup; collectives
 *     on the dup and the parent work side by side; a dup of a dup.</li>
 * <li>split: colors rank%3 with keys reversing the order, equal keys (ordered by parent rank),
 *     UNDEFINED (null), a split of a split and a dup of a split; each result checked against the
 *     membership computed here (world ranks of the members gathered on the new communicator),
 *     and point-to-point with the same tags in every color group at once stays inside the group.</li>
 * </ul>
 */
public final class CommunicatorsRank {
    static final String[] SCENARIOS = {"dup-same-group", "dup-separate-matching", "dup-collectives",
        "split-colors-reversed-keys", "split-equal-keys", "split-undefined", "split-groups-separate",
        "split-of-split"};

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            Comm d = world.dup();
            dupSameGroup(world, d);
            pass("dup-same-group");
            dupSeparateMatching(world, d);
            pass("dup-separate-matching");
            dupCollectives(world, d);
            pass("dup-collectives");
            splitColors(world, 3, true);
            pass("split-colors-reversed-keys");
            splitColors(world, 2, false);
            pass("split-equal-keys");
            splitUndefined(world);
            pass("split-undefined");
            splitGroupsSeparate(world);
            pass("split-groups-separate");
            splitOfSplit(world);
            pass("split-of-split");
        }
        pass(MultiRank.FINALIZED);
    }

    /** World ranks of c's members, in c's rank order (gathered on c). */
    static int[] members(Comm c, int worldRank) {
        int[] all = new int[c.size()];
        c.allgather(new int[] {worldRank}, 0, 1, Datatype.INT, all, 0, 1, Datatype.INT);
        return all;
    }

    /** The expected order of a split: members with my color, by (key, parent rank). */
    static int[] expectedMembers(int[] colors, int[] keys, int color) {
        List<Integer> m = new ArrayList<>();
        for (int r = 0; r < colors.length; r++) {
            if (colors[r] == color) {
                m.add(r);
            }
        }
        m.sort(Comparator.<Integer>comparingInt(r -> keys[r]).thenComparingInt(r -> r));
        return m.stream().mapToInt(Integer::intValue).toArray();
    }

    static void dupSameGroup(Comm world, Comm d) {
        check(d != world, "dup returned the same object");
        check(d.size() == world.size() && d.rank() == world.rank(), "dup: rank %d of %d, parent %d of %d", d.rank(),
            d.size(), world.rank(), world.size());
        int[] m = members(d, world.rank());
        for (int r = 0; r < m.length; r++) {
            check(m[r] == r, "dup: rank %d is world rank %d", r, m[r]);
        }
        Comm dd = d.dup();
        check(dd.size() == world.size() && dd.rank() == world.rank(), "dup of dup: rank %d of %d", dd.rank(), dd.size());
    }

    static void dupSeparateMatching(Comm world, Comm d) {
        int right = right(world, 1);
        int left = left(world, 1);
        int me = world.rank();
        for (int i = 0; i < 5; i++) {
            // a wildcard receive on the parent, a message on the dup: the parent must not get it
            int[] onParent = {-1};
            Request parentRecv = world.irecv(onParent, 0, 1, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
            d.send(new int[] {100 + me}, 0, 1, Datatype.INT, right, i);
            int[] onDup = {-1};
            Status st = d.recv(onDup, 0, 1, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
            check(onDup[0] == 100 + left && st.source() == left && st.tag() == i,
                "dup: received %d from %d tag %d, expected %d from %d tag %d", onDup[0], st.source(), st.tag(),
                100 + left, left, i);
            world.barrier();
            // nobody sends on the parent before the second barrier, which this rank has not entered yet
            check(!parentRecv.test(), "a receive on the parent matched a message sent on the dup: %s",
                parentRecv.status());
            world.barrier();
            // now the parent's own message
            world.send(new int[] {200 + me}, 0, 1, Datatype.INT, right, 50 + i);
            parentRecv.waitFor();
            check(onParent[0] == 200 + left && parentRecv.status().tag() == 50 + i,
                "parent: received %d tag %d, expected %d tag %d", onParent[0], parentRecv.status().tag(), 200 + left,
                50 + i);
        }
        // a message sent on the parent before a dup is not visible on the dup
        world.send(new int[] {300 + me}, 0, 1, Datatype.INT, right, 7);
        Comm late = world.dup();
        late.barrier();
        world.barrier();
        check(late.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) == null, "a parent message is visible on a later dup");
        int[] got = {-1};
        world.recv(got, 0, 1, Datatype.INT, left, 7);
        check(got[0] == 300 + left, "parent message: got %d, expected %d", got[0], 300 + left);
    }

    static void dupCollectives(Comm world, Comm d) {
        int np = world.size();
        int me = world.rank();
        for (int i = 0; i < 4; i++) {
            int root = (i * 2 + 1) % np;
            long[] a = {me == root ? 1000L + i : -1};
            long[] b = {me == (root + 1) % np ? 2000L + i : -1};
            world.bcast(a, 0, 1, Datatype.LONG, root);
            d.bcast(b, 0, 1, Datatype.LONG, (root + 1) % np);
            check(a[0] == 1000L + i && b[0] == 2000L + i, "bcast on parent/dup: %d %d", a[0], b[0]);
            long[] s = new long[1];
            d.allreduce(new long[] {me + 1}, 0, s, 0, 1, Datatype.LONG, Op.SUM);
            check(s[0] == (long) np * (np + 1) / 2, "allreduce on dup: %d", s[0]);
        }
    }

    /** color = rank % colors; keys reversed (or all equal: parent order). */
    static void splitColors(Comm world, int colors, boolean reverse) {
        int np = world.size();
        int me = world.rank();
        int[] color = new int[np];
        int[] key = new int[np];
        for (int r = 0; r < np; r++) {
            color[r] = r % colors;
            key[r] = reverse ? np - r : 5;
        }
        Comm s = world.split(color[me], key[me]);
        int[] want = expectedMembers(color, key, color[me]);
        check(s != null, "split returned null for a defined color");
        check(s.size() == want.length, "split color %d: size %d, expected %d", color[me], s.size(), want.length);
        int[] got = members(s, me);
        check(Arrays.equals(got, want), "split color %d key %s: members %s, expected %s", color[me],
            reverse ? "reversed" : "equal", Arrays.toString(got), Arrays.toString(want));
        check(got[s.rank()] == me, "split: my rank %d is world rank %d, I am %d", s.rank(), got[s.rank()], me);
        long[] sum = new long[1];
        s.allreduce(new long[] {me}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
        long expect = 0;
        for (int r : want) {
            expect += r;
        }
        check(sum[0] == expect, "allreduce over the color group: %d, expected %d", sum[0], expect);
    }

    static void splitUndefined(Comm world) {
        int me = world.rank();
        int np = world.size();
        // ranks 0 and np-1 opt out; the others reverse
        boolean out = me == 0 || me == np - 1;
        Comm s = world.split(out ? Comm.UNDEFINED : 4, -me);
        if (out) {
            check(s == null, "split with UNDEFINED returned %s", s);
        } else {
            int n = Math.max(0, np - 2);
            check(s != null && s.size() == n && s.rank() == np - 2 - me, "split: rank %s of %s, expected %d of %d",
                s == null ? "null" : s.rank(), s == null ? "null" : s.size(), np - 2 - me, n);
        }
        // everybody UNDEFINED
        check(world.split(Comm.UNDEFINED, 0) == null, "split with UNDEFINED everywhere returned a communicator");
        world.barrier();
    }

    /** Both halves exchange with the same tags at the same time: nothing crosses between them. */
    static void splitGroupsSeparate(Comm world) {
        int me = world.rank();
        int color = me % 2;
        Comm s = world.split(color, me);
        for (int i = 0; i < 10; i++) {
            int[] got = {-1};
            Request r = s.irecv(got, 0, 1, Datatype.INT, Comm.ANY_SOURCE, 3);
            s.send(new int[] {me}, 0, 1, Datatype.INT, right(s, 1), 3);
            r.waitFor();
            Status st = r.status();
            int[] m = members(s, me);
            int expectFrom = left(s, 1);
            check(st.source() == expectFrom && got[0] == m[expectFrom],
                "group %d: received world rank %d from local %d, expected world rank %d from local %d", color, got[0],
                st.source(), m[expectFrom], expectFrom);
            check(got[0] % 2 == color, "a message crossed from the other color group: world rank %d", got[0]);
        }
    }

    static void splitOfSplit(Comm world) {
        int me = world.rank();
        int np = world.size();
        Comm half = world.split(me < (np + 1) / 2 ? 0 : 1, me);
        Comm quarter = half.split(half.rank() % 2, -half.rank());
        int[] hm = members(half, me);
        int[] qm = members(quarter, me);
        // expected: members of my half with the same parity of half-rank, by descending half rank
        List<Integer> want = new ArrayList<>();
        for (int hr = hm.length - 1; hr >= 0; hr--) {
            if (hr % 2 == half.rank() % 2) {
                want.add(hm[hr]);
            }
        }
        check(Arrays.equals(qm, want.stream().mapToInt(Integer::intValue).toArray()),
            "split of split: members %s, expected %s", Arrays.toString(qm), want);
        Comm qd = quarter.dup();
        int[] qdm = members(qd, me);
        check(Arrays.equals(qm, qdm), "dup of a split: members %s, expected %s", Arrays.toString(qdm),
            Arrays.toString(qm));
        int[] b = {qd.rank() == qd.size() - 1 ? 4242 : 0};
        qd.bcast(b, 0, 1, Datatype.INT, qd.size() - 1);
        check(b[0] == 4242, "bcast on a dup of a split: %d", b[0]);
    }
}
