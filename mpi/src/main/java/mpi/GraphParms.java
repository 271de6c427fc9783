package mpi;

/**
 * A graph topology's description (MPI_Graph_get). HyMPJ makes no graph communicators (see
 * {@link Intracomm#Create_graph}); the class exists so programs that name it compile.
 */
public class GraphParms {
    public int[] index;
    public int[] edges;

    public GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }
}
