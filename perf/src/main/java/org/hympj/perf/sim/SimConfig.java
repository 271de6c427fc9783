package org.hympj.perf.sim;

import org.hympj.shm.job.JobConfig;

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
     * auto, tca, ib or hybrid (auto under a model is hybrid, as in {@code JobConfig.hybrid()}); and,
     * for the simulator only, tca+ib: TCA where it reaches, IB elsewhere, without the router's table.
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
        return c;
    }

    int effectiveSubcluster() {
        return subcluster <= 0 ? np : subcluster;
    }

    long effectiveEagerLimit() {
        return eagerLimit >= 0 ? eagerLimit : JobConfig.defaultEagerLimit(JobConfig.defaultBulkBytes(np));
    }

    /** The emulator's job configuration for the same options (what {@code FabricTiming.modelFor} reads). */
    JobConfig jobConfig() {
        JobConfig d = JobConfig.defaults("hympj-sim", np);
        JobConfig c = d.with(d.segmentBytes, d.ringBytes, d.bulkBytes, d.inlineLimit, d.eagerLimit, model,
            effectiveSubcluster(), d.idle, "barrier=" + barrier);
        return c.withTiming(route.equals("tca+ib") ? "tca" : route, 0).withRouting(routeTable, stripe).withSched(sched, schedBarrier);
    }

    @Override
    public String toString() {
        return "np " + np + ", model " + model + ", subcluster " + effectiveSubcluster() + ", route " + route
            + (sched.equals("none") ? "" : ", sched " + sched + (schedBarrier ? " (barrier)" : ""))
            + ", eager limit " + effectiveEagerLimit() + ", barrier " + barrier;
    }
}
