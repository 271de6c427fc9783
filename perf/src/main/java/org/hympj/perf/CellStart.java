package org.hympj.perf;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;

/**
 * Where a benchmark cell starts on virtual time: every rank's clock at one instant, as the
 * simulator's script starts. The collectives and checks of the cell before leave the ranks some
 * hundred ns apart, and which ranks leave a barrier last decides a contended exchange; so a cell
 * run after others in one job gives the figure it gives alone (or in a job of its own).
 */
public final class CellStart {
    private CellStart() {
    }

    /** True when {@code mpj} runs on virtual time (its ranks keep modelled clocks). */
    public static boolean virtual(Mpj mpj) {
        return mpj instanceof org.hympj.shm.ShmMpj && ((org.hympj.shm.ShmMpj) mpj).engine().clock() != null;
    }

    /**
     * Moves every rank's clock to one instant: the latest clock plus 1 ms, past the allreduce
     * that agrees on it; each rank then computes up to it, in whole ns. Virtual time only (on
     * the wall clock {@link Comm#compute} waits).
     */
    public static void alignClocks(Comm comm) {
        long[] at = {Math.round(comm.wtime() * 1e9) + 1_000_000L};
        comm.allreduce(Comm.IN_PLACE, 0, at, 0, 1, Datatype.LONG, Op.MAX);
        long now = Math.round(comm.wtime() * 1e9);
        if (at[0] > now) {
            comm.compute((at[0] - now + 0.5) / 1e9); // + 0.5 ns: compute truncates to whole ns
        }
    }
}
