package org.hympj.rsched;

import java.util.List;

/**
 * Times any {@link Assignment} with one set of rules, so that every policy's makespan is
 * computed the same way (event-driven, continuous time in ns):
 * <ol>
 *   <li>Each send engine runs its list in order, one put at a time; a put holds its engine for
 *       its whole slot.</li>
 *   <li>A put starts when its engine is free, its not-before time has come, its receive engine
 *       at the destination is free (a receive engine serves one put at a time) and its link is
 *       free or held only by puts of its own link group. Puts that could start at the same
 *       instant and want the same link or receive engine go in priority order.</li>
 *   <li>A started put first spends the access overhead on its engine (no bytes move), then
 *       pushes its bytes at {@code min(engineBandwidth, linkBandwidth / n)}, n the number of
 *       puts pushing bytes into the same link at that moment (the link's bandwidth is shared
 *       evenly; rates change whenever a put begins or ends pushing).</li>
 *   <li>The link and receive engine are held from the put's start to its end.</li>
 * </ol>
 * Cost: O(n · engines) for n puts.
 */
public final class Simulator {
    private static final int WAITING = 0;
    private static final int OVERHEAD = 1;
    private static final int DATA = 2;
    private static final int DONE = 3;

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
        int[] link = in.dir;
        int[] group = a.linkGroup == Assignment.SHARED ? link : a.linkGroup;
        int[] prio = a.priority;
        if (a.linkGroup == Assignment.EXCLUSIVE || prio == null) {
            int[] ids = new int[n];
            for (int p = 0; p < n; p++) {
                ids[p] = p;
            }
            group = a.linkGroup == Assignment.EXCLUSIVE ? ids : group;
            prio = prio == null ? ids : prio;
        }
        if (group.length != n || prio.length != n) {
            throw new IllegalArgumentException("assignment arrays must have one entry per put (" + n + ")");
        }
        if (group != link) {
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
        double[] start = new double[n];
        double[] end = new double[n];
        int[] running = new int[engines];
        int[] pos = new int[engines];
        java.util.Arrays.fill(running, -1);
        int[] linkOwner = new int[links];
        java.util.Arrays.fill(linkOwner, -1);
        int[] linkHolders = new int[links];
        int[] linkPushing = new int[links];
        boolean[] recvBusy = new boolean[in.dests * recvEngines];
        int[] cand = new int[engines];
        double[] tte = new double[engines];
        double[] rate = new double[engines];

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
                        if (notBefore == null || notBefore[p] <= t + 1e-9) {
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
                    int l = link[p];
                    if (recvBusy[r] || linkOwner[l] >= 0 && linkOwner[l] != group[p]) {
                        continue;
                    }
                    recvBusy[r] = true;
                    linkOwner[l] = group[p];
                    linkHolders[l]++;
                    running[engineOf[p]] = p;
                    start[p] = t;
                    phase[p] = OVERHEAD;
                    rem[p] = overhead;
                    changed = true;
                }
                for (int e = 0; e < engines; e++) {
                    int p = running[e];
                    if (p < 0) {
                        continue;
                    }
                    if (phase[p] == OVERHEAD && rem[p] <= 0) {
                        phase[p] = DATA;
                        rem[p] = bytes[p];
                        linkPushing[link[p]]++;
                        changed = true;
                    }
                    if (phase[p] == DATA && rem[p] <= 0) {
                        finish(p, t, e, dest, recvEngines, a.receiveEngine, link, phase, end, running, pos,
                            recvBusy, linkOwner, linkHolders, linkPushing);
                        done++;
                        changed = true;
                    }
                }
            }
            if (done == n) {
                break;
            }
            // the next event: a phase ends, or a not-before time comes
            double dt = Double.POSITIVE_INFINITY;
            for (int e = 0; e < engines; e++) {
                int p = running[e];
                if (p >= 0) {
                    if (phase[p] == OVERHEAD) {
                        rate[e] = 0;
                        tte[e] = rem[p];
                    } else {
                        rate[e] = Math.min(engineBw, linkBw / linkPushing[link[p]]);
                        tte[e] = rem[p] / rate[e];
                    }
                    dt = Math.min(dt, tte[e]);
                } else if (notBefore != null && pos[e] < a.queues[e].length) {
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
            double close = dt * (1 + 1e-12) + 1e-9;
            for (int e = 0; e < engines; e++) {
                int p = running[e];
                if (p < 0) {
                    continue;
                }
                if (tte[e] <= close) {
                    rem[p] = 0;     // the phase ends now; settled at the top of the loop
                } else if (phase[p] == OVERHEAD) {
                    rem[p] -= dt;
                } else {
                    rem[p] -= rate[e] * dt;
                }
            }
        }
        return Schedule.of(policy, in.list, m, a.queues, engineOf, a.receiveEngine, start, end);
    }

    private static void finish(int p, double t, int e, int[] dest, int recvEngines, int[] recv, int[] link, int[] phase,
                               double[] end, int[] running, int[] pos, boolean[] recvBusy, int[] linkOwner,
                               int[] linkHolders, int[] linkPushing) {
        phase[p] = DONE;
        end[p] = t;
        running[e] = -1;
        pos[e]++;
        recvBusy[dest[p] * recvEngines + recv[p]] = false;
        int l = link[p];
        linkPushing[l]--;
        if (--linkHolders[l] == 0) {
            linkOwner[l] = -1;
        }
    }
}
