package org.hympj.perf.fabric;

import org.hympj.examples.Face;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hympj.router.RouteTable;
import org.hympj.model.ModelParams;
import org.hympj.spi.Layout;

/**
 * Calibrates the route table on the application's own pattern — S1's halo exchange — instead
 * of on a ping-pong (beyond S1). A ping-pong crossover sees one uncontended transfer over one
 * hop; in the halo, eight ranks share the TCA ring, and a face that travels several hops loads
 * every link on its way, so a layout may belong on IB at sizes where the ping-pong still
 * prefers TCA (S1's hybrid lost to a single fabric at some N for this reason).
 *
 * <p>Method: for every candidate table — per layout of the pattern, a threshold below the
 * smallest face, between two consecutive face sizes, or above the largest — the iteration of
 * {@link HaloModel} (the timing model itself, every face planned on shared timelines) at every
 * N; the table kept is the one whose worst ratio to the best table at that N is least, ties
 * broken by the smaller sum. Layouts the pattern does not send keep the base table's value.
 */
final class HaloCalibration {
    private HaloCalibration() {
    }

    /** The chosen table and, per N, the remark lines explaining it. */
    static final class Result {
        final RouteTable table;
        final List<String> lines = new ArrayList<>();

        Result(RouteTable table) {
            this.table = table;
        }
    }

    static Result calibrate(ModelParams p, int dims, List<Long> ns, RouteTable base) {
        int np = HaloModel.ranks(dims);
        List<Layout> layouts = new ArrayList<>();
        List<long[]> candidates = new ArrayList<>();
        for (int d = 0; d < dims; d++) {
            Face f = HaloModel.face(dims, d);
            if (layouts.contains(f.layout)) {
                continue;
            }
            layouts.add(f.layout);
            long[] c = new long[ns.size() + 2];
            c[0] = -1;
            for (int i = 0; i < ns.size(); i++) {
                c[i + 1] = f.bytes(ns.get(i)); // TCA up to and including the face at ns[i]
            }
            c[ns.size() + 1] = RouteTable.ALWAYS;
            candidates.add(c);
        }
        int combos = 1;
        for (long[] c : candidates) {
            combos *= c.length;
        }
        double[][] time = new double[combos][ns.size()];
        double[] best = new double[ns.size()];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        RouteTable[] tables = new RouteTable[combos];
        for (int k = 0; k < combos; k++) {
            tables[k] = table(base, layouts, candidates, k);
            for (int i = 0; i < ns.size(); i++) {
                time[k][i] = HaloModel.iteration(p, dims, (int) (long) ns.get(i), "hybrid", np, tables[k]);
                best[i] = Math.min(best[i], time[k][i]);
            }
        }
        int chosen = 0;
        double chosenWorst = Double.MAX_VALUE;
        double chosenSum = Double.MAX_VALUE;
        for (int k = 0; k < combos; k++) {
            double worst = 0;
            double sum = 0;
            for (int i = 0; i < ns.size(); i++) {
                worst = Math.max(worst, time[k][i] / best[i]);
                sum += time[k][i];
            }
            if (worst < chosenWorst - 1e-9 || (Math.abs(worst - chosenWorst) <= 1e-9 && sum < chosenSum)) {
                chosen = k;
                chosenWorst = worst;
                chosenSum = sum;
            }
        }
        Result r = new Result(tables[chosen]);
        for (int i = 0; i < ns.size(); i++) {
            int n = (int) (long) ns.get(i);
            double tca = HaloModel.iteration(p, dims, n, "tca", np, null);
            double ib = HaloModel.iteration(p, dims, n, "ib", np, null);
            double pp = HaloModel.iteration(p, dims, n, "hybrid", np, base);
            r.lines.add(String.format(Locale.ROOT, "N=%d: model us per iteration: tca %.1f, ib %.1f, hybrid (%s) %.1f, "
                + "hybrid (halo-calibrated) %.1f", n, tca, ib, base.source(), pp, time[chosen][i]));
        }
        r.lines.add(String.format(Locale.ROOT, "the halo-calibrated table is at most %.3fx the best of all %d "
            + "candidate tables at every N", chosenWorst, combos));
        return r;
    }

    private static RouteTable table(RouteTable base, List<Layout> layouts, List<long[]> candidates, int k) {
        long[] v = {base.tcaUpTo(Layout.CONTIGUOUS), base.tcaUpTo(Layout.BLOCK_STRIDE),
            base.tcaUpTo(Layout.ELEMENT_STRIDE)};
        int rest = k;
        for (int j = 0; j < layouts.size(); j++) {
            long[] c = candidates.get(j);
            v[layouts.get(j).ordinal()] = c[rest % c.length];
            rest /= c.length;
        }
        return new RouteTable(v[0], v[1], v[2], base.stripeThreshold(), "halo-calibrated");
    }
}
