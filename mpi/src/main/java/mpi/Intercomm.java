package mpi;

/**
 * An intercommunicator (mpiJava 1.2), over {@link org.hympj.api.InterComm}: {@code Rank()},
 * {@code Size()} and {@code Group()} are the local group's; point-to-point names ranks of the
 * remote group, in a matching space of its own. Made by {@link Comm#Create_intercomm}.
 */
public class Intercomm extends Comm {
    private final org.hympj.api.InterComm inter;
    /** The remote group's members, as world ranks, in its rank order. */
    private final int[] remote;

    Intercomm(org.hympj.api.InterComm inter, int[] localWorldRanks, int[] remoteWorldRanks) {
        super(inter, localWorldRanks);
        this.inter = inter;
        this.remote = remoteWorldRanks;
    }

    /** Number of processes of the remote group. */
    public int Remote_size() {
        return inter.remoteSize();
    }

    /** The remote group. */
    public Group Remote_group() {
        return new Group(remote.clone());
    }

    /**
     * MPI_Intercomm_merge (collective over both groups): an intracommunicator with the group
     * that passed {@code high} false first; with equal flags, the group holding the lower
     * COMM_WORLD rank first.
     */
    public Intracomm Merge(boolean high) {
        try {
            org.hympj.api.Comm c = inter.merge(high);
            return new Intracomm(c, worldRanksOf(c));
        } catch (RuntimeException e) {
            throw MPIException.of("Merge", e);
        }
    }

    /** MPI_Comm_dup of the intercommunicator (collective over both groups): the same groups, new matching spaces. */
    @Override
    public Object clone() {
        try {
            return new Intercomm(inter.dup(), group.members.clone(), remote.clone());
        } catch (RuntimeException e) {
            throw MPIException.of("clone", e);
        }
    }

    @Override
    public boolean Test_inter() {
        return true;
    }

    @Override
    int peerCount() {
        return inter.remoteSize();
    }
}
