package org.hympj.shm.pml;

import org.hympj.api.Comm;
import org.hympj.shm.job.JobConfig;

/** Reads the job's collective algorithm choices ({@code --coll barrier=ring}). */
public final class CollectiveChoice {
    private CollectiveChoice() {
    }

    /**
     * The default barrier algorithm of the job: as {@code --coll barrier=} names it, else the
     * shared-memory one (which runs dissemination where it does not apply: under a timing
     * model, whose barriers are messages on the emulated fabrics, and off the world communicator).
     */
    /**
     * Whether small allreduces of the world communicator of a job on several hosts are hierarchical
     * ({@code --coll allreduce=hier}, the default: inside each host through shared memory, then
     * one rank per host across the network) or flat ({@code allreduce=flat}: recursive doubling
     * over every rank, as on one host without shared memory).
     */
    public static boolean hierarchicalAllreduce(JobConfig config) {
        String v = config.collChoice("allreduce", "hier");
        switch (v) {
            case "hier":
            case "hierarchical":
                return true;
            case "flat":
                return false;
            default:
                throw new IllegalArgumentException("--coll allreduce=" + v + ": expected hier (hierarchical: host by host"
                    + " on several hosts) or flat");
        }
    }

    public static Comm.BarrierAlgorithm barrier(JobConfig config) {
        String v = config.collChoice("barrier", "shm");
        switch (v) {
            case "shm":
            case "shared-memory":
                return Comm.BarrierAlgorithm.SHARED_MEMORY;
            case "dissemination":
                return Comm.BarrierAlgorithm.DISSEMINATION;
            case "rd":
            case "recursive-doubling":
                return Comm.BarrierAlgorithm.RECURSIVE_DOUBLING;
            case "ring":
                return Comm.BarrierAlgorithm.RING;
            default:
                throw new IllegalArgumentException("--coll barrier=" + v
                    + ": expected shm (shared memory), dissemination, rd (recursive doubling) or ring");
        }
    }
}
