package org.hympj.examples;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Request;

/**
 * Collects a distributed field on rank 0 with subarray datatypes and no packing by hand:
 * every rank sends one box of its local array (a subarray of the local array, ghosts
 * excluded), and rank 0 receives each rank's box straight into its place in the global
 * array (a subarray of the global array). Used by the {@code --verify} and {@code --dump}
 * options of the examples.
 */
final class Gather {
    private static final int TAG = 31_000;

    private Gather() {
    }

    /**
     * Collective over {@code comm}. {@code globalBoxes[r]} (needed at rank 0 only) is where rank
     * r's data goes in {@code global}; {@code localBox} is the box this rank sends from
     * {@code local}. Both types must hold the same number of elements for each rank.
     */
    static void toRoot(Comm comm, Object local, Datatype localBox, Object global, Datatype[] globalBoxes) {
        if (comm.rank() != 0) {
            comm.send(local, 0, 1, localBox, 0, TAG);
            return;
        }
        Request[] rs = new Request[comm.size() + 1];
        for (int r = 0; r < comm.size(); r++) {
            rs[r] = comm.irecv(global, 0, 1, globalBoxes[r], r, TAG);
        }
        rs[comm.size()] = comm.isend(local, 0, 1, localBox, 0, TAG);   // rank 0's own box, a self-send
        Request.waitAll(rs);
    }
}
