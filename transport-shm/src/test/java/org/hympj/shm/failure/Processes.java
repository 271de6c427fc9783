package org.hympj.shm.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;

/** Rank processes (identified by the {@code PID <pid>} line each printed) are gone after a job. */
final class Processes {
    private Processes() {
    }

    static void assertAllGone(JobResult r, int np) {
        for (int rank = 0; rank < np; rank++) {
            List<String> pid = MultiRank.lines(r, rank, "PID ");
            int rk = rank;
            assertEquals(1, pid.size(), () -> "rank " + rk + " printed no PID line\n" + MultiRank.report(r));
            long p = Long.parseLong(pid.get(0).substring(4).trim());
            long until = System.nanoTime() + 5_000_000_000L;
            while (ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)) {
                if (System.nanoTime() - until > 0) {
                    fail("rank " + rank + " (pid " + p + ") is still running after the job ended\n" + MultiRank.report(r));
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
