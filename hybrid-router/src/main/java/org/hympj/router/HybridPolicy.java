package org.hympj.router;

import org.hympj.spi.Layout;

/**
 * The per-message path decision (the BML between the protocol layer and the fabrics):
 * reachability first (a peer outside the TCA subcluster ⇒ IB), then the thresholds table by
 * layout and size. Pure and allocation-free; decided once per persistent request, per call
 * otherwise.
 */
public final class HybridPolicy {
    public static final int TCA = 0;
    public static final int IB = 1;

    private final RouteTable table;
    private final double tcaShare;

    /**
     * @param tcaBandwidth TCA bandwidth, for the striping split (any unit, as ibBandwidth)
     */
    public HybridPolicy(RouteTable table, double tcaBandwidth, double ibBandwidth) {
        this.table = table;
        this.tcaShare = tcaBandwidth / (tcaBandwidth + ibBandwidth);
    }

    public RouteTable table() {
        return table;
    }

    /** TCA or IB for a message of {@code bytes} in {@code layout}. */
    public int choose(boolean tcaReaches, long bytes, Layout layout) {
        if (!tcaReaches) {
            return IB;
        }
        return bytes <= table.tcaUpTo(layout) ? TCA : IB;
    }

    /** True when the message is split over both fabrics. */
    public boolean stripe(boolean tcaReaches, long bytes, Layout layout) {
        long t = table.stripeThreshold();
        return tcaReaches && layout == Layout.CONTIGUOUS && t > 0 && bytes >= t;
    }

    /** Bytes of a striped message that go over TCA (the rest over IB), in proportion to bandwidth. */
    public long tcaPart(long bytes) {
        long part = Math.round(bytes * tcaShare);
        return Math.max(1, Math.min(bytes - 1, part));
    }
}
