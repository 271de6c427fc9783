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
import org.hympj.shm.testing.Pattern;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program: persistent requests (sendInit/recvInit) around a ring, many iterations with
 * new data each time, over every buffer path (eager, streamed, put into the receiver's
 * segment, pull from the sender's), started with start and Request.startAll and completed
 * with every completion call; start while active and start after free fail with
 * IllegalStateException and change nothing.
 */
public final class PersistentRank {
    static final String[] SCENARIOS = {"persistent-ring", "persistent-any-source", "persistent-errors",
        "persistent-free-active"};
    /** Run on its own: it fails while Request.startAll starts requests before failing on a freed one. */
    static final String STARTALL_FREED = "persistent-startall-freed";
    static final int ITERATIONS = 12;
    static final int AT = 2;
    static final int PAD = 3;
    static final Datatype D = Datatype.DOUBLE;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            proto = Protocol.of(mpj);
            print(proto.toString());
            if (selected(args, "persistent-ring")) {
                ring(c);
                done(c, "persistent-ring");
            }
            if (selected(args, "persistent-any-source")) {
                anySource(c);
                done(c, "persistent-any-source");
            }
            if (selected(args, "persistent-errors")) {
                errors(c);
                done(c, "persistent-errors");
            }
            if (selected(args, "persistent-free-active")) {
                freeActive(c);
                done(c, "persistent-free-active");
            }
            if (selected(args, STARTALL_FREED)) {
                startAllFreed(c);
                done(c, STARTALL_FREED);
            }
        }
        pass(MultiRank.FINALIZED);
    }

    private static Protocol proto;

    private static void done(Comm c, String scenario) {
        Status stray = c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG);
        check(stray == null, "%s: a message is left over at the end: %s", scenario, stray);
        c.barrier();
        pass(scenario);
    }

    static void ring(Comm c) {
        Layout d = Layout.of(Primitive.DOUBLE);
        int cfg = 0;
        for (int n : new int[] {100, proto.bulkDoubles(), proto.eagerDoubles()}) {
            run(c, cfg++, Mem.array(Primitive.DOUBLE, AT + n + PAD), d.contiguous(n), Mem.array(Primitive.DOUBLE, AT + n + PAD),
                d.contiguous(n));
        }
        int n = Math.max(40_000, proto.rendezvousDoubles());
        for (int kinds = 0; kinds < 4; kinds++) {
            run(c, cfg++, Mem.of((kinds & 1) != 0, c, Primitive.DOUBLE, AT + n + PAD), d.contiguous(n),
                Mem.of((kinds & 2) != 0, c, Primitive.DOUBLE, AT + n + PAD), d.contiguous(n));
        }
        for (int blocks : new int[] {2000, proto.eagerDoubles() / 2 + 1}) {   // eager, rendezvous
            Layout v = d.vector(blocks, 2, 3);
            int m = 2 * blocks;
            run(c, cfg++, Mem.array(Primitive.DOUBLE, AT + (int) v.span(1) + PAD), v, Mem.array(Primitive.DOUBLE, AT + m + PAD),
                d.contiguous(m));
            run(c, cfg++, Mem.array(Primitive.DOUBLE, AT + m + PAD), d.contiguous(m),
                Mem.segment(c, Primitive.DOUBLE, AT + (int) v.span(1) + PAD), v);
        }
    }

    /** ITERATIONS exchanges of one item of sl (to the right) / rl (from the left) through one pair of persistent requests. */
    private static void run(Comm c, int cfg, Mem snd, Layout sl, Mem rcv, Layout rl) {
        int right = right(c, 1);
        int left = left(c, 1);
        int tag = 20 + cfg;
        PersistentRequest s = c.sendInit(snd.buffer(), AT, 1, sl.type, right, tag);
        PersistentRequest r = c.recvInit(rcv.buffer(), AT, 1, rl.type, left, tag);
        int[] sMsg = sl.message(1);
        int[] rMsg = rl.message(1);
        boolean[] named = new boolean[rcv.length];
        for (int k : rMsg) {
            named[AT + k] = true;
        }
        // large messages: fewer iterations (each fills and checks every element several times), still one
        // of each way of starting and completing
        int iterations = rcv.length > 10_000 ? 4 : ITERATIONS;
        for (int it = 0; it < iterations; it++) {
            int salt = cfg * 1000 + it;
            String w = "persistent " + sl + " from " + snd + " -> " + rl + " into " + rcv + ", iteration " + it;
            snd.fill(0, snd.length, c.rank(), salt);
            rcv.fillSentinel(salt);
            switch (it % 4) {
                case 0:
                    Request.startAll(r, s);
                    Request.waitAll(r, s);
                    break;
                case 1:
                    s.start();
                    r.start();
                    r.waitFor();
                    s.waitFor();
                    break;
                case 2: {
                    Request.startAll(s, r);
                    long until = deadline(30);
                    while (!Request.testAll(s, r)) {
                        checkBefore(until, w + ": testAll loop");
                    }
                    break;
                }
                default: {
                    Request.startAll(r, s);
                    int a = Request.waitAny(s, r);
                    int b = Request.waitAny(s, r);
                    check(a != b && a >= 0 && b >= 0 && Request.waitAny(s, r) == Request.UNDEFINED,
                        "%s: waitAny returned %d, %d", w, a, b);
                    break;
                }
            }
            check(!s.isActive() && !r.isActive(), "%s: still active after completion", w);
            checkStatus(r.status(), left, tag, (long) rMsg.length * 8, w);
            check(r.test(), "%s: test() of a completed persistent request", w);
            for (int k = 0; k < rMsg.length; k++) {
                rcv.checkRun(AT + rMsg[k], 1, left, salt, AT + sMsg[k], w);
            }
            for (int i = 0; i < rcv.length; i++) {
                if (!named[i]) {
                    check(rcv.get(i) == Pattern.canon(Primitive.DOUBLE, Pattern.sentinel(salt, i)),
                        "%s: element %d outside the receive layout was written", w, i);
                }
            }
        }
        s.free();
        r.free();
    }

    /** A persistent ANY_SOURCE/ANY_TAG receive: each completion overwrites its status. */
    static void anySource(Comm c) {
        int left = left(c, 1);
        int[] in = new int[3];
        PersistentRequest r = c.recvInit(in, 0, 3, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
        for (int it = 0; it < ITERATIONS; it++) {
            r.start();
            Request s = c.isend(new int[] {it, c.rank(), -it}, 0, 3, Datatype.INT, right(c, 1), 300 + it);
            Request.waitAll(r, s);
            checkStatus(r.status(), left, 300 + it, 12, "persistent ANY_SOURCE iteration " + it);
            check(in[0] == it && in[1] == left && in[2] == -it, "persistent ANY_SOURCE iteration %d: got %d,%d,%d", it,
                in[0], in[1], in[2]);
        }
        r.free();
    }

    static void errors(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        int[] in = new int[10];
        int[] out = new int[10];
        for (int i = 0; i < 10; i++) {
            out[i] = c.rank() * 1000 + i;
        }
        PersistentRequest r = c.recvInit(in, 0, 10, Datatype.INT, left, 90);
        PersistentRequest s = c.sendInit(out, 0, 10, Datatype.INT, right, 90);
        PersistentRequest other = c.sendInit(out, 0, 10, Datatype.INT, right, 91);
        r.start();
        // nothing is sent to this rank before the barrier below: r stays active
        expectThrows(IllegalStateException.class, r::start, "start of an active receive", "active");
        check(r.isActive(), "the failed start changed the request");
        expectThrows(IllegalStateException.class, () -> Request.startAll(other, r), "startAll with an active request",
            "active");
        check(!other.isActive(), "startAll started a request before it failed on an active one");
        c.barrier();
        s.start();
        Request.waitAll(r, s);
        checkStatus(r.status(), left, 90, 40, "receive after failed starts");
        for (int i = 0; i < 10; i++) {
            check(in[i] == left * 1000 + i, "receive after failed starts: element %d is %d", i, in[i]);
        }
        // a second message with the same tag must reach a plain receive: no phantom receive was posted
        int[] second = new int[10];
        Request s2 = c.isend(new int[] {7, 7, 7}, 0, 3, Datatype.INT, right, 90);
        Request r2 = c.irecv(second, 0, 10, Datatype.INT, left, 90);
        long until = deadline(10);
        while (!r2.test()) {
            checkBefore(until, "a receive after failed starts was not matched (did a failed start post a receive?)");
        }
        s2.waitFor();
        check(second[0] == 7 && r2.status().count(Datatype.INT) == 3, "second message: %s", r2.status());
        c.barrier();

        // the send side: a rendezvous send stays active until the receiver matches it
        int[] big = new int[50_000];
        PersistentRequest sb = c.sendInit(big, 0, 50_000, Datatype.INT, right, 92);
        sb.start();
        expectThrows(IllegalStateException.class, sb::start, "start of an active send", "active");
        c.barrier();
        int[] bigIn = new int[50_000];
        c.recv(bigIn, 0, 50_000, Datatype.INT, left, 92);
        sb.waitFor();
        c.barrier();
        check(c.iprobe(left, 92) == null, "a failed start of a send sent a second message");

        // start after free
        r.free();
        s.free();
        sb.free();
        expectThrows(IllegalStateException.class, r::start, "start of a freed receive", "freed");
        expectThrows(IllegalStateException.class, s::start, "start of a freed send", "freed");
        other.free();

        // and the library still works
        PersistentRequest r3 = c.recvInit(in, 0, 10, Datatype.INT, left, 93);
        PersistentRequest s3 = c.sendInit(out, 0, 10, Datatype.INT, right, 93);
        Request.startAll(r3, s3);
        Request.waitAll(r3, s3);
        checkStatus(r3.status(), left, 93, 40, "persistent exchange after the errors");
        r3.free();
        s3.free();
    }

    /** startAll with a freed request in the list fails and starts none of them. */
    static void startAllFreed(Comm c) {
        int[] out = {c.rank()};
        PersistentRequest other = c.sendInit(out, 0, 1, Datatype.INT, right(c, 1), 96);
        PersistentRequest s = c.sendInit(out, 0, 1, Datatype.INT, right(c, 1), 97);
        s.free();
        expectThrows(IllegalStateException.class, () -> Request.startAll(other, s), "startAll with a freed request",
            "freed");
        check(!other.isActive(), "startAll started a request before failing on a freed one");
        c.barrier();
        // and nothing was sent: done() finds no message left over
        other.free();
    }

    /** free of an active request first completes it. */
    static void freeActive(Comm c) {
        int left = left(c, 1);
        int[] in = new int[4];
        Request s = c.isend(new int[] {1, 2, 3, c.rank()}, 0, 4, Datatype.INT, right(c, 1), 95);
        c.barrier();
        PersistentRequest r = c.recvInit(in, 0, 4, Datatype.INT, left, 95);
        r.start();
        r.free();   // MPI: a freed active receive is detached, not cancelled; its data still arrives
        check(!r.isActive(), "freed request is active");
        long deadline = deadline(30);
        while (!(in[0] == 1 && in[1] == 2 && in[2] == 3 && in[3] == left)) {
            c.iprobe(Comm.ANY_SOURCE, 96);   // progress, as any later call makes
            checkBefore(deadline, "the data of a freed active receive never arrived");
        }
        s.waitFor();
    }
}
