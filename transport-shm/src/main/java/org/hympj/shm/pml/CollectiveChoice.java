package org.hympj.shm.pml;

import org.hympj.api.Comm;
import org.hympj.shm.job.JobConfig;

/** Reads the job's collective algorithm choices ({@code --coll barrier=ring}). */
public final class CollectiveChoice {
    private CollectiveChoice() {
    }

    /** The default barrier algorithm of the job. */
    public static Comm.BarrierAlgorithm barrier(JobConfig config) {
        String v = config.collChoice("barrier", "dissemination");
        switch (v) {
            case "dissemination":
                return Comm.BarrierAlgorithm.DISSEMINATION;
            case "rd":
            case "recursive-doubling":
                return Comm.BarrierAlgorithm.RECURSIVE_DOUBLING;
            case "ring":
                return Comm.BarrierAlgorithm.RING;
            default:
                throw new IllegalArgumentException("--coll barrier=" + v
                    + ": expected dissemination, rd (recursive doubling) or ring");
        }
    }
}
