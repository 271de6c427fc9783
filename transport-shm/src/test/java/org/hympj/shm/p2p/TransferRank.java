package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.left;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;
import static org.hympj.shm.testing.Ranks.right;
import static org.hympj.shm.testing.Ranks.selected;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program: contiguous messages of every primitive around a ring (each rank sends to
 * rank+1 and receives from rank-1), at sizes 0, 1, small, around the eager limit and large,
 * from arrays at a non-zero offset and between heap arrays and segment buffers in all four
 * combinations. The receiver checks every element, the status, and that nothing around the
 * receive region was written.
 */
public final class TransferRank {
    static final String[] SCENARIOS = {"primitives", "segments"};
    static final int MIB = 1 << 20;
    static final int SEND_AT = 3;
    static final int RECV_AT = 5;
    /** Sentinel elements checked after the receive region. */
    static final int PAD = 4;

    private static int tag;
    private static Protocol proto;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            proto = Protocol.of(mpj);
            print(proto.toString());
            if (selected(args, "primitives")) {
                primitives(c);
                pass("primitives");
            }
            if (selected(args, "segments")) {
                segments(c);
                pass("segments");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    /**
     * Element counts of a primitive: 0, 1, small, one element below / at / above every protocol
     * switch (inline, eager, and the 16 KiB of the first design), 1 MiB, 4 MiB.
     */
    static int[] sizes(Primitive p) {
        int e = p.bytes();
        java.util.TreeSet<Integer> s = new java.util.TreeSet<>(java.util.List.of(0, 1, 7, MIB / e, 4 * MIB / e));
        for (int n : proto.countsAroundSwitches(e)) {
            s.add(n);
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    static void primitives(Comm c) {
        for (Primitive p : Primitive.values()) {
            for (int n : sizes(p)) {
                boolean huge = (long) n * p.bytes() >= 4 * MIB;
                // both receive orders (posted first, unexpected) except for 4 MiB: one each, alternating by type
                if (!huge || p.ordinal() % 2 == 0) {
                    ring(c, Mem.array(p, SEND_AT + n + 2), Mem.array(p, RECV_AT + n + PAD), n, true);
                }
                if (!huge || p.ordinal() % 2 == 1) {
                    ring(c, Mem.array(p, SEND_AT + n + 2), Mem.array(p, RECV_AT + n + PAD), n, false);
                }
            }
        }
    }

    static void segments(Comm c) {
        // doubles through allocDoubles: eager, just past eager, 1 MiB, 4 MiB
        int maxD = 4 * MIB / 8;
        Mem[] snd = {Mem.array(Primitive.DOUBLE, SEND_AT + maxD + 2), Mem.segment(c, Primitive.DOUBLE, SEND_AT + maxD + 2)};
        Mem[] rcv = {Mem.array(Primitive.DOUBLE, RECV_AT + maxD + PAD), Mem.segment(c, Primitive.DOUBLE, RECV_AT + maxD + PAD)};
        for (int n : new int[] {proto.bulkDoubles(), proto.eagerDoubles(), proto.rendezvousDoubles(), MIB / 8, maxD}) {
            allCombinations(c, snd, rcv, n);
        }
        // every other primitive through alloc(Primitive, n): small (eager) and 1 MiB + 1 element (rendezvous)
        for (Primitive p : Primitive.values()) {
            if (p == Primitive.DOUBLE) {
                continue;
            }
            int max = MIB / p.bytes() + 1;
            Mem[] s = {Mem.array(p, SEND_AT + max + 2), Mem.segment(c, p, SEND_AT + max + 2)};
            Mem[] r = {Mem.array(p, RECV_AT + max + PAD), Mem.segment(c, p, RECV_AT + max + PAD)};
            allCombinations(c, s, r, 16);
            allCombinations(c, s, r, proto.inlineLimit / p.bytes() + 1);
            allCombinations(c, s, r, max);
        }
    }

    /** heap→heap (streamed), heap→segment (put), segment→heap (pull), segment→segment (put). */
    private static void allCombinations(Comm c, Mem[] snd, Mem[] rcv, int n) {
        for (int s = 0; s < 2; s++) {
            for (int r = 0; r < 2; r++) {
                ring(c, snd[s], rcv[r], n, (s + r) % 2 == 0);
            }
        }
    }

    /**
     * Sends n elements at {@link #SEND_AT} of snd to the right neighbour and receives n into rcv at
     * {@link #RECV_AT} from the left one. postedFirst: the receive is posted before the peer sends;
     * else the message is already there (unexpected) when the receive is posted.
     */
    static void ring(Comm c, Mem snd, Mem rcv, int n, boolean postedFirst) {
        int t = tag++;
        int salt = 1000 + t;
        Primitive p = snd.primitive;
        Datatype type = Datatype.of(p);
        int right = right(c, 1);
        int left = left(c, 1);
        String what = String.format("%s x %d from %s into %s (%s, tag %d, rank %d <- %d)", p, n, snd, rcv,
            postedFirst ? "posted first" : "unexpected", t, c.rank(), left);
        int rcvLimit = RECV_AT + n + PAD;
        snd.fill(0, SEND_AT + n + 2, c.rank(), salt);
        for (int i = 0; i < rcvLimit; i++) {
            rcv.put(i, org.hympj.shm.testing.Pattern.sentinel(salt, i));
        }
        Status st;
        if (postedFirst) {
            Request r = c.irecv(rcv.buffer(), RECV_AT, n, type, left, t);
            c.barrier();
            c.send(snd.buffer(), SEND_AT, n, type, right, t);
            r.waitFor();
            st = r.status();
        } else {
            Request s = c.isend(snd.buffer(), SEND_AT, n, type, right, t);
            // a barrier of messages: the message (or its RTS) from the left is in before its barrier packet
            c.barrier(Comm.BarrierAlgorithm.DISSEMINATION);
            st = c.recv(rcv.buffer(), RECV_AT, n, type, left, t);
            s.waitFor();
        }
        checkStatus(st, left, t, (long) n * p.bytes(), what);
        check(st.count(type) == n, "%s: status count %d", what, st.count(type));
        check(st.sentBytes() == (long) n * p.bytes(), "%s: status sentBytes %d", what, st.sentBytes());
        rcv.checkRun(RECV_AT, n, left, salt, SEND_AT, what);
        rcv.checkSentinel(0, RECV_AT, salt, what);
        rcv.checkSentinel(RECV_AT + n, rcvLimit, salt, what);
    }
}
