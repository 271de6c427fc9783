package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkBefore;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.deadline;
import static org.hympj.shm.testing.Ranks.left;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;
import static org.hympj.shm.testing.Ranks.right;
import static org.hympj.shm.testing.Ranks.selected;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.Layout;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program: completion of non-blocking requests (waitAll, testAll, waitAny, testAny,
 * test; lists of only null or inactive requests return at once), sendrecv shifts, and
 * PROC_NULL.
 */
public final class CompletionRank {
    static final String[] SCENARIOS = {"wait-any", "test-any", "test-all", "none-completed", "inactive", "sendrecv",
        "proc-null"};
    static final Datatype D = Datatype.DOUBLE;
    /** Doubles: inline, bulk eager, empty, rendezvous, inline, largest eager (set from the job's protocol). */
    static int[] SIZES;
    static int capacity;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            Protocol proto = Protocol.of(mpj);
            print(proto.toString());
            SIZES = new int[] {4, proto.bulkDoubles(), 0, proto.rendezvousDoubles(), 100, proto.eagerDoubles()};
            capacity = java.util.Arrays.stream(SIZES).max().getAsInt();
            if (selected(args, "wait-any")) {
                waitAny(c);
                done(c, "wait-any");
            }
            if (selected(args, "test-any")) {
                testAny(c);
                done(c, "test-any");
            }
            if (selected(args, "test-all")) {
                testAll(c);
                done(c, "test-all");
            }
            if (selected(args, "none-completed")) {
                noneCompleted(c);
                done(c, "none-completed");
            }
            if (selected(args, "inactive")) {
                inactive(c);
                done(c, "inactive");
            }
            if (selected(args, "sendrecv")) {
                sendrecv(c);
                done(c, "sendrecv");
            }
            if (selected(args, "proc-null")) {
                procNull(c);
                done(c, "proc-null");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    private static void done(Comm c, String scenario) {
        c.barrier();
        pass(scenario);
    }

    /** A batch: receives of SIZES.length messages from the left (tags 60+i), sends to the right in reverse order. */
    private static final class Batch {
        final Mem[] in = new Mem[SIZES.length];
        final Mem[] out = new Mem[SIZES.length];
        final Request[] recvs = new Request[SIZES.length];
        final Request[] sends = new Request[SIZES.length];
        final int salt;
        final int left;

        Batch(Comm c, int salt) {
            this.salt = salt;
            this.left = left(c, 1);
            for (int i = 0; i < SIZES.length; i++) {
                in[i] = Mem.array(Primitive.DOUBLE, capacity);
                recvs[i] = c.irecv(in[i].buffer(), 0, capacity, D, left, 60 + i);
            }
            c.barrier();
            for (int i = SIZES.length - 1; i >= 0; i--) {
                out[i] = Mem.array(Primitive.DOUBLE, SIZES[i]);
                out[i].fill(0, SIZES[i], c.rank(), salt + i);
                sends[i] = c.isend(out[i].buffer(), 0, SIZES[i], D, right(c, 1), 60 + i);
            }
        }

        void check(int i, String what) {
            String w = what + " receive " + i;
            checkStatus(recvs[i].status(), left, 60 + i, SIZES[i] * 8L, w);
            in[i].checkRun(0, SIZES[i], left, salt + i, 0, w);
        }
    }

    private static void checkAllInactive(Request[] rs, String what) {
        for (int i = 0; i < rs.length; i++) {
            check(rs[i] == null || !rs[i].isActive(), "%s: request %d still active", what, i);
        }
        check(Request.waitAny(rs) == Request.UNDEFINED, "%s: waitAny over completed requests", what);
        check(Request.testAny(rs) == Request.UNDEFINED, "%s: testAny over completed requests", what);
        check(Request.testAll(rs), "%s: testAll over completed requests", what);
        Request.waitAll(rs);
    }

    static void waitAny(Comm c) {
        Batch b = new Batch(c, 100);
        boolean[] seen = new boolean[SIZES.length];
        int n = 0;
        int i;
        while ((i = Request.waitAny(b.recvs)) != Request.UNDEFINED) {
            check(i >= 0 && i < SIZES.length && !seen[i], "waitAny returned %d (seen before: %b)", i, i >= 0 && seen[i]);
            check(!b.recvs[i].isActive(), "waitAny: request %d still active after it was returned", i);
            seen[i] = true;
            n++;
            b.check(i, "waitAny");
        }
        check(n == SIZES.length, "waitAny returned %d requests, expected %d", n, SIZES.length);
        checkAllInactive(b.recvs, "waitAny");
        Request.waitAll(b.sends);
        checkAllInactive(b.sends, "waitAny sends");
    }

    static void testAny(Comm c) {
        Batch b = new Batch(c, 200);
        Request[] all = new Request[2 * SIZES.length];
        System.arraycopy(b.recvs, 0, all, 0, SIZES.length);
        System.arraycopy(b.sends, 0, all, SIZES.length, SIZES.length);
        boolean[] seen = new boolean[all.length];
        int n = 0;
        long until = deadline(30);
        while (true) {
            int i = Request.testAny(all);
            if (i == Request.UNDEFINED) {
                break;
            }
            if (i == Request.NONE_COMPLETED) {
                checkBefore(until, "testAny loop");
                continue;
            }
            check(i >= 0 && i < all.length && !seen[i], "testAny returned %d", i);
            check(!all[i].isActive(), "testAny: request %d still active after it was returned", i);
            seen[i] = true;
            n++;
            if (i < SIZES.length) {
                b.check(i, "testAny");
            }
        }
        check(n == all.length, "testAny returned %d requests, expected %d", n, all.length);
        checkAllInactive(all, "testAny");
    }

    static void testAll(Comm c) {
        Batch b = new Batch(c, 300);
        Request[] all = new Request[2 * SIZES.length + 2];
        System.arraycopy(b.recvs, 0, all, 1, SIZES.length);
        System.arraycopy(b.sends, 0, all, SIZES.length + 2, SIZES.length);
        long until = deadline(30);
        int falses = 0;
        while (!Request.testAll(all)) {
            falses++;
            for (int i = 0; i < all.length; i++) {
                check(all[i] == null || all[i].isActive(), "testAll returned false but made request %d inactive", i);
            }
            checkBefore(until, "testAll loop");
        }
        print("testAll: false " + falses + " times before true");
        for (int i = 0; i < SIZES.length; i++) {
            b.check(i, "testAll");
        }
        checkAllInactive(all, "testAll");
        // test() on each request of a second batch, then waitAll with nulls in the list
        Batch b2 = new Batch(c, 400);
        until = deadline(30);
        for (int i = 0; i < SIZES.length; i++) {
            while (!b2.recvs[i].test()) {
                checkBefore(until, "test() loop");
            }
            check(!b2.recvs[i].isActive(), "test() returned true but request %d is active", i);
            check(b2.recvs[i].test(), "test() of a completed request returned false");
            b2.check(i, "test()");
        }
        Request[] withNulls = new Request[2 * SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            withNulls[2 * i + 1] = b2.sends[i];
        }
        Request.waitAll(withNulls);
        checkAllInactive(b2.sends, "waitAll with nulls");
    }

    /** testAny on active, incomplete requests reports NONE_COMPLETED; testAll false; nothing changes. */
    static void noneCompleted(Comm c) {
        int left = left(c, 1);
        int right = right(c, 1);
        int[] in = new int[10];
        Request r = c.irecv(in, 0, 10, Datatype.INT, left, 77);
        Request r2 = c.irecv(new int[5000], 0, 5000, Datatype.INT, left, 78);
        // the left neighbour sends only after the barrier below, which this rank has not entered
        check(Request.testAny(r, null, r2) == Request.NONE_COMPLETED, "testAny: expected NONE_COMPLETED");
        check(!Request.testAll(r, r2), "testAll: true before anything was sent");
        check(!r.test() && r.isActive() && r2.isActive(), "test() true before anything was sent");
        c.barrier();
        int[] out = new int[10];
        int[] big = new int[5000];
        for (int i = 0; i < 10; i++) {
            out[i] = c.rank() * 100 + i;
        }
        for (int i = 0; i < 5000; i++) {
            big[i] = c.rank() * 1_000_000 + i;
        }
        Request s2 = c.isend(big, 0, 5000, Datatype.INT, right, 78);
        Request s = c.isend(out, 0, 10, Datatype.INT, right, 77);
        int first = Request.waitAny(r, r2);
        int second = Request.waitAny(r, r2);
        check(first != second && first >= 0 && first < 2 && second >= 0 && second < 2, "waitAny gave %d then %d", first,
            second);
        check(Request.waitAny(r, r2) == Request.UNDEFINED, "waitAny: a third completion of two requests");
        checkStatus(r.status(), left, 77, 40, "none-completed small");
        checkStatus(r2.status(), left, 78, 20_000, "none-completed large");
        for (int i = 0; i < 10; i++) {
            check(in[i] == left * 100 + i, "none-completed: element %d is %d", i, in[i]);
        }
        Request.waitAll(s, s2);
    }

    /** Lists of only null or inactive requests: waitAny/testAny return UNDEFINED at once, testAll true. */
    static void inactive(Comm c) {
        int me = c.rank();
        check(Request.waitAny() == Request.UNDEFINED, "waitAny() of an empty list");
        check(Request.testAny() == Request.UNDEFINED, "testAny() of an empty list");
        check(Request.testAll(), "testAll() of an empty list");
        Request.waitAll();
        check(Request.waitAny(null, null) == Request.UNDEFINED, "waitAny(null, null)");
        check(Request.testAny((Request) null) == Request.UNDEFINED, "testAny(null)");
        check(Request.testAll(null, null), "testAll(null, null)");
        Request.waitAll(null, null);

        // persistent requests never started
        PersistentRequest ps = c.sendInit(new int[1], 0, 1, Datatype.INT, me, 88);
        PersistentRequest pr = c.recvInit(new int[1], 0, 1, Datatype.INT, me, 88);
        check(!ps.isActive() && !pr.isActive(), "a persistent request is active before its first start");
        check(Request.waitAny(ps, pr) == Request.UNDEFINED, "waitAny over never-started persistent requests");
        check(Request.testAny(null, pr, ps) == Request.UNDEFINED, "testAny over never-started persistent requests");
        check(Request.testAll(pr, ps), "testAll over never-started persistent requests");
        Request.waitAll(pr, ps);
        check(pr.test() && ps.test(), "test() of a never-started request");

        // completed requests
        int[] x = {42};
        int[] y = new int[1];
        Request s = c.isend(x, 0, 1, Datatype.INT, me, 89);
        Request r = c.irecv(y, 0, 1, Datatype.INT, me, 89);
        Request.waitAll(s, r);
        check(y[0] == 42, "self message: %d", y[0]);
        check(Request.waitAny(s, r) == Request.UNDEFINED, "waitAny over completed requests");
        check(Request.testAny(r, null, s) == Request.UNDEFINED, "testAny over completed requests");
        check(Request.waitAny(null, s, pr, null, r, ps) == Request.UNDEFINED, "waitAny over null/never-started/completed");
        check(Request.testAny(ps, r, null) == Request.UNDEFINED, "testAny over null/never-started/completed");

        // a persistent request that completed once
        ps.start();
        pr.start();
        Request.waitAll(ps, pr);
        check(Request.waitAny(ps, pr) == Request.UNDEFINED, "waitAny over completed persistent requests");
        check(Request.testAny(ps, pr) == Request.UNDEFINED, "testAny over completed persistent requests");
        ps.free();
        pr.free();
        check(Request.waitAny(ps, pr) == Request.UNDEFINED, "waitAny over freed persistent requests");
    }

    static void sendrecv(Comm c) {
        int np = c.size();
        int tag = 0;
        for (int k = 1; k < np || k == 1; k++) {
            for (int n : new int[] {1, 2049, 200_000}) {
                int t = tag++;
                int to = right(c, k);
                int from = left(c, k);
                Mem out = Mem.array(Primitive.DOUBLE, n + 4);
                Mem in = Mem.array(Primitive.DOUBLE, n + 8);
                out.fill(0, n + 4, c.rank(), 1100 + t);
                in.fillSentinel(t);
                Status st = c.sendrecv(out.buffer(), 2, n, D, to, t, in.buffer(), 3, n, D,
                    t % 2 == 0 ? from : Comm.ANY_SOURCE, t % 3 == 0 ? t : Comm.ANY_TAG);
                String w = "sendrecv shift " + k + ", " + n + " doubles";
                checkStatus(st, from, t, n * 8L, w);
                in.checkRun(3, n, from, 1100 + t, 2, w);
                in.checkSentinelOutside(3, 3 + n, t, w);
                // the next shift's messages must not meet this shift's wildcard receives
                c.barrier();
            }
        }
        // different layouts and primitives on the two sides
        Layout v = Layout.of(Primitive.DOUBLE).vector(3000, 2, 3);
        Mem out = Mem.array(Primitive.DOUBLE, (int) v.span(1));
        out.fill(0, out.length, c.rank(), 1500);
        Mem in = Mem.array(Primitive.DOUBLE, 6000);
        Mem ints = Mem.array(Primitive.INT, 10);
        ints.fill(0, 10, c.rank(), 1501);
        Mem inInts = Mem.array(Primitive.INT, 10);
        Status st = c.sendrecv(out.buffer(), 0, 1, v.type, right(c, 1), 1, in.buffer(), 0, 6000, D, left(c, 1), 1);
        checkStatus(st, left(c, 1), 1, 48_000, "sendrecv vector -> contiguous");
        int[] msg = v.message(1);
        for (int i = 0; i < msg.length; i++) {
            in.checkRun(i, 1, left(c, 1), 1500, msg[i], "sendrecv vector -> contiguous");
        }
        st = c.sendrecv(ints.buffer(), 0, 10, Datatype.INT, right(c, 1), 2, in.buffer(), 0, 6000, D, left(c, 1), 2);
        checkStatus(st, left(c, 1), 2, 40, "sendrecv ints, receive doubles");
        st = c.sendrecv(out.buffer(), 0, 5, D, right(c, 1), 3, inInts.buffer(), 0, 10, Datatype.INT, left(c, 1), 3);
        checkStatus(st, left(c, 1), 3, 40, "sendrecv doubles, receive ints");
    }

    static void procNull(Comm c) {
        int p = Comm.PROC_NULL;
        Mem buf = Mem.array(Primitive.DOUBLE, 10);
        buf.fillSentinel(61);
        c.send(buf.buffer(), 0, 10, D, p, 5);
        Status st = c.recv(buf.buffer(), 0, 10, D, p, 5);
        check(st.source() == p && st.tag() == Comm.ANY_TAG && st.bytes() == 0 && st.count(D) == 0,
            "recv from PROC_NULL: %s", st);
        buf.checkSentinel(0, 10, 61, "recv from PROC_NULL");
        Status filled = new Status();
        c.recv(buf.buffer(), 0, 10, D, p, Comm.ANY_TAG, filled);
        check(filled.source() == p && filled.count(D) == 0, "recv(status) from PROC_NULL: %s", filled);

        Request s = c.isend(buf.buffer(), 0, 10, D, p, 5);
        Request r = c.irecv(buf.buffer(), 0, 10, D, p, 5);
        check(s.test(), "isend to PROC_NULL did not complete at once");
        check(r.test(), "irecv from PROC_NULL did not complete at once");
        check(r.status().source() == p && r.status().count(D) == 0, "irecv from PROC_NULL: %s", r.status());
        Request s2 = c.isend(buf.buffer(), 0, 10, D, p, 5);
        check(Request.waitAny(s2) == 0, "waitAny of an isend to PROC_NULL");
        buf.checkSentinel(0, 10, 61, "irecv from PROC_NULL");

        PersistentRequest ps = c.sendInit(buf.buffer(), 0, 10, D, p, 5);
        PersistentRequest pr = c.recvInit(buf.buffer(), 0, 10, D, p, 5);
        for (int i = 0; i < 3; i++) {
            Request.startAll(ps, pr);
            check(Request.testAll(ps, pr), "persistent PROC_NULL requests did not complete at once");
        }
        ps.free();
        pr.free();

        st = c.probe(p, Comm.ANY_TAG);
        check(st.source() == p && st.count(D) == 0, "probe(PROC_NULL): %s", st);
        st = c.iprobe(p, 3);
        check(st != null && st.source() == p, "iprobe(PROC_NULL): %s", st);

        // non-periodic shift: the ends talk to PROC_NULL
        int me = c.rank();
        int np = c.size();
        int to = me == np - 1 ? p : me + 1;
        int from = me == 0 ? p : me - 1;
        for (int n : new int[] {3, 5000}) {
            Mem out = Mem.array(Primitive.DOUBLE, n);
            Mem in = Mem.array(Primitive.DOUBLE, n);
            out.fill(0, n, me, 1600 + n);
            in.fillSentinel(n);
            st = c.sendrecv(out.buffer(), 0, n, D, to, 9, in.buffer(), 0, n, D, from, 9);
            if (from == p) {
                check(st.source() == p && st.count(D) == 0, "shift from PROC_NULL: %s", st);
                in.checkSentinel(0, n, n, "shift from PROC_NULL");
            } else {
                checkStatus(st, from, 9, n * 8L, "non-periodic shift");
                in.checkRun(0, n, from, 1600 + n, 0, "non-periodic shift");
            }
        }
    }
}
