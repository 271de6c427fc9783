package org.hympj.shm.net;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.RankFailedException;

/**
 * A rank of a job started without HyMPJ's launcher (srun, mpirun) in which ranks die: after a
 * barrier, the victims (the first argument: a rank, or ranks separated by commas — a whole node)
 * halt together 300 ms later, the first of them after killing its child processes (the node's
 * driver process, if it runs one: a node that dies takes it along); every other rank blocks in a
 * receive only the first victim could match and prints {@code SAW <rank> <ms>} — the rank its
 * RankFailedException names and how long after the barrier it came — then exits with code 3.
 */
public final class EnvFailureRank {
    public static void main(String[] args) throws Exception {
        int[] victims = java.util.Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).toArray();
        int victim = victims[0];
        Mpj mpj = Mpj.init(args);
        Comm w = mpj.world();
        w.barrier();
        long t0 = System.nanoTime();
        if (java.util.Arrays.stream(victims).anyMatch(v -> v == w.rank())) {
            Thread.sleep(300); // the others are blocked in their receive by now
            if (w.rank() == victim && victims.length > 1) {
                ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
            }
            Runtime.getRuntime().halt(9);
        }
        try {
            w.recv(new byte[8], 0, 8, Datatype.BYTE, victim, 77, null);
            System.out.println("RECEIVED (nothing was sent)");
        } catch (RankFailedException e) {
            System.out.printf("SAW %d %d%n", e.failedRank(), (System.nanoTime() - t0) / 1_000_000);
            System.out.flush();
            System.exit(3); // as an uncaught exception would: shutdown hooks run
        }
    }
}
