package org.hympj.shm.lifecycle;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;

/**
 * Rank program (2 ranks): one init per process, nothing after close. A second
 * {@code Mpj.init} while the first is open is refused (it would be the same rank and take its
 * messages), and the first goes on working; after {@code close()} every communication call is
 * refused naming the call, a second close is a no-op, and a launched rank cannot init again.
 */
public final class LifecycleRank {
    static final String[] SCENARIOS = {"second-init-refused", "first-still-works", "calls-after-close-refused",
        "init-after-close-refused"};

    public static void main(String[] args) {
        Mpj mpj = Mpj.init(args);
        Comm c = mpj.world();
        int peer = 1 - c.rank();
        expectThrows(IllegalStateException.class, () -> Mpj.init(args), "second init", "Mpj.init", "already rank");
        pass("second-init-refused");
        int[] out = {c.rank() + 10};
        int[] in = new int[1];
        c.sendrecv(out, 0, 1, Datatype.INT, peer, 3, in, 0, 1, Datatype.INT, peer, 3);
        check(in[0] == peer + 10, "got %d from the peer, expected %d", in[0], peer + 10);
        c.barrier();
        pass("first-still-works");
        mpj.close();
        pass("finalize");
        expectThrows(IllegalStateException.class, () -> c.send(out, 0, 1, Datatype.INT, peer, 0), "send", "send",
            "closed");
        expectThrows(IllegalStateException.class, () -> c.isend(out, 0, 1, Datatype.INT, peer, 0), "isend", "isend",
            "closed");
        expectThrows(IllegalStateException.class, () -> c.recv(in, 0, 1, Datatype.INT, peer, 0), "recv", "recv",
            "closed");
        expectThrows(IllegalStateException.class, c::barrier, "barrier", "barrier", "closed");
        expectThrows(IllegalStateException.class, () -> c.allreduce(out, 0, in, 0, 1, Datatype.INT,
            org.hympj.api.Op.SUM), "allreduce", "allreduce", "closed");
        expectThrows(IllegalStateException.class, () -> c.alloc(Primitive.DOUBLE, 8), "alloc", "alloc", "closed");
        expectThrows(IllegalStateException.class, () -> c.sendInit(out, 0, 1, Datatype.INT, peer, 0), "sendInit",
            "sendInit", "closed");
        expectThrows(IllegalStateException.class, c::dup, "dup", "dup", "closed");
        mpj.close(); // a second close is a no-op
        pass("calls-after-close-refused");
        expectThrows(IllegalStateException.class, () -> Mpj.init(args), "init after close", "Mpj.init", "closed");
        pass("init-after-close-refused");
    }
}
