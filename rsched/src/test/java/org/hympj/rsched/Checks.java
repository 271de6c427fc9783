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
                // one put at a time, in list order (a routed put frees its engine once its first link
                // has its bytes, at least its alone duration after its start; its slot ends when the
                // last link has carried them)
                double pe = prevEnd;
                assertTrue(sl.startNs() >= pe - TOL, () -> "engine overlap: " + ctx.get());
                Put p = puts.get(sl.putId());
                prevEnd = p.links().length > 1 ? sl.startNs() + m.durationNs(p) : sl.endNs();
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
                int common = commonLink(pa, pb);
                if (exclusiveLinks && common >= 0) {
                    fail("puts " + a.putId() + " and " + b.putId() + " on link " + common + " at once: " + ctx.get());
                }
            }
        }
        assertEquals(makespan, s.makespanNs(), TOL, ctx);
        assertTrue(s.makespanNs() >= s.lowerBoundNs() - TOL, () -> "makespan below the lower bound: " + ctx.get());
        // a link never carries more than its bandwidth: the bytes of a link fit in the union of
        // its puts' pushing times (slot minus the access overhead) at the link bandwidth
        int links = 0;
        for (Put p : puts) {
            for (int l : p.links()) {
                links = Math.max(links, l + 1);
            }
        }
        for (int l = 0; l < links; l++) {
            List<double[]> iv = new ArrayList<>();
            double bytes = 0;
            for (Put p : puts) {
                int load = load(p, l);
                if (load > 0) {
                    Slot sl = s.slotOf(p.id());
                    iv.add(new double[] {sl.startNs() + m.accessOverheadNs(), sl.endNs()});
                    bytes += (double) p.bytes() * load;
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

    /** How many times {@code p} crosses link {@code l}. */
    static int load(Put p, int l) {
        int c = 0;
        for (int x : p.links()) {
            if (x == l) {
                c++;
            }
        }
        return c;
    }

    /** A link both puts cross, or -1. */
    static int commonLink(Put a, Put b) {
        for (int x : a.links()) {
            if (load(b, x) > 0) {
                return x;
            }
        }
        return -1;
    }

    /**
     * A random set on a 2D torus routed x first: 1..maxPuts puts, 1 B..1 MB (log-uniform), 8
     * directions whose links are the sender-frame axis links (E=0, W=1, N=2, S=3; NE crosses
     * E then N, ...), and one put in five going two hops along an axis (its link twice).
     */
    static List<Put> randomRoutedSet(Random rnd, int maxPuts) {
        int[][] route = {{0}, {1}, {2}, {3}, {0, 2}, {1, 2}, {0, 3}, {1, 3}};
        int n = 1 + rnd.nextInt(maxPuts);
        List<Put> puts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int d = rnd.nextInt(8);
            long b = Math.max(1, Math.min(1L << 20, Math.round(Math.exp(rnd.nextDouble() * Math.log(1 << 20)))));
            int[] links = d < 4 && rnd.nextInt(5) == 0 ? new int[] {d, d} : route[d];
            puts.add(new Put(i, rnd.nextInt(10), d, b, d >= 4, links));
        }
        return puts;
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
