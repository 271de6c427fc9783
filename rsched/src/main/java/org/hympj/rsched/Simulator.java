package org.hympj.rsched;

import java.util.List;

/**
 * Times any {@link Assignment} with one set of rules, so that every policy's makespan is
 * computed the same way (event-driven, continuous time in ns):
 * <ol>
 *   <li>Each send engine runs its list in order, one put at a time; a put holds its engine until
 *       its bytes are in the first link of its route.</li>
 *   <li>A put starts when its engine is free, its not-before time has come, its receive engine
 *       at the destination is free (a receive engine serves one put at a time) and each of its
 *       links is free or held only by puts of its own link group ({@link Assignment#SHARED}:
 *       links are never held). Puts that could start at the same instant and want the same link
 *       or receive engine go in priority order.</li>
 *   <li>A started put first spends the access overhead on its engine (no bytes move), then its
 *       bytes flow through every link of its route at once: into the first at
 *       {@code min(engineBandwidth, linkBandwidth / n)}, through each later one at
 *       {@code linkBandwidth / n}, n the number of flows in that link at that moment (each link's
 *       bandwidth is shared evenly among the puts using it; a put that loads a link twice is two
 *       flows; rates change whenever a flow begins or ends). The later links forward what they
 *       receive as the emulator's model does (each link carries a put's work independently of the
 *       others, from the end of the access overhead): the engine is free once the first link has
 *       its bytes, the put is done when the last link has carried them. A put over one link
 *       (S3's machine) is one flow, limited by its engine and its link.</li>
 *   <li>The links and receive engine are held from the put's start to its end.</li>
 * </ol>
 * Cost: O(n · (engines + links per put)) per event for n puts.
 */
public final class Simulator {
    private static final int WAITING = 0;
    private static final int OVERHEAD = 1;
    private static final int DATA = 2;
    /** The engine is done; the put's bytes still cross the later links of its route. */
    private static final int DRAIN = 3;
    private static final int DONE = 4;
    /** A later link's flow that has ended and been counted. */
    private static final double DRAINED = -1;

    private Simulator() {
    }

    /** Runs {@code a} on {@code m}; the slots of the result are the simulated times. */
    public static Schedule run(String policy, List<Put> puts, MachineModel m, Assignment a) {
        return run(policy, PutArrays.of(puts), m, a);
    }

    static Schedule run(String policy, PutArrays in, MachineModel m, Assignment a) {
        int n = in.n;
        int engines = m.engines();
        int recvEngines = m.receiveEngines();
        if (a.receiveEngine.length != n || a.notBefore != null && a.notBefore.length != n) {
            throw new IllegalArgumentException("assignment arrays must have one entry per put (" + n + ")");
        }
        if (a.queues.length != engines) {
            throw new IllegalArgumentException("assignment has " + a.queues.length + " engine lists, the machine " + engines + " engines");
        }
        int[] engineOf = new int[n];
        java.util.Arrays.fill(engineOf, -1);
        for (int e = 0; e < engines; e++) {
            for (int p : a.queues[e]) {
                if (p < 0 || p >= n) {
                    throw new IllegalArgumentException("engine " + e + " lists put " + p + ", not in 0.." + (n - 1));
                }
                if (engineOf[p] >= 0) {
                    throw new IllegalArgumentException("put " + p + " is listed twice");
                }
                engineOf[p] = e;
            }
        }
        for (int p = 0; p < n; p++) {
            if (engineOf[p] < 0) {
                throw new IllegalArgumentException("put " + p + " is on no engine");
            }
            int r = a.receiveEngine[p];
            if (r < 0 || r >= recvEngines) {
                throw new IllegalArgumentException("put " + p + ": receive engine " + r + " not in 0.." + (recvEngines - 1));
            }
        }
        int[] dest = in.dest;
        int links = in.links;
        long[] bytes = in.bytes;
        int[][] linksOf = in.linksOf;
        int[][] loads = in.linkLoads;
        // SHARED: any put may join a link (round-robin's link sharing); else a link is held by one group
        boolean holdLinks = a.linkGroup != Assignment.SHARED;
        int[] group = holdLinks ? a.linkGroup : null;
        int[] prio = a.priority;
        if (a.linkGroup == Assignment.EXCLUSIVE || prio == null) {
            int[] ids = new int[n];
            for (int p = 0; p < n; p++) {
                ids[p] = p;
            }
            group = a.linkGroup == Assignment.EXCLUSIVE ? ids : group;
            prio = prio == null ? ids : prio;
        }
        if (group != null && group.length != n || prio.length != n) {
            throw new IllegalArgumentException("assignment arrays must have one entry per put (" + n + ")");
        }
        if (group != null && group == a.linkGroup) {
            for (int g : group) {
                if (g < 0) {
                    throw new IllegalArgumentException("link groups must be >= 0, found " + g);
                }
            }
        }
        double[] notBefore = a.notBefore;
        double overhead = m.accessOverheadNs();
        double engineBw = m.engineBandwidth();
        double linkBw = m.linkBandwidth();

        int[] phase = new int[n];
        double[] rem = new double[n];
        // per put, per link load j >= 1 (the links after the first): the bytes still to cross it
        double[][] down = new double[n][];
        int[] downLeft = new int[n];
        double[] start = new double[n];
        double[] end = new double[n];
        int[] running = new int[engines];
        int[] pos = new int[engines];
        java.util.Arrays.fill(running, -1);
        int[] linkOwner = new int[links];
        java.util.Arrays.fill(linkOwner, -1);
        int[] linkHolders = new int[links];
        int[] linkFlows = new int[links];
        boolean[] recvBusy = new boolean[in.dests * recvEngines];
        int[] cand = new int[engines];
        // the puts started and not done, in start order
        int[] active = new int[n];
        int nActive = 0;

        double t = 0;
        int done = 0;
        while (done < n) {
            // start whatever can start now, settling zero-length phases, until nothing changes
            boolean changed = true;
            while (changed) {
                changed = false;
                int c = 0;
                for (int e = 0; e < engines; e++) {
                    if (running[e] < 0 && pos[e] < a.queues[e].length) {
                        int p = a.queues[e][pos[e]];
                        if (phase[p] == WAITING && (notBefore == null || notBefore[p] <= t + 1e-9)) {
                            int k = c++;
                            while (k > 0 && (prio[cand[k - 1]] > prio[p] || prio[cand[k - 1]] == prio[p] && cand[k - 1] > p)) {
                                cand[k] = cand[k - 1];
                                k--;
                            }
                            cand[k] = p;
                        }
                    }
                }
                for (int i = 0; i < c; i++) {
                    int p = cand[i];
                    int r = dest[p] * recvEngines + a.receiveEngine[p];
                    if (recvBusy[r] || holdLinks && linkHeld(linksOf[p], group[p], linkOwner)) {
                        continue;
                    }
                    recvBusy[r] = true;
                    if (holdLinks) {
                        for (int l : linksOf[p]) {
                            linkOwner[l] = group[p];
                            linkHolders[l]++;
                        }
                    }
                    running[engineOf[p]] = p;
                    start[p] = t;
                    phase[p] = OVERHEAD;
                    rem[p] = overhead;
                    active[nActive++] = p;
                    changed = true;
                }
                for (int i = 0; i < nActive; i++) {
                    int p = active[i];
                    if (phase[p] == OVERHEAD && rem[p] <= 0) {
                        phase[p] = DATA;
                        rem[p] = bytes[p];
                        int[] lp = loads[p];
                        linkFlows[lp[0]]++;
                        if (lp.length > 1) {
                            down[p] = new double[lp.length];
                            for (int j = 1; j < lp.length; j++) {
                                down[p][j] = bytes[p];
                                linkFlows[lp[j]]++;
                            }
                            downLeft[p] = lp.length - 1;
                        }
                        changed = true;
                    }
                    if (phase[p] == DATA && rem[p] <= 0) {
                        // the engine has pushed its bytes into the first link: it is free for its next put
                        linkFlows[loads[p][0]]--;
                        int e = engineOf[p];
                        running[e] = -1;
                        pos[e]++;
                        phase[p] = DRAIN;
                        changed = true;
                    }
                    if (downLeft[p] > 0) {
                        int[] lp = loads[p];
                        for (int j = 1; j < lp.length; j++) {
                            if (down[p][j] <= 0 && down[p][j] != DRAINED) {
                                down[p][j] = DRAINED;
                                linkFlows[lp[j]]--;
                                downLeft[p]--;
                                changed = true;
                            }
                        }
                    }
                    if (phase[p] == DRAIN && downLeft[p] == 0) {
                        finish(p, t, dest, recvEngines, a.receiveEngine, holdLinks ? linksOf[p] : NONE, phase, end,
                            recvBusy, linkOwner, linkHolders);
                        active[i--] = active[--nActive];
                        done++;
                        changed = true;
                    }
                }
            }
            if (done == n) {
                break;
            }
            // the next event: a phase or a flow ends, or a not-before time comes
            double dt = Double.POSITIVE_INFINITY;
            for (int i = 0; i < nActive; i++) {
                int p = active[i];
                if (phase[p] == OVERHEAD) {
                    dt = Math.min(dt, rem[p]);
                    continue;
                }
                int[] lp = loads[p];
                if (phase[p] == DATA) {
                    dt = Math.min(dt, rem[p] / Math.min(engineBw, linkBw / linkFlows[lp[0]]));
                }
                for (int j = 1; j < lp.length; j++) {
                    if (down[p][j] > 0) {
                        dt = Math.min(dt, down[p][j] / (linkBw / linkFlows[lp[j]]));
                    }
                }
            }
            for (int e = 0; e < engines; e++) {
                if (running[e] < 0 && notBefore != null && pos[e] < a.queues[e].length) {
                    double w = notBefore[a.queues[e][pos[e]]] - t;
                    if (w > 1e-9) {
                        dt = Math.min(dt, w);
                    }
                }
            }
            if (dt == Double.POSITIVE_INFINITY) {
                throw new IllegalStateException("simulation stuck at " + t + " ns with " + (n - done) + " puts left");
            }
            t += dt;
            // what would end within rounding of now ends now; settled at the top of the loop
            double slack = dt * 1e-12 + 1e-9;
            for (int i = 0; i < nActive; i++) {
                int p = active[i];
                if (phase[p] == OVERHEAD) {
                    rem[p] = rem[p] - dt <= slack ? 0 : rem[p] - dt;
                    continue;
                }
                int[] lp = loads[p];
                if (phase[p] == DATA) {
                    double rate = Math.min(engineBw, linkBw / linkFlows[lp[0]]);
                    rem[p] = rem[p] - rate * dt <= rate * slack ? 0 : rem[p] - rate * dt;
                }
                for (int j = 1; j < lp.length; j++) {
                    if (down[p][j] > 0) {
                        double rate = linkBw / linkFlows[lp[j]];
                        down[p][j] = down[p][j] - rate * dt <= rate * slack ? 0 : down[p][j] - rate * dt;
                    }
                }
            }
        }
        return Schedule.of(policy, in.list, m, a.queues, engineOf, a.receiveEngine, start, end);
    }

    private static final int[] NONE = new int[0];

    /** True when one of {@code links} is held by a group other than {@code group}. */
    private static boolean linkHeld(int[] links, int group, int[] linkOwner) {
        for (int l : links) {
            if (linkOwner[l] >= 0 && linkOwner[l] != group) {
                return true;
            }
        }
        return false;
    }

    private static void finish(int p, double t, int[] dest, int recvEngines, int[] recv, int[] held, int[] phase,
                               double[] end, boolean[] recvBusy, int[] linkOwner, int[] linkHolders) {
        phase[p] = DONE;
        end[p] = t;
        recvBusy[dest[p] * recvEngines + recv[p]] = false;
        for (int l : held) {
            if (--linkHolders[l] == 0) {
                linkOwner[l] = -1;
            }
        }
    }
}
