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
 * the last entry precedes the first exit; for the default barrier and each algorithm
 * (dissemination, recursive doubling, ring). Also: barrier traffic never matches a
 * point-to-point ANY_SOURCE/ANY_TAG receive posted across it.
 */
public final class BarrierRank {
    static final String[] SCENARIOS = {"barrier-synchronises", "barrier-separate-context"};
    /** Per algorithm: the last rank late, the first rank late, staggered one way, staggered the other. */
    static final int ROUNDS_PER_ALGORITHM = 4;
    /** null: barrier() with the job's default algorithm; then each algorithm explicitly. */
    static final Comm.BarrierAlgorithm[] ALGORITHMS = {null, Comm.BarrierAlgorithm.DISSEMINATION,
        Comm.BarrierAlgorithm.RECURSIVE_DOUBLING, Comm.BarrierAlgorithm.RING};
    static final int ROUNDS = ROUNDS_PER_ALGORITHM * ALGORITHMS.length;

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
        switch (round % ROUNDS_PER_ALGORITHM) {
            case 0: return rank == np - 1 ? 150 : 0;   // the last rank is late
            case 1: return rank == 0 ? 150 : 0;        // the first rank is late
            case 2: return 25L * rank;                 // staggered
            default: return 25L * (np - 1 - rank);     // staggered the other way
        }
    }

    private static void barrier(Comm c, int round) {
        Comm.BarrierAlgorithm a = ALGORITHMS[round / ROUNDS_PER_ALGORITHM];
        if (a == null) {
            c.barrier();
        } else {
            c.barrier(a);
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
            barrier(c, round);
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
            Object alg = ALGORITHMS[round / ROUNDS_PER_ALGORITHM] == null ? "default" : ALGORITHMS[round / ROUNDS_PER_ALGORITHM];
            check(lastEntry <= firstExit, "barrier (%s) round %d: rank %d left at %d, %d ns before rank %d entered at %d",
                alg, round, firstOut, firstExit, lastEntry - firstExit, lastIn, lastEntry);
            print("barrier (" + alg + ") round " + round + ": last entry (rank " + lastIn + ") " + (firstExit - lastEntry)
                + " ns before first exit (rank " + firstOut + ")");
        }
    }

    static void separateContext(Comm c) {
        int right = right(c, 1);
        int left = left(c, 1);
        for (int i = 0; i < ROUNDS - 1; i++) {
            int[] got = {-1};
            Request r = c.irecv(got, 0, 1, Datatype.INT, Comm.ANY_SOURCE, Comm.ANY_TAG);
            barrier(c, i);
            // nobody sends before the second barrier, which this rank has not entered yet
            check(!r.test(), "iteration %d: a point-to-point ANY_TAG receive matched barrier traffic: %s", i,
                r.status());
            barrier(c, i + 1);
            Request s = c.isend(new int[] {1000 * c.rank() + i}, 0, 1, Datatype.INT, right, i);
            r.waitFor();
            s.waitFor();
            Status st = r.status();
            check(st.source() == left && st.tag() == i && got[0] == 1000 * left + i,
                "iteration %d: received %d with %s", i, got[0], st);
        }
    }
}
