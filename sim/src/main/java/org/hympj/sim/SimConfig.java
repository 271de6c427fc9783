package org.hympj.sim;

import org.hympj.model.FabricOptions;

/**
 * The job options the simulator honours, with the launcher's defaults: the same names as
 * {@code bin/mpjrun} ({@code --model}, {@code --subcluster}, {@code --route}, {@code --route-table},
 * {@code --sched}, {@code --sched-barrier}, {@code --eager-limit}, {@code --coll barrier=...}).
 */
public final class SimConfig {
    public int np = 2;
    public String model = "ha-pacs";
    /** TCA subcluster size; 0 = every rank in one subcluster (the launcher's default). */
    public int subcluster;
    /**
     * auto, tca, ib, hybrid or tca+ib (auto under a model is hybrid; tca+ib: TCA where it reaches, IB
     * elsewhere, without the router's table), as {@link FabricOptions#route}.
     */
    public String route = "auto";
    public String routeTable = "";
    /** -1 = the route table's striping threshold, 0 = off. */
    public long stripe = -1;
    /** RSched policy for persistent TCA sets, or none. */
    public String sched = "none";
    public boolean schedBarrier;
    /** -1 = the launcher's default for the job size. */
    public int eagerLimit = -1;
    /** The job's default barrier: dissemination, rd or ring. */
    public String barrier = "dissemination";
    /** Point-to-point: twosided, or onesided (S2's isend/irecv from one-sided writes; collectives stay two-sided). */
    public String p2p = "twosided";

    public SimConfig copy() {
        SimConfig c = new SimConfig();
        c.np = np;
        c.model = model;
        c.subcluster = subcluster;
        c.route = route;
        c.routeTable = routeTable;
        c.stripe = stripe;
        c.sched = sched;
        c.schedBarrier = schedBarrier;
        c.eagerLimit = eagerLimit;
        c.barrier = barrier;
        c.p2p = p2p;
        return c;
    }

    public int effectiveSubcluster() {
        return subcluster <= 0 ? np : subcluster;
    }

    public long effectiveEagerLimit() {
        return eagerLimit >= 0 ? eagerLimit : FabricOptions.defaultEagerLimit(FabricOptions.defaultBulkBytes(np));
    }

    /** The fabric options of the same job under the launcher (route {@code tca+ib} included). */
    public FabricOptions fabricOptions() {
        return new FabricOptions(model, np, effectiveSubcluster(), route, routeTable, stripe, sched, schedBarrier);
    }

    @Override
    public String toString() {
        return "np " + np + ", model " + model + ", subcluster " + effectiveSubcluster() + ", route " + route
            + (sched.equals("none") ? "" : ", sched " + sched + (schedBarrier ? " (barrier)" : ""))
            + ", eager limit " + effectiveEagerLimit() + ", barrier " + barrier
            + (p2p.equals("onesided") ? ", p2p onesided" : "");
    }
}
