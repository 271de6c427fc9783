package org.hympj.rsched;

import java.util.List;

/**
 * The policies by name:
 * <ul>
 *   <li>{@code rr:1}, {@code rr:2}, {@code rr:4} — S3's RoundRobin(k);
 *       {@code none} — rr:1, the puts one after another in request order (eager order);</li>
 *   <li>{@code bl:1}, {@code bl:2}, {@code bl:4} — S3's BLbased(k);</li>
 *   <li>{@code bl+} — BL that may also run puts of one link side by side, sharing it, where
 *       that is estimated to finish the set earlier; never worse than bl:engines (it also
 *       times that plan and keeps the better); where a link carries more puts than
 *       {@link MachineModel#linkShare()} (sets up to 128 puts) also a "wide" plan, groups of up
 *       to all engines on one link, whose access overheads overlap;</li>
 *   <li>{@code bl+oh} — bl+ that charges the per-access overhead on the chart (S3's
 *       overhead-aware future work); never worse than bl+ (it keeps the best of its own plan,
 *       bl+'s plans and overhead-charged BL).</li>
 * </ul>
 */
public final class Schedulers {
    /** Every name {@link #parse} accepts. */
    public static final List<String> NAMES = List.of("none", "rr:1", "rr:2", "rr:4", "bl:1", "bl:2", "bl:4", "bl+", "bl+oh");

    private Schedulers() {
    }

    /** The scheduler of a policy name (case and surrounding blanks ignored). */
    public static Scheduler parse(String name) {
        if (name == null) {
            throw new IllegalArgumentException("no scheduler name; valid: " + String.join(", ", NAMES));
        }
        String s = name.trim().toLowerCase(java.util.Locale.ROOT);
        switch (s) {
            case "none":
                return new RoundRobin(1, "none");
            case "rr:1":
                return new RoundRobin(1);
            case "rr:2":
                return new RoundRobin(2);
            case "rr:4":
                return new RoundRobin(4);
            case "bl:1":
                return blBased(1);
            case "bl:2":
                return blBased(2);
            case "bl:4":
                return blBased(4);
            case "bl+":
                return blPlus();
            case "bl+oh":
                return blPlusOverhead();
            default:
                throw new IllegalArgumentException("unknown scheduler '" + name + "'; valid: " + String.join(", ", NAMES));
        }
    }

    /** S3's BLbased(k). */
    public static Scheduler blBased(int k) {
        return new BestOf("bl:" + k, new BottomLeft(k, false, false));
    }

    /** bl+: sharing-aware BL, kept only where it beats plain BL on all engines. */
    public static Scheduler blPlus() {
        return new BestOf("bl+", new BottomLeft(Integer.MAX_VALUE, true, false), new BottomLeft(Integer.MAX_VALUE, false, false),
            new BottomLeft(Integer.MAX_VALUE, true, false, true));
    }

    /** bl+oh: bl+ with the access overhead charged on the chart. */
    public static Scheduler blPlusOverhead() {
        return new BestOf("bl+oh", new BottomLeft(Integer.MAX_VALUE, true, true), new BottomLeft(Integer.MAX_VALUE, false, true),
            new BottomLeft(Integer.MAX_VALUE, true, false), new BottomLeft(Integer.MAX_VALUE, false, false),
            new BottomLeft(Integer.MAX_VALUE, true, true, true), new BottomLeft(Integer.MAX_VALUE, true, false, true));
    }

    /** Times every plan with the {@link Simulator} and keeps the first of the shortest. */
    static final class BestOf implements Scheduler {
        /** The largest set for which bl+ and bl+oh also draw their wide plans. */
        static final int WIDE_MAX_PUTS = 128;

        private final String name;
        private final BottomLeft[] plans;

        BestOf(String name, BottomLeft... plans) {
            this.name = name;
            this.plans = plans;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Schedule schedule(List<Put> puts, MachineModel m) {
            PutArrays in = PutArrays.of(puts);
            Schedule best = null;
            Assignment[] done = new Assignment[plans.length];
            for (int i = 0; i < plans.length; i++) {
                if (sameAsAnEarlierPlan(i, done, in, m)) {
                    continue;
                }
                done[i] = plans[i].plan(in, m);
                Schedule s = Simulator.run(name, in, m, done[i]);
                if (best == null || s.makespanNs() < best.makespanNs() - 1e-6) {
                    best = s;
                }
            }
            return best;
        }

        /**
         * A plan without sharing is the same as one with sharing that formed no group; a wide
         * plan is only drawn where some link carries more puts than {@link MachineModel#linkShare()},
         * and for sets of at most {@link #WIDE_MAX_PUTS} puts (a halo's Startall; on 1,000 random
         * puts it would double bl+'s time for little).
         */
        private boolean sameAsAnEarlierPlan(int i, Assignment[] done, PutArrays in, MachineModel m) {
            BottomLeft b = plans[i];
            if (b.wide()) {
                return in.n > WIDE_MAX_PUTS || m.linkShare() <= 1 || maxPutsPerLink(in) <= m.linkShare();
            }
            if (b.shares()) {
                return false;
            }
            for (int j = 0; j < i; j++) {
                BottomLeft o = plans[j];
                if (done[j] != null && o.shares() && done[j].sharingGroups == 0 && o.k() == b.k()
                    && o.chargesOverhead() == b.chargesOverhead()) {
                    return true;
                }
            }
            return false;
        }

        /** The most puts of one route (the puts that may share their links side by side). */
        private static int maxPutsPerLink(PutArrays in) {
            int[] c = new int[in.routes];
            int max = 0;
            for (int i = 0; i < in.n; i++) {
                max = Math.max(max, ++c[in.route[i]]);
            }
            return max;
        }
    }
}
