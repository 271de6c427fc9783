package org.hympj.shm.launch;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Status;

/**
 * Rank program: what a program sees right after init with the JIT warm-up on or off — no
 * message of the warm-up waits for it, and a ring of ANY_SOURCE / ANY_TAG
 * receives gets exactly the neighbours' messages (none of the warm-up's), and the program's
 * first segment allocation starts at the segment's start (the warm-up's segment buffers were
 * given back). Prints "CLEAN rank" when all holds.
 */
public final class WarmUpRank {
    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm w = mpj.world();
            int me = w.rank();
            int n = w.size();
            if (w.iprobe(me, Comm.ANY_TAG) != null) {
                throw new AssertionError("rank " + me + ": a message from itself waits right after init");
            }
            if (w.iprobe(Comm.ANY_SOURCE, org.hympj.shm.pml.WarmUp.TAG) != null) {
                throw new AssertionError("rank " + me + ": a message with the warm-up's tag waits right after init");
            }
            org.hympj.api.SegmentBuffer first = w.alloc(org.hympj.api.Primitive.BYTE, 64);
            if (first.segmentOffset() != 0) {
                throw new AssertionError("rank " + me + ": the first allocation is at " + first.segmentOffset()
                    + " of the segment, not 0");
            }
            long[] out = {1000L * me + 7};
            long[] in = new long[1];
            Status st = w.sendrecv(out, 0, 1, Datatype.LONG, (me + 1) % n, 5,
                in, 0, 1, Datatype.LONG, Comm.ANY_SOURCE, Comm.ANY_TAG);
            int left = (me - 1 + n) % n;
            if (st.source() != left || st.tag() != 5 || in[0] != 1000L * left + 7) {
                throw new AssertionError("rank " + me + ": got " + in[0] + " from " + st.source() + " tag " + st.tag());
            }
            w.barrier();
            if (w.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) != null) {
                throw new AssertionError("rank " + me + ": a message waits after the ring");
            }
            System.out.println("CLEAN " + me);
        }
    }
}
