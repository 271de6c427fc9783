package org.hympj.model;

import org.hympj.router.RouteChoice;
import org.hympj.rsched.Scheduler;

/**
 * The decisions a set of messages is made under: its route policy ({@code --route} or a
 * communicator's {@code hympj.route} hint) and its RSched policy ({@code --sched} or
 * {@code hympj.sched}). A job has one by default ({@link JobFabric#policy()}); a communicator
 * with hints has its own ({@link JobFabric#policy(String, String)}), built by the same code.
 * Immutable.
 */
public final class FabricPolicy {
    private final String sched;
    private final String route;
    private final RouteChoice routes;
    private final Scheduler scheduler;
    private final boolean handshakePuts;

    FabricPolicy(String sched, String route, RouteChoice routes, Scheduler scheduler, boolean handshakePuts) {
        this.sched = sched;
        this.route = route;
        this.routes = routes;
        this.scheduler = scheduler;
        this.handshakePuts = handshakePuts;
    }

    /** The --sched value: none, rndv or an RSched policy name. */
    public String sched() {
        return sched;
    }

    /** The --route value. */
    public String route() {
        return route;
    }

    /** The route of every message. */
    public RouteChoice routes() {
        return routes;
    }

    /** RSched's scheduler for persistent TCA sets, or null (no model, or none/rndv). */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** Under rndv with a model: a rendezvous's RTS and CTS are planned as control puts. */
    public boolean handshakePuts() {
        return handshakePuts;
    }

    @Override
    public String toString() {
        return "sched " + sched + ", route " + route;
    }
}
