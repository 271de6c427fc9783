package mpi;

/**
 * A communicator with a graph topology. HyMPJ's core has no graph topology, so
 * {@link Intracomm#Create_graph} refuses and no Graphcomm is ever made; the class exists so
 * that programs naming it compile (docs/MIGRATING.md).
 */
public class Graphcomm extends Intracomm {
    private Graphcomm() {
        super(null, new int[0]);
        throw MPIException.notSupported("Graphcomm", "the core API has no graph topology");
    }

    /** Not supported (no Graphcomm exists). */
    public GraphParms Get() {
        throw MPIException.notSupported("Graphcomm.Get", "the core API has no graph topology");
    }

    /** Not supported (no Graphcomm exists). */
    public int Map(int[] index, int[] edges) {
        throw MPIException.notSupported("Graphcomm.Map", "the core API has no graph topology");
    }

    /** Not supported (no Graphcomm exists). */
    public int[] Neighbours(int rank) {
        throw MPIException.notSupported("Graphcomm.Neighbours", "the core API has no graph topology");
    }
}
