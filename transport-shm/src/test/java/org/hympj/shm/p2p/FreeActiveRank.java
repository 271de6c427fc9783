package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkBefore;
import static org.hympj.shm.testing.Ranks.deadline;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program (2 ranks): free() of an active request returns at once and the transfer still
 * happens (MPI_Request_free). Rank 0 frees an isend of a million ints and then receives from
 * rank 1, which sends first and only then receives the million: with a free that waited for
 * the match, both would wait for ever. Heap and segment buffers on either side (stream, put,
 * pull). A freed irecv's data still lands. A freed request refuses waitFor, test and status.
 * The last freed send is still delivered when its rank finalizes right after.
 */
public final class FreeActiveRank {
    static final String[] SCENARIOS = {"freed-isend-delivered", "freed-irecv-lands", "freed-refuses-wait-test-status",
        "freed-isend-delivered-at-finalize"};
    static final int N = 1_000_000;
    static final Datatype INT = Datatype.INT;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            check(c.size() == 2, "needs 2 ranks, has %d", c.size());
            for (int mode = 0; mode < 4; mode++) {
                freedIsend(c, (mode & 1) != 0, (mode & 2) != 0, 10 + 10 * mode);
            }
            pass("freed-isend-delivered");
            freedIrecv(c, false, N, 100);
            freedIrecv(c, true, N, 110);
            freedIrecv(c, false, 100, 120); // eager
            pass("freed-irecv-lands");
            refusals(c);
            pass("freed-refuses-wait-test-status");
            atFinalize(c);
        }
        pass("freed-isend-delivered-at-finalize");
        pass(MultiRank.FINALIZED);
    }

    static int value(int i, int tag) {
        return i * 7 + tag;
    }

    static Object ints(Comm c, boolean segment) {
        return segment ? c.alloc(Primitive.INT, N) : new int[N];
    }

    static void fill(Object buf, int n, int tag) {
        for (int i = 0; i < n; i++) {
            if (buf instanceof int[]) {
                ((int[]) buf)[i] = value(i, tag);
            } else {
                ((SegmentBuffer) buf).putInt(i, value(i, tag));
            }
        }
    }

    static int get(Object buf, int i) {
        return buf instanceof int[] ? ((int[]) buf)[i] : ((SegmentBuffer) buf).getInt(i);
    }

    static void verify(Object buf, int n, int tag, String what) {
        for (int i = 0; i < n; i++) {
            int v = get(buf, i);
            check(v == value(i, tag), "%s: element %d is %d, expected %d", what, i, v, value(i, tag));
        }
    }

    /** Rank 0 frees an isend of N ints and receives from rank 1, which sends before it receives the N ints. */
    static void freedIsend(Comm c, boolean sendSeg, boolean recvSeg, int tag) {
        String what = "freed isend " + (sendSeg ? "segment" : "heap") + " -> " + (recvSeg ? "segment" : "heap");
        int[] one = new int[1];
        if (c.rank() == 0) {
            Object out = ints(c, sendSeg);
            fill(out, N, tag);
            Request s = c.isend(out, 0, N, INT, 1, tag);
            s.free();
            check(!s.isActive(), "%s: a freed request is active", what);
            c.recv(one, 0, 1, INT, 1, tag + 1);     // rank 1 receives our message only after this
            check(one[0] == tag, "%s: got %d from rank 1", what, one[0]);
            c.recv(one, 0, 1, INT, 1, tag + 2);     // rank 1 verified it: our buffer is free again
        } else {
            c.send(new int[] {tag}, 0, 1, INT, 0, tag + 1);
            Object in = ints(c, recvSeg);
            c.recv(in, 0, N, INT, 0, tag);
            verify(in, N, tag, what);
            c.send(new int[] {tag}, 0, 1, INT, 0, tag + 2);
        }
    }

    /** Rank 1 frees an irecv before the message is sent; the data still land in its buffer. */
    static void freedIrecv(Comm c, boolean recvSeg, int n, int tag) {
        String what = "freed irecv of " + n + " ints into " + (recvSeg ? "segment" : "heap");
        int[] one = new int[1];
        if (c.rank() == 1) {
            Object in = ints(c, recvSeg);
            Request r = c.irecv(in, 0, n, INT, 0, tag);
            r.free();
            check(!r.isActive(), "%s: a freed request is active", what);
            c.send(new int[] {tag}, 0, 1, INT, 0, tag + 1);  // now rank 0 sends
            c.recv(one, 0, 1, INT, 0, tag + 2);              // sent after the data
            long until = deadline(30);
            while (get(in, n - 1) != value(n - 1, tag)) {     // the engine finishes it during progress
                c.iprobe(0, 9999);
                checkBefore(until, what);
            }
            verify(in, n, tag, what);
        } else {
            Object out = ints(c, false);
            fill(out, n, tag);
            c.recv(one, 0, 1, INT, 1, tag + 1);
            c.send(out, 0, n, INT, 1, tag);
            c.send(new int[] {tag}, 0, 1, INT, 1, tag + 2);
        }
    }

    /** waitFor, test and status refuse a freed request, active or not when freed; a second free does nothing. */
    static void refusals(Comm c) {
        int[] small = {1, 2, 3};
        int[] in = new int[3];
        int[] freedIn = new int[3];
        int peer = 1 - c.rank();
        Request active = c.isend(small, 0, 3, INT, peer, 200);
        active.free();
        refused(active, "a freed active isend");
        active.free();
        Request done = c.isend(small, 0, 3, INT, peer, 201);
        done.waitFor();
        done.free();
        refused(done, "a freed completed isend");
        Request recv = c.irecv(freedIn, 0, 3, INT, peer, 202);
        recv.free();
        refused(recv, "a freed irecv");
        PersistentRequest p = c.sendInit(small, 0, 3, INT, peer, 203);
        p.free();
        refused(p, "a freed sendInit");
        c.recv(in, 0, 3, INT, peer, 200);
        c.recv(in, 0, 3, INT, peer, 201);
        c.send(small, 0, 3, INT, peer, 202);                // matched by the peer's freed irecv
        // later calls make progress and land it (the barrier may go through shared memory, not
        // the rings, so it need not read the message: poll, bounded)
        long deadline = deadline(30);
        while (!(freedIn[0] == 1 && freedIn[1] == 2 && freedIn[2] == 3)) {
            c.iprobe(Comm.ANY_SOURCE, 299);
            checkBefore(deadline, "refusals: the freed irecv's data did not land: " + freedIn[0] + " " + freedIn[1]
                + " " + freedIn[2]);
        }
        c.barrier();
    }

    static void refused(Request r, String what) {
        expectThrows(IllegalStateException.class, r::waitFor, "waitFor on " + what, "waitFor", "freed");
        expectThrows(IllegalStateException.class, r::test, "test on " + what, "test", "freed");
        expectThrows(IllegalStateException.class, r::status, "status on " + what, "status", "freed");
    }

    /** Rank 0 frees an isend of N ints and finalizes at once; rank 1 receives it late. */
    static void atFinalize(Comm c) {
        if (c.rank() == 0) {
            Object out = ints(c, false);
            fill(out, N, 300);
            c.isend(out, 0, N, INT, 1, 300).free();
        } else {
            try {
                Thread.sleep(300);   // rank 0 is in finalize by now: its flush must deliver the message
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Object in = ints(c, false);
            c.recv(in, 0, N, INT, 0, 300);
            verify(in, N, 300, "freed isend at finalize");
        }
    }
}
