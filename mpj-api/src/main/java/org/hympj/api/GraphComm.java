package org.hympj.api;

/**
 * A communicator with a graph topology (MPI_Graph_create), made by {@link Comm#createGraph}.
 * Node i of the graph is rank i; its neighbours are {@code edges[index[i-1] .. index[i]-1]}
 * ({@code index[-1]} = 0), as MPI describes the graph. Edges are directed as given: MPI does
 * not require the graph to be symmetric, and self-loops and repeated edges are allowed.
 */
public interface GraphComm extends Comm {
    /** MPI_Graph_get: the cumulative degrees, one per node (a copy). */
    int[] index();

    /** MPI_Graph_get: the neighbours of every node, node after node (a copy). */
    int[] edges();

    /**
     * MPI_Graph_neighbors_count: how many neighbours {@code rank} has.
     *
     * @throws IllegalArgumentException if {@code rank} is not 0 … size-1
     */
    int neighbourCount(int rank);

    /**
     * MPI_Graph_neighbors: the neighbours of {@code rank}, in the order given at creation (a copy).
     *
     * @throws IllegalArgumentException if {@code rank} is not 0 … size-1
     */
    int[] neighbours(int rank);

    /** This communicator's duplicate keeps its graph (MPI_Comm_dup copies the topology). */
    @Override
    GraphComm dup();

    /** A duplicate with hints ({@link Comm#dup(java.util.Map)}) keeps the graph too. */
    @Override
    GraphComm dup(java.util.Map<String, String> hints);
}
