package org.hympj.shm.pml;

import org.hympj.router.RouteChoice;
import org.hympj.router.RouteStatistics;
import org.hympj.router.RouteTable;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.spi.Layout;

/**
 * The hybrid router as the PML sees it (Open MPI's BML): the channel of each message, whether
 * it is striped, the decisions' statistics and trace.
 */
final class Routing {
    private final RouteChoice routes;
    private final RouteStatistics stats = new RouteStatistics();
    private final TraceEvents events;
    private final int rank;
    private final boolean counted;
    private final boolean modelled;
    /** A job on several hosts: per peer, whether the host's shared memory reaches it (else the network); else null. */
    private final boolean[] local;

    Routing(RouteChoice routes, int rank, int channels, boolean modelled, TraceEvents events, ShmFabric fabric) {
        this.routes = routes;
        this.rank = rank;
        this.counted = channels > 1;
        if (fabric.singleHost()) {
            this.local = null;
        } else {
            this.local = new boolean[fabric.size()];
            String[] via = new String[fabric.size()];
            for (int p = 0; p < local.length; p++) {
                local[p] = fabric.local(p);
                via[p] = local[p] ? "shm" : "net";
            }
            events.transports(via);
        }
        this.modelled = modelled;
        this.events = events;
    }

    RouteStatistics statistics() {
        return stats;
    }

    /** The hybrid router's table, or null when routing is not hybrid. */
    RouteTable table() {
        return routes.hybrid() ? routes.policy().table() : null;
    }

    /** The router's choice under {@code r} (a communicator's routes), or the forced route, or the one native channel. */
    int channelFor(RouteChoice r, int dest, long bytes, Layout layout, String op) {
        return r.channel(rank, dest, bytes, layout, op);
    }

    /** The channel without the router's table: natively the one channel; emulating, the forced route of {@code r}. */
    int channelFor(RouteChoice r, int dest, String op) {
        return r.forcedChannel(rank, dest, op);
    }

    boolean stripeFor(RouteChoice r, int dest, long bytes, Layout layout) {
        return r.stripe(rank, dest, bytes, layout);
    }

    /** Traced, records the route decided for {@code s} (its channel, and why). */
    void trace(SendReq s) {
        events.route(s, s.policy.routes(), modelled);
    }

    /**
     * Counts a started send per fabric (2: striped) and layout, when there is more than one
     * fabric; in a job on several hosts, per transport (shared memory or network).
     */
    void count(SendReq s) {
        if (counted) {
            stats.count(s.stripe ? 2 : s.channel, s.layout, s.buf.bytes);
        } else if (local != null && s.dest >= 0) {
            stats.count(local[s.dest] ? RouteStatistics.SHM : RouteStatistics.NET, s.layout, s.buf.bytes);
        }
    }
}
