package org.hympj.router;

import org.hympj.spi.Layout;

/**
 * The fabric each message takes: the one decision the emulator's engine and the simulator
 * both ask, per call or once per persistent request. With a {@link HybridPolicy} the router
 * decides by reachability, layout and size; without one the job's {@code --route} does:
 * {@code tca} forces TCA (an error for a peer outside the subcluster), {@code ib} forces IB,
 * {@code auto} and {@code tca+ib} take TCA where it reaches and IB elsewhere. A job with one
 * channel (native shared memory) has nothing to choose. Pure and allocation-free.
 */
public final class RouteChoice {
    /** Whether the TCA subcluster links two world ranks (the topology's answer). */
    @FunctionalInterface
    public interface Reach {
        boolean tcaReaches(int a, int b);
    }

    /** The rank that stands for "no peer" (Comm.PROC_NULL): it takes channel 0 and is never striped. */
    public static final int NO_PEER = -1;

    private final HybridPolicy policy;
    private final String route;
    private final Reach reach;
    private final int channels;
    private final int subcluster;

    /**
     * @param policy     the hybrid router's policy, or null when the route is not hybrid
     * @param route      auto, tca, ib or tca+ib (ignored under a policy)
     * @param reach      the topology's reachability
     * @param channels   1 natively (one channel, nothing to choose), 2 with TCA and IB
     * @param subcluster ranks per TCA subcluster (only to name them in errors)
     */
    public RouteChoice(HybridPolicy policy, String route, Reach reach, int channels, int subcluster) {
        this.policy = policy;
        this.route = route;
        this.reach = reach;
        this.channels = channels;
        this.subcluster = Math.max(1, subcluster);
    }

    /** The hybrid router's policy, or null. */
    public HybridPolicy policy() {
        return policy;
    }

    public boolean hybrid() {
        return policy != null;
    }

    public boolean tcaReaches(int a, int b) {
        return reach.tcaReaches(a, b);
    }

    /**
     * The channel (0 = TCA, 1 = IB) of a message of {@code bytes} in {@code layout} from
     * {@code src} to {@code dest}.
     *
     * @throws IllegalArgumentException under a forced TCA route to a rank TCA does not reach
     */
    public int channel(int src, int dest, long bytes, Layout layout, String op) {
        if (policy != null && dest != NO_PEER) {
            return policy.choose(reach.tcaReaches(src, dest), bytes, layout);
        }
        return forcedChannel(src, dest, op);
    }

    /**
     * The channel without the router's table: the forced route, or TCA where it reaches. Checked
     * by the API at the call, so a route error is thrown before any state changes.
     *
     * @throws IllegalArgumentException under {@code --route tca} to a rank outside the subcluster
     */
    public int forcedChannel(int src, int dest, String op) {
        if (channels == 1 || dest == NO_PEER) {
            return 0;
        }
        boolean reaches = reach.tcaReaches(src, dest);
        switch (route) {
            case "tca":
                if (!reaches) {
                    int first = src - src % subcluster;
                    throw new IllegalArgumentException(op + ": --route tca, but rank " + dest + " is outside rank "
                        + src + "'s TCA subcluster (ranks " + first + ".." + (first + subcluster - 1)
                        + "); only IB reaches it");
                }
                return 0;
            case "ib":
                return 1;
            default:
                return reaches ? 0 : 1;
        }
    }

    /** True when the hybrid router splits this message over both fabrics. */
    public boolean stripe(int src, int dest, long bytes, Layout layout) {
        return policy != null && dest != NO_PEER && policy.stripe(reach.tcaReaches(src, dest), bytes, layout);
    }

    /** Bytes of a striped message that go over TCA (the rest over IB). */
    public long tcaPart(long bytes) {
        return policy.tcaPart(bytes);
    }

    /** Why the message took its channel, as the trace journal names it. */
    public String why(int dest, int channel, boolean striped, boolean modelled) {
        if (policy != null && dest != NO_PEER) {
            return striped ? "hybrid-striped" : channel == 0 ? "hybrid-tca" : "hybrid-ib";
        }
        return !modelled ? "native" : channel == 0 ? "tca" : "ib";
    }
}
