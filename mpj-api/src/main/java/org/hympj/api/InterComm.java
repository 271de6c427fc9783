package org.hympj.api;

/**
 * An intercommunicator (MPI_Intercomm_create): two disjoint groups, the local one this rank
 * belongs to and the remote one. {@link #rank()} and {@link #size()} are the local group's;
 * point-to-point names ranks of the <em>remote</em> group (a send to 2 goes to remote rank 2, a
 * status's source is a remote rank), in a matching space of its own. Made by
 * {@link Comm#createIntercomm}.
 *
 * <p>Collectives follow MPI's intercommunicator rules: {@link #barrier()}; {@link #bcast},
 * {@link #gather}, {@link #scatter} and {@link #reduce} with {@code root} = {@link #ROOT} at the
 * root, {@link Comm#PROC_NULL} at the other ranks of its group and the root's rank (in the
 * remote group) at every rank of the other group; {@link #allreduce} and {@link #allgather},
 * where each group gets the other group's contributions; {@link #alltoall}, block j to remote
 * rank j; the v-variants likewise ({@link #gatherv}/{@link #scatterv} rooted as above, counts and
 * displacements with one entry per remote rank); {@link #reduceScatter} and
 * {@link #reduceScatterBlock}: the remote group's reduction scattered over this group by this
 * group's counts (both groups' counts add up to the same total). MPI defines no scan, exscan,
 * Cartesian or graph topology on an intercommunicator: those throw
 * {@link UnsupportedOperationException}, as does {@link #split}, not written (merge first).
 */
public interface InterComm extends Comm {
    /** As {@code root} of a rooted collective: this rank is the root (MPI_ROOT). */
    int ROOT = -3;

    /** Number of ranks of the remote group. */
    int remoteSize();

    /**
     * MPI_Intercomm_merge (collective over both groups): an intracommunicator of both groups,
     * the ranks of the group that passed {@code high} false first, each group in its own order.
     * Every rank of a group must pass the same {@code high}; when both groups pass the same
     * value, the group whose rank 0 is the lower process of the job (world rank) comes first.
     */
    Comm merge(boolean high);

    /** MPI_Comm_dup of an intercommunicator: the same groups, new matching spaces (collective over both). */
    @Override
    InterComm dup();

    /** A duplicate with hints ({@link Comm#dup(java.util.Map)}): they apply to the messages between the groups. */
    @Override
    InterComm dup(java.util.Map<String, String> hints);
}
