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
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program: matching semantics. Non-overtaking order of many same-source same-tag
 * messages of mixed sizes (eager and rendezvous interleaved), received as unexpected or
 * pre-posted; wildcards (ANY_SOURCE / ANY_TAG) with status source and tag; the order among
 * posted receives when a wildcard one is first; zero-length messages; self-sends;
 * probe / iprobe. Every scenario ends with a barrier, so messages of the next one cannot
 * reach a rank early.
 */
public final class MatchingRank {
    static final String[] SCENARIOS = {"order", "bulk-backlog", "wildcard", "posted-order", "zero-length", "self",
        "probe"};
    static final Datatype D = Datatype.DOUBLE;
    static final int ORDER_MESSAGES = 40;
    /**
     * Doubles: empty, one, largest inline, smallest bulk eager, largest eager, smallest
     * rendezvous, 16 KiB, twice the eager limit. Set from the job's protocol.
     */
    static int[] orderSizes;
    static int orderCapacity;
    static int[] wildSizes;
    static int wildCapacity;
    static Protocol proto;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            proto = Protocol.of(mpj);
            print(proto.toString());
            orderSizes = new int[] {0, 1, proto.inlineLimit / 8, proto.bulkDoubles(), proto.eagerDoubles(),
                proto.rendezvousDoubles(), 2048, 2 * proto.eagerDoubles()};
            orderCapacity = java.util.Arrays.stream(orderSizes).max().getAsInt();
            wildSizes = new int[] {1, proto.rendezvousDoubles(), 0, proto.bulkDoubles(), proto.eagerDoubles(), 7};
            wildCapacity = java.util.Arrays.stream(wildSizes).max().getAsInt();
            if (selected(args, "order")) {
                order(c);
                done(c, "order");
            }
            if (selected(args, "bulk-backlog")) {
                bulkBacklog(c);
                done(c, "bulk-backlog");
            }
            if (selected(args, "wildcard")) {
                wildcard(c);
                done(c, "wildcard");
            }
            if (selected(args, "posted-order")) {
                postedOrder(c);
                done(c, "posted-order");
            }
            if (selected(args, "zero-length")) {
                zeroLength(c);
                done(c, "zero-length");
            }
            if (selected(args, "self")) {
                self(c);
                done(c, "self");
            }
            if (selected(args, "probe")) {
                probe(c);
                done(c, "probe");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    private static void done(Comm c, String scenario) {
        Status stray = c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG);
        check(stray == null, "%s: a message is left over at the end: %s", scenario, stray);
        c.barrier();
        pass(scenario);
    }

    // ------------------------------------------------------------------ order

    private static int orderSize(int k) {
        return orderSizes[k % orderSizes.length];
    }

    private static Mem orderMessage(Comm c, int k, int salt) {
        Mem m = Mem.array(Primitive.DOUBLE, orderSize(k));
        m.fill(0, m.length, c.rank(), salt);
        return m;
    }

    private static void checkOrderMessage(Status st, Mem buf, int source, int tag, int k, int salt, String what) {
        String w = what + " message " + k;
        checkStatus(st, source, tag, orderSize(k) * 8L, w);
        buf.checkRun(0, orderSize(k), source, salt, 0, w);
    }

    static void order(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        int m = ORDER_MESSAGES;
        Request[] sends = new Request[m];
        Mem[] out = new Mem[m];
        Mem in = Mem.array(Primitive.DOUBLE, orderCapacity);

        // A: everything sent before any receive is posted: eager data and RTS wait as unexpected
        for (int k = 0; k < m; k++) {
            out[k] = orderMessage(c, k, 100 + k);
            sends[k] = c.isend(out[k].buffer(), 0, out[k].length, D, right, 7);
        }
        c.barrier();
        for (int k = 0; k < m; k++) {
            Status st = c.recv(in.buffer(), 0, orderCapacity, D, left, 7);
            checkOrderMessage(st, in, left, 7, k, 100 + k, "order/unexpected");
        }
        Request.waitAll(sends);
        c.barrier();

        // B: every receive posted before anything is sent
        Request[] recvs = new Request[m];
        Mem[] ins = new Mem[m];
        for (int k = 0; k < m; k++) {
            ins[k] = Mem.array(Primitive.DOUBLE, orderSize(k) + 3);
            recvs[k] = c.irecv(ins[k].buffer(), 0, orderSize(k) + 3, D, left, 7);
        }
        c.barrier();
        for (int k = 0; k < m; k++) {
            out[k] = orderMessage(c, k, 200 + k);
            sends[k] = c.isend(out[k].buffer(), 0, out[k].length, D, right, 7);
        }
        Request.waitAll(recvs);
        Request.waitAll(sends);
        for (int k = 0; k < m; k++) {
            checkOrderMessage(recvs[k].status(), ins[k], left, 7, k, 200 + k, "order/posted");
        }
        c.barrier();

        // C: two tags interleaved, all of tag 9 received first: each tag's stream stays in order
        for (int k = 0; k < m; k++) {
            out[k] = orderMessage(c, k, 300 + k);
            sends[k] = c.isend(out[k].buffer(), 0, out[k].length, D, right, 8 + k % 2);
        }
        c.barrier();
        for (int first = 1; first >= 0; first--) {
            for (int k = first; k < m; k += 2) {
                Status st = c.recv(in.buffer(), 0, orderCapacity, D, left, 8 + k % 2);
                checkOrderMessage(st, in, left, 8 + k % 2, k, 300 + k, "order/two tags");
            }
        }
        Request.waitAll(sends);
        c.barrier();

        // D: received with ANY_TAG while the sender uses many tags: arrival order = send order
        for (int k = 0; k < m; k++) {
            out[k] = orderMessage(c, k, 400 + k);
            sends[k] = c.isend(out[k].buffer(), 0, out[k].length, D, right, 1000 + k);
        }
        for (int k = 0; k < m; k++) {
            Status st = c.recv(in.buffer(), 0, orderCapacity, D, left, Comm.ANY_TAG);
            checkOrderMessage(st, in, left, 1000 + k, k, 400 + k, "order/ANY_TAG");
        }
        Request.waitAll(sends);
    }

    // ------------------------------------------------------------------ bulk backlog

    /**
     * More unexpected eager messages than the pair's bulk region holds (later ones must fall
     * back to rendezvous), received last tag first, so the region is consumed out of order;
     * then the same with one tag, received in order.
     */
    static void bulkBacklog(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        int m = 36;
        int[] sizes = {proto.eagerDoubles(), proto.bulkDoubles(), 3};
        Mem[] out = new Mem[m];
        Request[] sends = new Request[m];
        Mem in = Mem.array(Primitive.DOUBLE, Math.max(3, Math.max(sizes[0], sizes[1])));
        for (int round = 0; round < 2; round++) {
            for (int k = 0; k < m; k++) {
                out[k] = Mem.array(Primitive.DOUBLE, sizes[k % 3]);
                out[k].fill(0, out[k].length, c.rank(), 8000 + 100 * round + k);
                sends[k] = c.isend(out[k].buffer(), 0, out[k].length, D, right, round == 0 ? 200 + k : 300);
            }
            c.barrier();
            for (int j = 0; j < m; j++) {
                int k = round == 0 ? m - 1 - j : j;
                int t = round == 0 ? 200 + k : 300;
                Status st = c.recv(in.buffer(), 0, in.length, D, left, t);
                String w = "bulk backlog round " + round + " message " + k;
                checkStatus(st, left, t, sizes[k % 3] * 8L, w);
                in.checkRun(0, sizes[k % 3], left, 8000 + 100 * round + k, 0, w);
            }
            Request.waitAll(sends);
            c.barrier();
        }
    }

    // ------------------------------------------------------------------ wildcards

    /** Every rank in turn is the root that receives K messages from every other rank. */
    static void wildcard(Comm c) {
        int np = c.size();
        int[] sizes = wildSizes;
        int cap = wildCapacity;
        int k = sizes.length;
        Mem in = Mem.array(Primitive.DOUBLE, cap);
        for (int root = 0; root < np; root++) {
            for (int mode = 0; mode < 3; mode++) {
                int saltBase = 10_000 * (root + 1) + 1000 * mode;
                if (c.rank() != root) {
                    Request[] sends = new Request[k];
                    Mem[] keep = new Mem[k];
                    for (int j = 0; j < k; j++) {
                        keep[j] = Mem.array(Primitive.DOUBLE, sizes[j]);
                        keep[j].fill(0, sizes[j], c.rank(), saltBase + j);
                        sends[j] = c.isend(keep[j].buffer(), 0, sizes[j], D, root, 50 + j);
                    }
                    Request.waitAll(sends);
                } else if (mode == 0) {
                    // ANY_SOURCE, ANY_TAG: per source, tags arrive in send order
                    int[] next = new int[np];
                    for (int n = 0; n < (np - 1) * k; n++) {
                        Status st = c.recv(in.buffer(), 0, cap, D, Comm.ANY_SOURCE, Comm.ANY_TAG);
                        int src = st.source();
                        check(src >= 0 && src < np && src != root, "wildcard: status source %d (%s)", src, st);
                        int j = next[src]++;
                        check(j < k, "wildcard: more than %d messages from %d", k, src);
                        String w = "wildcard ANY_SOURCE/ANY_TAG from " + src + " message " + j;
                        checkStatus(st, src, 50 + j, sizes[j] * 8L, w);
                        in.checkRun(0, sizes[j], src, saltBase + j, 0, w);
                    }
                    for (int s = 0; s < np; s++) {
                        check(s == root || next[s] == k, "wildcard: %d messages from %d, expected %d", next[s], s, k);
                    }
                } else if (mode == 1) {
                    // specific source, ANY_TAG: sources in descending order
                    for (int s = np - 1; s >= 0; s--) {
                        for (int j = 0; j < k && s != root; j++) {
                            Status st = c.recv(in.buffer(), 0, cap, D, s, Comm.ANY_TAG);
                            String w = "wildcard source " + s + "/ANY_TAG message " + j;
                            checkStatus(st, s, 50 + j, sizes[j] * 8L, w);
                            in.checkRun(0, sizes[j], s, saltBase + j, 0, w);
                        }
                    }
                } else {
                    // ANY_SOURCE, specific tag, last tag first: skips over waiting earlier messages
                    for (int j = k - 1; j >= 0; j--) {
                        boolean[] seen = new boolean[np];
                        for (int n = 0; n < np - 1; n++) {
                            Status st = c.recv(in.buffer(), 0, cap, D, Comm.ANY_SOURCE, 50 + j);
                            int src = st.source();
                            check(src >= 0 && src < np && src != root && !seen[src],
                                "wildcard ANY_SOURCE/tag %d: bad or repeated source %d", 50 + j, src);
                            seen[src] = true;
                            String w = "wildcard ANY_SOURCE/tag " + (50 + j) + " from " + src;
                            checkStatus(st, src, 50 + j, sizes[j] * 8L, w);
                            in.checkRun(0, sizes[j], src, saltBase + j, 0, w);
                        }
                    }
                }
                c.barrier();
            }
        }
    }

    // ------------------------------------------------------------------ posted order

    /** A message matches the first posted receive that accepts it, wildcard or not. */
    static void postedOrder(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        int cap = Math.max(16, proto.eagerLimit / 4 + 1);   // ints: a rendezvous message
        for (int unexpected = 0; unexpected < 2; unexpected++) {
            int salt = 500 + 10 * unexpected;
            Mem[] in = new Mem[3];
            for (int i = 0; i < 3; i++) {
                in[i] = Mem.array(Primitive.INT, cap);
            }
            Mem[] out = new Mem[3];
            int[] sizes = {3, cap, 5};   // X inline, Y rendezvous, Z inline
            int[] tags = {5, 5, 9};
            Request[] sends = new Request[3];
            Request[] recvs = new Request[3];
            Runnable post = () -> {
                recvs[0] = c.irecv(in[0].buffer(), 0, cap, Datatype.INT, Comm.ANY_SOURCE, 5);
                recvs[1] = c.irecv(in[1].buffer(), 0, cap, Datatype.INT, left, 5);
                recvs[2] = c.irecv(in[2].buffer(), 0, cap, Datatype.INT, left, Comm.ANY_TAG);
            };
            if (unexpected == 0) {
                post.run();
                c.barrier();
            }
            for (int i = 0; i < 3; i++) {
                out[i] = Mem.array(Primitive.INT, sizes[i]);
                out[i].fill(0, sizes[i], c.rank(), salt + i);
                sends[i] = c.isend(out[i].buffer(), 0, sizes[i], Datatype.INT, right, tags[i]);
            }
            if (unexpected == 1) {
                c.barrier();
                post.run();
            }
            Request.waitAll(recvs);
            Request.waitAll(sends);
            for (int i = 0; i < 3; i++) {
                String w = "posted-order " + (unexpected == 1 ? "(unexpected)" : "(posted)") + " receive " + i;
                checkStatus(recvs[i].status(), left, tags[i], sizes[i] * 4L, w);
                in[i].checkRun(0, sizes[i], left, salt + i, 0, w);
            }
            c.barrier();

            // receive(left, 9) posted before receive(ANY, ANY); sent: P(tag 5) then Q(tag 9)
            Request q = c.irecv(in[0].buffer(), 0, cap, Datatype.INT, left, 9);
            Request p = c.irecv(in[1].buffer(), 0, cap, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
            c.barrier();
            out[0].fill(0, 3, c.rank(), salt + 5);
            out[2].fill(0, 5, c.rank(), salt + 6);
            sends[0] = c.isend(out[0].buffer(), 0, 3, Datatype.INT, right, 5);
            sends[1] = c.isend(out[2].buffer(), 0, 5, Datatype.INT, right, 9);
            sends[2] = null;
            Request.waitAll(p, q);
            Request.waitAll(sends);
            checkStatus(q.status(), left, 9, 20, "posted-order tag 9 receive");
            in[0].checkRun(0, 5, left, salt + 6, 0, "posted-order tag 9 receive");
            checkStatus(p.status(), left, 5, 12, "posted-order ANY_SOURCE/ANY_TAG receive");
            in[1].checkRun(0, 3, left, salt + 5, 0, "posted-order ANY_SOURCE/ANY_TAG receive");
            c.barrier();
        }
    }

    // ------------------------------------------------------------------ zero length

    static void zeroLength(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        // empty arrays
        Request s = c.isend(new double[0], 0, 0, D, right, 3);
        Status st = c.recv(new double[0], 0, 0, D, left, 3);
        s.waitFor();
        checkStatus(st, left, 3, 0, "zero-length empty arrays");
        check(st.count(D) == 0 && st.count() == 0, "zero-length: count %d", st.count(D));

        // offset == length
        long[] src = new long[10];
        Mem dst = Mem.array(Primitive.LONG, 10);
        dst.fillSentinel(31);
        s = c.isend(src, 10, 0, Datatype.LONG, right, 4);
        st = c.recv(dst.buffer(), 10, 0, Datatype.LONG, left, 4);
        s.waitFor();
        checkStatus(st, left, 4, 0, "zero-length at offset == length");

        // a zero-length message into a receive with room for 10: nothing written, count 0, ANY_TAG filled in
        s = c.isend(src, 3, 0, Datatype.LONG, right, 6);
        st = c.recv(dst.buffer(), 0, 10, Datatype.LONG, Comm.ANY_SOURCE, Comm.ANY_TAG);
        s.waitFor();
        checkStatus(st, left, 6, 0, "zero-length into a larger receive");
        check(st.count(Datatype.LONG) == 0, "zero-length: count %d", st.count(Datatype.LONG));
        dst.checkSentinel(0, 10, 31, "zero-length into a larger receive");

        // non-blocking, both orders, and from/into segment buffers
        Mem seg = Mem.segment(c, Primitive.LONG, 4);
        seg.fillSentinel(32);
        Request r = c.irecv(seg.buffer(), 0, 4, Datatype.LONG, left, 8);
        c.barrier();
        s = c.isend(seg.buffer(), 2, 0, Datatype.LONG, right, 8);
        Request.waitAll(s, r);
        checkStatus(r.status(), left, 8, 0, "zero-length segment");
        seg.checkSentinel(0, 4, 32, "zero-length segment");
    }

    // ------------------------------------------------------------------ self

    static void self(Comm c) {
        int me = c.rank();
        int tag = 0;
        for (int n : new int[] {0, 10, proto.bulkDoubles(), proto.eagerDoubles(), proto.rendezvousDoubles(), 300_000}) {
            for (int kinds = 0; kinds < 4; kinds++) {
                boolean sSeg = (kinds & 1) != 0;
                boolean rSeg = (kinds & 2) != 0;
                if (n <= proto.eagerDoubles() && kinds != 0 && kinds != 3) {
                    continue;
                }
                for (int recvFirst = 0; recvFirst < 2; recvFirst++) {
                    int t = tag++;
                    int salt = 700 + t;
                    Mem out = Mem.of(sSeg, c, Primitive.DOUBLE, n + 2);
                    Mem in = Mem.of(rSeg, c, Primitive.DOUBLE, n + 5);
                    out.fill(0, n + 2, me, salt);
                    in.fillSentinel(salt);
                    Request s;
                    Request r;
                    if (recvFirst == 1) {
                        r = c.irecv(in.buffer(), 2, n, D, me, t);
                        s = c.isend(out.buffer(), 1, n, D, me, t);
                    } else {
                        s = c.isend(out.buffer(), 1, n, D, me, t);
                        r = c.irecv(in.buffer(), 2, n, D, t % 3 == 0 ? Comm.ANY_SOURCE : me, t);
                    }
                    if (t % 2 == 0) {
                        Request.waitAll(s, r);
                    } else {
                        Request.waitAll(r, s);
                    }
                    String w = "self-send " + n + " doubles " + out + " -> " + in + (recvFirst == 1 ? " (recv first)" : "");
                    checkStatus(r.status(), me, t, n * 8L, w);
                    in.checkRun(2, n, me, salt, 1, w);
                    in.checkSentinelOutside(2, 2 + n, salt, w);
                }
            }
        }
        // blocking send to self (if eager it completes without a receive), then receive
        Mem out = Mem.array(Primitive.INT, 100);
        Mem in = Mem.array(Primitive.INT, 100);
        out.fill(0, 100, me, 777);
        if (400 <= proto.eagerLimit) {
            c.send(out.buffer(), 0, 100, Datatype.INT, me, 77);
            checkStatus(c.recv(in.buffer(), 0, 100, Datatype.INT, me, 77), me, 77, 400, "blocking self-send");
        } else {
            // a rendezvous send to itself blocks until received (as MPI allows): use isend
            Request s = c.isend(out.buffer(), 0, 100, Datatype.INT, me, 77);
            checkStatus(c.recv(in.buffer(), 0, 100, Datatype.INT, me, 77), me, 77, 400, "rendezvous self-send");
            s.waitFor();
        }
        in.checkRun(0, 100, me, 777, 0, "blocking self-send");
        // sendrecv with itself, rendezvous size
        Mem big = Mem.array(Primitive.DOUBLE, 100_000);
        Mem got = Mem.array(Primitive.DOUBLE, 100_000);
        big.fill(0, 100_000, me, 778);
        Status st = c.sendrecv(big.buffer(), 0, 100_000, D, me, 78, got.buffer(), 0, 100_000, D, me, 78);
        checkStatus(st, me, 78, 800_000, "sendrecv with itself");
        got.checkRun(0, 100_000, me, 778, 0, "sendrecv with itself");
    }

    // ------------------------------------------------------------------ probe

    static void probe(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        int big = proto.eagerLimit / 4 + 1;   // ints: a rendezvous message
        int[] sizes = {5, big, 0};
        Mem[] out = new Mem[3];
        Request[] sends = new Request[3];
        for (int i = 0; i < 3; i++) {
            out[i] = Mem.array(Primitive.INT, sizes[i]);
            out[i].fill(0, sizes[i], c.rank(), 900 + i);
            sends[i] = c.isend(out[i].buffer(), 0, sizes[i], Datatype.INT, right, 41 + i);
        }
        Status st = c.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
        check(st.source() == left && st.tag() == 41, "probe: found %s, expected source %d tag 41", st, left);
        check(st.count(Datatype.INT) == 5, "probe: count(INT) %d, expected 5", st.count(Datatype.INT));
        check(st.count(Datatype.BYTE) == 20, "probe: count(BYTE) %d, expected 20", st.count(Datatype.BYTE));
        check(st.count(Datatype.LONG) == Comm.UNDEFINED, "probe: count(LONG) of 20 bytes %d, expected UNDEFINED",
            st.count(Datatype.LONG));
        Status again = c.iprobe(left, 41);
        check(again != null && again.tag() == 41 && again.count(Datatype.INT) == 5,
            "iprobe after probe: %s (probe must not receive)", again);
        check(c.iprobe(left, 44) == null, "iprobe of a tag never sent found a message");
        // a rendezvous message behind the first: probe by tag skips the first
        st = c.probe(left, 42);
        check(st.source() == left && st.count(Datatype.INT) == big, "probe tag 42: %s", st);
        Mem in = Mem.array(Primitive.INT, st.count(Datatype.INT));
        checkStatus(c.recv(in.buffer(), 0, in.length, Datatype.INT, left, 42), left, 42, big * 4L, "recv after probe");
        in.checkRun(0, big, left, 901, 0, "recv after probe");
        st = c.probe(Comm.ANY_SOURCE, 41);
        in = Mem.array(Primitive.INT, st.count(Datatype.INT));
        checkStatus(c.recv(in.buffer(), 0, in.length, Datatype.INT, st.source(), st.tag()), left, 41, 20, "recv 41");
        in.checkRun(0, 5, left, 900, 0, "recv 41");
        st = c.probe(Comm.ANY_SOURCE, 43);
        check(st.source() == left && st.count(Datatype.INT) == 0 && st.bytes() == 0, "probe empty message: %s", st);
        checkStatus(c.recv(new int[0], 0, 0, Datatype.INT, left, 43), left, 43, 0, "recv 43");
        Request.waitAll(sends);
        check(c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) == null, "iprobe: a message left after all were received");
        c.barrier();

        // iprobe polling for a message sent later
        Mem late = Mem.array(Primitive.INT, 6000);
        late.fill(0, 6000, c.rank(), 950);
        c.barrier();
        Request s = c.isend(late.buffer(), 0, 6000, Datatype.INT, right, 45);
        long until = deadline(30);
        Status found;
        while ((found = c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG)) == null) {
            checkBefore(until, "iprobe polling for a message");
        }
        check(found.source() == left && found.tag() == 45 && found.count(Datatype.INT) == 6000, "iprobe: %s", found);
        Mem got = Mem.array(Primitive.INT, 6000);
        c.recv(got.buffer(), 0, 6000, Datatype.INT, found.source(), found.tag());
        got.checkRun(0, 6000, left, 950, 0, "recv after iprobe");
        s.waitFor();
    }
}
