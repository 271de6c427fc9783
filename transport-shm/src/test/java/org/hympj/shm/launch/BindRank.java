package org.hympj.shm.launch;

import java.nio.file.Files;
import java.nio.file.Paths;
import org.hympj.api.Mpj;

/**
 * Rank program: prints the CPUs it may run on (Linux's Cpus_allowed_list), and the cores the
 * library counts for the job's ranks against the JVM's own count.
 */
public final class BindRank {
    public static void main(String[] args) throws Exception {
        try (Mpj mpj = Mpj.init(args)) {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    System.out.println("CPUS " + mpj.world().rank() + " " + line.substring(18).trim());
                }
            }
            System.out.println("CORES " + org.hympj.shm.job.Cores.available() + " own "
                + Runtime.getRuntime().availableProcessors());
            mpj.world().barrier();
        }
    }
}
