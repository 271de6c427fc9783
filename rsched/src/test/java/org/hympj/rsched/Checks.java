package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** Invariants every schedule must satisfy, checked from its slots alone; random put sets. */
final class Checks {
    /** Times are continuous; this much slack (ns) for rounding. */
    static final double TOL = 1e-3;

    private Checks() {
    }

    /**
     * @param exclusiveLinks whether no two puts may be on one link at once (bl:k)
     * @param diagEngines    diagonal puts only on engines below this
     */
    static void valid(Schedule s, List<Put> puts, MachineModel m, boolean exclusiveLinks, int diagEngines) {
        java.util.function.Supplier<String> ctx = () -> s.policy() + " on " + puts + "\n" + s;
        int n = puts.size();
        assertEquals(m.engines(), s.engines().size(), ctx);
        // every put exactly once, slotOf consistent
        int[] seen = new int[n];
        for (int engine = 0; engine < m.engines(); engine++) {
            final int e = engine;
            double prevEnd = 0;
            for (Slot sl : s.engine(e)) {
                assertTrue(sl.putId() >= 0 && sl.putId() < n, ctx);
                seen[sl.putId()]++;
                assertEquals(e, sl.engine(), ctx);
                assertEquals(sl, s.slotOf(sl.putId()), ctx);
                // one put at a time, in list order
                double pe = prevEnd;
                assertTrue(sl.startNs() >= pe - TOL, () -> "engine overlap: " + ctx.get());
                prevEnd = sl.endNs();
                Put p = puts.get(sl.putId());
                assertTrue(sl.endNs() >= sl.startNs() + m.durationNs(p) - TOL, () -> "slot shorter than the put alone: " + sl + " " + ctx.get());
                assertTrue(sl.receiveEngine() >= 0 && sl.receiveEngine() < m.receiveEngines(), ctx);
                if (p.diagonal()) {
                    assertTrue(e < diagEngines, () -> "diagonal put on engine " + e + ": " + ctx.get());
                }
            }
        }
        for (int i = 0; i < n; i++) {
            int pi = i;
            assertEquals(1, seen[i], () -> "put " + pi + " scheduled " + seen[pi] + " times: " + ctx.get());
        }
        List<Slot> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(s.slotOf(i));
        }
        all.sort(Comparator.comparingDouble(Slot::startNs));
        double makespan = 0;
        for (int i = 0; i < all.size(); i++) {
            Slot a = all.get(i);
            makespan = Math.max(makespan, a.endNs());
            Put pa = puts.get(a.putId());
            for (int j = i + 1; j < all.size(); j++) {
                Slot b = all.get(j);
                if (b.startNs() >= a.endNs() - TOL) {
                    break;
                }
                Put pb = puts.get(b.putId());
                // a receive engine serves one put at a time
                if (pa.dest() == pb.dest() && a.receiveEngine() == b.receiveEngine()) {
                    fail("receive engine " + a.receiveEngine() + " of rank " + pa.dest() + " serves puts " + a.putId() + " and "
                        + b.putId() + " at once: " + ctx.get());
                }
                if (exclusiveLinks && pa.direction() == pb.direction()) {
                    fail("puts " + a.putId() + " and " + b.putId() + " on link " + pa.direction() + " at once: " + ctx.get());
                }
            }
        }
        assertEquals(makespan, s.makespanNs(), TOL, ctx);
        assertTrue(s.makespanNs() >= s.lowerBoundNs() - TOL, () -> "makespan below the lower bound: " + ctx.get());
        // a link never carries more than its bandwidth: the bytes of a link fit in the union of
        // its puts' pushing times (slot minus the access overhead) at the link bandwidth
        int links = 0;
        for (Put p : puts) {
            links = Math.max(links, p.direction() + 1);
        }
        for (int l = 0; l < links; l++) {
            List<double[]> iv = new ArrayList<>();
            double bytes = 0;
            for (Put p : puts) {
                if (p.direction() == l) {
                    Slot sl = s.slotOf(p.id());
                    iv.add(new double[] {sl.startNs() + m.accessOverheadNs(), sl.endNs()});
                    bytes += p.bytes();
                }
            }
            iv.sort(Comparator.comparingDouble(x -> x[0]));
            double union = 0;
            double curS = -1;
            double curE = -1;
            for (double[] x : iv) {
                if (x[0] > curE) {
                    union += Math.max(0, curE - curS);
                    curS = x[0];
                    curE = x[1];
                } else {
                    curE = Math.max(curE, x[1]);
                }
            }
            union += Math.max(0, curE - curS);
            int li = l;
            assertTrue(bytes <= union * m.linkBandwidth() * (1 + 1e-9) + TOL, () -> "link " + li + " over its bandwidth: " + ctx.get());
        }
    }

    /** A random set: 1..maxPuts puts, 1 B..1 MB (log-uniform), 8 directions (4..7 diagonal), 10 destinations. */
    static List<Put> randomSet(Random rnd, int maxPuts) {
        int n = 1 + rnd.nextInt(maxPuts);
        List<Put> puts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int d = rnd.nextInt(8);
            long b = Math.max(1, Math.min(1L << 20, Math.round(Math.exp(rnd.nextDouble() * Math.log(1 << 20)))));
            puts.add(new Put(i, rnd.nextInt(10), d, b, d >= 4));
        }
        return puts;
    }

    static String describe(List<Put> puts) {
        return Arrays.toString(puts.toArray());
    }
}
