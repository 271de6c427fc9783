package org.hympj.perf.sim;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/** Two threads burning both CPUs of this machine while a job runs beside them (virtual time's figures must not care). */
final class CpuBurners {
    private CpuBurners() {
    }

    /** Runs {@code job} with two CPU-burning threads beside it; they stop when it ends. */
    static <T> T beside(Callable<T> job) throws Exception {
        AtomicBoolean run = new AtomicBoolean(true);
        Thread[] burners = new Thread[2];
        for (int i = 0; i < burners.length; i++) {
            burners[i] = new Thread(() -> {
                long x = 0;
                while (run.get()) {
                    x += System.nanoTime() & 7;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }, "cpu-burner-" + i);
            burners[i].setDaemon(true);
            burners[i].start();
        }
        try {
            return job.call();
        } finally {
            run.set(false);
            for (Thread t : burners) {
                t.join(5_000);
            }
        }
    }
}
