package org.hympj.shm.launch;

import java.nio.file.Files;
import java.nio.file.Paths;
import org.hympj.api.Mpj;

/** Rank program: prints the CPUs it may run on (Linux's Cpus_allowed_list). */
public final class BindRank {
    public static void main(String[] args) throws Exception {
        try (Mpj mpj = Mpj.init(args)) {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    System.out.println("CPUS " + mpj.world().rank() + " " + line.substring(18).trim());
                }
            }
            mpj.world().barrier();
        }
    }
}
