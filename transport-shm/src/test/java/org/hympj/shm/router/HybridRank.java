package org.hympj.shm.router;

import java.util.Map;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Status;

/**
 * Rank program of the hybrid router tests. Messages between one pair with one tag alternate
 * fabrics (small ones take TCA, large ones IB under the ha-pacs table), and arrive in order;
 * striped messages arrive whole over every buffer combination; route statistics count them.
 */
public final class HybridRank {
    static final int SMALL = 4;           // doubles: TCA
    static final int LARGE = 100_000;     // 800 KB: over the contiguous threshold (663552 B): IB
    static final int MESSAGES = 24;

    private HybridRank() {
    }

    static int sizeOf(int i) {
        return i % 3 == 2 ? LARGE : SMALL + i;
    }

    static double value(int msg, int i) {
        return msg * 1_000_003.0 + i;
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm w = mpj.world();
            int r = w.rank();
            int last = w.size() - 1;  // with subclusters of 2, rank 0 and the last rank are only reachable by IB
            for (int peer : new int[] {1, last}) {
                if (peer == 0) {
                    continue;
                }
                orderAcrossFabrics(w, r, peer, true);
                orderAcrossFabrics(w, r, peer, false);
            }
            System.out.println("PASS order");
            striped(w, r);
            System.out.println("PASS striped");
            persistentKeepsItsRoute(w, r);
            System.out.println("PASS persistent");
            if (r == 0) {
                Map<String, Long> st = mpj.statistics();
                System.out.println("STATS " + st);
            }
            w.barrier();
        }
        System.out.println("PASS finalize");
    }

    /** Rank 0 sends MESSAGES with one tag, sizes alternating fabrics; peer receives them pre-posted or late. */
    static void orderAcrossFabrics(Comm w, int r, int peer, boolean preposted) {
        int tag = preposted ? 11 : 12;
        if (r == 0) {
            for (int m = 0; m < MESSAGES; m++) {
                double[] b = new double[sizeOf(m)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = value(m, i);
                }
                w.send(b, 0, b.length, Datatype.DOUBLE, peer, tag);
            }
        } else if (r == peer) {
            double[][] in = new double[MESSAGES][];
            Request[] reqs = new Request[MESSAGES];
            if (preposted) {
                for (int m = 0; m < MESSAGES; m++) {
                    in[m] = new double[LARGE];
                    reqs[m] = w.irecv(in[m], 0, LARGE, Datatype.DOUBLE, 0, tag);
                }
                Request.waitAll(reqs);
            } else {
                sleep(300); // every message is in flight or unexpected by now
                for (int m = 0; m < MESSAGES; m++) {
                    in[m] = new double[LARGE];
                    Status st = w.recv(in[m], 0, LARGE, Datatype.DOUBLE, 0, Comm.ANY_TAG);
                    check(st.count() == sizeOf(m), "message " + m + " has " + st.count() + " doubles, expected "
                        + sizeOf(m) + ": out of order");
                }
            }
            for (int m = 0; m < MESSAGES; m++) {
                if (preposted) {
                    check(reqs[m].status().count() == sizeOf(m), "pre-posted message " + m + " out of order");
                }
                for (int i = 0; i < sizeOf(m); i++) {
                    check(in[m][i] == value(m, i), "message " + m + " element " + i + " is " + in[m][i]);
                }
            }
        }
        w.barrier();
    }

    /** 2 MB messages (striped when the job's threshold allows) over heap/segment combinations, both ways. */
    static void striped(Comm w, int r) {
        int n = 1 << 18;
        for (int combo = 0; combo < 4; combo++) {
            boolean sendSeg = (combo & 1) != 0;
            boolean recvSeg = (combo & 2) != 0;
            if (r == 0) {
                Object b = sendSeg ? w.allocDoubles(n) : new double[n];
                for (int i = 0; i < n; i++) {
                    put(b, i, value(combo, i));
                }
                w.send(b, 0, n, Datatype.DOUBLE, 1, 20 + combo);
            } else if (r == 1) {
                Object b = recvSeg ? w.allocDoubles(n + 2) : new double[n + 2];
                put(b, n, -7.0);
                put(b, n + 1, -7.0);
                Status st = w.recv(b, 0, n, Datatype.DOUBLE, 0, 20 + combo);
                check(st.count() == n, "striped combination " + combo + " count " + st.count());
                for (int i = 0; i < n; i++) {
                    check(get(b, i) == value(combo, i), "striped combination " + combo + " element " + i);
                }
                check(get(b, n) == -7.0 && get(b, n + 1) == -7.0, "striped message wrote past its buffer");
            }
            w.barrier();
        }
    }

    /** A persistent request started many times with alternating data sizes of one route. */
    static void persistentKeepsItsRoute(Comm w, int r) {
        int n = LARGE;
        double[] b = new double[n];
        if (r == 0) {
            PersistentRequest p = w.sendInit(b, 0, n, Datatype.DOUBLE, 1, 30);
            for (int it = 0; it < 5; it++) {
                for (int i = 0; i < n; i++) {
                    b[i] = value(it, i);
                }
                p.start();
                p.waitFor();
            }
            p.free();
        } else if (r == 1) {
            PersistentRequest p = w.recvInit(b, 0, n, Datatype.DOUBLE, 0, 30);
            for (int it = 0; it < 5; it++) {
                p.start();
                p.waitFor();
                for (int i = 0; i < n; i++) {
                    check(b[i] == value(it, i), "persistent iteration " + it + " element " + i);
                }
            }
            p.free();
        }
        w.barrier();
    }

    private static void put(Object b, int i, double v) {
        if (b instanceof SegmentBuffer) {
            ((SegmentBuffer) b).putDouble(i, v);
        } else {
            ((double[]) b)[i] = v;
        }
    }

    private static double get(Object b, int i) {
        return b instanceof SegmentBuffer ? ((SegmentBuffer) b).getDouble(i) : ((double[]) b)[i];
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
