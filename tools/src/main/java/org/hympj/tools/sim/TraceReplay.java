package org.hympj.tools.sim;

import org.hympj.sim.Script;
import org.hympj.sim.Shape;
import org.hympj.sim.Sim;
import org.hympj.sim.SimConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hympj.api.Topology;
import org.hympj.shm.trace.TraceEvent;
import org.hympj.shm.trace.TraceJournal.RankTrace;
import org.hympj.shm.trace.Tracer;

/**
 * Replay of a {@code --trace} journal on the simulator, at the traced size or scaled to more
 * ranks where the pattern is regular. Each traced rank's events become a {@link Script}:
 * <ul>
 * <li>{@code post_recv} / {@code post_send}: start a receive / send of that many contiguous bytes
 *     to the (translated) peer with the tag; one request per (kind, peer, tag, bytes) reused
 *     when it is not pending (sends are registered like sendInit's: a trace does not say which
 *     were persistent);</li>
 * <li>{@code wait_end}: waitAll over everything started since the last wait;</li>
 * <li>{@code complete_recv} outside a waitAll with one receive (and at most one send) pending: a
 *     blocking call returned: wait for them there (with more pending it is an early completion
 *     inside a startAll);</li>
 * <li>zero-byte messages with the barrier's tag (1): a barrier — the job's default algorithm —
 *     per as many sends as that algorithm makes on this rank.</li>
 * </ul>
 * Scaling: with {@code dims} (the traced ranks' periodic grid, dimsCreate(n, d)) every simulated
 * rank of the dimsCreate(P, d) grid runs the trace of the traced rank at its coordinates modulo
 * the traced grid, each peer translated by its (shortest, periodic) coordinate offset. A traced
 * extent of 2 is ambiguous (−1 and +1 are one rank) and refused unless the simulated extent is 2 too.
 * Not replayed: datatypes (every message is contiguous bytes), computation between calls,
 * one-sided traffic, collectives other than barriers (their messages replay as point-to-point).
 */
public final class TraceReplay {
    static final int BARRIER_TAG = 1;

    private TraceReplay() {
    }

    /** Builds the scripts of {@code sim} (size P) from the journals of n traced ranks; {@code d} = 0: P must be n. */
    public static void build(Sim sim, List<RankTrace> traces, int d) {
        int n = traces.size();
        int np = sim.size();
        int[] tdims = null;
        int[] sdims = null;
        if (np != n) {
            if (d < 1) {
                throw new IllegalArgumentException("replaying " + n + " traced ranks on " + np
                    + " needs --replay-dims D (the traced ranks' periodic grid)");
            }
            tdims = Topology.dimsCreate(n, new int[d]);
            sdims = Topology.dimsCreate(np, new int[d]);
            for (int i = 0; i < d; i++) {
                if (tdims[i] < 3 && sdims[i] != tdims[i]) {
                    throw new IllegalArgumentException("traced grid " + java.util.Arrays.toString(tdims) + " is "
                        + tdims[i] + " wide along dimension " + i + ": the low and the high neighbour are one rank, so "
                        + "offsets cannot be scaled to " + java.util.Arrays.toString(sdims) + "; trace at least 3 ranks "
                        + "per dimension (e.g. 9 as 3x3)");
                }
            }
        }
        RankTrace[] byRank = new RankTrace[n];
        for (RankTrace t : traces) {
            byRank[t.rank()] = t;
        }
        Script.Barrier barrier = Script.Barrier.parse(sim.config().barrier);
        for (int r = 0; r < np; r++) {
            int traced = r;
            int[] sc = null;
            if (tdims != null) {
                sc = Topology.coords(sdims, r);
                int[] tc = new int[d];
                for (int i = 0; i < d; i++) {
                    tc[i] = Math.floorMod(sc[i], tdims[i]);
                }
                traced = Topology.rank(tdims, periodic(d), tc);
            }
            script(sim.script(r), byRank[traced], n, barrier, tdims, sdims, sc);
        }
    }

    private static boolean[] periodic(int d) {
        boolean[] p = new boolean[d];
        java.util.Arrays.fill(p, true);
        return p;
    }

    private static int translate(int peer, int traced, int[] tdims, int[] sdims, int[] sc) {
        if (tdims == null || peer < 0) {
            return peer;
        }
        int[] pc = Topology.coords(tdims, peer);
        int[] tc = Topology.coords(tdims, traced);
        int[] x = sc.clone();
        for (int i = 0; i < tdims.length; i++) {
            int off = Math.floorMod(pc[i] - tc[i], tdims[i]);
            if (off > tdims[i] / 2) {
                off -= tdims[i];
            }
            x[i] += off;
        }
        return Topology.rank(sdims, periodic(tdims.length), x);
    }

    /** Sends one rank makes in one barrier of {@code a} on {@code n} ranks. */
    static int barrierSends(Script.Barrier a, int rank, int n) {
        switch (a) {
            case RING:
                return n - 1;
            case RD: {
                int p2 = Integer.highestOneBit(n);
                int extra = n - p2;
                if (rank >= p2) {
                    return 1;
                }
                return Integer.numberOfTrailingZeros(p2) + (rank < extra ? 1 : 0);
            }
            default:
                return 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1));
        }
    }

    private static void script(Script s, RankTrace t, int n, Script.Barrier barrier, int[] tdims, int[] sdims,
                               int[] sc) {
        int traced = t.rank();
        Map<String, Integer> requests = new HashMap<>();
        Map<String, Integer> sets = new HashMap<>();
        List<Integer> pending = new ArrayList<>();
        boolean inWait = false;
        int barrierSendsLeft = 0;
        int perBarrier = barrierSends(barrier, traced, n);
        for (TraceEvent e : t.events) {
            boolean barrierMsg = (e.kind == Tracer.POST_SEND || e.kind == Tracer.POST_RECV
                || e.kind == Tracer.COMPLETE_RECV) && e.tag == BARRIER_TAG && e.bytes == 0;
            if (barrierMsg) {
                if (e.kind == Tracer.POST_SEND) {
                    if (barrierSendsLeft == 0) {
                        close(s, pending, sets);
                        s.barrier(barrier);
                        barrierSendsLeft = perBarrier;
                    }
                    barrierSendsLeft--;
                }
                continue;
            }
            switch (e.kind) {
                case Tracer.POST_RECV:
                case Tracer.POST_SEND: {
                    boolean send = e.kind == Tracer.POST_SEND;
                    int peer = translate(e.peer, traced, tdims, sdims, sc);
                    String key = (send ? "s" : "r") + peer + "/" + e.tag + "/" + e.bytes;
                    Integer q = requests.get(key);
                    if (q == null || pending.contains(q)) {
                        q = send ? s.sendInit(peer, e.tag, Shape.bytes(e.bytes), true)
                            : s.recvInit(peer, e.tag, Shape.bytes(e.bytes), true);
                        if (!requests.containsKey(key)) {
                            requests.put(key, q);
                        }
                    }
                    s.start(q);
                    pending.add(q);
                    break;
                }
                case Tracer.WAIT_BEGIN:
                    inWait = true;
                    break;
                case Tracer.WAIT_END:
                    inWait = false;
                    close(s, pending, sets);
                    break;
                case Tracer.COMPLETE_RECV:
                    // a blocking call (one receive, at most one send) returned; an early completion
                    // inside a startAll (more requests pending) is not a wait
                    if (!inWait && pending.size() <= 2 && recvs(pending, s) == 1) {
                        close(s, pending, sets);
                    }
                    break;
                default:
                    break;
            }
        }
        close(s, pending, sets);
    }

    private static int recvs(List<Integer> pending, Script s) {
        int n = 0;
        for (int q : pending) {
            if (!s.isSend(q)) {
                n++;
            }
        }
        return n;
    }

    private static void close(Script s, List<Integer> pending, Map<String, Integer> sets) {
        if (pending.isEmpty()) {
            return;
        }
        String key = pending.toString();
        Integer set = sets.get(key);
        if (set == null) {
            set = s.set(pending.stream().mapToInt(Integer::intValue).toArray());
            sets.put(key, set);
        }
        s.waitAll(set);
        pending.clear();
    }
}
