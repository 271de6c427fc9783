package org.hympj.rsched;

import java.util.List;

/**
 * A lower bound on the makespan of any schedule of a put set, to report how close a schedule
 * is. The largest of:
 * <ul>
 *   <li>{@code workNs}: the sum of the puts' alone durations (access overhead included) over
 *       the engines — every put holds a send engine at least that long;</li>
 *   <li>{@code linkNs}: the busiest link's bytes (every put crossing it, {@link Put#links()}) over
 *       the link bandwidth, plus one access
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
        PutArrays in = PutArrays.of(puts);
        if (in.n == 0) {
            return new LowerBound(0, 0, 0, 0, 0);
        }
        double total = 0;
        double longest = 0;
        for (Put p : puts) {
            double d = m.durationNs(p);
            total += d;
            longest = Math.max(longest, d);
        }
        double[] linkBytes = new double[in.links];
        double[] recvWork = new double[in.dests];
        for (Put p : puts) {
            for (int l : in.linkLoads[p.id()]) {
                linkBytes[l] += p.bytes();
            }
            recvWork[in.dest[p.id()]] += m.durationNs(p);
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
