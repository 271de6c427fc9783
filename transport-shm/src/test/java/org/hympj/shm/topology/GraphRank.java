package org.hympj.shm.topology;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.GraphComm;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: graph communicators (MPI_Graph_create), against the graph built here.
 *
 * <ul>
 * <li>graph-create: a ring over every rank, node 0 also with a self-loop and the last node with
 *     a chord to node 0 (symmetric: node 0 lists it too): index/edges as given, neighbourCount
 *     and neighbours of every node, copies returned, ranks kept (reorder false and true);</li>
 * <li>graph-exchange: every rank sends to each of its neighbours and receives from each (data
 *     and status source checked), then an allreduce on the graph communicator;</li>
 * <li>graph-fewer: a star over the first ceil(size/2) ranks, the others get null; a node without
 *     neighbours (degree 0) when there are 3 nodes or more; 0 nodes gives null everywhere;</li>
 * <li>graph-dup: the duplicate keeps the graph and matches separately;</li>
 * <li>graph-bad-input: decreasing index, negative first entry, edges of the wrong length, an edge
 *     out of range, more nodes than ranks, null arrays, a neighbour query out of range: each an
 *     IllegalArgumentException naming the argument, and the communicator works after it.</li>
 * </ul>
 */
public final class GraphRank {
    static final String[] SCENARIOS = {"graph-create", "graph-exchange", "graph-fewer", "graph-dup", "graph-bad-input"};

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            int n = world.size();
            List<List<Integer>> adj = ring(n);
            int[] index = index(adj);
            int[] edges = edges(adj);
            GraphComm g = world.createGraph(index, edges, false);
            create(world, g, adj, index, edges);
            GraphComm re = world.createGraph(index, edges, true);
            check(re != null && re.rank() == world.rank() && Arrays.equals(re.edges(), edges), "reorder true: %s", re);
            pass("graph-create");
            exchange(g, adj);
            pass("graph-exchange");
            fewer(world);
            pass("graph-fewer");
            dup(g, adj);
            pass("graph-dup");
            badInput(world, g);
            pass("graph-bad-input");
        }
        pass(MultiRank.FINALIZED);
    }

    /** Ring neighbours (left, right); node 0 also itself; the last node (n >= 3) also node 0, and node 0 it. */
    static List<List<Integer>> ring(int n) {
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Integer> a = new ArrayList<>();
            a.add((i + 1) % n);
            a.add((i - 1 + n) % n);
            adj.add(a);
        }
        adj.get(0).add(0);
        if (n >= 3) {
            adj.get(n - 1).add(0);
            adj.get(0).add(n - 1);
        }
        return adj;
    }

    static int[] index(List<List<Integer>> adj) {
        int[] ix = new int[adj.size()];
        int total = 0;
        for (int i = 0; i < ix.length; i++) {
            total += adj.get(i).size();
            ix[i] = total;
        }
        return ix;
    }

    static int[] edges(List<List<Integer>> adj) {
        return adj.stream().flatMap(List::stream).mapToInt(Integer::intValue).toArray();
    }

    static void create(Comm world, GraphComm g, List<List<Integer>> adj, int[] index, int[] edges) {
        check(g != null && g.size() == world.size() && g.rank() == world.rank(), "graph over every rank: %s", g);
        check(Arrays.equals(g.index(), index) && Arrays.equals(g.edges(), edges), "index %s edges %s, expected %s %s",
            Arrays.toString(g.index()), Arrays.toString(g.edges()), Arrays.toString(index), Arrays.toString(edges));
        for (int r = 0; r < adj.size(); r++) {
            int[] want = adj.get(r).stream().mapToInt(Integer::intValue).toArray();
            check(g.neighbourCount(r) == want.length, "neighbourCount(%d) = %d, expected %d", r, g.neighbourCount(r),
                want.length);
            check(Arrays.equals(g.neighbours(r), want), "neighbours(%d) = %s, expected %s", r,
                Arrays.toString(g.neighbours(r)), Arrays.toString(want));
        }
        g.index()[0] = 99;
        g.edges()[0] = 99;
        g.neighbours(0)[0] = 99;
        check(g.index()[0] == index[0] && g.edges()[0] == edges[0] && g.neighbours(0)[0] == edges[0],
            "index()/edges()/neighbours() return the communicator's own arrays");
        int[] m = new int[g.size()];
        g.allgather(new int[] {world.rank()}, 0, 1, Datatype.INT, m, 0, 1, Datatype.INT);
        for (int r = 0; r < m.length; r++) {
            check(m[r] == r, "graph rank %d is world rank %d (no reordering)", r, m[r]);
        }
    }

    /** Each rank sends 1000*me + k to its k-th neighbour; the graph is symmetric, so it receives from each. */
    static void exchange(GraphComm g, List<List<Integer>> adj) {
        int me = g.rank();
        int[] nb = g.neighbours(me);
        int[][] in = new int[nb.length][1];
        Request[] rq = new Request[2 * nb.length];
        for (int k = 0; k < nb.length; k++) {
            in[k][0] = -1;
            rq[k] = g.irecv(in[k], 0, 1, Datatype.INT, nb[k], 40 + slot(adj.get(nb[k]), me, nb, k));
        }
        for (int k = 0; k < nb.length; k++) {
            rq[nb.length + k] = g.isend(new int[] {1000 * me + k}, 0, 1, Datatype.INT, nb[k], 40 + k);
        }
        Request.waitAll(rq);
        for (int k = 0; k < nb.length; k++) {
            int expectK = slot(adj.get(nb[k]), me, nb, k);
            check(in[k][0] == 1000 * nb[k] + expectK, "from neighbour %d: got %d, expected %d", nb[k], in[k][0],
                1000 * nb[k] + expectK);
            check(rq[k].status().source() == nb[k], "status source %d, expected %d", rq[k].status().source(), nb[k]);
        }
        int[] sum = new int[1];
        g.allreduce(new int[] {nb.length}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
        check(sum[0] == g.edges().length, "allreduce of degrees %d, expected the edge count %d", sum[0],
            g.edges().length);
    }

    /**
     * Which of {@code from}'s edges to me matches my k-th edge to {@code from}: the j-th edge
     * from me to a peer pairs with the j-th edge from that peer to me.
     */
    static int slot(List<Integer> from, int me, int[] mine, int k) {
        int j = 0;
        for (int i = 0; i < k; i++) {
            if (mine[i] == mine[k]) {
                j++;
            }
        }
        for (int i = 0; i < from.size(); i++) {
            if (from.get(i) == me && j-- == 0) {
                return i;
            }
        }
        throw new AssertionError("the graph is not symmetric");
    }

    static void fewer(Comm world) {
        int n = world.size();
        int nodes = (n + 1) / 2;
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            adj.add(new ArrayList<>());
        }
        // a star: node 0 to every other node but the last (which, with 3 nodes or more, has degree 0)
        int leaves = nodes >= 3 ? nodes - 2 : nodes - 1;
        for (int i = 1; i <= leaves; i++) {
            adj.get(0).add(i);
            adj.get(i).add(0);
        }
        GraphComm g = world.createGraph(index(adj), edges(adj), false);
        if (world.rank() >= nodes) {
            check(g == null, "rank %d beyond %d nodes got %s", world.rank(), nodes, g);
        } else {
            check(g != null && g.size() == nodes && g.rank() == world.rank(), "star graph: %s", g);
            if (nodes >= 3) {
                check(g.neighbourCount(nodes - 1) == 0 && g.neighbours(nodes - 1).length == 0, "degree 0 node");
            }
            int[] in = {-1};
            int[] x = {g.rank() == 0 ? 77 : 0};
            g.bcast(x, 0, 1, Datatype.INT, 0);
            check(x[0] == 77, "bcast on the star graph: %d", x[0]);
            for (int nb : g.neighbours(g.rank())) {
                Status st = g.sendrecv(new int[] {g.rank()}, 0, 1, Datatype.INT, nb, 3, in, 0, 1, Datatype.INT, nb, 3);
                check(in[0] == nb && st.source() == nb, "star exchange with %d: got %d", nb, in[0]);
            }
        }
        GraphComm none = world.createGraph(new int[0], new int[0], false);
        check(none == null, "a graph of 0 nodes gave %s", none);
    }

    static void dup(GraphComm g, List<List<Integer>> adj) {
        GraphComm d = g.dup();
        check(d != g && d.size() == g.size() && d.rank() == g.rank() && Arrays.equals(d.index(), g.index())
            && Arrays.equals(d.edges(), g.edges()), "dup keeps the graph: %s", d);
        int right = (g.rank() + 1) % g.size();
        int left = (g.rank() - 1 + g.size()) % g.size();
        Request r = d.isend(new int[] {g.rank()}, 0, 1, Datatype.INT, right, 5);
        int[] in = {-1};
        Status st = g.iprobe(Comm.ANY_SOURCE, 5);
        d.recv(in, 0, 1, Datatype.INT, left, 5);
        r.waitFor();
        check(in[0] == left, "dup: got %d from %d", in[0], left);
        g.barrier();
        check(st == null, "a message on the dup was seen on the original: %s", st);
        check(g.iprobe(Comm.ANY_SOURCE, 5) == null, "a message on the dup was seen on the original");
    }

    static void badInput(Comm world, GraphComm g) {
        int n = world.size();
        int[] ok = {1};
        if (n >= 2) {
            expectThrows(IllegalArgumentException.class, () -> world.createGraph(new int[] {2, 1}, new int[] {0, 0},
                false), "decreasing index", "index[1]", "non-decreasing");
        }
        expectThrows(IllegalArgumentException.class, () -> world.createGraph(new int[] {-1}, new int[0], false),
            "negative index", "index[0]");
        expectThrows(IllegalArgumentException.class, () -> world.createGraph(new int[] {1}, new int[] {0, 0}, false),
            "edges too long", "edges", "index[nnodes-1]");
        expectThrows(IllegalArgumentException.class, () -> world.createGraph(new int[] {1}, new int[] {1}, false),
            "edge out of range", "edges[0]", "0..0");
        expectThrows(IllegalArgumentException.class, () -> world.createGraph(new int[] {1}, new int[] {-1}, false),
            "negative edge", "edges[0]");
        expectThrows(IllegalArgumentException.class, () -> world.createGraph(new int[n + 1], new int[0], false),
            "more nodes than ranks", "nnodes", String.valueOf(n + 1));
        expectThrows(IllegalArgumentException.class, () -> world.createGraph(null, new int[0], false), "null index",
            "index");
        expectThrows(IllegalArgumentException.class, () -> world.createGraph(ok, null, false), "null edges", "edges");
        expectThrows(IllegalArgumentException.class, () -> g.neighbours(n), "neighbours out of range", "rank");
        expectThrows(IllegalArgumentException.class, () -> g.neighbourCount(-1), "neighbourCount out of range",
            "rank");
        // nothing changed: the communicators still work, a graph is still made
        int[] sum = new int[1];
        world.allreduce(new int[] {1}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
        check(sum[0] == n, "allreduce after bad input: %d", sum[0]);
        GraphComm after = world.createGraph(new int[] {1}, new int[] {0}, false);
        check(world.rank() == 0 ? after != null && after.size() == 1 && after.neighbours(0)[0] == 0 : after == null,
            "a one-node graph after bad input: %s", after);
    }
}
