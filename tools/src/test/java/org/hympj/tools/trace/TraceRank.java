package org.hympj.tools.trace;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;

/**
 * Rank program of {@link TraceToolTest}: persistent exchanges around a ring, each
 * {@code Request.startAll} + {@code Request.waitAll} of 8 requests (to and from both
 * neighbours: 16 KB of doubles and 1 KB, tags 10..13), a barrier between exchanges.
 *
 * <pre>usage: TraceRank EXCHANGES [VICTIM]</pre>
 *
 * Prints {@code EXCHANGES <n>} after its exchanges. With a VICTIM, every rank then goes on
 * exchanging without end, and the victim has {@code kill -9} sent to itself while it does:
 * it dies at an arbitrary point, possibly in the middle of writing a journal record; its
 * peers fail and the launcher ends the job.
 */
public final class TraceRank {
    private TraceRank() {
    }

    public static void main(String[] args) throws Exception {
        int exchanges = Integer.parseInt(args[0]);
        int victim = args.length > 1 ? Integer.parseInt(args[1]) : -1;
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            int rank = c.rank();
            int size = c.size();
            int right = (rank + 1) % size;
            int left = (rank - 1 + size) % size;
            double[] bigR = new double[2048];
            double[] bigL = new double[2048];
            double[] smallR = new double[128];
            double[] smallL = new double[128];
            double[] inBigR = new double[2048];
            double[] inBigL = new double[2048];
            double[] inSmallR = new double[128];
            double[] inSmallL = new double[128];
            PersistentRequest[] reqs = {
                c.recvInit(inBigL, 0, 2048, Datatype.DOUBLE, left, 10),
                c.recvInit(inBigR, 0, 2048, Datatype.DOUBLE, right, 11),
                c.recvInit(inSmallL, 0, 128, Datatype.DOUBLE, left, 12),
                c.recvInit(inSmallR, 0, 128, Datatype.DOUBLE, right, 13),
                c.sendInit(bigR, 0, 2048, Datatype.DOUBLE, right, 10),
                c.sendInit(bigL, 0, 2048, Datatype.DOUBLE, left, 11),
                c.sendInit(smallR, 0, 128, Datatype.DOUBLE, right, 12),
                c.sendInit(smallL, 0, 128, Datatype.DOUBLE, left, 13),
            };
            for (int it = 0; it < exchanges || victim >= 0; it++) {
                if (it == exchanges) {
                    System.out.println("EXCHANGES " + exchanges);
                    if (rank == victim) {
                        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start();
                    }
                }
                java.util.Arrays.fill(bigR, rank * 1000 + it);
                c.barrier();
                Request.startAll(reqs);
                Request.waitAll(reqs);
                if (inBigL[7] != left * 1000 + it) {
                    throw new AssertionError("exchange " + it + ": got " + inBigL[7] + " from rank " + left);
                }
            }
            System.out.println("EXCHANGES " + exchanges);
            for (PersistentRequest p : reqs) {
                p.free();
            }
        }
        System.out.println("finalize");
    }
}
