package org.hympj.shm.coll;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.Locale;
import org.hympj.api.Comm;
import org.hympj.api.Comm.BarrierAlgorithm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: each barrier algorithm synchronises, and {@code barrier()} uses the job's
 * default.
 *
 * <p>For each algorithm, rounds in which one rank (the last, the first, a middle one in turn)
 * sleeps {@link #DELAY_MS} ms before entering; every rank notes System.nanoTime (one clock
 * for every process of the machine) just before entering and just after leaving; afterwards
 * the notes are gathered and each rank checks that no rank left a round before the last one
 * entered it.
 *
 * <p>{@code expect=ALGO}: the default {@code barrier()} must be ALGO. Even ranks call
 * {@code barrier()} and odd ranks {@code barrier(ALGO)} in delayed rounds: with 3 or more ranks
 * the three algorithms exchange different messages, so a different default would hang (the
 * job times out) or stop synchronising. {@code only-default}: skip the per-algorithm rounds.
 */
public final class BarrierAlgorithmsRank {
    static final long DELAY_MS = 300;
    static final int ROUNDS = 3;

    static String scenario(BarrierAlgorithm a) {
        return "synchronises-" + a.name().toLowerCase(Locale.ROOT);
    }

    static final String DEFAULT_SCENARIO = "default-barrier";

    public static void main(String[] args) throws InterruptedException {
        BarrierAlgorithm expect = null;
        boolean onlyDefault = false;
        for (String a : args) {
            if (a.startsWith("expect=")) {
                expect = BarrierAlgorithm.valueOf(a.substring("expect=".length()));
            } else if (a.equals("only-default")) {
                onlyDefault = true;
            }
        }
        check(expect != null, "usage: BarrierAlgorithmsRank expect=ALGO [only-default]");
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            print("COLL '" + ((ShmMpj) mpj).config().coll + "'");
            if (!onlyDefault) {
                for (BarrierAlgorithm a : BarrierAlgorithm.values()) {
                    rounds(c, a, null);
                    pass(scenario(a));
                }
            }
            rounds(c, null, expect);
            pass(DEFAULT_SCENARIO);
        }
        pass(MultiRank.FINALIZED);
    }

    private static int sleeper(int round, int np) {
        return round == 0 ? np - 1 : round == 1 ? 0 : np / 2;
    }

    /**
     * Delayed rounds of {@code barrier(algorithm)}; with algorithm null, even ranks call
     * {@code barrier()} and odd ranks {@code barrier(mixWith)}.
     */
    static void rounds(Comm c, BarrierAlgorithm algorithm, BarrierAlgorithm mixWith) throws InterruptedException {
        int np = c.size();
        int me = c.rank();
        String name = algorithm != null ? algorithm.name() : "barrier() (even ranks) with barrier(" + mixWith + ")";
        long[] mine = new long[2 * ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            if (me == sleeper(round, np)) {
                Thread.sleep(DELAY_MS);
            }
            mine[2 * round] = System.nanoTime();
            if (algorithm != null) {
                c.barrier(algorithm);
            } else if (me % 2 == 0) {
                c.barrier();
            } else {
                c.barrier(mixWith);
            }
            mine[2 * round + 1] = System.nanoTime();
        }
        long[] all = new long[2 * ROUNDS * np];
        c.allgather(mine, 0, 2 * ROUNDS, Datatype.LONG, all, 0, 2 * ROUNDS, Datatype.LONG);
        for (int round = 0; round < ROUNDS; round++) {
            long lastEntry = Long.MIN_VALUE;
            long firstExit = Long.MAX_VALUE;
            int lastIn = -1;
            int firstOut = -1;
            for (int r = 0; r < np; r++) {
                long in = all[r * 2 * ROUNDS + 2 * round];
                long out = all[r * 2 * ROUNDS + 2 * round + 1];
                if (in > lastEntry) {
                    lastEntry = in;
                    lastIn = r;
                }
                if (out < firstExit) {
                    firstExit = out;
                    firstOut = r;
                }
            }
            check(lastEntry <= firstExit,
                "%s, %d ranks, round %d: rank %d left at %d, %.3f ms before rank %d entered at %d", name, np, round,
                firstOut, firstExit, (lastEntry - firstExit) * 1e-6, lastIn, lastEntry);
            print(String.format(Locale.ROOT, "%s round %d: sleeper %d, last in rank %d, first out rank %d %.3f ms later",
                name, round, sleeper(round, np), lastIn, firstOut, (firstExit - lastEntry) * 1e-6));
        }
    }
}
