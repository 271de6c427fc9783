package mpi;

/**
 * A communicator with a graph topology (mpiJava 1.2), over {@link org.hympj.api.GraphComm}:
 * node i is rank i (no reordering).
 */
public class Graphcomm extends Intracomm {
    private final org.hympj.api.GraphComm graph;

    Graphcomm(org.hympj.api.GraphComm graph, int[] worldRanks) {
        super(graph, worldRanks);
        this.graph = graph;
    }

    /** MPI_Graph_get: the graph's cumulative degrees and edges (copies). */
    public GraphParms Get() {
        return new GraphParms(graph.index(), graph.edges());
    }

    /** MPI_Graph_neighbors: the neighbours of {@code rank}, in the order given at creation. */
    public int[] Neighbours(int rank) {
        try {
            return graph.neighbours(rank);
        } catch (RuntimeException e) {
            throw MPIException.of("Neighbours", e);
        }
    }

    /**
     * MPI_Graph_map: the rank this process would have in a graph of {@code index.length} nodes
     * (no reordering: its own, if below that), or {@link MPI#UNDEFINED}. The graph is checked as
     * {@link Intracomm#Create_graph} checks it.
     */
    public int Map(int[] index, int[] edges) {
        try {
            org.hympj.api.GraphTopology.check("Map", index, edges, Size());
            return Rank() < index.length ? Rank() : MPI.UNDEFINED;
        } catch (RuntimeException e) {
            throw MPIException.of("Map", e);
        }
    }

    @Override
    public int Topo_test() {
        return MPI.GRAPH;
    }

    @Override
    public Graphcomm Dup() {
        try {
            // a graph communicator's duplicate keeps its graph
            return new Graphcomm(graph.dup(), group.members.clone());
        } catch (RuntimeException e) {
            throw MPIException.of("Dup", e);
        }
    }
}
