package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.left;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;
import static org.hympj.shm.testing.Ranks.right;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: the barrier synchronises. In each round some ranks sleep before entering;
 * every rank notes System.nanoTime (one clock for all processes of the machine) just before
 * entering and just after leaving; then all ranks exchange their notes and each checks that
 * the last entry precedes the first exit. Also: barrier traffic never matches a
 * point-to-point ANY_SOURCE/ANY_TAG receive posted across it.
 */
public final class BarrierRank {
    static final String[] SCENARIOS = {"barrier-synchronises", "barrier-separate-context"};
    static final int ROUNDS = 4;

    public static void main(String[] args) throws InterruptedException {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            synchronises(c);
            pass("barrier-synchronises");
            separateContext(c);
            pass("barrier-separate-context");
        }
        pass(MultiRank.FINALIZED);
    }

    private static long sleepMillis(int round, int rank, int np) {
        switch (round) {
            case 0: return rank == np - 1 ? 300 : 0;   // the last rank is late
            case 1: return rank == 0 ? 300 : 0;        // the first rank is late
            case 2: return 60L * rank;                 // staggered
            default: return 60L * (np - 1 - rank);     // staggered the other way
        }
    }

    static void synchronises(Comm c) throws InterruptedException {
        int np = c.size();
        int me = c.rank();
        long[] mine = new long[2 * ROUNDS];
        c.barrier();
        for (int round = 0; round < ROUNDS; round++) {
            Thread.sleep(sleepMillis(round, me, np));
            mine[2 * round] = System.nanoTime();
            c.barrier();
            mine[2 * round + 1] = System.nanoTime();
        }
        long[][] all = new long[np][];
        all[me] = mine;
        Request[] sends = new Request[np];
        for (int r = 0; r < np; r++) {
            if (r != me) {
                sends[r] = c.isend(mine, 0, mine.length, Datatype.LONG, r, 500);
            }
        }
        for (int r = 0; r < np; r++) {
            if (r != me) {
                all[r] = new long[2 * ROUNDS];
                c.recv(all[r], 0, 2 * ROUNDS, Datatype.LONG, r, 500);
            }
        }
        Request.waitAll(sends);
        for (int round = 0; round < ROUNDS; round++) {
            long lastEntry = Long.MIN_VALUE;
            long firstExit = Long.MAX_VALUE;
            int lastIn = -1;
            int firstOut = -1;
            for (int r = 0; r < np; r++) {
                if (all[r][2 * round] > lastEntry) {
                    lastEntry = all[r][2 * round];
                    lastIn = r;
                }
                if (all[r][2 * round + 1] < firstExit) {
                    firstExit = all[r][2 * round + 1];
                    firstOut = r;
                }
            }
            check(lastEntry <= firstExit, "barrier round %d: rank %d left at %d, %d ns before rank %d entered at %d",
                round, firstOut, firstExit, lastEntry - firstExit, lastIn, lastEntry);
            print("barrier round " + round + ": last entry (rank " + lastIn + ") " + (firstExit - lastEntry)
                + " ns before first exit (rank " + firstOut + ")");
        }
    }

    static void separateContext(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        for (int i = 0; i < 20; i++) {
            int[] got = {-1};
            Request r = c.irecv(got, 0, 1, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
            c.barrier();
            // nobody sends before the second barrier, which this rank has not entered yet
            check(!r.test(), "iteration %d: a point-to-point ANY_TAG receive matched barrier traffic: %s", i,
                r.status());
            c.barrier();
            Request s = c.isend(new int[] {1000 * c.rank() + i}, 0, 1, Datatype.INT, right, i);
            r.waitFor();
            s.waitFor();
            Status st = r.status();
            check(st.source() == left && st.tag() == i && got[0] == 1000 * left + i,
                "iteration %d: received %d with %s", i, got[0], st);
        }
    }
}
