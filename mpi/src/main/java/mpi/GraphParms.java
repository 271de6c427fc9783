package mpi;

/**
 * A graph topology's description (MPI_Graph_get, {@link Graphcomm#Get}): {@code index[i]} is
 * the number of edges of nodes 0 … i, {@code edges} the neighbours of every node, node after node.
 */
public class GraphParms {
    public int[] index;
    public int[] edges;

    public GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }
}
