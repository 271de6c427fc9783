package org.hympj.shm.pml;

import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.job.JobDirectory;

/** Starts the one-sided point-to-point engine of a rank (for {@code --p2p onesided}). */
public final class OneSided {
    private OneSided() {
    }

    public static OsEngine start(Engine two, JobDirectory job, SegmentAllocator segment, FabricTiming timing) {
        return new OsEngine(two, job, segment, timing);
    }
}
