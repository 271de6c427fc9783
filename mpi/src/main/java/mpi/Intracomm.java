package mpi;

import mpi.IrregularCollectives.Form;

/**
 * An intracommunicator (mpiJava 1.2): the collectives and the communicator constructors, each
 * one core call ({@link org.hympj.api.Comm}). BOOLEAN buffers travel as bytes; OBJECT buffers
 * are serialized ({@link ObjectCollectives}) by the broadcast, the gathers, scatters and
 * all-to-alls (v variants included), and by the reductions ({@link #Reduce}, {@link #Allreduce},
 * {@link #Scan}, {@link #Exscan}, {@link #Reduce_scatter}, {@link #Reduce_scatter_block}) with a
 * user op; the other collectives refuse OBJECT with an MPIException that says so. Irregular
 * types (Indexed, Hindexed, Struct …) are packed around the same core calls
 * ({@link IrregularCollectives}) in every collective, blocking, non-blocking and persistent.
 */
public class Intracomm extends Comm {
    /** OBJECT buffers in non-blocking and persistent collectives: their private communicator and call numbers. */
    private ObjectNbc objectNbc;

    Intracomm(org.hympj.api.Comm core, int[] worldRanks) {
        super(core, worldRanks);
    }

    // ---------------------------------------------------------------- constructors

    /** A communicator with the same members and a separate matching space (collective). */
    public Intracomm Dup() {
        try {
            return new Intracomm(core.dup(), group.members.clone());
        } catch (RuntimeException e) {
            throw MPIException.of("Dup", e);
        }
    }

    /** {@link #Dup}: the same members (and topology, for {@link Cartcomm} and {@link Graphcomm}). */
    @Override
    public Object clone() {
        return Dup();
    }

    /**
     * Splits by {@code colour}, ordered by {@code key} then rank (collective); null where
     * {@code colour} is {@link MPI#UNDEFINED}.
     */
    public Intracomm Split(int colour, int key) {
        try {
            org.hympj.api.Comm c = core.split(colour, key);
            return c == null ? null : new Intracomm(c, worldRanksOf(c));
        } catch (RuntimeException e) {
            throw MPIException.of("Split", e);
        }
    }

    /**
     * The communicator of the members of {@code group}, in its order (collective: every member
     * of this communicator calls, with the same group or, as MPI-2.2 allows, with disjoint
     * groups — each becomes its own communicator); null for the ranks in no group.
     */
    public Intracomm Create(Group group) {
        try {
            if (group == null) {
                throw new MPIException("Create: group must not be null");
            }
            for (int i = 0; i < group.members.length; i++) {
                if (this.group.indexOf(group.members[i]) == MPI.UNDEFINED) {
                    throw new MPIException("Create: member " + i + " of the group (world rank " + group.members[i]
                        + ") is not in this communicator");
                }
            }
            // MPI-2.2: ranks may pass different groups if they are disjoint; each group becomes its own
            // communicator (its lowest world rank names it), ranks in no group get COMM_NULL
            int me = group.Rank();
            int color = MPI.UNDEFINED;
            for (int w : group.members) {
                color = color == MPI.UNDEFINED ? w : Math.min(color, w);
            }
            org.hympj.api.Comm c = core.split(me == MPI.UNDEFINED ? MPI.UNDEFINED : color, me);
            if (c == null) {
                return null;
            }
            // every rank of the new communicator learns who is in it (all of them take part, so none
            // waits for a rank that refused): a rank whose group differs from what the others made refuses
            int[] made = new int[c.size()];
            c.allgather(new int[] {this.group.members[Rank()]}, 0, 1, org.hympj.api.Datatype.INT, made, 0, 1,
                org.hympj.api.Datatype.INT);
            if (!java.util.Arrays.equals(made, group.members)) {
                throw new MPIException("Create: the ranks passed groups that differ and overlap (this rank's group "
                    + "holds world ranks " + java.util.Arrays.toString(group.members) + ", the ranks that named the "
                    + "same lowest member make " + java.util.Arrays.toString(made) + "); MPI requires one group, or "
                    + "disjoint ones");
            }
            return new Intracomm(c, group.members.clone());
        } catch (RuntimeException e) {
            throw MPIException.of("Create", e);
        }
    }

    /**
     * A Cartesian communicator over the first prod(dims) ranks (collective); null for the
     * others. {@code reorder} is allowed and not used: on one machine every placement is equal.
     */
    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) {
        try {
            org.hympj.api.CartComm c = core.createCart(dims, periods, reorder);
            return c == null ? null : new Cartcomm(c, worldRanksOf(c));
        } catch (RuntimeException e) {
            throw MPIException.of("Create_cart", e);
        }
    }

    /**
     * A graph communicator over the first {@code index.length} ranks (collective); null for the
     * others. {@code reorder} is allowed and not used: ranks keep their numbers.
     */
    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        try {
            org.hympj.api.GraphComm g = core.createGraph(index, edges, reorder);
            return g == null ? null : new Graphcomm(g, worldRanksOf(g));
        } catch (RuntimeException e) {
            throw MPIException.of("Create_graph", e);
        }
    }

    // ---------------------------------------------------------------- collectives

    public void Barrier() {
        try {
            core.barrier();
        } catch (RuntimeException e) {
            throw MPIException.of("Barrier", e);
        }
    }

    public void Bcast(Object buf, int offset, int count, Datatype datatype, int root) {
        try {
            if (irregular(datatype)) {
                irregularCollectives().bcast(Form.BLOCKING, "Bcast", buf, offset, count, datatype, root);
                return;
            }
            if (kind("Bcast", datatype) == Datatype.Kind.OBJECT) {
                bcastObjects(buf, offset, count, datatype, root);
                return;
            }
            Object b = in("Bcast", buf, datatype);
            core.bcast(b, offset, count, datatype.core, root);
            back(buf, b, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Bcast", e);
        }
    }

    /** The root's objects, serialized, then their length and bytes broadcast. */
    private void bcastObjects(Object buf, int offset, int count, Datatype datatype, int root) {
        ObjectItems items = ObjectItems.of("Bcast", buf, offset, count, datatype);
        if (root < 0 || root >= Size()) {
            throw new MPIException("Bcast: root must be 0.." + (Size() - 1) + ", was " + root);
        }
        byte[] data = Rank() == root ? items.serialize("Bcast") : null;
        int[] len = {data == null ? 0 : data.length};
        core.bcast(len, 0, 1, org.hympj.api.Datatype.INT, root);
        if (data == null) {
            data = new byte[len[0]];
        }
        core.bcast(data, 0, len[0], org.hympj.api.Datatype.BYTE, root);
        if (Rank() != root) {
            items.deserialize("Bcast", data);
        }
    }

    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                       Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().gather(Form.BLOCKING, "Gather", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, recvcount, recvtype, root);
                return;
            }
            if (kind("Gather", sendtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype, root);
                return;
            }
            boolean atRoot = Rank() == root;
            Object s = in("Gather", sendbuf, sendtype);
            Object r;
            try {
                r = atRoot ? in("Gather", recvbuf, recvtype) : null;
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.gather(s, sendoffset, sendcount, sendtype.core, null, 0,
                    recvcount, sendtype.core, root));
            }
            core.gather(s, sendoffset, sendcount, sendtype.core, r, recvoffset, recvcount,
                atRoot ? recvtype.core : null, root);
            if (atRoot) {
                back(recvbuf, r, recvtype);
            }
        } catch (RuntimeException e) {
            throw MPIException.of("Gather", e);
        }
    }

    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().gatherv(Form.BLOCKING, "Gatherv", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, recvcount, displs, recvtype, root);
                return;
            }
            if (kind("Gatherv", sendtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).gatherv("Gatherv", sendbuf, sendoffset, sendcount, sendtype, recvbuf,
                    recvoffset,
                    recvcount, displs, recvtype, root);
                return;
            }
            boolean atRoot = Rank() == root;
            Object s = in("Gatherv", sendbuf, sendtype);
            Object r;
            try {
                r = atRoot ? in("Gatherv", recvbuf, recvtype) : null;
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.gatherv(s, sendoffset, sendcount, sendtype.core,
                    null, 0,
                    null, null, sendtype.core, root));
            }
            core.gatherv(s, sendoffset, sendcount, sendtype.core, r, recvoffset, recvcount, displs,
                atRoot ? recvtype.core : null, root);
            if (atRoot) {
                back(recvbuf, r, recvtype);
            }
        } catch (RuntimeException e) {
            throw MPIException.of("Gatherv", e);
        }
    }

    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().scatter(Form.BLOCKING, "Scatter", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, recvcount, recvtype, root);
                return;
            }
            if (kind("Scatter", recvtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).scatter(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype, root);
                return;
            }
            boolean atRoot = Rank() == root;
            Object r = in("Scatter", recvbuf, recvtype);
            Object s;
            try {
                s = atRoot ? in("Scatter", sendbuf, sendtype) : null;
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.scatter(null, 0, sendcount, recvtype.core, r,
                    recvoffset,
                    recvcount, recvtype.core, root));
            }
            core.scatter(s, sendoffset, sendcount, atRoot ? sendtype.core : null, r, recvoffset, recvcount,
                recvtype.core, root);
            back(recvbuf, r, recvtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Scatter", e);
        }
    }

    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().scatterv(Form.BLOCKING, "Scatterv", sendbuf, sendoffset, sendcount, displs,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
                return;
            }
            if (kind("Scatterv", recvtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).scatterv("Scatterv", sendbuf, sendoffset, sendcount, displs, sendtype,
                    recvbuf,
                    recvoffset, recvcount, recvtype, root);
                return;
            }
            boolean atRoot = Rank() == root;
            Object r = in("Scatterv", recvbuf, recvtype);
            Object s;
            try {
                s = atRoot ? in("Scatterv", sendbuf, sendtype) : null;
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.scatterv(null, 0, null, null, recvtype.core, r,
                    recvoffset, recvcount, recvtype.core, root));
            }
            core.scatterv(s, sendoffset, sendcount, displs, atRoot ? sendtype.core : null, r, recvoffset, recvcount,
                recvtype.core, root);
            back(recvbuf, r, recvtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Scatterv", e);
        }
    }

    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().allgather(Form.BLOCKING, "Allgather", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype);
                return;
            }
            if (kind("Allgather", sendtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).allgather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype);
                return;
            }
            Object s = in("Allgather", sendbuf, sendtype);
            Object r = in("Allgather", recvbuf, recvtype);
            core.allgather(s, sendoffset, sendcount, sendtype.core, r, recvoffset, recvcount, recvtype.core);
            back(recvbuf, r, recvtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Allgather", e);
        }
    }

    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().allgatherv(Form.BLOCKING, "Allgatherv", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, displs, recvtype);
                return;
            }
            if (kind("Allgatherv", sendtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).allgatherv("Allgatherv", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset,
                    recvcount, displs, recvtype);
                return;
            }
            Object s = in("Allgatherv", sendbuf, sendtype);
            Object r = in("Allgatherv", recvbuf, recvtype);
            core.allgatherv(s, sendoffset, sendcount, sendtype.core, r, recvoffset, recvcount, displs, recvtype.core);
            back(recvbuf, r, recvtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Allgatherv", e);
        }
    }

    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().alltoall(Form.BLOCKING, "Alltoall", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, recvcount, recvtype);
                return;
            }
            if (kind("Alltoall", sendtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).alltoall(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype);
                return;
            }
            Object s = in("Alltoall", sendbuf, sendtype);
            Object r = in("Alltoall", recvbuf, recvtype);
            core.alltoall(s, sendoffset, sendcount, sendtype.core, r, recvoffset, recvcount, recvtype.core);
            back(recvbuf, r, recvtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Alltoall", e);
        }
    }

    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                irregularCollectives().alltoallv(Form.BLOCKING, "Alltoallv", sendbuf, sendoffset, sendcount, sdispls,
                    sendtype, recvbuf, recvoffset, recvcount, rdispls, recvtype);
                return;
            }
            if (kind("Alltoallv", sendtype) == Datatype.Kind.OBJECT) {
                new ObjectCollectives(core).alltoallv("Alltoallv", sendbuf, sendoffset, sendcount, sdispls, sendtype,
                    recvbuf, recvoffset, recvcount, rdispls, recvtype);
                return;
            }
            Object s = in("Alltoallv", sendbuf, sendtype);
            Object r = in("Alltoallv", recvbuf, recvtype);
            core.alltoallv(s, sendoffset, sendcount, sdispls, sendtype.core, r, recvoffset, recvcount, rdispls,
                recvtype.core);
            back(recvbuf, r, recvtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Alltoallv", e);
        }
    }

    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op, int root) {
        try {
            if (irregular(datatype)) {
                irregularCollectives().reduce(Form.BLOCKING, "Reduce", sendbuf, sendoffset, recvbuf, recvoffset,
                    count, datatype, op, root);
                return;
            }
            if (objectsWithUserOp("Reduce", op, datatype)) {
                new ObjectCollectives(core).reduce("Reduce", sendbuf, sendoffset, recvbuf, recvoffset, count, datatype,
                    op, root);
                return;
            }
            boolean atRoot = Rank() == root;
            org.hympj.api.Op o = op("Reduce", op, datatype);
            Object s = in("Reduce", sendbuf, datatype);
            Object r;
            try {
                r = atRoot ? in("Reduce", recvbuf, datatype) : null;
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.reduce(s, sendoffset, null, 0, count, datatype.core, o,
                    root));
            }
            core.reduce(s, sendoffset, r, recvoffset, count, datatype.core, o, root);
            if (atRoot) {
                back(recvbuf, r, datatype);
            }
        } catch (RuntimeException e) {
            throw MPIException.of("Reduce", e);
        }
    }

    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                          Datatype datatype, Op op) {
        try {
            if (irregular(datatype)) {
                irregularCollectives().allreduce(Form.BLOCKING, "Allreduce", sendbuf, sendoffset, recvbuf,
                    recvoffset, count, datatype, op);
                return;
            }
            if (objectsWithUserOp("Allreduce", op, datatype)) {
                new ObjectCollectives(core).reduce("Allreduce", sendbuf, sendoffset, recvbuf, recvoffset, count,
                    datatype, op, 0);
                bcastObjects(recvbuf, recvoffset, count, datatype, 0);
                return;
            }
            org.hympj.api.Op o = op("Allreduce", op, datatype);
            Object s = in("Allreduce", sendbuf, datatype);
            Object r = in("Allreduce", recvbuf, datatype);
            core.allreduce(s, sendoffset, r, recvoffset, count, datatype.core, o);
            back(recvbuf, r, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Allreduce", e);
        }
    }

    /** Reduces {@code sum(recvcounts)} items and leaves block i (of recvcounts[i] items) on rank i. */
    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) {
        try {
            if (irregular(datatype)) {
                irregularCollectives().reduceScatter(Form.BLOCKING, "Reduce_scatter", sendbuf, sendoffset, recvbuf,
                    recvoffset, recvcounts, false, datatype, op);
                return;
            }
            if (objectsWithUserOp("Reduce_scatter", op, datatype)) {
                new ObjectCollectives(core).reduceScatter("Reduce_scatter", sendbuf, sendoffset, recvbuf, recvoffset,
                    recvcounts, datatype, op);
                return;
            }
            org.hympj.api.Op o = op("Reduce_scatter", op, datatype);
            Object s = in("Reduce_scatter", sendbuf, datatype);
            Object r = in("Reduce_scatter", recvbuf, datatype);
            core.reduceScatter(s, sendoffset, r, recvoffset, recvcounts, datatype.core, o);
            back(recvbuf, r, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Reduce_scatter", e);
        }
    }

    /** {@link #Reduce_scatter} with {@code recvcount} items for every rank (MPI-2.2). */
    public void Reduce_scatter_block(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int recvcount,
                                     Datatype datatype, Op op) {
        try {
            if (irregular(datatype)) {
                irregularCollectives().reduceScatter(Form.BLOCKING, "Reduce_scatter_block", sendbuf, sendoffset,
                    recvbuf, recvoffset, uniformCounts(recvcount), true, datatype, op);
                return;
            }
            if (objectsWithUserOp("Reduce_scatter_block", op, datatype)) {
                new ObjectCollectives(core).reduceScatter("Reduce_scatter_block", sendbuf, sendoffset, recvbuf,
                    recvoffset, uniformCounts(recvcount), datatype, op);
                return;
            }
            org.hympj.api.Op o = op("Reduce_scatter_block", op, datatype);
            Object s = in("Reduce_scatter_block", sendbuf, datatype);
            Object r = in("Reduce_scatter_block", recvbuf, datatype);
            core.reduceScatterBlock(s, sendoffset, r, recvoffset, recvcount, datatype.core, o);
            back(recvbuf, r, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Reduce_scatter_block", e);
        }
    }

    /** Inclusive prefix reduction in rank order. */
    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                     Op op) {
        try {
            if (irregular(datatype)) {
                irregularCollectives().scan(Form.BLOCKING, "Scan", false, sendbuf, sendoffset, recvbuf, recvoffset,
                    count, datatype, op);
                return;
            }
            if (objectsWithUserOp("Scan", op, datatype)) {
                new ObjectCollectives(core).scan("Scan", sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
                return;
            }
            org.hympj.api.Op o = op("Scan", op, datatype);
            Object s = in("Scan", sendbuf, datatype);
            Object r = in("Scan", recvbuf, datatype);
            core.scan(s, sendoffset, r, recvoffset, count, datatype.core, o);
            back(recvbuf, r, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Scan", e);
        }
    }

    /** Exclusive prefix reduction (MPI-2): rank 0's receive buffer is left as it was. */
    public void Exscan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op) {
        try {
            if (irregular(datatype)) {
                irregularCollectives().scan(Form.BLOCKING, "Exscan", true, sendbuf, sendoffset, recvbuf,
                    recvoffset, count, datatype, op);
                return;
            }
            if (objectsWithUserOp("Exscan", op, datatype)) {
                new ObjectCollectives(core).exscan("Exscan", sendbuf, sendoffset, recvbuf, recvoffset, count,
                    datatype, op);
                return;
            }
            org.hympj.api.Op o = op("Exscan", op, datatype);
            Object s = in("Exscan", sendbuf, datatype);
            Object r = in("Exscan", recvbuf, datatype);
            core.exscan(s, sendoffset, r, recvoffset, count, datatype.core, o);
            back(recvbuf, r, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Exscan", e);
        }
    }

    /**
     * True for OBJECT items, which only a user op combines ({@link ObjectCollectives#reduce}); a
     * predefined op on them is refused there, naming it.
     */
    private static boolean objectsWithUserOp(String call, Op op, Datatype datatype) {
        if (op == null) {
            throw new MPIException(call + ": op must not be null");
        }
        return datatype != null && datatype.kind == Datatype.Kind.OBJECT;
    }

    // ---------------------------------------------------------------- non-blocking collectives (MPI-3)

    /*
     * As MPJ Express offers them: each returns a started Request at once; the collective moves on
     * during any later MPI call of this rank (Wait, Test, a send …) and its buffers must not be
     * touched until a Wait or Test has seen it complete. Every rank calls the collectives of a
     * communicator in the same order. Primitive and BOOLEAN buffers (see CollectiveRequests).
     */

    public Request Ibarrier() {
        try {
            return CollectiveRequests.started(core.ibarrier(), null);
        } catch (RuntimeException e) {
            throw MPIException.of("Ibarrier", e);
        }
    }

    public Request Ibcast(Object buf, int offset, int count, Datatype datatype, int root) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().bcast(Form.STARTED, "Ibcast", buf, offset, count, datatype, root);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.bcast("Ibcast", buf, offset, count, datatype, root));
            }
            CollectiveRequests.Side b = CollectiveRequests.Side.of("Ibcast", buf, datatype, true);
            return CollectiveRequests.started(core.ibcast(b.core, offset, count, datatype.core, root), b);
        } catch (RuntimeException e) {
            throw MPIException.of("Ibcast", e);
        }
    }

    public Request Ireduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                           Datatype datatype, Op op, int root) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().reduce(Form.STARTED, "Ireduce", sendbuf, sendoffset, recvbuf,
                    recvoffset, count, datatype, op, root);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.reduce("Ireduce", sendbuf, sendoffset, recvbuf, recvoffset, count,
                    datatype, op, root, false));
            }
            org.hympj.api.Op o = CollectiveRequests.op("Ireduce", op, datatype);
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Ireduce", sendbuf, datatype, true);
            CollectiveRequests.Side r;
            try {
                r = CollectiveRequests.Side.of("Ireduce", recvbuf, datatype, atRoot);
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.ireduce(s.core, sendoffset, null, 0, count,
                    datatype.core,
                    o, root));
            }
            return CollectiveRequests.started(core.ireduce(s.core, sendoffset, CollectiveRequests.Side.core(r),
                recvoffset, count, datatype.core, o, root), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Ireduce", e);
        }
    }

    public Request Iallreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                              Datatype datatype, Op op) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().allreduce(Form.STARTED, "Iallreduce", sendbuf, sendoffset, recvbuf,
                    recvoffset, count, datatype, op);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.reduce("Iallreduce", sendbuf, sendoffset, recvbuf, recvoffset,
                    count, datatype, op, 0, true));
            }
            org.hympj.api.Op o = CollectiveRequests.op("Iallreduce", op, datatype);
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Iallreduce", sendbuf, datatype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Iallreduce", recvbuf, datatype, true);
            return CollectiveRequests.started(core.iallreduce(s.core, sendoffset, r.core, recvoffset, count,
                datatype.core, o), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Iallreduce", e);
        }
    }

    public Request Igather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().gather(Form.STARTED, "Igather", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.gatherv("Igather", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, n.uniform(recvcount, false), n.uniform(recvcount, true), recvtype, root));
            }
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Igather", sendbuf, sendtype, true);
            CollectiveRequests.Side r;
            try {
                r = CollectiveRequests.Side.of("Igather", recvbuf, recvtype, atRoot);
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.igather(s.core, sendoffset, sendcount, sendtype.core,
                    null, 0, recvcount, sendtype.core, root));
            }
            return CollectiveRequests.started(core.igather(s.core, sendoffset, sendcount, sendtype.core,
                CollectiveRequests.Side.core(r), recvoffset, recvcount, CollectiveRequests.type(recvtype, atRoot),
                root), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Igather", e);
        }
    }

    public Request Iscatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().scatter(Form.STARTED, "Iscatter", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
            }
            if (recvtype != null && recvtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.scatterv("Iscatter", sendbuf, sendoffset, n.uniform(sendcount,
                    false), n.uniform(sendcount, true), sendtype, recvbuf, recvoffset, recvcount, recvtype, root, tag));
            }
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Iscatter", recvbuf, recvtype, true);
            CollectiveRequests.Side s;
            try {
                s = CollectiveRequests.Side.of("Iscatter", sendbuf, sendtype, atRoot);
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.iscatter(null, 0, sendcount, recvtype.core, r.core,
                    recvoffset, recvcount, recvtype.core, root));
            }
            return CollectiveRequests.started(core.iscatter(CollectiveRequests.Side.core(s), sendoffset, sendcount,
                CollectiveRequests.type(sendtype, atRoot), r.core, recvoffset, recvcount, recvtype.core, root), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Iscatter", e);
        }
    }

    public Request Iallgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                              Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().allgather(Form.STARTED, "Iallgather", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.allgatherv("Iallgather", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, n.uniform(recvcount, false), n.uniform(recvcount, true), recvtype));
            }
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Iallgather", sendbuf, sendtype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Iallgather", recvbuf, recvtype, true);
            return CollectiveRequests.started(core.iallgather(s.core, sendoffset, sendcount, sendtype.core, r.core,
                recvoffset, recvcount, recvtype.core), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Iallgather", e);
        }
    }

    public Request Ialltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().alltoall(Form.STARTED, "Ialltoall", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.alltoallv("Ialltoall", sendbuf, sendoffset, n.uniform(sendcount,
                    false), n.uniform(sendcount, true), sendtype, recvbuf, recvoffset, n.uniform(recvcount, false),
                    n.uniform(recvcount, true), recvtype));
            }
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Ialltoall", sendbuf, sendtype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Ialltoall", recvbuf, recvtype, true);
            return CollectiveRequests.started(core.ialltoall(s.core, sendoffset, sendcount, sendtype.core, r.core,
                recvoffset, recvcount, recvtype.core), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Ialltoall", e);
        }
    }

    public Request Igatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype,
                            int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().gatherv(Form.STARTED, "Igatherv", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, displs, recvtype, root);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.gatherv("Igatherv", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, recvcount, displs, recvtype, root));
            }
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Igatherv", sendbuf, sendtype, true);
            CollectiveRequests.Side r;
            try {
                r = CollectiveRequests.Side.of("Igatherv", recvbuf, recvtype, atRoot);
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.igatherv(s.core, sendoffset, sendcount, sendtype.core,
                    null, 0, null, null, sendtype.core, root));
            }
            return CollectiveRequests.started(core.igatherv(s.core, sendoffset, sendcount, sendtype.core,
                CollectiveRequests.Side.core(r), recvoffset, recvcount, displs,
                CollectiveRequests.type(recvtype, atRoot), root), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Igatherv", e);
        }
    }

    public Request Iscatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                             Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().scatterv(Form.STARTED, "Iscatterv", sendbuf, sendoffset, sendcount,
                    displs, sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
            }
            if (recvtype != null && recvtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.scatterv("Iscatterv", sendbuf, sendoffset, sendcount, displs,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype, root, tag));
            }
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Iscatterv", recvbuf, recvtype, true);
            CollectiveRequests.Side s;
            try {
                s = CollectiveRequests.Side.of("Iscatterv", sendbuf, sendtype, atRoot);
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.iscatterv(null, 0, null, null, recvtype.core, r.core,
                    recvoffset, recvcount, recvtype.core, root));
            }
            return CollectiveRequests.started(core.iscatterv(CollectiveRequests.Side.core(s), sendoffset, sendcount,
                displs, CollectiveRequests.type(sendtype, atRoot), r.core, recvoffset, recvcount, recvtype.core,
                root), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Iscatterv", e);
        }
    }

    public Request Iallgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                               Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().allgatherv(Form.STARTED, "Iallgatherv", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, displs, recvtype);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.allgatherv("Iallgatherv", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, recvcount, displs, recvtype));
            }
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Iallgatherv", sendbuf, sendtype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Iallgatherv", recvbuf, recvtype, true);
            return CollectiveRequests.started(core.iallgatherv(s.core, sendoffset, sendcount, sendtype.core, r.core,
                recvoffset, recvcount, displs, recvtype.core), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Iallgatherv", e);
        }
    }

    public Request Ialltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                              Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().alltoallv(Form.STARTED, "Ialltoallv", sendbuf, sendoffset, sendcount,
                    sdispls, sendtype, recvbuf, recvoffset, recvcount, rdispls, recvtype);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.alltoallv("Ialltoallv", sendbuf, sendoffset, sendcount, sdispls,
                    sendtype, recvbuf, recvoffset, recvcount, rdispls, recvtype));
            }
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Ialltoallv", sendbuf, sendtype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Ialltoallv", recvbuf, recvtype, true);
            return CollectiveRequests.started(core.ialltoallv(s.core, sendoffset, sendcount, sdispls, sendtype.core,
                r.core, recvoffset, recvcount, rdispls, recvtype.core), r);
        } catch (RuntimeException e) {
            throw MPIException.of("Ialltoallv", e);
        }
    }

    /** Non-blocking {@link #Scan} (MPI-3): the same chain in rank order. */
    public Request Iscan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                         Datatype datatype, Op op) {
        return prefixStarted("Iscan", false, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    /** Non-blocking {@link #Exscan} (MPI-3): rank 0's receive buffer is left as it was. */
    public Request Iexscan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                           Datatype datatype, Op op) {
        return prefixStarted("Iexscan", true, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    private Request prefixStarted(String call, boolean exclusive, Object sendbuf, int sendoffset, Object recvbuf,
                                  int recvoffset, int count, Datatype datatype, Op op) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().scan(Form.STARTED, call, exclusive, sendbuf, sendoffset, recvbuf,
                    recvoffset, count, datatype, op);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                return startObjects((n, tag) -> n.scan(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype,
                    op, exclusive));
            }
            org.hympj.api.Op o = CollectiveRequests.op(call, op, datatype);
            CollectiveRequests.Side s = CollectiveRequests.Side.of(call, sendbuf, datatype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of(call, recvbuf, datatype, true);
            return CollectiveRequests.started(exclusive
                ? core.iexscan(s.core, sendoffset, r.core, recvoffset, count, datatype.core, o)
                : core.iscan(s.core, sendoffset, r.core, recvoffset, count, datatype.core, o), r);
        } catch (RuntimeException e) {
            throw MPIException.of(call, e);
        }
    }

    /** Non-blocking {@link #Reduce_scatter} (MPI-3); the counts are read at the call. */
    public Request Ireduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                                   Datatype datatype, Op op) {
        return reduceScatterStarted("Ireduce_scatter", false, sendbuf, sendoffset, recvbuf, recvoffset, recvcounts, 0,
            datatype, op);
    }

    /** Non-blocking {@link #Reduce_scatter_block} (MPI-3). */
    public Request Ireduce_scatter_block(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                                         int recvcount, Datatype datatype, Op op) {
        return reduceScatterStarted("Ireduce_scatter_block", true, sendbuf, sendoffset, recvbuf, recvoffset, null,
            recvcount, datatype, op);
    }

    /** Both: {@code recvcounts} per rank, or ({@code block}) {@code recvcount} for every rank. */
    private Request reduceScatterStarted(String call, boolean block, Object sendbuf, int sendoffset, Object recvbuf,
                                         int recvoffset, int[] recvcounts, int recvcount, Datatype datatype, Op op) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().reduceScatter(Form.STARTED, call, sendbuf, sendoffset, recvbuf,
                    recvoffset, block ? uniformCounts(recvcount) : recvcounts, block, datatype, op);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                int[] counts = block ? uniformCounts(recvcount) : recvcounts;
                return startObjects((n, tag) -> n.reduceScatter(call, sendbuf, sendoffset, recvbuf, recvoffset, counts,
                    datatype, op));
            }
            org.hympj.api.Op o = CollectiveRequests.op(call, op, datatype);
            CollectiveRequests.Side s = CollectiveRequests.Side.of(call, sendbuf, datatype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of(call, recvbuf, datatype, true);
            return CollectiveRequests.started(block
                ? core.ireduceScatterBlock(s.core, sendoffset, r.core, recvoffset, recvcount, datatype.core, o)
                : core.ireduceScatter(s.core, sendoffset, r.core, recvoffset, recvcounts, datatype.core, o), r);
        } catch (RuntimeException e) {
            throw MPIException.of(call, e);
        }
    }

    /** {@code count} items for every rank (Reduce_scatter_block's counts). */
    private int[] uniformCounts(int count) {
        int[] c = new int[Size()];
        java.util.Arrays.fill(c, count);
        return c;
    }

    // ---------------------------------------------------------------- persistent collectives (MPI-4)

    /*
     * Made once (collectively, in the same order on every rank), started with Start or
     * Prequest.Startall and completed with Wait or Test, as many times as wanted; each start takes
     * what the buffers hold then. Resolved at init: a start allocates nothing.
     */

    public Prequest Barrier_init() {
        try {
            return CollectiveRequests.persistent(core.barrierInit(), null, null);
        } catch (RuntimeException e) {
            throw MPIException.of("Barrier_init", e);
        }
    }

    public Prequest Bcast_init(Object buf, int offset, int count, Datatype datatype, int root) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().bcast(Form.PERSISTENT, "Bcast_init", buf, offset, count, datatype, root);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                return persistObjects(n -> n.bcast("Bcast_init", buf, offset, count, datatype, root));
            }
            CollectiveRequests.Side b = CollectiveRequests.Side.of("Bcast_init", buf, datatype, true);
            return CollectiveRequests.persistent(core.bcastInit(b.core, offset, count, datatype.core, root), b, b);
        } catch (RuntimeException e) {
            throw MPIException.of("Bcast_init", e);
        }
    }

    public Prequest Reduce_init(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                                Datatype datatype, Op op, int root) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().reduce(Form.PERSISTENT, "Reduce_init", sendbuf, sendoffset, recvbuf,
                    recvoffset, count, datatype, op, root);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                return persistObjects(n -> n.reduce("Reduce_init", sendbuf, sendoffset, recvbuf, recvoffset, count,
                    datatype, op, root, false));
            }
            org.hympj.api.Op o = CollectiveRequests.op("Reduce_init", op, datatype);
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Reduce_init", sendbuf, datatype, true);
            CollectiveRequests.Side r;
            try {
                r = CollectiveRequests.Side.of("Reduce_init", recvbuf, datatype, atRoot);
            } catch (RuntimeException refused) {
                // the core's init takes the collective's tag before it refuses: this rank stays in step
                throw RootRefusal.afterCore(refused, () -> core.reduceInit(s.core, sendoffset, null, 0, count,
                    datatype.core, o, root));
            }
            return CollectiveRequests.persistent(core.reduceInit(s.core, sendoffset, CollectiveRequests.Side.core(r),
                recvoffset, count, datatype.core, o, root), s, r);
        } catch (RuntimeException e) {
            throw MPIException.of("Reduce_init", e);
        }
    }

    public Prequest Allreduce_init(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                                   Datatype datatype, Op op) {
        try {
            if (irregular(datatype)) {
                return irregularCollectives().allreduce(Form.PERSISTENT, "Allreduce_init", sendbuf, sendoffset,
                    recvbuf, recvoffset, count, datatype, op);
            }
            if (datatype != null && datatype.kind == Datatype.Kind.OBJECT) {
                return persistObjects(n -> n.reduce("Allreduce_init", sendbuf, sendoffset, recvbuf, recvoffset,
                    count, datatype, op, 0, true));
            }
            org.hympj.api.Op o = CollectiveRequests.op("Allreduce_init", op, datatype);
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Allreduce_init", sendbuf, datatype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Allreduce_init", recvbuf, datatype, true);
            return CollectiveRequests.persistent(core.allreduceInit(s.core, sendoffset, r.core, recvoffset, count,
                datatype.core, o), s, r);
        } catch (RuntimeException e) {
            throw MPIException.of("Allreduce_init", e);
        }
    }

    public Prequest Gather_init(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().gather(Form.PERSISTENT, "Gather_init", sendbuf, sendoffset, sendcount,
                    sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return persistObjects(n -> n.gatherv("Gather_init", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, n.uniform(recvcount, false), n.uniform(recvcount, true), recvtype, root));
            }
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Gather_init", sendbuf, sendtype, true);
            CollectiveRequests.Side r;
            try {
                r = CollectiveRequests.Side.of("Gather_init", recvbuf, recvtype, atRoot);
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.gatherInit(s.core, sendoffset, sendcount,
                    sendtype.core, null, 0, recvcount, sendtype.core, root));
            }
            return CollectiveRequests.persistent(core.gatherInit(s.core, sendoffset, sendcount, sendtype.core,
                CollectiveRequests.Side.core(r), recvoffset, recvcount, CollectiveRequests.type(recvtype, atRoot),
                root), s, r);
        } catch (RuntimeException e) {
            throw MPIException.of("Gather_init", e);
        }
    }

    public Prequest Scatter_init(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                 Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().scatter(Form.PERSISTENT, "Scatter_init", sendbuf, sendoffset,
                    sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
            }
            if (recvtype != null && recvtype.kind == Datatype.Kind.OBJECT) {
                return persistObjects(n -> n.scatterv("Scatter_init", sendbuf, sendoffset, n.uniform(sendcount,
                    false), n.uniform(sendcount, true), sendtype, recvbuf, recvoffset, recvcount, recvtype, root, -1));
            }
            boolean atRoot = Rank() == root;
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Scatter_init", recvbuf, recvtype, true);
            CollectiveRequests.Side s;
            try {
                s = CollectiveRequests.Side.of("Scatter_init", sendbuf, sendtype, atRoot);
            } catch (RuntimeException refused) {
                throw RootRefusal.afterCore(refused, () -> core.scatterInit(null, 0, sendcount, recvtype.core,
                    r.core, recvoffset, recvcount, recvtype.core, root));
            }
            return CollectiveRequests.persistent(core.scatterInit(CollectiveRequests.Side.core(s), sendoffset,
                sendcount, CollectiveRequests.type(sendtype, atRoot), r.core, recvoffset, recvcount, recvtype.core,
                root), s, r);
        } catch (RuntimeException e) {
            throw MPIException.of("Scatter_init", e);
        }
    }

    public Prequest Allgather_init(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                   Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().allgather(Form.PERSISTENT, "Allgather_init", sendbuf, sendoffset,
                    sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return persistObjects(n -> n.allgatherv("Allgather_init", sendbuf, sendoffset, sendcount, sendtype,
                    recvbuf, recvoffset, n.uniform(recvcount, false), n.uniform(recvcount, true), recvtype));
            }
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Allgather_init", sendbuf, sendtype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Allgather_init", recvbuf, recvtype, true);
            return CollectiveRequests.persistent(core.allgatherInit(s.core, sendoffset, sendcount, sendtype.core,
                r.core, recvoffset, recvcount, recvtype.core), s, r);
        } catch (RuntimeException e) {
            throw MPIException.of("Allgather_init", e);
        }
    }

    public Prequest Alltoall_init(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                  Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            if (IrregularCollectives.involved(sendtype, recvtype)) {
                return irregularCollectives().alltoall(Form.PERSISTENT, "Alltoall_init", sendbuf, sendoffset,
                    sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype);
            }
            if (sendtype != null && sendtype.kind == Datatype.Kind.OBJECT) {
                return persistObjects(n -> n.alltoallv("Alltoall_init", sendbuf, sendoffset, n.uniform(sendcount,
                    false), n.uniform(sendcount, true), sendtype, recvbuf, recvoffset, n.uniform(recvcount, false),
                    n.uniform(recvcount, true), recvtype));
            }
            CollectiveRequests.Side s = CollectiveRequests.Side.of("Alltoall_init", sendbuf, sendtype, true);
            CollectiveRequests.Side r = CollectiveRequests.Side.of("Alltoall_init", recvbuf, recvtype, true);
            return CollectiveRequests.persistent(core.alltoallInit(s.core, sendoffset, sendcount, sendtype.core,
                r.core, recvoffset, recvcount, recvtype.core), s, r);
        } catch (RuntimeException e) {
            throw MPIException.of("Alltoall_init", e);
        }
    }

    // ---------------------------------------------------------------- helpers

    /** The non-blocking and persistent collectives of OBJECT buffers: made (collectively) at the first one. */
    private ObjectNbc objectNbc() {
        if (objectNbc == null) {
            objectNbc = new ObjectNbc(core.dup());
        }
        return objectNbc;
    }

    /**
     * A non-blocking collective of OBJECT buffers: the call's number taken first (a call refused at
     * some ranks keeps the numbers in step), then the plan made and checked with it, then started.
     */
    private Request startObjects(java.util.function.BiFunction<ObjectNbc, Integer, ObjectNbc.Plan> plan) {
        ObjectNbc n = objectNbc();
        int tag = n.nextTag();
        return n.started(plan.apply(n, tag), tag);
    }

    /** A persistent collective of OBJECT buffers: each start takes the next call's number. */
    private Prequest persistObjects(java.util.function.Function<ObjectNbc, ObjectNbc.Plan> plan) {
        ObjectNbc n = objectNbc();
        return n.persistent(plan.apply(n));
    }

    /** The collectives of irregular types (Indexed, Struct …) on this communicator. */
    private IrregularCollectives irregularCollectives() {
        return new IrregularCollectives(core);
    }

    private static org.hympj.api.Op op(String call, Op op, Datatype datatype) {
        if (op == null) {
            throw new MPIException(call + ": op must not be null");
        }
        kind(call, datatype);
        return op.coreFor(call, datatype);
    }

    /** The array the core sees: the buffer itself, or for BOOLEAN its bytes. */
    static Object in(String call, Object buf, Datatype datatype) {
        switch (kind(call, datatype)) {
            case CORE:
                return buf;
            case BOOLEAN:
                return Buffers.toBytes(Buffers.booleans(call, buf));
            default:
                throw MPIException.notSupported(call + " of OBJECT", "objects are serialized by point-to-point, "
                    + "Bcast and the gathers, scatters and all-to-alls (v variants included), not by reductions");
        }
    }

    /** After a receive into {@link #in}'s array: copies a BOOLEAN buffer back. */
    static void back(Object buf, Object passed, Datatype datatype) {
        if (datatype.kind == Datatype.Kind.BOOLEAN) {
            Buffers.fromBytes((byte[]) passed, (boolean[]) buf);
        }
    }
}
