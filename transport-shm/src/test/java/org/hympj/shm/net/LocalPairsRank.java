package org.hympj.shm.net;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;

/**
 * 4 ranks on 2 local hosts (0, 1 | 2, 3) that talk only inside their host (0 with 1, 2 with 3):
 * no rank ever sends to another host. At finalize every connection still ends with a goodbye,
 * so the hosts' first ranks, which run the drivers, leave at once (a rank that waited in vain
 * logs "finalized without a goodbye from rank(s) …"). With "late", host 1's ranks start 1.5 s
 * after host 0's: host 0's ranks finalize before host 1's driver runs, and their goodbyes must
 * wait until their connections to it are up.
 */
public final class LocalPairsRank {
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("late") && Integer.parseInt(System.getenv("HYMPJ_RANK")) >= 2) {
            Thread.sleep(1500); // host 1 starts late: host 0's ranks finalize before its driver is there
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm w = mpj.world();
            int rank = w.rank();
            int partner = rank ^ 1;
            int[] out = {rank * 7 + 1};
            int[] in = new int[1];
            w.sendrecv(out, 0, 1, Datatype.INT, partner, 3, in, 0, 1, Datatype.INT, partner, 3);
            if (in[0] != partner * 7 + 1) {
                throw new AssertionError("from " + partner + ": " + in[0]);
            }
            System.out.println("PASS pair");
        }
        System.out.println("PASS finalize");
    }
}
