package org.hympj.shm.failure;

import static org.hympj.shm.testing.Ranks.print;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;

/**
 * Rank program for the launcher's timeout: the last rank sleeps for ever (and its shutdown
 * hook too, so SIGTERM alone does not end it); the others wait for it in recv.
 */
public final class HangingRank {
    public static void main(String[] args) throws Exception {
        print("PID " + ProcessHandle.current().pid());
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            c.barrier();
            if (c.rank() == c.size() - 1) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> sleep(600_000)));
                print("HANGING");
                sleep(600_000);
            } else {
                try {
                    c.recv(new int[1], 0, 1, Datatype.INT, c.size() - 1, 0);
                    print("RETURNED");
                } catch (RuntimeException e) {
                    print("CAUGHT " + e);
                    throw e;
                }
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
