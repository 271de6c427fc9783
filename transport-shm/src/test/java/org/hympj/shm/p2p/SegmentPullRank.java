package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkIncompleteFor;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.selected;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program, pairs (0,1), (2,3) …: segment data the receiver pulls (above
 * {@link JobConfig#PULL_ABOVE}) keeps the completion rules of the mode it was sent in.
 * <ul>
 * <li>{@code buffered}: a standard send up to the eager limit completes before its receive is
 *     posted, as an eager one would (the peer only progresses in an unrelated receive); both ranks
 *     of a pair send head to head with blocking sends and then receive;</li>
 * <li>{@code synchronous}: an issend of the same sizes is still incomplete 100 ms after it was
 *     started while the receiver has not posted (it waits for a go the sender gives only then),
 *     and completes after;</li>
 * <li>{@code budget}: a receiver buffers at most its bulk region's size of such messages from one
 *     source; the sends beyond stay incomplete until their receives are posted, and every message
 *     then arrives intact and in order;</li>
 * <li>{@code rendezvous}: above the eager limit a pulled send still waits for its receive, which
 *     then gets every element.</li>
 * </ul>
 * Every receive checks every element, its status, and the sentinels around it.
 */
public final class SegmentPullRank {
    static final String[] SCENARIOS = {"buffered", "budget", "synchronous", "rendezvous"};
    private static final int GO = 99;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            Protocol proto = Protocol.of(mpj);
            int peer = c.rank() ^ 1;
            boolean paired = peer < c.size();
            int[] eagerSizes = {JobConfig.PULL_ABOVE + 8, 4096, proto.inlineLimit, proto.eagerLimit};
            if (selected(args, "buffered")) {
                if (paired) {
                    for (int bytes : eagerSizes) {
                        headToHead(c, peer, bytes / 8);
                        unmatchedSendCompletes(c, peer, bytes / 8);
                    }
                }
                c.barrier();
                pass("buffered");
            }
            if (selected(args, "budget")) {
                if (paired) {
                    budget(c, peer, ((org.hympj.shm.ShmMpj) mpj).config().bulkBytes, proto.eagerLimit);
                }
                c.barrier();
                pass("budget");
            }
            if (selected(args, "synchronous")) {
                if (paired) {
                    for (int bytes : eagerSizes) {
                        issendWaitsForTheReceive(c, peer, bytes / 8);
                    }
                }
                c.barrier();
                pass("synchronous");
            }
            if (selected(args, "rendezvous")) {
                if (paired) {
                    rendezvousWaits(c, peer, proto.rendezvousDoubles());
                }
                c.barrier();
                pass("rendezvous");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    /** Both send first (blocking), then receive: completes only if each send is buffered. */
    private static void headToHead(Comm c, int peer, int n) {
        Mem out = Mem.segment(c, Primitive.DOUBLE, n);
        out.fill(0, n, c.rank(), n);
        Mem in = Mem.segment(c, Primitive.DOUBLE, n + 4);
        in.fillSentinel(n);
        c.send(out.buffer(), 0, n, Datatype.DOUBLE, peer, 1);
        Status st = c.recv(in.buffer(), 0, n + 4, Datatype.DOUBLE, peer, 1);
        in.checkRun(0, n, peer, n, 0, "head-to-head " + n + " doubles");
        in.checkSentinel(n, n + 4, n, "head-to-head " + n + " doubles");
        checkStatus(st, peer, 1, 8L * n, "head-to-head");
    }

    /**
     * The even rank's isend completes while the odd rank waits in a receive only the even rank's
     * next message matches; then the odd rank receives the data into a heap array.
     */
    private static void unmatchedSendCompletes(Comm c, int peer, int n) {
        if (c.rank() % 2 == 0) {
            Mem out = Mem.segment(c, Primitive.DOUBLE, n);
            out.fill(0, n, c.rank(), n + 1);
            Request r = c.isend(out.buffer(), 0, n, Datatype.DOUBLE, peer, 2);
            r.waitFor();
            out.fill(0, n, c.rank(), -1);  // the receiver must see the data as it was sent
            c.send(new int[1], 0, 1, Datatype.INT, peer, GO);
        } else {
            c.recv(new int[1], 0, 1, Datatype.INT, peer, GO, null);
            Mem in = Mem.array(Primitive.DOUBLE, n);
            Status st = c.recv(in.buffer(), 0, n, Datatype.DOUBLE, peer, 2);
            in.checkRun(0, n, peer, n + 1, 0, "buffered unmatched " + n + " doubles");
            checkStatus(st, peer, 2, 8L * n, "buffered unmatched");
        }
    }

    private static void budget(Comm c, int peer, int budgetBytes, int eagerLimit) {
        int n = Math.min(64 << 10, eagerLimit) / 8;     // doubles per message
        int fit = budgetBytes / (8 * n);               // messages the receiver may buffer
        int count = fit + 8;
        if (c.rank() % 2 == 0) {
            Mem out = Mem.segment(c, Primitive.DOUBLE, n * count);
            out.fill(0, n * count, c.rank(), 11);
            Request[] r = new Request[count];
            for (int k = 0; k < count; k++) {
                r[k] = c.isend(out.buffer(), k * n, n, Datatype.DOUBLE, peer, 10 + k);
            }
            for (int k = 0; k < fit; k++) {
                r[k].waitFor(); // buffered by the receiver, which only waits for GO
            }
            long until = System.nanoTime() + 50_000_000L;
            while (System.nanoTime() < until) {
                for (int k = fit; k < count; k++) {
                    check(!r[k].test(), "send %d of %d (%d doubles) completed beyond the receiver's %d-byte budget",
                        k, count, n, budgetBytes);
                }
                Thread.yield();
            }
            c.send(new int[1], 0, 1, Datatype.INT, peer, GO);
            Request.waitAll(r);
        } else {
            c.recv(new int[1], 0, 1, Datatype.INT, peer, GO, null);
            Mem in = Mem.array(Primitive.DOUBLE, n);
            for (int k = 0; k < count; k++) {
                Status st = c.recv(in.buffer(), 0, n, Datatype.DOUBLE, peer, 10 + k);
                in.checkRun(0, n, peer, 11, k * n, "budget message " + k);
                checkStatus(st, peer, 10 + k, 8L * n, "budget message " + k);
            }
        }
    }

    private static void issendWaitsForTheReceive(Comm c, int peer, int n) {
        waitsForItsReceive(c, peer, n, true, 3);
    }

    private static void rendezvousWaits(Comm c, int peer, int n) {
        waitsForItsReceive(c, peer, n, false, 4);
    }

    /**
     * The even rank's send of {@code n} segment doubles (an issend, or an isend) is still
     * incomplete 100 ms after it started while the odd rank has not posted its receive (it waits
     * for a GO given only then); then it completes and the odd rank (a segment buffer for the
     * issend, a heap array for the isend) gets every element.
     */
    private static void waitsForItsReceive(Comm c, int peer, int n, boolean synchronous, int tag) {
        String what = (synchronous ? "issend" : "rendezvous send") + " of " + n + " segment doubles";
        if (c.rank() % 2 == 0) {
            Mem out = Mem.segment(c, Primitive.DOUBLE, n);
            out.fill(0, n, c.rank(), tag);
            Request r = synchronous ? c.issend(out.buffer(), 0, n, Datatype.DOUBLE, peer, tag)
                : c.isend(out.buffer(), 0, n, Datatype.DOUBLE, peer, tag);
            checkIncompleteFor(r, 100, "%s completed before its receive was posted", what);
            c.send(new int[1], 0, 1, Datatype.INT, peer, GO);
            r.waitFor();
        } else {
            c.recv(new int[1], 0, 1, Datatype.INT, peer, GO, null);
            Mem in = synchronous ? Mem.segment(c, Primitive.DOUBLE, n) : Mem.array(Primitive.DOUBLE, n);
            Status st = c.recv(in.buffer(), 0, n, Datatype.DOUBLE, peer, tag);
            in.checkRun(0, n, peer, tag, 0, what);
            checkStatus(st, peer, tag, 8L * n, what);
        }
    }
}
