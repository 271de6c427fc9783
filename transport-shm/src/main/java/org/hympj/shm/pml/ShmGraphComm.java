package org.hympj.shm.pml;

import org.hympj.api.GraphComm;
import org.hympj.api.GraphTopology;

/** A communicator with a graph topology (MPI_Graph_create); node i is rank i (no reordering). */
final class ShmGraphComm extends ShmComm implements GraphComm {
    private final int[] index;
    private final int[] edges;

    private ShmGraphComm(ShmComm parent, int ctx, int[] group, int[] index, int[] edges) {
        super(parent.engine, parent.segment, ctx, group, parent.defaultBarrier(), parent.p2pFactory(), parent.life);
        this.index = index;
        this.edges = edges;
    }

    /**
     * MPI_Graph_create over {@code parent} (collective): checked before any communication, so
     * bad input changes nothing on any rank; null for the ranks beyond the graph.
     */
    static GraphComm create(ShmComm parent, int[] index, int[] edges) {
        GraphTopology.check("createGraph", index, edges, parent.size);
        int[] ix = index.clone();
        int[] ed = edges.clone();
        int context = parent.agreeContext();
        if (parent.rank >= ix.length) {
            return null;
        }
        // reorder is allowed but not used: on one shared-memory machine every placement is equal
        return parent.inherit(new ShmGraphComm(parent, context, java.util.Arrays.copyOf(parent.group, ix.length), ix, ed));
    }

    @Override
    public int[] index() {
        return index.clone();
    }

    @Override
    public int[] edges() {
        return edges.clone();
    }

    @Override
    public int neighbourCount(int r) {
        checkRank("neighbourCount", r);
        return index[r] - GraphTopology.first(index, r);
    }

    @Override
    public int[] neighbours(int r) {
        checkRank("neighbours", r);
        return java.util.Arrays.copyOfRange(edges, GraphTopology.first(index, r), index[r]);
    }

    private void checkRank(String op, int r) {
        if (r < 0 || r >= size) {
            throw new IllegalArgumentException(op + ": rank must be 0.." + (size - 1) + ", was " + r);
        }
    }

    @Override
    ShmComm copy(int context) {
        return new ShmGraphComm(this, context, group.clone(), index, edges);
    }

    @Override
    public GraphComm dup() {
        return (GraphComm) super.dup();
    }

    @Override
    public GraphComm dup(java.util.Map<String, String> hints) {
        return (GraphComm) super.dup(hints);
    }

    @Override
    public String toString() {
        return "GraphComm[rank " + rank + " of " + size + ", context " + ctx + "]";
    }
}
