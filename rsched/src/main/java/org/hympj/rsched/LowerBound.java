package org.hympj.rsched;

import java.util.List;

/**
 * A lower bound on the makespan of any schedule of a put set, to report how close a schedule
 * is. The largest of:
 * <ul>
 *   <li>{@code workNs}: the sum of the puts' alone durations (access overhead included) over
 *       the engines — every put holds a send engine at least that long;</li>
 *   <li>{@code linkNs}: the busiest link's bytes over the link bandwidth, plus one access
 *       overhead — no byte enters a link before the first access on an engine is over, and a
 *       link never carries more than its bandwidth (the plain {@code bytes/linkBandwidth} of
 *       DESIGN §7 is {@link #linkBytesNs});</li>
 *   <li>{@code receiveNs}: the busiest destination's alone durations over its receive
 *       engines — every put holds one receive engine for its whole slot;</li>
 *   <li>{@code longestNs}: the longest put alone.</li>
 * </ul>
 */
public record LowerBound(double workNs, double linkNs, double linkBytesNs, double receiveNs, double longestNs) {

    /** The bound: the largest of the terms. */
    public double valueNs() {
        return Math.max(Math.max(workNs, linkNs), Math.max(receiveNs, longestNs));
    }

    /** Which term is the bound ("work", "link", "receive", "longest"). */
    public String binding() {
        double v = valueNs();
        if (v == 0 || v == workNs) {
            return "work";
        }
        if (v == linkNs) {
            return "link";
        }
        return v == receiveNs ? "receive" : "longest";
    }

    public static LowerBound of(List<Put> puts, MachineModel m) {
        Puts.check(puts);
        int n = puts.size();
        if (n == 0) {
            return new LowerBound(0, 0, 0, 0, 0);
        }
        double total = 0;
        double longest = 0;
        int links = 0;
        for (Put p : puts) {
            double d = m.durationNs(p);
            total += d;
            longest = Math.max(longest, d);
            links = Math.max(links, p.direction() + 1);
        }
        double[] linkBytes = new double[links];
        int[] dest = Puts.denseDestinations(puts);
        double[] recvWork = new double[Puts.count(dest)];
        for (Put p : puts) {
            linkBytes[p.direction()] += p.bytes();
            recvWork[dest[p.id()]] += m.durationNs(p);
        }
        double busiestLink = 0;
        for (double b : linkBytes) {
            busiestLink = Math.max(busiestLink, b);
        }
        double busiestRecv = 0;
        for (double w : recvWork) {
            busiestRecv = Math.max(busiestRecv, w);
        }
        double linkBytesNs = busiestLink / m.linkBandwidth();
        return new LowerBound(total / m.engines(), m.accessOverheadNs() + linkBytesNs, linkBytesNs,
            busiestRecv / m.receiveEngines(), longest);
    }
}
