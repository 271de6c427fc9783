package org.hympj.rsched;

import java.util.List;

/**
 * Bottom-Left packing of puts on the engine×time chart (Baker, Coffman and Rivest 1980), as
 * S3's BLbased(k), with two optional extensions.
 *
 * <p>Puts are taken longest first (then by direction, then id) and each is placed at the
 * lowest (earliest), then leftmost (lowest engine) spot where its engine is free, no other put
 * is on any of its links (every link of its route: {@link Put#links()}) and a receive engine at
 * its destination is free, for its whole length.
 * Diagonal puts may only use engines 0..k-1; axis puts use every engine. A put's length on the
 * chart is its bytes at the alone bandwidth — S3's chart, which does not see the per-access
 * overhead — unless {@code chargeOverhead}, which adds the access overhead to every put's
 * length (the overhead-aware schedule of S3's future work: every engine access is charged on
 * the chart, which subsumes seeding each engine with one access of pseudo work).
 *
 * <p>With {@code share} (only where a link carries more than one engine pushes) a put may
 * instead be placed together with the next unplaced puts of its link, up to
 * {@link MachineModel#linkShare()} of them, starting at the same instant on different engines
 * and sharing the link (puts of one route only: they share every link of it; their lengths are
 * the shared-bandwidth times the {@link Simulator}
 * gives such a group). For each put the planner compares waiting for the link (the put alone)
 * with sharing it and keeps the option whose estimated completion of the whole set is the
 * earliest: the largest of the chart's end, the engines' fronts plus the remaining work over
 * the engines, and every link's front plus what the remaining puts of that link need on it at
 * least; ties go to the option that ends first, then to waiting.
 *
 * <p>The plan becomes an {@link Assignment}: per engine the puts in chart order, the chosen
 * receive engines, a link group per put (its own, or its sharing group: nothing else may use
 * the link while it is there), priorities in chart order. The {@link Simulator} gives the
 * times.
 */
public final class BottomLeft {
    private final int k;
    private final boolean share;
    private final boolean chargeOverhead;
    private final boolean wide;

    /**
     * @param k              how many engines (the first k) diagonal puts may use
     * @param share          whether puts may be placed side by side on one link
     * @param chargeOverhead whether chart lengths include the per-access overhead
     */
    public BottomLeft(int k, boolean share, boolean chargeOverhead) {
        this(k, share, chargeOverhead, false);
    }

    /**
     * @param wide with {@code share}: groups of up to {@link MachineModel#engines()} puts on one
     *             link instead of {@link MachineModel#linkShare()}, and a group where waiting is
     *             estimated no better. More sharers add no bandwidth, but their access overheads
     *             overlap (which the chart, drawn in length, does not see): four 8 KiB puts on
     *             one tofu link take 7.55 µs together and 2 × 4.28 µs in two pairs.
     */
    public BottomLeft(int k, boolean share, boolean chargeOverhead, boolean wide) {
        if (k < 1) {
            throw new IllegalArgumentException("BLbased needs k >= 1, was " + k);
        }
        this.k = k;
        this.share = share;
        this.chargeOverhead = chargeOverhead;
        this.wide = share && wide;
    }

    /** The plan for {@code puts} on {@code m}. */
    public Assignment plan(List<Put> puts, MachineModel m) {
        return plan(PutArrays.of(puts), m);
    }

    Assignment plan(PutArrays puts, MachineModel m) {
        return new Chart(puts, m, Math.min(k, m.engines()), share && m.linkShare() > 1, chargeOverhead, wide).run();
    }

    boolean shares() {
        return share;
    }

    boolean wide() {
        return wide;
    }

    boolean chargesOverhead() {
        return chargeOverhead;
    }

    int k() {
        return k;
    }

    private static final class Chart {
        private final long[] bytes;
        private final int[] dir;
        /** Per put its distinct links, its links with their loads, its route. */
        private final int[][] linksOf;
        private final int[][] loads;
        private final int[] route;
        private final PutArrays puts;
        private final boolean[] diagonal;
        private final int n;
        private final int engines;
        private final int recvEngines;
        private final int diagEngines;
        private final boolean share;
        private final int groupMax;
        private final double overhead;
        private final double aloneBw;
        private final double engineBw;
        private final double linkBw;
        private final int[] dest;
        private final double[] len;
        private final Timeline[] eng;
        private final Timeline[] link;
        private final Timeline[] recv;
        // the plan
        private final double[] start;
        private final int[] engineOf;
        private final int[] recvOf;
        private final int[] group;
        private final boolean[] placed;
        // for the estimate
        private final double[] engFront;
        private final double[] linkFront;
        private final double[] linkRemBytes;
        private final int[] linkRemCount;
        private double remWork;
        private double chartEnd;
        // per link the puts crossing it, per route its puts, both in placement order
        private final int[][] byLink;
        private final int[] byLinkPos;
        private final int[][] byRoute;
        private final int[] byRoutePos;
        // scratch
        private final int[] members;
        private final double[] memberLen;
        private final int[] memberEngine;
        private final int[] memberRecv;
        private final boolean[] used;
        private final int[] orderA;
        private final int[] orderB;

        private int groups;
        private final boolean wide;

        Chart(PutArrays puts, MachineModel m, int diagEngines, boolean share, boolean chargeOverhead, boolean wide) {
            this.bytes = puts.bytes;
            this.dir = puts.dir;
            this.linksOf = puts.linksOf;
            this.loads = puts.linkLoads;
            this.route = puts.route;
            this.puts = puts;
            this.diagonal = puts.diagonal;
            this.n = puts.n;
            this.engines = m.engines();
            this.recvEngines = m.receiveEngines();
            this.diagEngines = diagEngines;
            this.share = share;
            this.groupMax = share ? (wide ? Math.max(m.linkShare(), m.engines()) : m.linkShare()) : 1;
            this.wide = wide;
            this.overhead = chargeOverhead ? m.accessOverheadNs() : 0;
            this.aloneBw = m.aloneBandwidth();
            this.engineBw = m.engineBandwidth();
            this.linkBw = m.linkBandwidth();
            this.dest = puts.dest;
            int links = puts.links;
            len = new double[n];
            for (int i = 0; i < n; i++) {
                len[i] = overhead + bytes[i] / aloneBw;
            }
            eng = timelines(engines);
            link = timelines(links);
            recv = timelines(puts.dests * recvEngines);
            start = new double[n];
            engineOf = new int[n];
            recvOf = new int[n];
            group = new int[n];
            placed = new boolean[n];
            engFront = new double[engines];
            linkFront = new double[links];
            linkRemBytes = new double[links];
            linkRemCount = new int[links];
            byLink = new int[links][];
            byLinkPos = new int[links];
            byRoute = new int[puts.routes][];
            byRoutePos = new int[puts.routes];
            members = new int[groupMax];
            memberLen = new double[groupMax];
            memberEngine = new int[groupMax];
            memberRecv = new int[groupMax];
            used = new boolean[engines];
            orderA = new int[groupMax];
            orderB = new int[groupMax];
        }

        private static Timeline[] timelines(int c) {
            Timeline[] t = new Timeline[c];
            for (int i = 0; i < c; i++) {
                t[i] = new Timeline();
            }
            return t;
        }

        Assignment run() {
            int[] order = placementOrder();
            for (int i = 0; i < n; i++) {
                remWork += len[i];
                for (int l : loads[i]) {
                    linkRemBytes[l] += bytes[i];
                }
                for (int l : linksOf[i]) {
                    linkRemCount[l]++;
                }
            }
            if (share) {
                int[] c = new int[linkFront.length];
                int[] rc = new int[byRoute.length];
                for (int i = 0; i < n; i++) {
                    for (int l : linksOf[i]) {
                        c[l]++;
                    }
                    rc[route[i]]++;
                }
                for (int l = 0; l < c.length; l++) {
                    byLink[l] = new int[c[l]];
                    c[l] = 0;
                }
                for (int r = 0; r < rc.length; r++) {
                    byRoute[r] = new int[rc[r]];
                    rc[r] = 0;
                }
                for (int p : order) {
                    for (int l : linksOf[p]) {
                        byLink[l][c[l]++] = p;
                    }
                    byRoute[route[p]][rc[route[p]]++] = p;
                }
            }
            for (int p : order) {
                if (!placed[p]) {
                    place(p);
                }
            }
            return assignment();
        }

        /** Longest first, then by direction, then by id. */
        private int[] placementOrder() {
            long maxBytes = 0;
            int maxDir = 0;
            for (int i = 0; i < n; i++) {
                maxBytes = Math.max(maxBytes, bytes[i]);
                maxDir = Math.max(maxDir, dir[i]);
            }
            if (maxBytes < (1L << 40) && maxDir < (1 << 8) && n <= (1 << 15)) {
                // one primitive sort on packed keys: (longest first, direction, id)
                long[] key = new long[n];
                for (int i = 0; i < n; i++) {
                    key[i] = ((1L << 40) - 1 - bytes[i]) << 23 | (long) dir[i] << 15 | i;
                }
                java.util.Arrays.sort(key);
                int[] order = new int[n];
                for (int i = 0; i < n; i++) {
                    order[i] = (int) (key[i] & 0x7fff);
                }
                return order;
            }
            return IntSort.indices(n, (a, b) -> {
                int c = Long.compare(bytes[b], bytes[a]);
                if (c != 0) {
                    return c;
                }
                c = Integer.compare(dir[a], dir[b]);
                return c != 0 ? c : Integer.compare(a, b);
            });
        }

        private int allowed(int p) {
            return diagonal[p] ? diagEngines : engines;
        }

        private void place(int p) {
            int rt = route[p];
            // waiting for the links: p alone at its bottom-left spot
            double aloneStart = single(p);
            int aloneEngine = memberEngine[0];
            int aloneRecv = memberRecv[0];
            if (!share) {
                commitSingle(p, aloneStart, aloneEngine, aloneRecv);
                return;
            }
            double aloneEnd = aloneStart + len[p];
            members[0] = p;
            memberLen[0] = len[p];
            memberEngine[0] = aloneEngine;
            double bestEst = estimate(1, aloneStart);
            double bestEnd = aloneEnd;
            int bestSize = 1;
            double bestStart = aloneStart;
            // sharing: p with the next unplaced puts of its route
            int[] q = byRoute[rt];
            int pos = byRoutePos[rt];
            while (pos < q.length && placed[q[pos]]) {
                pos++;
            }
            byRoutePos[rt] = pos;
            // q[pos] == p
            int[] bestMembers = null;
            int[] bestEngines = null;
            int[] bestRecvs = null;
            double[] bestLens = null;
            for (int g = 2; g <= groupMax; g++) {
                int found = 1;
                members[0] = p;
                for (int j = pos + 1; j < q.length && found < g; j++) {
                    if (!placed[q[j]]) {
                        members[found++] = q[j];
                    }
                }
                if (found < g) {
                    break;
                }
                double t = group(g);
                if (Double.isNaN(t)) {
                    continue;
                }
                double end = 0;
                for (int i = 0; i < g; i++) {
                    end = Math.max(end, t + memberLen[i]);
                }
                double est = estimate(g, t);
                if (est < bestEst - Timeline.EPS || est <= bestEst + Timeline.EPS && (wide || end < bestEnd - Timeline.EPS)) {
                    bestEst = est;
                    bestEnd = end;
                    bestSize = g;
                    bestStart = t;
                    bestMembers = java.util.Arrays.copyOf(members, g);
                    bestEngines = java.util.Arrays.copyOf(memberEngine, g);
                    bestRecvs = java.util.Arrays.copyOf(memberRecv, g);
                    bestLens = java.util.Arrays.copyOf(memberLen, g);
                }
            }
            if (bestSize == 1) {
                commitSingle(p, aloneStart, aloneEngine, aloneRecv);
                return;
            }
            int gid = n + bestMembers[0];
            groups++;
            double end = bestStart;
            for (int i = 0; i < bestSize; i++) {
                int mbr = bestMembers[i];
                double e = bestStart + bestLens[i];
                end = Math.max(end, e);
                commit(mbr, bestStart, e, bestEngines[i], bestRecvs[i], gid);
            }
            holdLinks(p, bestStart, end);
        }

        /**
         * The bottom-left spot of p alone: returns its start; its engine in memberEngine[0]
         * and receive engine in memberRecv[0].
         */
        private double single(int p) {
            double d = len[p];
            int[] lk = linksOf[p];
            int rbase = dest[p] * recvEngines;
            double best = Double.POSITIVE_INFINITY;
            int bestE = -1;
            int lim = allowed(p);
            // no engine can start p before its link and a receive engine are free together
            double from = linkAndReceive(lk, rbase, 0, d);
            for (int e = 0; e < lim; e++) {
                double t = from;
                while (t < best) {
                    double t0 = t;
                    t = eng[e].firstFit(t, d);
                    if (t == t0 || t >= best) {
                        break;
                    }
                    t = linkAndReceive(lk, rbase, t, d);
                }
                if (t < best) {
                    best = t;
                    bestE = e;
                }
            }
            memberEngine[0] = bestE;
            for (int r = 0; r < recvEngines; r++) {
                if (recv[rbase + r].free(best, d)) {
                    memberRecv[0] = r;
                    break;
                }
            }
            return best;
        }

        /** The earliest x >= t at which every link of lk and one receive engine from rbase are free for d. */
        private double linkAndReceive(int[] lk, int rbase, double t, double d) {
            while (true) {
                double t0 = t;
                t = linksFit(lk, t, d);
                double tr = Double.POSITIVE_INFINITY;
                for (int r = 0; r < recvEngines; r++) {
                    tr = Math.min(tr, recv[rbase + r].firstFit(t, d));
                    if (tr == t) {
                        break;
                    }
                }
                t = tr;
                if (t == t0) {
                    return t;
                }
            }
        }

        /** The earliest x >= t at which every link of lk is free for d. */
        private double linksFit(int[] lk, double t, double d) {
            if (lk.length == 1) {
                return link[lk[0]].firstFit(t, d);
            }
            while (true) {
                double t0 = t;
                for (int l : lk) {
                    t = link[l].firstFit(t, d);
                }
                if (t == t0) {
                    return t;
                }
            }
        }

        /**
         * The bottom-left spot of members[0..g) side by side on their links from one instant:
         * fills memberLen (shared lengths), memberEngine, memberRecv; returns the start, or
         * NaN when they cannot run side by side (not enough engines).
         */
        private double group(int g) {
            // shared lengths: all start together, overhead first, then the link split evenly
            // among those still pushing (shortest finishes first)
            int[] byBytes = orderA;
            for (int i = 0; i < g; i++) {
                int k = i;
                long b = bytes[members[i]];
                while (k > 0 && bytes[members[byBytes[k - 1]]] > b) {
                    byBytes[k] = byBytes[k - 1];
                    k--;
                }
                byBytes[k] = i;
            }
            double time = overhead;
            double sent = 0;
            int lim = engines;
            // a route that loads a link twice gives each of its puts half of it
            double routeBw = linkBw / puts.maxLoad(members[0]);
            for (int i = 0; i < g; i++) {
                int mi = byBytes[i];
                long b = bytes[members[mi]];
                double rate = Math.min(engineBw, routeBw / (g - i));
                time += (b - sent) / rate;
                sent = b;
                memberLen[mi] = time;
                lim = Math.min(lim, allowed(members[mi]));
            }
            if (lim < g) {
                return Double.NaN;
            }
            // longest first onto the engines (engines free for the longest are free for the rest)
            int[] byLen = orderB;
            for (int i = 0; i < g; i++) {
                int k = i;
                while (k > 0 && memberLen[byLen[k - 1]] < memberLen[i]) {
                    byLen[k] = byLen[k - 1];
                    k--;
                }
                byLen[k] = i;
            }
            double dmax = memberLen[byLen[0]];
            int[] lk = linksOf[members[0]];
            double t = 0;
            outer:
            while (true) {
                t = linksFit(lk, t, dmax);
                java.util.Arrays.fill(used, 0, lim, false);
                for (int i = 0; i < g; i++) {
                    int mi = byLen[i];
                    double d = memberLen[mi];
                    int chosen = -1;
                    double next = Double.POSITIVE_INFINITY;
                    for (int e = 0; e < lim; e++) {
                        if (used[e]) {
                            continue;
                        }
                        double f = eng[e].firstFit(t, d);
                        if (f == t) {
                            chosen = e;
                            break;
                        }
                        next = Math.min(next, f);
                    }
                    if (chosen < 0) {
                        t = next;
                        continue outer;
                    }
                    used[chosen] = true;
                    memberEngine[mi] = chosen;
                }
                for (int i = 0; i < g; i++) {
                    int mi = byLen[i];
                    double d = memberLen[mi];
                    int rbase = dest[members[mi]] * recvEngines;
                    int chosen = -1;
                    double next = Double.POSITIVE_INFINITY;
                    for (int r = 0; r < recvEngines; r++) {
                        if (takenBySibling(mi, i, byLen, r)) {
                            continue;
                        }
                        double f = recv[rbase + r].firstFit(t, d);
                        if (f == t) {
                            chosen = r;
                            break;
                        }
                        next = Math.min(next, f);
                    }
                    if (chosen < 0) {
                        if (next == Double.POSITIVE_INFINITY) {
                            return Double.NaN; // more members to one destination than it has receive engines
                        }
                        t = next;
                        continue outer;
                    }
                    memberRecv[mi] = chosen;
                }
                return t;
            }
        }

        private boolean takenBySibling(int mi, int upTo, int[] byLen, int r) {
            for (int j = 0; j < upTo; j++) {
                int o = byLen[j];
                if (dest[members[o]] == dest[members[mi]] && memberRecv[o] == r) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The estimated completion of the whole set if members[0..g) were placed from t with
         * lengths memberLen on engines memberEngine.
         */
        private double estimate(int g, double t) {
            double end = chartEnd;
            double fronts = 0;
            double work = remWork;
            int[] lk = linksOf[members[0]];
            for (int e = 0; e < engines; e++) {
                double f = engFront[e];
                for (int i = 0; i < g; i++) {
                    if (memberEngine[i] == e) {
                        f = Math.max(f, t + memberLen[i]);
                    }
                }
                fronts += f;
                end = Math.max(end, f);
            }
            double groupEnd = t;
            for (int i = 0; i < g; i++) {
                work -= len[members[i]];
                groupEnd = Math.max(groupEnd, t + memberLen[i]);
            }
            double est = Math.max(end, (fronts + work) / engines);
            for (int x = 0; x < linkFront.length; x++) {
                if (contains(lk, x)) {
                    double bytesLeft = linkRemBytes[x];
                    for (int i = 0; i < g; i++) {
                        bytesLeft -= bytes[members[i]] * (double) puts.load(members[i], x);
                    }
                    est = Math.max(est, Math.max(linkFront[x], groupEnd)
                        + linkNeed(x, bytesLeft, linkRemCount[x] - g, g));
                } else {
                    est = Math.max(est, linkFront[x] + linkNeed(x, linkRemBytes[x], linkRemCount[x], 0));
                }
            }
            return est;
        }

        private static boolean contains(int[] a, int x) {
            for (int v : a) {
                if (v == x) {
                    return true;
                }
            }
            return false;
        }

        /**
         * At least what the unplaced puts of link x still need on it: one access overhead per
         * group of puts that can share it, and their bytes at the link bandwidth (the largest
         * put at the alone bandwidth).
         */
        private double linkNeed(int x, double bytesLeft, int countLeft, int skip) {
            if (countLeft <= 0) {
                return 0;
            }
            // the largest unplaced put of the link: the first unplaced in byLink order past the members
            int[] q = byLink[x];
            int pos = byLinkPos[x];
            while (pos < q.length && placed[q[pos]]) {
                pos++;
            }
            byLinkPos[x] = pos;
            double largest = 0;
            int skipped = 0;
            for (int j = pos; j < q.length; j++) {
                if (placed[q[j]]) {
                    continue;
                }
                if (skipped < skip && isMember(q[j], skip)) {
                    skipped++;
                    continue;
                }
                largest = bytes[q[j]];
                break;
            }
            int groups = (countLeft + groupMax - 1) / groupMax;
            return groups * overhead + Math.max(bytesLeft / linkBw, largest / aloneBw);
        }

        private boolean isMember(int p, int g) {
            for (int i = 0; i < g; i++) {
                if (members[i] == p) {
                    return true;
                }
            }
            return false;
        }

        private void commitSingle(int p, double t, int e, int r) {
            commit(p, t, t + len[p], e, r, p);
            holdLinks(p, t, t + len[p]);
        }

        /** Books every link of p's route (its group's, for a group) from start to end on the chart. */
        private void holdLinks(int p, double start, double end) {
            for (int l : linksOf[p]) {
                link[l].add(start, end);
                linkFront[l] = Math.max(linkFront[l], end);
            }
        }

        private void commit(int p, double t, double end, int e, int r, int gid) {
            placed[p] = true;
            start[p] = t;
            engineOf[p] = e;
            recvOf[p] = r;
            group[p] = gid;
            eng[e].add(t, end);
            recv[dest[p] * recvEngines + r].add(t, end);
            engFront[e] = Math.max(engFront[e], end);
            chartEnd = Math.max(chartEnd, end);
            remWork -= len[p];
            for (int l : loads[p]) {
                linkRemBytes[l] -= bytes[p];
            }
            for (int l : linksOf[p]) {
                linkRemCount[l]--;
            }
        }

        private Assignment assignment() {
            int[] byStart = IntSort.indices(n, (a, b) -> {
                int c = Double.compare(start[a], start[b]);
                if (c != 0) {
                    return c;
                }
                c = Integer.compare(engineOf[a], engineOf[b]);
                return c != 0 ? c : Integer.compare(a, b);
            });
            int[] count = new int[engines];
            for (int i = 0; i < n; i++) {
                count[engineOf[i]]++;
            }
            int[][] queues = new int[engines][];
            for (int e = 0; e < engines; e++) {
                queues[e] = new int[count[e]];
                count[e] = 0;
            }
            int[] priority = new int[n];
            for (int i = 0; i < n; i++) {
                int p = byStart[i];
                priority[p] = i;
                queues[engineOf[p]][count[engineOf[p]]++] = p;
            }
            Assignment a = new Assignment(queues, recvOf, group, priority, null);
            a.sharingGroups = groups;
            return a;
        }
    }
}
