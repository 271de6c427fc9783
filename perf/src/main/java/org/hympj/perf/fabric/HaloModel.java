package org.hympj.perf.fabric;

import org.hympj.examples.Face;
import java.util.Locale;
import org.hympj.router.HybridPolicy;
import org.hympj.router.RouteTable;
import org.hympj.model.ArrayTimelines;
import org.hympj.model.Fabric;
import org.hympj.model.ModelParams;
import org.hympj.model.NetTopology;
import org.hympj.model.Plan;
import org.hympj.model.TimingModel;
import org.hympj.model.Transfer;

/**
 * S1's halo exchange, the geometry the {@code halo} benchmark uses and an analytic estimate of
 * one iteration on the {@link TimingModel} (no processes): every rank's sends are planned at
 * modelled time 0, round-robin over the ranks in request order, on shared timelines (so the
 * contention of the emulation is there, in one fixed order); the iteration lasts until the
 * last face is visible. Barrier and real overheads are not in it.
 *
 * <p>Geometry. 3D: 8 ranks on a periodic 2×2×2 grid, rank = 4x + 2y + z; x faces are
 * jk-planes (contiguous), y faces ik-planes (block-stride), z faces ij-planes (element
 * stride); the x neighbour (rank ^ 4) is in the other group of 4 (S1: ranks 0–3 and 4–7 are
 * the TCA groups joined by IB). 2D: 4 ranks on a periodic 2×2 grid, rank = 2j + i; the i
 * neighbour (rank ^ 1) exchanges rows (contiguous) inside the TCA pairs {0,1} and {2,3}, the
 * j neighbour (rank ^ 2) exchanges columns (element stride) across the pairs — the reading of
 * S1 under which reachability and S1's 2D assignment (block → TCA, stride → IB) agree.
 * With a periodic extent of 2, the low and the high neighbour are the same rank: two faces
 * go to it per dimension.
 */
public final class HaloModel {
    private HaloModel() {
    }

    public static int ranks(int dims) {
        return dims == 2 ? 4 : 8;
    }

    /** The neighbour of {@code rank} along dimension {@code d} (either direction: the grid is 2 wide). */
    public static int neighbour(int dims, int rank, int d) {
        if (dims == 2) {
            return d == 0 ? rank ^ 1 : rank ^ 2;
        }
        return rank ^ (4 >> d);
    }

    /** The face sent along dimension {@code d}. */
    public static Face face(int dims, int d) {
        if (dims == 2) {
            return d == 0 ? Face.D2_BLOCK : Face.D2_STRIDE;
        }
        return d == 0 ? Face.D3_BLOCK : d == 1 ? Face.D3_BLOCKSTRIDE : Face.D3_STRIDE;
    }

    /** The groups S1 joins by IB: subcluster size 2 (2D) or 4 (3D). */
    public static int groupSize(int dims) {
        return dims == 2 ? 2 : 4;
    }

    /**
     * Modelled µs of one iteration. {@code route}: tca, ib or hybrid (then {@code table}
     * decides where TCA reaches); {@code subcluster}: TCA subcluster size.
     */
    public static double iteration(ModelParams p, int dims, int n, String route, int subcluster, RouteTable table) {
        int np = ranks(dims);
        NetTopology topo = new NetTopology(np, subcluster, false, null, (int) p.count("tca.dma.engines", 4), 0);
        TimingModel m = new TimingModel(p, topo);
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        HybridPolicy policy = table == null ? null : new HybridPolicy(table, 1, 1);
        int faces = 2 * dims;
        int[] persistentTca = new int[np];
        Fabric[][] fabric = new Fabric[np][faces];
        for (int r = 0; r < np; r++) {
            for (int s = 0; s < faces; s++) {
                int d = s / 2;
                int peer = neighbour(dims, r, d);
                Face f = face(dims, d);
                boolean reaches = topo.tcaReaches(r, peer);
                Fabric fab;
                switch (route) {
                    case "tca":
                        if (!reaches) {
                            throw new IllegalArgumentException("--route tca: rank " + peer + " is outside rank " + r
                                + "'s subcluster");
                        }
                        fab = Fabric.TCA;
                        break;
                    case "ib":
                        fab = Fabric.IB;
                        break;
                    default:
                        fab = policy.choose(reaches, f.bytes(n), f.layout) == HybridPolicy.TCA ? Fabric.TCA : Fabric.IB;
                }
                fabric[r][s] = fab;
                if (fab == Fabric.TCA) {
                    persistentTca[r]++;
                }
            }
        }
        Transfer t = new Transfer();
        Plan plan = new Plan();
        int[] path = new int[np + 2];
        long end = 0;
        for (int s = 0; s < faces; s++) {
            for (int r = 0; r < np; r++) {
                int d = s / 2;
                Face f = face(dims, d);
                t.set(fabric[r][s], r, neighbour(dims, r, d), f.bytes(n), f.layout, f.blocks(n), f.elements(n));
                t.mode = Transfer.Mode.MTOM;
                t.persistent = true;
                t.chainLength = Math.max(1, (persistentTca[r] + 3) / 4);
                t.engineHint = -1;
                t.recvEngineHint = -1;
                m.plan(t, 0, tl, null, path, plan);
                end = Math.max(end, Math.max(plan.visibleAt, plan.senderDone));
            }
        }
        return end / 1000.0;
    }

    /** {@code HaloModel DIMS N... [key=value]}: µs per iteration for tca, ib and hybrid (ha-pacs preset table). */
    public static void main(String[] args) {
        int dims = Integer.parseInt(args[0]);
        ModelParams p = ModelParams.load("ha-pacs");
        RouteTable table = RouteTable.load("ha-pacs");
        java.util.List<Integer> ns = new java.util.ArrayList<>();
        for (int a = 1; a < args.length; a++) {
            int eq = args[a].indexOf('=');
            if (eq > 0) {
                String k = args[a].substring(0, eq);
                String v = args[a].substring(eq + 1);
                if (k.equals("table")) {
                    table = RouteTable.load(v);
                } else {
                    p = p.with(k, v);
                }
            } else {
                ns.add(Integer.parseInt(args[a]));
            }
        }
        int np = ranks(dims);
        System.out.println("N, tca, ib, hybrid, hybrid-groups, tca/hybrid, ib/hybrid");
        for (int n : ns) {
            double tca = iteration(p, dims, n, "tca", np, null);
            double ib = iteration(p, dims, n, "ib", np, null);
            double hy = iteration(p, dims, n, "hybrid", np, table);
            double hg = iteration(p, dims, n, "hybrid", groupSize(dims), table);
            System.out.printf(Locale.ROOT, "%d, %.1f, %.1f, %.1f, %.1f, %.2f, %.2f%n", n, tca, ib, hy, hg, tca / hy, ib / hy);
        }
    }
}
