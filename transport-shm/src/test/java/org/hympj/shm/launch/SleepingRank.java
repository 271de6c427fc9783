package org.hympj.shm.launch;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;

/** A rank that announces its pid, then blocks in a receive nobody will match. */
public final class SleepingRank {
    private SleepingRank() {
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm w = mpj.world();
            System.out.println("READY rank " + w.rank() + " pid " + ProcessHandle.current().pid());
            System.out.flush();
            w.recv(new int[1], 0, 1, Datatype.INT, Comm.ANY_SOURCE, 12345);
        }
    }
}
