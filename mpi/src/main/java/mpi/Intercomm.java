package mpi;

/**
 * An intercommunicator. HyMPJ's core has none, so {@link Intracomm#Create_intercomm} refuses
 * and no Intercomm is ever made; the class exists so that programs naming it compile
 * (docs/MIGRATING.md).
 */
public class Intercomm extends Comm {
    private Intercomm() {
        super(null, new int[0]);
        throw MPIException.notSupported("Intercomm", "the core API has no intercommunicators");
    }

    /** Not supported (no Intercomm exists). */
    public int Remote_size() {
        throw MPIException.notSupported("Intercomm.Remote_size", "the core API has no intercommunicators");
    }

    /** Not supported (no Intercomm exists). */
    public Group Remote_group() {
        throw MPIException.notSupported("Intercomm.Remote_group", "the core API has no intercommunicators");
    }

    /** Not supported (no Intercomm exists). */
    public Intracomm Merge(boolean high) {
        throw MPIException.notSupported("Intercomm.Merge", "the core API has no intercommunicators");
    }

    @Override
    public boolean Test_inter() {
        return true;
    }
}
