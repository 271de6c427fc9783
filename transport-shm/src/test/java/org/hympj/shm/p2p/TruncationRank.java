package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkBefore;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.deadline;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.left;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;
import static org.hympj.shm.testing.Ranks.right;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.api.TruncationException;
import org.hympj.shm.testing.Layout;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Pattern;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program: a message longer than the receive buffer, eager and rendezvous, over every
 * buffer path, blocking and non-blocking, contiguous and vector receive layouts: the
 * receive throws TruncationException, its status says truncated with the sent size, the
 * first bytes arrive, and not one element past the receive buffer (or in a layout's gaps) is
 * written. The library keeps working afterwards.
 */
public final class TruncationRank {
    static final String[] SCENARIOS = {"truncate-contiguous", "truncate-nonblocking", "truncate-vector",
        "after-truncation"};
    static final Datatype D = Datatype.DOUBLE;
    static final int AT = 4;
    static final int PAD = 6;

    private static int tag;
    private static Protocol proto;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            proto = Protocol.of(mpj);
            print(proto.toString());
            contiguous(c);
            pass("truncate-contiguous");
            nonBlocking(c);
            pass("truncate-nonblocking");
            vector(c);
            pass("truncate-vector");
            after(c);
            pass("after-truncation");
        }
        pass(MultiRank.FINALIZED);
    }

    static void contiguous(Comm c) {
        // eager: inline (100 doubles) and through the bulk region, into room for less (and 0)
        int bulk = Math.max(2, proto.bulkDoubles());     // (a configuration may have no inline or no eager range)
        int eager = Math.max(8, proto.eagerDoubles());
        for (int unexpected = 0; unexpected < 2; unexpected++) {
            boolean u = unexpected == 1;
            truncate(c, false, false, 100, 60, u);
            truncate(c, false, false, 100, 0, u);
            truncate(c, false, false, bulk, bulk - 1, u);
            truncate(c, u, !u, eager, 7, u);
            truncate(c, !u, u, eager, 0, u);
        }
        // rendezvous over every path: stream (heap/heap), put (-> segment), pull (segment ->)
        for (int kinds = 0; kinds < 4; kinds++) {
            boolean sSeg = (kinds & 1) != 0;
            boolean rSeg = (kinds & 2) != 0;
            truncate(c, sSeg, rSeg, 100_000, 50_000, kinds % 2 == 0);
            truncate(c, sSeg, rSeg, 100_000, 33_333, kinds % 2 == 1);
            truncate(c, sSeg, rSeg, eager + 1, eager, false);   // rendezvous message into an eager-sized buffer
            truncate(c, sSeg, rSeg, eager + 1, 0, true);
        }
    }

    /** The left neighbour sends n doubles; this rank receives into room for m < n. */
    private static void truncate(Comm c, boolean sSeg, boolean rSeg, int n, int m, boolean unexpected) {
        int t = tag++;
        int salt = 3000 + t;
        int left = left(c, 1);
        Mem out = Mem.of(sSeg, c, Primitive.DOUBLE, n + 1);
        Mem in = Mem.of(rSeg, c, Primitive.DOUBLE, AT + n + PAD);
        out.fill(0, n + 1, c.rank(), salt);
        in.fillSentinel(salt);
        String w = String.format("truncation: %d doubles from %s into room for %d in %s (%s, tag %d)", n, out, m, in,
            unexpected ? "unexpected" : "posted", t);
        Status st = new Status();
        TruncationException e;
        Request s;
        if (unexpected) {
            s = c.isend(out.buffer(), 1, n, D, right(c, 1), t);
            c.barrier();
            e = expectThrows(TruncationException.class, () -> c.recv(in.buffer(), AT, m, D, left, t, st), w);
        } else {
            Request r = c.irecv(in.buffer(), AT, m, D, left, t);
            c.barrier();
            s = c.isend(out.buffer(), 1, n, D, right(c, 1), t);
            e = expectThrows(TruncationException.class, r::waitFor, w);
            st.set(r.status());
        }
        s.waitFor();
        checkTruncated(e.status(), left, t, m * 8L, n * 8L, w + " (exception status)");
        checkTruncated(st, left, t, m * 8L, n * 8L, w + " (receive status)");
        in.checkRun(AT, m, left, salt, 1, w);
        in.checkSentinelOutside(AT, AT + m, salt, w);
        c.barrier();
    }

    static void checkTruncated(Status st, int source, int tag, long got, long sent, String w) {
        check(st.isTruncated(), "%s: status not truncated: %s", w, st);
        check(st.source() == source && st.tag() == tag, "%s: status %s, expected source %d tag %d", w, st, source, tag);
        check(st.bytes() == got && st.sentBytes() == sent, "%s: status bytes %d of %d, expected %d of %d", w,
            st.bytes(), st.sentBytes(), got, sent);
    }

    static void nonBlocking(Comm c) {
        int left = left(c, 1);
        int right = right(c, 1);
        // waitAll: the truncated receive throws after every request completed; the others are fine
        Mem a = Mem.array(Primitive.DOUBLE, 5000);
        Mem b = Mem.array(Primitive.DOUBLE, AT + 5000 + PAD);
        Mem big = Mem.array(Primitive.DOUBLE, 5000);
        big.fill(0, 5000, c.rank(), 4000);
        a.fillSentinel(1);
        b.fillSentinel(2);
        Request ok = c.irecv(a.buffer(), 0, 5000, D, left, 61);
        Request bad = c.irecv(b.buffer(), AT, 3000, D, Comm.ANY_SOURCE, Comm.ANY_TAG);
        Request s1 = c.isend(big.buffer(), 0, 5000, D, right, 60);   // matches bad (posted first, ANY_TAG)
        Request s2 = c.isend(big.buffer(), 0, 5000, D, right, 61);   // matches ok
        TruncationException e = expectThrows(TruncationException.class, () -> Request.waitAll(bad, ok, s1, s2),
            "waitAll with a truncated receive");
        check(!ok.isActive() && !bad.isActive() && !s1.isActive() && !s2.isActive(),
            "waitAll threw before every request completed");
        checkTruncated(e.status(), left, 60, 24_000, 40_000, "waitAll truncation");
        checkTruncated(bad.status(), left, 60, 24_000, 40_000, "waitAll truncation (request status)");
        checkStatus(ok.status(), left, 61, 40_000, "the other receive of the waitAll");
        a.checkRun(0, 5000, left, 4000, 0, "the other receive of the waitAll");
        b.checkRun(AT, 3000, left, 4000, 0, "truncated receive of the waitAll");
        b.checkSentinelOutside(AT, AT + 3000, 2, "truncated receive of the waitAll");
        c.barrier();

        // test(): the completion that observes the truncation throws it, once
        Request t = c.irecv(b.buffer(), AT, 10, D, left, 62);
        Request s = c.isend(big.buffer(), 0, 11, D, right, 62);
        long until = deadline(30);
        TruncationException te = null;
        while (te == null) {
            try {
                if (t.test()) {
                    throw new AssertionError("test() completed a truncated receive without throwing");
                }
            } catch (TruncationException x) {
                te = x;
            }
            checkBefore(until, "test() loop on a truncated receive");
        }
        check(!t.isActive() && t.test(), "after the truncation was thrown, the request is inactive");
        checkTruncated(te.status(), left, 62, 80, 88, "test() truncation");
        s.waitFor();

        // waitAny / testAny
        Request w1 = c.irecv(b.buffer(), AT, 100, D, left, 63);
        Request s3 = c.isend(big.buffer(), 0, 3000, D, right, 63);
        expectThrows(TruncationException.class, () -> Request.waitAny(w1), "waitAny of a truncated receive");
        check(Request.waitAny(w1) == Request.UNDEFINED, "waitAny after the truncation");
        s3.waitFor();
        c.barrier();
        // sendrecv whose receive side is too small
        Status st = new Status();
        TruncationException se = expectThrows(TruncationException.class, () -> c.sendrecv(big.buffer(), 0, 3000, D, right,
            64, b.buffer(), AT, 2000, D, left, 64), "sendrecv into a smaller buffer");
        checkTruncated(se.status(), left, 64, 16_000, 24_000, "sendrecv truncation");
        b.checkRun(AT, 2000, left, 4000, 0, "sendrecv truncation");
        c.barrier();
    }

    static void vector(Comm c) {
        int left = left(c, 1);
        Layout v = Layout.of(Primitive.DOUBLE).vector(1000, 2, 3);   // 2000 elements over 2999
        for (int n : new int[] {1500, 5000, 2001}) {
            for (int seg = 0; seg < 2; seg++) {
                int t = tag++;
                int salt = 5000 + t;
                Mem out = Mem.of(seg == 1, c, Primitive.DOUBLE, n);
                out.fill(0, n, c.rank(), salt);
                Mem in = Mem.of(seg == 1, c, Primitive.DOUBLE, AT + 3 * n + PAD);
                in.fillSentinel(salt);
                Request s = c.isend(out.buffer(), 0, n, D, right(c, 1), t);
                String w = "vector receive of " + n + " doubles into " + v + " in " + in;
                if (n <= 2000) {
                    checkStatus(c.recv(in.buffer(), AT, 1, v.type, left, t), left, t, n * 8L, w);
                } else {
                    TruncationException e = expectThrows(TruncationException.class,
                        () -> c.recv(in.buffer(), AT, 1, v.type, left, t), w);
                    checkTruncated(e.status(), left, t, 16_000, n * 8L, w);
                }
                s.waitFor();
                int[] msg = v.message(1);
                boolean[] named = new boolean[in.length];
                for (int k = 0; k < Math.min(n, msg.length); k++) {
                    named[AT + msg[k]] = true;
                    in.checkRun(AT + msg[k], 1, left, salt, k, w);
                }
                for (int i = 0; i < in.length; i++) {
                    if (!named[i]) {
                        check(in.get(i) == Pattern.canon(Primitive.DOUBLE, Pattern.sentinel(salt, i)),
                            "%s: element %d (a gap, or past what arrived) was written", w, i);
                    }
                }
                c.barrier();
            }
        }
    }

    /** The library still works: a normal exchange of every kind. */
    static void after(Comm c) {
        for (int n : new int[] {10, 100_000}) {
            Mem out = Mem.array(Primitive.DOUBLE, n);
            Mem in = Mem.array(Primitive.DOUBLE, n);
            out.fill(0, n, c.rank(), 6000 + n);
            Status st = c.sendrecv(out.buffer(), 0, n, D, right(c, 1), 70, in.buffer(), 0, n, D, left(c, 1), 70);
            checkStatus(st, left(c, 1), 70, n * 8L, "exchange after the truncations");
            in.checkRun(0, n, left(c, 1), 6000 + n, 0, "exchange after the truncations");
        }
        Status stray = c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG);
        check(stray == null, "a message is left over after the truncations: %s", stray);
        c.barrier();
    }
}
