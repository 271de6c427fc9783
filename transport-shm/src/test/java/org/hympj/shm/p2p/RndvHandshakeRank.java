package org.hympj.shm.p2p;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.Locale;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Request;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program of {@link RndvHandshakeTest} (2 ranks, under a timing model): rank 0 sends one
 * message of BYTES to rank 1, whose receive is posted before the barrier that starts each
 * iteration; the modelled span from rank 0's send to rank 1's completed receive
 * ({@link Comm#wtime}: modelled time, one epoch for all ranks), the minimum over ITERS, is
 * printed by rank 1 as {@code SPAN_NS n}. The data is checked.
 *
 * <pre>usage: RndvHandshakeRank BYTES ITERS [SCHED_HINT]</pre>
 *
 * With SCHED_HINT the messages go on a duplicate of the world with that {@code hympj.sched} hint.
 */
public final class RndvHandshakeRank {
    private RndvHandshakeRank() {
    }

    public static void main(String[] args) {
        int bytes = Integer.parseInt(args[0]);
        int iters = Integer.parseInt(args[1]);
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = args.length > 2 ? mpj.world().dup(java.util.Map.of(Comm.HINT_SCHED, args[2])) : mpj.world();
            check(c.size() == 2, "needs 2 ranks, has %d", c.size());
            byte[] buf = new byte[bytes];
            double[] sent = new double[iters];
            double[] received = new double[iters];
            for (int it = 0; it < iters; it++) {
                Request r = null;
                if (c.rank() == 1) {
                    java.util.Arrays.fill(buf, (byte) 0);
                    r = c.irecv(buf, 0, bytes, Datatype.BYTE, 0, 7);
                } else {
                    java.util.Arrays.fill(buf, (byte) (it + 1));
                }
                c.barrier();
                if (c.rank() == 0) {
                    sent[it] = c.wtime();
                    c.send(buf, 0, bytes, Datatype.BYTE, 1, 7);
                } else {
                    r.waitFor();
                    received[it] = c.wtime();
                    for (int i = 0; i < bytes; i += 997) {
                        check(buf[i] == (byte) (it + 1), "iteration %d: byte %d is %d", it, i, buf[i]);
                    }
                }
            }
            if (c.rank() == 0) {
                c.send(sent, 0, iters, Datatype.DOUBLE, 1, 8);
            } else {
                c.recv(sent, 0, iters, Datatype.DOUBLE, 0, 8);
                double best = Double.MAX_VALUE;
                for (int it = 0; it < iters; it++) {
                    best = Math.min(best, received[it] - sent[it]);
                }
                print(String.format(Locale.ROOT, "SPAN_NS %.0f", best * 1e9));
            }
            pass("rndv-handshake");
        }
        pass(MultiRank.FINALIZED);
    }
}
