package org.hympj.shm.p2p;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.QudaComm;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Status;
import org.hympj.api.TruncationException;

/** Rank program of the one-sided engine tests (ring neighbours; every value checked). */
public final class OneSidedRank {
    static final String[] SCENARIOS = {"sizes", "vector", "order-any-tag", "truncation", "persistent-quda", "self",
        "unsupported"};

    private OneSidedRank() {
    }

    static double v(int msg, int i) {
        return msg * 100_003.0 + i * 0.5;
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            int r = c.rank();
            int n = c.size();
            int right = (r + 1) % n;
            int left = (r - 1 + n) % n;
            // sizes over heap/segment combinations, receives posted before and after the sends
            int msg = 0;
            for (int count : new int[] {0, 1, 1000, 65536, 1 << 19}) {
                for (int combo = 0; combo < 4; combo++, msg++) {
                    Object out = (combo & 1) != 0 ? c.allocDoubles(count) : new double[count];
                    Object in = (combo & 2) != 0 ? c.allocDoubles(count + 1) : new double[count + 1];
                    for (int i = 0; i < count; i++) {
                        put(out, i, v(msg, i));
                    }
                    put(in, count, -9);
                    Request rr = null;
                    if (combo % 2 == 0) {
                        rr = c.irecv(in, 0, count, Datatype.DOUBLE, left, msg);
                    }
                    Request s = c.isend(out, 0, count, Datatype.DOUBLE, right, msg);
                    if (rr == null) {
                        rr = c.irecv(in, 0, count, Datatype.DOUBLE, left, msg);
                    }
                    Request.waitAll(s, rr);
                    check(rr.status().count() == count && rr.status().source() == left, "status of message " + msg);
                    for (int i = 0; i < count; i++) {
                        check(get(in, i) == v(msg, i), "message " + msg + " element " + i);
                    }
                    check(get(in, count) == -9, "message " + msg + " wrote past its buffer");
                }
            }
            System.out.println("PASS sizes");
            // vector types on both sides (staging + unpack; pack straight to the remote address)
            Datatype col = Datatype.DOUBLE.vector(64, 1, 64);
            double[] grid = new double[64 * 64];
            for (int i = 0; i < grid.length; i++) {
                grid[i] = r * 10_000 + i;
            }
            double[] got = new double[64 * 64];
            c.sendrecv(grid, 3, 1, col, right, 77, got, 5, 1, col, left, 77);
            for (int i = 0; i < 64 * 64; i++) {
                boolean inCol = i % 64 == 5;
                double want = inCol ? left * 10_000 + (i - 5) + 3 : 0;
                check(got[i] == want, "vector element " + i + " is " + got[i]);
            }
            System.out.println("PASS vector");
            // order per (source, tag) with an ANY_TAG receive in between, receives posted late
            int[][] ins = new int[6][1];
            Request[] sends = new Request[6];
            for (int k = 0; k < 6; k++) {
                sends[k] = c.isend(new int[] {k}, 0, 1, Datatype.INT, right, k % 2 == 0 ? 5 : 6);
            }
            Status st = new Status();
            c.recv(ins[0], 0, 1, Datatype.INT, left, 5, st);                // k=0
            c.recv(ins[1], 0, 1, Datatype.INT, left, Comm.ANY_TAG, st);     // k=1 (first unmatched: tag 6)
            check(st.tag() == 6 && ins[1][0] == 1, "ANY_TAG receive got tag " + st.tag() + " value " + ins[1][0]);
            c.recv(ins[2], 0, 1, Datatype.INT, left, 6, st);                // k=3
            c.recv(ins[3], 0, 1, Datatype.INT, left, 5, st);                // k=2
            c.recv(ins[4], 0, 1, Datatype.INT, left, 5, st);                // k=4
            c.recv(ins[5], 0, 1, Datatype.INT, left, 6, st);                // k=5
            check(ins[0][0] == 0 && ins[2][0] == 3 && ins[3][0] == 2 && ins[4][0] == 4 && ins[5][0] == 5,
                "order per tag");
            Request.waitAll(sends);
            System.out.println("PASS order-any-tag");
            // truncation: only what fits is written, then the exception
            double[] small = new double[12];
            small[10] = -1;
            small[11] = -1;
            Request tr = c.irecv(small, 0, 10, Datatype.DOUBLE, left, 90);
            double[] big = new double[50];
            java.util.Arrays.fill(big, 7);
            c.send(big, 0, 50, Datatype.DOUBLE, right, 90);
            try {
                tr.waitFor();
                check(false, "truncation not reported");
            } catch (TruncationException e) {
                check(tr.status().isTruncated() && tr.status().sentBytes() == 400, "truncated status");
            }
            check(small[9] == 7 && small[10] == -1 && small[11] == -1, "truncation wrote past the buffer");
            System.out.println("PASS truncation");
            // persistent requests through the QUDA-like facade, many iterations
            QudaComm q = new QudaComm(c);
            SegmentBuffer inSeg = c.alloc(Primitive.DOUBLE, 4096);
            double[] out = new double[4096];
            QudaComm.MsgHandle rh = q.declareReceive(inSeg, 0, 4096, Datatype.DOUBLE, left, 3);
            QudaComm.MsgHandle sh = q.declareSend(out, 0, 4096, Datatype.DOUBLE, right, 3);
            for (int it = 0; it < 50; it++) {
                for (int i = 0; i < out.length; i++) {
                    out[i] = v(it, i) + r;
                }
                QudaComm.startAll(rh, sh);
                while (!sh.query()) {
                    Thread.onSpinWait();
                }
                rh.waitFor();
                for (int i = 0; i < 4096; i++) {
                    check(inSeg.getDouble(i) == v(it, i) + left, "persistent iteration " + it + " element " + i);
                }
                c.barrier(); // out may change only once the peer has read it
            }
            rh.free();
            sh.free();
            System.out.println("PASS persistent-quda");
            // self-send and PROC_NULL
            double[] selfIn = new double[3];
            Request sr = c.irecv(selfIn, 0, 3, Datatype.DOUBLE, r, 8);
            c.send(new double[] {1, 2, 3}, 0, 3, Datatype.DOUBLE, r, 8);
            sr.waitFor();
            check(selfIn[2] == 3, "self-send");
            c.send(new double[1], 0, 1, Datatype.DOUBLE, Comm.PROC_NULL, 1);
            check(c.recv(new double[1], 0, 1, Datatype.DOUBLE, Comm.PROC_NULL, 1).source() == Comm.PROC_NULL, "PROC_NULL");
            System.out.println("PASS self");
            // what the engine does not support fails clearly, changing nothing
            expectUnsupported(() -> c.irecv(new int[1], 0, 1, Datatype.INT, Comm.ANY_SOURCE, 1), "ANY_SOURCE");
            expectUnsupported(() -> c.probe(left, 1), "probe");
            expectUnsupported(() -> c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG), "iprobe");
            int[] after = new int[1];
            c.sendrecv(new int[] {r}, 0, 1, Datatype.INT, right, 4, after, 0, 1, Datatype.INT, left, 4);
            check(after[0] == left, "usable after unsupported calls");
            System.out.println("PASS unsupported");
            c.barrier();
        }
        System.out.println("PASS finalize");
    }

    static void expectUnsupported(Runnable call, String what) {
        try {
            call.run();
        } catch (UnsupportedOperationException e) {
            check(e.getMessage().contains("onesided"), what + ": message does not say why: " + e.getMessage());
            return;
        }
        check(false, what + " did not fail");
    }

    static void put(Object b, int i, double x) {
        if (b instanceof SegmentBuffer) {
            ((SegmentBuffer) b).putDouble(i, x);
        } else {
            ((double[]) b)[i] = x;
        }
    }

    static double get(Object b, int i) {
        return b instanceof SegmentBuffer ? ((SegmentBuffer) b).getDouble(i) : ((double[]) b)[i];
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
