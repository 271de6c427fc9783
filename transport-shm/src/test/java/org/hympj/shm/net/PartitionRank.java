package org.hympj.shm.net;

import static org.hympj.shm.testing.Ranks.print;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.RankFailedException;

/**
 * A rank of a job on two hosts whose link goes down: one exchange with its partner on the other
 * host (rank + size/2, modulo size) to show the link works, then {@code READY rank <r> pid <pid>},
 * then a receive from that partner that is never sent. When the link is cut the receive fails:
 * the rank prints {@code CAUGHT <failedRank> <message>} and exits 3.
 */
public final class PartitionRank {
    private PartitionRank() {
    }

    public static void main(String[] args) {
        Mpj mpj = Mpj.init(args);
        Comm w = mpj.world();
        int partner = (w.rank() + w.size() / 2) % w.size();
        int[] got = new int[1];
        w.sendrecv(new int[] {w.rank()}, 0, 1, Datatype.INT, partner, 1, got, 0, 1, Datatype.INT, partner, 1);
        if (got[0] != partner) {
            throw new AssertionError("rank " + w.rank() + " got " + got[0] + " from rank " + partner);
        }
        print("READY rank " + w.rank() + " pid " + ProcessHandle.current().pid());
        try {
            w.recv(got, 0, 1, Datatype.INT, partner, 2);
            print("RETURNED from a receive nobody sent");
        } catch (RankFailedException e) {
            print("CAUGHT " + e.failedRank() + " " + e.getMessage());
            System.exit(3);
        }
    }
}
