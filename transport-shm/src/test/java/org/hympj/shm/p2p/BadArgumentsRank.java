package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkBefore;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.deadline;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Status;

/**
 * Rank program (2 ranks): every bad argument of every call fails at the call with
 * IllegalArgumentException (IllegalStateException for a start while active) whose message
 * names the call and the argument; afterwards normal messages still match as if the failed
 * calls never happened (nothing was sent, nothing posted).
 *
 * <p>The failed sends target the peer with tag {@link #TAG} and the failed receives listen
 * to the peer on {@link #TAG}, so a send that slipped out would be received by the check
 * exchange at the end instead of the right message, and a receive that was posted would
 * swallow it.
 */
public final class BadArgumentsRank {
    static final String[] SCENARIOS = {"bad-send-arguments", "bad-receive-arguments", "bad-other-arguments",
        "start-while-active", "nothing-sent-or-posted"};
    static final int TAG = 1;
    static final Datatype D = Datatype.DOUBLE;

    /** A call with one bad argument. */
    interface Call {
        void run(Object buf, int offset, int count, Datatype type, int peer, int tag);
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            check(c.size() == 2, "run with 2 ranks");
            int peer = 1 - c.rank();
            PersistentRequest active = c.recvInit(new int[1], 0, 1, Datatype.INT, peer, 2);
            active.start();   // the peer sends tag 2 only at the end
            badSends(c, peer);
            pass("bad-send-arguments");
            badReceives(c, peer);
            pass("bad-receive-arguments");
            badOther(c, peer);
            pass("bad-other-arguments");
            expectThrows(IllegalStateException.class, active::start, "start while active", "start", "active");
            check(active.isActive(), "the failed start changed the request");
            pass("start-while-active");
            checkNothingSentOrPosted(c, peer, active);
            pass("nothing-sent-or-posted");
            print("REFUSED " + refused);
        }
        pass(org.hympj.shm.testing.MultiRank.FINALIZED);
    }

    private static int refused;

    private static void expectBad(String what, Runnable call, String... words) {
        refused++;
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, call, what, words);
        print("OK " + what + ": " + e.getMessage());
    }

    /** The buffer checks every call with a buffer makes. */
    private static void badBuffers(Comm c, String op, Call call, int peer) {
        double[] ten = new double[10];
        expectBad(op + " negative count", () -> call.run(ten, 0, -1, D, peer, TAG), op, "count", "-1");
        expectBad(op + " negative offset", () -> call.run(ten, -2, 1, D, peer, TAG), op, "offset", "-2");
        expectBad(op + " offset+count past the end", () -> call.run(ten, 5, 6, D, peer, TAG), op, "offset 5", "length 10");
        expectBad(op + " count past the end", () -> call.run(ten, 0, 11, D, peer, TAG), op, "length 10");
        expectBad(op + " huge offset", () -> call.run(ten, Integer.MAX_VALUE, 1, D, peer, TAG), op, "offset",
            "length 10");
        expectBad(op + " vector span past the end", () -> call.run(ten, 2, 1, D.vector(3, 1, 4), peer, TAG), op,
            "length 10");
        expectBad(op + " null buffer", () -> call.run(null, 0, 1, D, peer, TAG), op, "buf");
        expectBad(op + " null datatype", () -> call.run(ten, 0, 1, null, peer, TAG), op, "type");
        expectBad(op + " int[] with DOUBLE", () -> call.run(new int[10], 0, 1, D, peer, TAG), op, "buf", "int[]",
            "double[]");
        expectBad(op + " double[] with BYTE", () -> call.run(ten, 0, 1, Datatype.BYTE, peer, TAG), op, "buf",
            "double[]", "byte[]");
        expectBad(op + " Object with INT", () -> call.run("text", 0, 1, Datatype.INT, peer, TAG), op, "buf");
        SegmentBuffer ints = c.alloc(Primitive.INT, 10);
        expectBad(op + " INT segment buffer with DOUBLE", () -> call.run(ints, 0, 1, D, peer, TAG), op,
            "segment buffer", "INT");
        SegmentBuffer doubles = c.allocDoubles(10);
        expectBad(op + " segment buffer past the end", () -> call.run(doubles, 8, 3, D, peer, TAG), op, "length 10");
        SegmentBuffer foreign = new SegmentBuffer(ByteBuffer.allocateDirect(80).order(ByteOrder.nativeOrder()),
            Primitive.DOUBLE, 10, 0, new Object());
        expectBad(op + " segment buffer not of this rank", () -> call.run(foreign, 0, 1, D, peer, TAG), op,
            "segment buffer");
    }

    static void badSends(Comm c, int peer) {
        Call[] calls = {
            c::send,
            (b, o, n, t, p, tag) -> c.isend(b, o, n, t, p, tag),
            (b, o, n, t, p, tag) -> c.sendInit(b, o, n, t, p, tag),
            (b, o, n, t, p, tag) -> c.sendrecv(b, o, n, t, p, tag, new double[10], 0, 10, D, peer, TAG),
        };
        String[] ops = {"send", "isend", "sendInit", "sendrecv"};
        double[] ten = new double[10];
        for (int i = 0; i < calls.length; i++) {
            Call call = calls[i];
            String op = ops[i];
            badBuffers(c, op, call, peer);
            expectBad(op + " dest = size", () -> call.run(ten, 0, 1, D, 2, TAG), op, "dest", "2");
            expectBad(op + " dest = -3", () -> call.run(ten, 0, 1, D, -3, TAG), op, "dest", "-3");
            expectBad(op + " dest = ANY_SOURCE", () -> call.run(ten, 0, 1, D, Comm.ANY_SOURCE, TAG), op, "dest");
            expectBad(op + " dest = MIN_VALUE", () -> call.run(ten, 0, 1, D, Integer.MIN_VALUE, TAG), op, "dest");
            expectBad(op + " negative tag", () -> call.run(ten, 0, 1, D, peer, -5), op, "tag", "-5");
            expectBad(op + " ANY_TAG on a send", () -> call.run(ten, 0, 1, D, peer, Comm.ANY_TAG), op, "tag");
        }
    }

    static void badReceives(Comm c, int peer) {
        Call[] calls = {
            (b, o, n, t, p, tag) -> c.recv(b, o, n, t, p, tag),
            (b, o, n, t, p, tag) -> c.recv(b, o, n, t, p, tag, new Status()),
            (b, o, n, t, p, tag) -> c.irecv(b, o, n, t, p, tag),
            (b, o, n, t, p, tag) -> c.recvInit(b, o, n, t, p, tag),
            (b, o, n, t, p, tag) -> c.sendrecv(new double[1], 0, 1, D, peer, TAG, b, o, n, t, p, tag),
        };
        String[] ops = {"recv", "recv", "irecv", "recvInit", "sendrecv"};
        double[] ten = new double[10];
        for (int i = 0; i < calls.length; i++) {
            Call call = calls[i];
            String op = ops[i];
            badBuffers(c, op, call, peer);
            expectBad(op + " source = size", () -> call.run(ten, 0, 1, D, 2, TAG), op, "source", "2");
            expectBad(op + " source = -3", () -> call.run(ten, 0, 1, D, -3, TAG), op, "source", "-3");
            expectBad(op + " negative tag", () -> call.run(ten, 0, 1, D, peer, -5), op, "tag", "-5");
            expectBad(op + " tag = MIN_VALUE", () -> call.run(ten, 0, 1, D, peer, Integer.MIN_VALUE), op, "tag");
        }
    }

    static void badOther(Comm c, int peer) {
        expectBad("probe source", () -> c.probe(5, TAG), "probe", "source", "5");
        expectBad("probe tag", () -> c.probe(peer, -7), "probe", "tag", "-7");
        expectBad("iprobe source", () -> c.iprobe(-4, TAG), "iprobe", "source", "-4");
        expectBad("iprobe tag", () -> c.iprobe(Comm.ANY_SOURCE, -2), "iprobe", "tag", "-2");
        expectBad("alloc negative n", () -> c.alloc(Primitive.INT, -1), "alloc", "n", "-1");
        expectBad("alloc null type", () -> c.alloc(null, 4), "alloc", "type");
        expectBad("allocDoubles negative n", () -> c.allocDoubles(-8), "alloc", "-8");
        expectBad("barrier(null)", () -> c.barrier(null), "barrier", "algorithm");
        expectBad("waitAll(null)", () -> Request.waitAll((Request[]) null), "requests");
        expectBad("testAny(null)", () -> Request.testAny((Request[]) null), "requests");
        // more than the segment holds: a clear error, and the segment still serves smaller requests
        org.hympj.api.MpjException full = expectThrows(org.hympj.api.MpjException.class,
            () -> c.allocDoubles(Integer.MAX_VALUE), "allocDoubles beyond the segment", "segment");
        refused++;
        print("OK segment exhausted: " + full.getMessage());
        check(c.allocDoubles(16).length() == 16, "alloc after a refused alloc");
        expectBad("vector count", () -> D.vector(-1, 1, 1), "count", "-1");
        expectBad("vector blockLength", () -> D.vector(1, -1, 1), "blockLength", "-1");
        expectBad("vector stride", () -> D.vector(2, 1, 0), "stride", "0");
        expectBad("contiguous count", () -> D.contiguous(-3), "count", "-3");
    }

    /** The peer's good message reaches a plain receive, is the first and only one: the failed calls did nothing. */
    static void checkNothingSentOrPosted(Comm c, int peer, PersistentRequest active) {
        c.barrier();
        int me = c.rank();
        Request s = c.isend(new double[] {me, 11, 12}, 0, 3, D, peer, TAG);
        double[] got = new double[10];
        Request r = c.irecv(got, 0, 10, D, Comm.ANY_SOURCE, Comm.ANY_TAG);
        long until = deadline(10);
        while (!r.test()) {
            checkBefore(until, "the check message was not received: a failed receive call posted a receive");
        }
        s.waitFor();
        checkStatus(r.status(), peer, TAG, 24, "first message after the failed calls");
        check(got[0] == peer && got[1] == 11 && got[2] == 12, "first message after the failed calls has wrong data");
        // the receive started before the failed start completes normally
        c.send(new int[] {me + 40}, 0, 1, Datatype.INT, peer, 2);
        active.waitFor();
        checkStatus(active.status(), peer, 2, 4, "the active persistent receive");
        c.barrier();
        check(c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) == null, "a failed call sent a message");
        c.barrier();
    }
}
