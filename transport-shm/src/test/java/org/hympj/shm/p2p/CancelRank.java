package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.pass;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Request;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: a cancelled receive whose message is already in this rank's rings is not
 * cancelled — it gets the message — wherever that message sits in its ring. Each rank sends
 * itself an 8-byte message, posts the receive and cancels it, {@link #ROUNDS} times: each round
 * moves the ring on by one record, so the message lands at every position of the ring, twice at
 * least at its wrap (where one progress pass reads only the padding before it). A receive nothing
 * will match is cancelled, with its buffer untouched.
 */
public final class CancelRank {
    static final String[] SCENARIOS = {"cancel"};
    /** More than two laps of a 256 KiB ring of 40-byte records. */
    static final int ROUNDS = 20_000;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            int me = c.rank();
            long[] out = new long[1];
            long[] in = new long[1];
            for (int k = 0; k < ROUNDS; k++) {
                out[0] = 1000L * k + me;
                Request s = c.isend(out, 0, 1, Datatype.LONG, me, 5);
                Request r = c.irecv(in, 0, 1, Datatype.LONG, me, 5);
                r.cancel();
                r.waitFor();
                check(!r.status().isCancelled(), "round %d: a receive whose message had arrived was cancelled", k);
                check(in[0] == out[0], "round %d: received %d, sent %d", k, in[0], out[0]);
                s.waitFor();
            }
            long[] never = {-7};
            Request r = c.irecv(never, 0, 1, Datatype.LONG, Comm.ANY_SOURCE, 6);
            r.cancel();
            r.waitFor();
            check(r.status().isCancelled() && never[0] == -7, "a receive nothing matched was not cancelled cleanly");
            c.barrier();
            pass("cancel");
        }
        pass(MultiRank.FINALIZED);
    }
}
