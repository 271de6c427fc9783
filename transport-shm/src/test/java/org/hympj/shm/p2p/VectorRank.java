package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.left;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;
import static org.hympj.shm.testing.Ranks.right;
import static org.hympj.shm.testing.Ranks.selected;

import org.hympj.api.Comm;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.Layout;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Pattern;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program: derived datatypes (vector, contiguous, vector of vector) on the send side,
 * the receive side or both, below and above the eager limit, in heap arrays and segment
 * buffers, around a ring. The receiver checks each element against a naive reference
 * ({@link Layout}) and that every element the receive layout does not name (gaps, and
 * around the region) was left untouched.
 */
public final class VectorRank {
    static final String[] SCENARIOS = {"vector-small", "vector-large", "vector-segment"};
    static final int SEND_AT = 3;
    static final int RECV_AT = 5;
    static final int PAD = 4;

    private static final Layout D = Layout.of(Primitive.DOUBLE);
    private static final Layout I = Layout.of(Primitive.INT);
    private static final Layout S = Layout.of(Primitive.SHORT);
    private static final Layout B = Layout.of(Primitive.BYTE);

    private static int tag;
    private static Protocol proto;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            proto = Protocol.of(mpj);
            print(proto.toString());
            if (selected(args, "vector-small")) {
                small(c);
                pass("vector-small");
            }
            if (selected(args, "vector-large")) {
                large(c);
                pass("vector-large");
            }
            if (selected(args, "vector-segment")) {
                segment(c);
                pass("vector-segment");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    static void small(Comm c) {
        heap(c, D.vector(10, 3, 7), 1, D, 30);
        heap(c, D, 30, D.vector(10, 3, 7), 1);
        heap(c, D.vector(5, 2, 4), 3, D.vector(6, 5, 9), 1);
        heap(c, I.contiguous(5), 7, I.vector(7, 5, 6), 1);
        heap(c, I.vector(7, 5, 6), 1, I.contiguous(5), 7);
        heap(c, D.vector(4, 2, 3).vector(3, 1, 2), 2, D.vector(8, 6, 7), 1);
        heap(c, D.vector(8, 6, 7), 1, D.vector(4, 2, 3).vector(3, 1, 2), 2);
        heap(c, S.contiguous(3).vector(4, 2, 3), 2, S, 48);
        heap(c, S, 48, S.contiguous(3).vector(4, 2, 3), 2);
        heap(c, D.vector(3, 1, 4).vector(2, 2, 3), 3, D.vector(4, 1, 2).vector(3, 1, 3), 3);
        heap(c, D.vector(0, 2, 3), 5, D, 0);
        heap(c, D, 0, D.vector(0, 2, 3), 5);
        // packed sizes one byte below, at and one byte above every protocol switch
        for (int limit : new int[] {Protocol.HISTORIC_EAGER, proto.inlineLimit, proto.eagerLimit}) {
            for (int n = Math.max(1, limit - 1); n <= limit + 1; n++) {
                switch (n - limit) {
                    case -1: heap(c, B.vector(n, 1, 2), 1, B, n); break;
                    case 0: heap(c, B, n, B.vector(n, 1, 3), 1); break;
                    default: heap(c, B.vector(n, 1, 2), 1, B.vector(n, 1, 3), 1); break;
                }
            }
            if (limit % 4 == 0) {
                heap(c, B.vector(limit, 1, 2), 1, B.vector(4, limit / 4, limit / 4 + 4), 1);
            }
        }
    }

    /** Every message here is 80,000 doubles or more (640 KB): above the eager limit. */
    static void large(Comm c) {
        check(80_000 * 8 > proto.eagerLimit, "the large cases assume an eager limit below 640 KB");
        heap(c, D.vector(40_000, 2, 3), 1, D, 80_000);
        heap(c, D, 80_000, D.vector(40_000, 2, 3), 1);
        heap(c, D.vector(40_000, 2, 3), 1, D.vector(20_000, 4, 5), 1);
        heap(c, D.vector(64, 4, 5).vector(320, 1, 2), 1, D, 81_920);
        heap(c, D, 81_920, D.vector(64, 4, 5).vector(320, 1, 2), 1);
        heap(c, I.contiguous(7).vector(6000, 2, 3), 2, I.vector(42_000, 4, 5), 1);
        heap(c, I.vector(42_000, 4, 5), 1, I.contiguous(7).vector(6000, 2, 3), 2);
    }

    static void segment(Comm c) {
        int max = 260_000;
        Mem[] snd = {Mem.array(Primitive.DOUBLE, max), Mem.segment(c, Primitive.DOUBLE, max)};
        Mem[] rcv = {Mem.array(Primitive.DOUBLE, max), Mem.segment(c, Primitive.DOUBLE, max)};
        Layout v = D.vector(40_000, 2, 3);
        Layout w = D.vector(20_000, 4, 5);
        Layout vv = D.vector(64, 4, 5).vector(320, 1, 2);
        for (int s = 0; s < 2; s++) {
            for (int r = 0; r < 2; r++) {
                exchange(c, v, 1, snd[s], D, 80_000, rcv[r]);
                exchange(c, D, 80_000, snd[s], v, 1, rcv[r]);
                exchange(c, v, 1, snd[s], w, 1, rcv[r]);
                exchange(c, vv, 1, snd[s], D, 81_920, rcv[r]);
                exchange(c, D, 81_920, snd[s], vv, 1, rcv[r]);
                exchange(c, D.vector(10, 3, 7), 1, snd[s], D, 30, rcv[r]);
                exchange(c, D, 30, snd[s], D.vector(10, 3, 7), 1, rcv[r]);
            }
        }
    }

    private static void heap(Comm c, Layout sl, int sCount, Layout rl, int rCount) {
        Mem snd = Mem.array(sl.primitive(), SEND_AT + (int) sl.span(sCount) + 2);
        Mem rcv = Mem.array(rl.primitive(), RECV_AT + (int) rl.span(rCount) + PAD);
        exchange(c, sl, sCount, snd, rl, rCount, rcv);
    }

    /**
     * Sends sCount items of sl at SEND_AT of snd to the right neighbour; receives rCount items
     * of rl at RECV_AT of rcv from the left one; checks every element of rcv's window.
     */
    static void exchange(Comm c, Layout sl, int sCount, Mem snd, Layout rl, int rCount, Mem rcv) {
        int t = tag++;
        int salt = 2000 + t;
        int right = right(c, 1);
        int left = left(c, 1);
        boolean postedFirst = t % 2 == 0;
        String what = String.format("%s x %d from %s -> %s x %d into %s (tag %d, rank %d <- %d, %s)", sl, sCount, snd,
            rl, rCount, rcv, t, c.rank(), left, postedFirst ? "posted first" : "unexpected");
        int[] sMsg = sl.message(sCount);
        int[] rMsg = rl.message(rCount);
        check(sMsg.length == rMsg.length, "test bug: %s sends %d elements, receives %d", what, sMsg.length, rMsg.length);
        int sendLimit = SEND_AT + (int) sl.span(sCount) + 2;
        int window = RECV_AT + (int) rl.span(rCount) + PAD;
        check(sendLimit <= snd.length && window <= rcv.length, "test bug: buffers too small for %s", what);
        snd.fill(0, sendLimit, c.rank(), salt);
        for (int i = 0; i < window; i++) {
            rcv.put(i, Pattern.sentinel(salt, i));
        }
        Status st;
        if (postedFirst) {
            Request r = c.irecv(rcv.buffer(), RECV_AT, rCount, rl.type, left, t);
            c.barrier();
            c.send(snd.buffer(), SEND_AT, sCount, sl.type, right, t);
            r.waitFor();
            st = r.status();
        } else {
            Request s = c.isend(snd.buffer(), SEND_AT, sCount, sl.type, right, t);
            c.barrier();
            st = c.recv(rcv.buffer(), RECV_AT, rCount, rl.type, left, t);
            s.waitFor();
        }
        long bytes = (long) rMsg.length * rl.primitive().bytes();
        checkStatus(st, left, t, bytes, what);
        if (rl.elements() > 0) {
            check(st.count(rl.type) == rCount, "%s: status count %d", what, st.count(rl.type));
        }
        boolean[] named = new boolean[window];
        for (int k = 0; k < rMsg.length; k++) {
            int at = RECV_AT + rMsg[k];
            named[at] = true;
            long want = Pattern.canon(rl.primitive(), Pattern.value(left, salt, SEND_AT + sMsg[k]));
            long got = rcv.get(at);
            if (got != want) {
                throw new AssertionError(what + ": message element " + k + " (receive buffer element " + at
                    + ", sender element " + (SEND_AT + sMsg[k]) + "): expected " + want + ", found " + got);
            }
        }
        for (int i = 0; i < window; i++) {
            if (!named[i]) {
                long want = Pattern.canon(rl.primitive(), Pattern.sentinel(salt, i));
                check(rcv.get(i) == want, "%s: element %d is not part of the receive layout but was written", what, i);
            }
        }
    }
}
