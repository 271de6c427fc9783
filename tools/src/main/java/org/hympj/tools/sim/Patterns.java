package org.hympj.tools.sim;

import org.hympj.sim.Script;
import org.hympj.sim.Shape;
import org.hympj.sim.Sim;
import org.hympj.sim.SimConfig;
import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Datatype;
import org.hympj.api.Topology;
import org.hympj.examples.ScaleLesHalo;
import org.hympj.examples.ScaleLesHalo.Direction;
import org.hympj.examples.ScaleLesHalo.Message;
import org.hympj.examples.ScaleLesHalo.Pattern;
import org.hympj.examples.Face;

/**
 * The built-in programs: each writes every rank's {@link Script} the way the emulated benchmark's
 * rank program runs (same requests, order, tags, buffers and timed window), so that one
 * simulated run predicts one {@code bin/hympj-bench} figure.
 */
public final class Patterns {
    private Patterns() {
    }

    /** What a pattern measures: which statistic of the iterations is the figure. */
    public enum Metric {
        /** Per iteration the slowest rank's window; median over iterations (HaloRank). */
        SLOWEST,
        /** Per iteration the latest end minus the earliest start; median of 5 batch means (ScaleLes3Bench). */
        SPAN,
        /** Rank 0's mean window (Collective: batch time / iterations). */
        RANK0,
        /** Per iteration the slowest rank's window; mean over iterations, no warm-up (Jacobi3D's time per iteration). */
        SLOWEST_MEAN
    }

    /** Halo grid: the S1 geometry at 4 (2D) / 8 (3D) ranks, else dimsCreate(np, dims), row-major ranks. */
    public static int[] haloDims(int np, int dims) {
        return Topology.dimsCreate(np, new int[dims]);
    }

    /**
     * S1's halo exchange as {@code hympj-bench halo} runs it ({@code HaloRank}): persistent
     * requests per dimension (receive from the low and the high neighbour, send to the high and the
     * low one), faces sent with their datatypes from the segment, ghosts received contiguous into
     * the segment; per iteration: startAll, waitAll, barrier, timed as the loop's period (from
     * leaving one barrier to leaving the next, as HaloRank times it since the lead's change). 3D:
     * grid axis 0 (slowest, rank = x·Y·Z + y·Z + z) carries the jk-planes (contiguous), axis 1 the
     * ik-planes (block-stride), axis 2 the ij-planes (element stride); with 4 subclusters of 16 on
     * a 4×4×4 grid the contiguous faces cross subclusters (IB) and the others stay inside (S1's
     * mapping). 2D: the fast axis carries rows (contiguous), the slow one columns (stride).
     */
    public static void halo(Sim sim, int dims, int n, int warmup, int iters) {
        int np = sim.size();
        int[] g = haloDims(np, dims);
        boolean[] periods = new boolean[dims];
        java.util.Arrays.fill(periods, true);
        for (int r = 0; r < np; r++) {
            Script s = sim.script(r);
            int[] c = Topology.coords(g, r);
            List<Integer> reqs = new ArrayList<>();
            for (int d = 0; d < dims; d++) {
                int axis = dims == 2 ? 1 - d : d;
                Face f = dims == 2 ? (d == 0 ? Face.D2_BLOCK : Face.D2_STRIDE)
                    : d == 0 ? Face.D3_BLOCK : d == 1 ? Face.D3_BLOCKSTRIDE : Face.D3_STRIDE;
                int lo = neighbour(g, periods, c, axis, -1);
                int hi = neighbour(g, periods, c, axis, +1);
                Shape ghost = Shape.of(Datatype.DOUBLE, (int) f.elements(n));
                Shape face = Shape.of(f.type(n), f.count(n));
                reqs.add(s.recvInit(lo, 2 * d, ghost, true));
                reqs.add(s.recvInit(hi, 2 * d + 1, ghost, true));
                reqs.add(s.sendInit(hi, 2 * d, face, true));
                reqs.add(s.sendInit(lo, 2 * d + 1, face, true));
            }
            int set = s.set(reqs.stream().mapToInt(Integer::intValue).toArray());
            s.barrier();
            s.loop(warmup + iters);
            s.markStart();
            s.startAll(set);
            s.waitAll(set);
            s.barrier();
            s.markEnd();
            s.endLoop();
        }
    }

    /**
     * The flagship's halo exchange as {@code org.hympj.examples.Jacobi3D} runs it: a periodic
     * {@code Grid3.dimsFor(np)} grid of n³ blocks with one ghost layer (edge m = n + 2), per
     * dimension receive the low and the high ghost plane and send the high and the low interior
     * plane, each with its face's datatype on both sides (dimension 0 contiguous m², 1
     * block-stride {@code vector(m, m, m²)}, 2 element-stride {@code vector(m², 1, m)}), from and
     * into heap arrays; two request sets (u and v) alternate; a barrier, then the iterations
     * back to back, timed from leaving the barrier (the update between exchanges costs nothing:
     * {@code --compute-scale 0}). {@code iters} must be even; each loop turn is two iterations.
     */
    public static void jacobi3d(Sim sim, int n, int iters) {
        int np = sim.size();
        int[] g = org.hympj.examples.Grid3.dimsFor(np);
        boolean[] periods = {true, true, true};
        int m = n + 2;
        Datatype[] face = {Datatype.DOUBLE.contiguous(m * m), Datatype.DOUBLE.vector(m, m, m * m),
            Datatype.DOUBLE.vector(m * m, 1, m)};
        for (int r = 0; r < np; r++) {
            Script s = sim.script(r);
            int[] c = Topology.coords(g, r);
            int[] sets = new int[2];
            for (int u = 0; u < 2; u++) {
                List<Integer> reqs = new ArrayList<>();
                for (int d = 0; d < 3; d++) {
                    int lo = neighbour(g, periods, c, d, -1);
                    int hi = neighbour(g, periods, c, d, +1);
                    Shape f = Shape.of(face[d], 1);
                    reqs.add(s.recvInit(lo, 2 * d, f, false));
                    reqs.add(s.recvInit(hi, 2 * d + 1, f, false));
                    reqs.add(s.sendInit(hi, 2 * d, f, false));
                    reqs.add(s.sendInit(lo, 2 * d + 1, f, false));
                }
                sets[u] = s.set(reqs.stream().mapToInt(Integer::intValue).toArray());
            }
            s.barrier();
            s.loop(iters / 2);         // two iterations per turn, as the sets alternate (u, then v)
            s.markStart();
            s.startAll(sets[0]);
            s.waitAll(sets[0]);
            s.startAll(sets[1]);
            s.waitAll(sets[1]);
            s.markEnd();
            s.endLoop();
        }
    }

    private static int neighbour(int[] g, boolean[] periods, int[] c, int axis, int step) {
        int[] x = c.clone();
        x[axis] += step;
        return Topology.rank(g, periods, x);
    }

    /**
     * S3's SCALE-LES3 halo as {@code hympj-bench scale-les3} runs it ({@code ScaleLes3Bench}, sync
     * {@code program}): on a dimsCreate(np, 2) periodic grid, receives first (from the neighbour
     * opposite each direction), then the 2–14 sends in ScaleLesHalo's order; per exchange:
     * barrier, startAll, waitAll, barrier, timed from after the first barrier to the end of the
     * wait; figure = max end − min start over the ranks. E/W faces are block-stride
     * ({@code DOUBLE.vector(16, ka·2, ka·20)}), the others contiguous.
     */
    public static void scaleLes3(Sim sim, String pattern, int k, boolean segment, int warmup, int iters) {
        int np = sim.size();
        int[] dims = Topology.dimsCreate(np, new int[2]);
        boolean[] periods = {true, true};
        Pattern p = Pattern.parse(pattern);
        int ka = k + 2 * ScaleLesHalo.HALO;
        for (int r = 0; r < np; r++) {
            Script s = sim.script(r);
            int[] c = Topology.coords(dims, r);
            List<Message> sends = ScaleLesHalo.messages(dims, c, p, k);
            List<Integer> reqs = new ArrayList<>();
            for (Direction d : p.directions()) {
                int source = Topology.rank(dims, periods, new int[] {c[0] - d.dx(), c[1] - d.dy()});
                for (int q = 0; q < d.puts(); q++) {
                    reqs.add(s.recvInit(source, ScaleLesHalo.tag(d, q), Shape.of(ScaleLesHalo.type(d, ka), 1), segment));
                }
            }
            for (Message m : sends) {
                reqs.add(s.sendInit(m.dest(), m.tag(), Shape.of(ScaleLesHalo.type(m.direction(), ka), 1), segment));
            }
            int set = s.set(reqs.stream().mapToInt(Integer::intValue).toArray());
            s.barrier();
            s.loop(warmup + iters);
            s.barrier();
            s.markStart();
            s.startAll(set);
            s.waitAll(set);
            s.markEnd();
            s.barrier();
            s.endLoop();
        }
    }


    /** Barrier latency as {@code Collective barrier=ALGO} times it: a barrier, then {@code iters} barriers. */
    public static void barrier(Sim sim, Script.Barrier algorithm, int warmup, int iters) {
        for (int r = 0; r < sim.size(); r++) {
            Script s = sim.script(r);
            s.barrier();
            s.loop(warmup + iters);
            s.markStart();
            s.barrier(algorithm);
            s.markEnd();
            s.endLoop();
        }
    }

    /**
     * The isend/irecv ping-pong of {@code hympj-bench onesided} ({@code OneSidedBench}) between
     * ranks 0 and 1, tag 7, {@code bytes} of bytes. {@code preposted} K = 0: each side posts its
     * receive when it needs it (rank 0: isend, wait, irecv, wait; rank 1 the mirror); K &gt; 0: each
     * keeps K receives posted ahead (K buffers), re-posting one as it completes. One loop turn is K
     * round trips (one on demand), rank 0's window timed: the half round trip is the turn / 2K.
     */
    public static void pingPong(Sim sim, long bytes, int preposted, boolean segment, int warmup, int iters) {
        if (sim.size() != 2) {
            throw new IllegalArgumentException("onesided: the ping-pong runs on 2 ranks, not " + sim.size());
        }
        Shape data = Shape.bytes(bytes);
        for (int r = 0; r < 2; r++) {
            Script s = sim.script(r);
            int peer = 1 - r;
            int send = s.isendRequest(peer, 7, data, segment);
            int[] recv = new int[Math.max(1, preposted)];
            for (int k = 0; k < recv.length; k++) {
                recv[k] = s.irecvRequest(peer, 7, data, segment);
            }
            s.barrier();
            for (int k = 0; k < preposted; k++) {
                s.start(recv[k]);
            }
            s.loop(warmup + iters);
            s.markStart();
            for (int k = 0; k < recv.length; k++) {
                if (r == 0) {
                    s.start(send);
                    s.waitFor(send);
                    if (preposted == 0) {
                        s.start(recv[k]);
                    }
                    s.waitFor(recv[k]);
                    if (preposted > 0) {
                        s.start(recv[k]);
                    }
                } else {
                    if (preposted == 0) {
                        s.start(recv[k]);
                    }
                    s.waitFor(recv[k]);
                    if (preposted > 0) {
                        s.start(recv[k]);
                    }
                    s.start(send);
                    s.waitFor(send);
                }
            }
            s.markEnd();
            s.endLoop();
        }
    }

    /** Allreduce latency (DOUBLE SUM on heap arrays) as {@code Collective allreduce} times it. */
    public static void allreduce(Sim sim, long bytes, int warmup, int iters) {
        int count = (int) Math.max(1, bytes / 8);
        for (int r = 0; r < sim.size(); r++) {
            Script s = sim.script(r);
            s.barrier();
            s.loop(warmup + iters);
            s.markStart();
            s.allreduce(count);
            s.markEnd();
            s.endLoop();
        }
    }

    /**
     * S4's barriers written with MGEN puts (NSIM-ACE's programs): every step a put of {@code bytes}
     * to the partner and a poll for the partner's, then complete; ring (p−1 steps), recursive
     * doubling with the fold, dissemination. Tags: step number (one tag per step, so the steps
     * of consecutive barriers match in order).
     */
    public static void putBarrier(Sim sim, Script.Barrier algorithm, long bytes, int warmup, int iters) {
        int size = sim.size();
        for (int r = 0; r < size; r++) {
            Script s = sim.script(r);
            int h = s.newHandle();
            s.loop(warmup + iters);
            s.markStart();
            switch (algorithm) {
                case RING:
                    for (int step = 1; step < size; step++) {
                        step(s, (r + 1) % size, step, bytes, h, true);
                    }
                    break;
                case RD: {
                    int p2 = Integer.highestOneBit(size);
                    int extra = size - p2;
                    if (r >= p2) {
                        s.put(r - p2, bytes, 0, h);
                        s.complete(h);
                        s.poll(0);
                        break;
                    }
                    if (r < extra) {
                        s.poll(0);
                    }
                    int tag = 1;
                    for (int mask = 1; mask < p2; mask <<= 1) {
                        step(s, r ^ mask, tag++, bytes, h, true);
                    }
                    if (r < extra) {
                        s.put(r + p2, bytes, 0, h);
                        s.complete(h);
                    }
                    break;
                }
                default: {
                    int tag = 1;
                    for (int k = 1; k < size; k <<= 1) {
                        step(s, (r + k) % size, tag++, bytes, h, true);
                    }
                }
            }
            s.markEnd();
            s.endLoop();
        }
    }

    private static void step(Script s, int dest, int tag, long bytes, int h, boolean complete) {
        s.put(dest, bytes, tag, h);
        s.poll(tag);
        if (complete) {
            s.complete(h);
        }
    }
}
