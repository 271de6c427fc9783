package org.hympj.perf.fabric;

import org.hympj.examples.Face;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.perf.Rows;

/**
 * Rank program of {@code hympj-bench halo}: S1's halo exchange, periodic, with persistent
 * requests, on the geometry of {@link HaloModel} (2D: 4 ranks, rows inside the pairs {0,1} and
 * {2,3}, columns across them; 3D: 8 ranks, x = jk-planes across the groups 0–3 / 4–7, y =
 * ik-planes, z = ij-planes inside them). Every face is sent with its derived datatype straight
 * from the N×N or N×N×N array (the library packs element-stride data; TCA moves block-stride
 * without packing, as S1) and received contiguous into a ghost buffer; array and ghosts live
 * in the registered segment. S1's per-iteration flow: barrier, start all, wait all (packing and
 * unpacking happen inside, by the datatypes). Each rank times every iteration with
 * {@link Comm#wtime()} (modelled under a model) as the loop's period: from leaving one barrier
 * to leaving the next (start all, wait all, barrier); value = median over the timed iterations
 * of the slowest rank's time, µs. The ghosts
 * are checked against the neighbours' faces after the loop; a wrong value fails the job.
 *
 * <pre>usage: HaloRank TEST REP DIMS WARMUP ITERS[,ITERS...] N...</pre>
 * Prints {@code hympj,TEST,VARIANT,N,rep,us,us/iter} (variant from the system property
 * {@code hympj.halo.variant}, default "halo") and a comment with the mean. ITERS is one count for
 * every N, or one per N.
 *
 * <p>With {@code hympj.halo.routes} (a comma list of routes, e.g. {@code tca,ib,hybrid}) every N
 * runs over each route in this one job, on a duplicate of the world with the {@code hympj.route}
 * hint ({@link Comm#HINT_ROUTE}); the variants are then {@code hympj.halo.labels} (one per route,
 * default the routes). On virtual time every cell starts with the ranks' clocks at one instant
 * ({@link CellStart}), so a cell gives the figure of a job of its own.
 */
public final class HaloRank {
    private HaloRank() {
    }

    /** Offset of the low (0) or high (1) face along dimension d of an array of side n. */
    static long faceOffset(int dims, int d, int side, long n) {
        if (side == 0) {
            return 0;
        }
        if (dims == 2) {
            return d == 0 ? (n - 1) * n : n - 1;
        }
        return d == 0 ? (n - 1) * n * n : d == 1 ? (n - 1) * n : n - 1;
    }

    /** Offset (from the face's start) of element {@code e} of the face along d. */
    static long faceElement(int dims, int d, long e, long n) {
        if (dims == 2) {
            return d == 0 ? e : e * n;
        }
        if (d == 0) {
            return e;
        }
        if (d == 1) {
            return (e / n) * n * n + e % n;
        }
        return e * n;
    }

    static double value(int rank, long index) {
        return rank + index * 1e-9;
    }

    public static void main(String[] args) {
        String test = args[0];
        int rep = Integer.parseInt(args[1]);
        int dims = Integer.parseInt(args[2]);
        int warm = Integer.parseInt(args[3]);
        String[] itersPerN = args[4].split(",");
        String variant = System.getProperty("hympj.halo.variant", "halo");
        String routeList = System.getProperty("hympj.halo.routes");
        List<String> routes = routeList == null ? List.of() : List.of(routeList.split(","));
        List<String> labels = routeList == null ? List.of(variant)
            : List.of(System.getProperty("hympj.halo.labels", routeList).split(","));
        if (labels.size() != Math.max(1, routes.size())) {
            throw new IllegalArgumentException("hympj.halo.labels: one label per route of hympj.halo.routes, was "
                + labels + " for " + routes);
        }
        List<Integer> ns = new ArrayList<>();
        long maxArray = 1;
        long maxFace = 1;
        if (itersPerN.length != 1 && itersPerN.length != args.length - 5) {
            throw new IllegalArgumentException("ITERS: one count, or one per N (" + (args.length - 5) + "), was " + args[4]);
        }
        for (int a = 5; a < args.length; a++) {
            int n = Integer.parseInt(args[a]);
            ns.add(n);
            maxArray = Math.max(maxArray, dims == 2 ? (long) n * n : (long) n * n * n);
            maxFace = Math.max(maxFace, dims == 2 ? n : (long) n * n);
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            int np = HaloModel.ranks(dims);
            if (comm.size() != np) {
                throw new IllegalStateException(dims + "D halo needs " + np + " ranks, the job has " + comm.size());
            }
            SegmentBuffer a = comm.allocDoubles(Math.toIntExact(maxArray));
            SegmentBuffer g = comm.allocDoubles(Math.toIntExact(2 * dims * maxFace));
            List<Comm> comms = new ArrayList<>();
            for (String route : routes) {
                comms.add(comm.dup(java.util.Map.of(Comm.HINT_ROUTE, route)));
            }
            if (comms.isEmpty()) {
                comms.add(comm);
            }
            boolean virtual = org.hympj.perf.CellStart.virtual(mpj);
            for (int i = 0; i < ns.size(); i++) {
                int iters = Integer.parseInt(itersPerN[itersPerN.length == 1 ? 0 : i].trim());
                for (int r = 0; r < comms.size(); r++) {
                    if (virtual) {
                        org.hympj.perf.CellStart.alignClocks(comms.get(r));
                    }
                    run(comms.get(r), test, rep, dims, warm, iters, ns.get(i), a, g, labels.get(r));
                }
            }
        }
    }

    static void run(Comm comm, String test, int rep, int dims, int warm, int iters, int n, SegmentBuffer a,
                    SegmentBuffer g, String variant) {
        int rank = comm.rank();
        int fe = dims == 2 ? n : n * n;
        // the faces' elements get known values (the rest of the array is never sent)
        for (int d = 0; d < dims; d++) {
            for (int side = 0; side < 2; side++) {
                long off = faceOffset(dims, d, side, n);
                for (long e = 0; e < fe; e++) {
                    long x = off + faceElement(dims, d, e, n);
                    a.putDouble(Math.toIntExact(x), value(rank, x));
                }
            }
        }
        for (int i = 0; i < 2 * dims * fe; i++) {
            g.putDouble(i, -1);
        }
        PersistentRequest[] req = new PersistentRequest[4 * dims];
        int nr = 0;
        for (int d = 0; d < dims; d++) {
            int lo = HaloModel.neighbour(dims, rank, d);
            int hi = lo; // periodic, 2 wide: both directions reach the same rank
            Face f = HaloModel.face(dims, d);
            Datatype t = f.type(n);
            int count = f.count(n);
            req[nr++] = comm.recvInit(g, (2 * d) * fe, fe, Datatype.DOUBLE, lo, 2 * d);
            req[nr++] = comm.recvInit(g, (2 * d + 1) * fe, fe, Datatype.DOUBLE, hi, 2 * d + 1);
            req[nr++] = comm.sendInit(a, Math.toIntExact(faceOffset(dims, d, 1, n)), count, t, hi, 2 * d);
            req[nr++] = comm.sendInit(a, Math.toIntExact(faceOffset(dims, d, 0, n)), count, t, lo, 2 * d + 1);
        }
        double[] times = new double[iters];
        // The period of S1's loop (barrier, start all, wait all): from leaving one barrier to
        // leaving the next, the same on every rank. Timing from before the barrier would add the
        // wait of an early rank for the others' previous exchange (up to a whole exchange).
        comm.barrier();
        double t0 = comm.wtime();
        for (int it = 0; it < warm + iters; it++) {
            Request.startAll(req);
            Request.waitAll(req);
            comm.barrier();
            double t1 = comm.wtime();
            if (it >= warm) {
                times[it - warm] = (t1 - t0) * 1e6;
            }
            t0 = t1;
        }
        // check: slot 2d holds the low neighbour's high face, slot 2d+1 its low face
        int bad = 0;
        String what = "";
        for (int d = 0; d < dims && bad == 0; d++) {
            int nb = HaloModel.neighbour(dims, rank, d);
            for (int side = 0; side < 2 && bad == 0; side++) {
                long off = faceOffset(dims, d, 1 - side, n);
                for (long e : new long[] {0, 1, fe - 1}) {
                    double expect = value(nb, off + faceElement(dims, d, e, n));
                    double got = g.getDouble(Math.toIntExact((2 * d + side) * (long) fe + e));
                    if (got != expect) {
                        bad = 1;
                        what = String.format(Locale.ROOT, "rank %d dim %d slot %d element %d: got %s expected %s",
                            rank, d, side, e, got, expect);
                        break;
                    }
                }
            }
        }
        double[] worst = new double[iters + 1];
        System.arraycopy(times, 0, worst, 0, iters);
        worst[iters] = bad;
        double[] max = new double[iters + 1];
        comm.allreduce(worst, 0, max, 0, iters + 1, Datatype.DOUBLE, Op.MAX);
        if (bad != 0) {
            System.err.println("halo data check FAILED: " + what);
        }
        if (max[iters] != 0) {
            throw new IllegalStateException("halo data check FAILED for N=" + n + " (see the failing rank's output)");
        }
        if (rank == 0) {
            double[] m = Arrays.copyOf(max, iters);
            double mean = 0;
            for (double v : m) {
                mean += v / iters;
            }
            Arrays.sort(m);
            Rows.print(Rows.row(test, variant, n, rep, Rows.median(m), 2, "us/iter"));
            System.out.printf(Locale.ROOT, "# %s %s N=%d: median %.2f mean %.2f min %.2f max %.2f us/iter over %d "
                + "iterations (slowest rank per iteration), %d warm-up%n", test, variant, n, Rows.median(m), mean, m[0],
                m[iters - 1], iters, warm);
        }
        for (PersistentRequest r : req) {
            r.free();
        }
    }
}
