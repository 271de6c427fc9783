package mpi;

/**
 * The non-blocking and persistent collectives of {@link MPI#OBJECT} buffers (broadcast, gathers,
 * scatters, all-to-alls, v variants included; reductions, scans and reduce-scatters with a user op). Their messages are serialized objects whose length
 * a receiver learns only from the message, which the core's schedules (fixed counts, taken at the
 * call) cannot carry; so each block is one point-to-point message on a private duplicate of the
 * communicator — made collectively at the first such call — tagged with the call's number (every
 * rank calls the collectives of a communicator in the same order, so the numbers agree and no call
 * meets another's blocks). A sender serializes and sends its blocks when the call starts; a
 * receiver's blocks are {@link ObjectRecv}s, received when a probe finds them (in any later wait
 * or test of the facade) and put in place. The reductions (a user op) gather every rank's items
 * to the root, which combines them in rank order when the last has come, inside its own wait or
 * test, and (an allreduce) then sends the result on.
 */
final class ObjectNbc {
    /** Tags of the private communicator: the call's number, in the range every core accepts. */
    private static final int TAG_MASK = (1 << 30) - 1;
    /** What a completed call reports: a collective's status names no source or tag (never modified). */
    private static final Status NO_SOURCE = new Status();

    private final org.hympj.api.Comm comm;
    private final int rank;
    private final int size;
    private int calls;

    ObjectNbc(org.hympj.api.Comm privateDup) {
        this.comm = privateDup;
        this.rank = privateDup.rank();
        this.size = privateDup.size();
    }

    /** The next call's tag; taken before the call checks its arguments, so a refusal keeps the numbers in step. */
    int nextTag() {
        return calls++ & TAG_MASK;
    }

    int size() {
        return size;
    }

    int rank() {
        return rank;
    }

    /**
     * What one call moves: {@code out[j]}, the items this rank sends to rank j, and {@code in[i]},
     * those it receives from rank i (null: none); a rank's block to itself is copied at the start.
     */
    static final class Plan {
        final String call;
        final ObjectItems[] out;
        final ObjectItems[] in;
        /** Run when every block of {@link #in} has come (a reduction's combining at the root); may be null. */
        Runnable combine;
        /** Sent after {@link #combine} (an allreduce's result from the root); null entries: none. */
        ObjectItems[] then;

        Plan(String call, int size) {
            this.call = call;
            this.out = new ObjectItems[size];
            this.in = new ObjectItems[size];
        }
    }

    // ---------------------------------------------------------------- the plans, checked as the blocking calls check

    Plan bcast(String call, Object buf, int offset, int count, Datatype type, int root) {
        checkRoot(call, root);
        ObjectItems items = ObjectItems.of(call, buf, offset, count, type);
        Plan p = new Plan(call, size);
        for (int j = 0; j < size; j++) {
            if (rank == root && j != root) {
                p.out[j] = items;
            }
        }
        if (rank != root) {
            p.in[root] = items;
        }
        return p;
    }

    /** A root whose receive side is refused throws; the others' blocks to it are never matched (small ones wait). */
    Plan gatherv(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                 int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype, int root) {
        checkRoot(call, root);
        Plan p = new Plan(call, size);
        p.out[root] = ObjectItems.of(call, sendbuf, sendoffset, sendcount, sendtype);
        if (rank == root) {
            Object[] r = ObjectCollectives.recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
            ObjectCollectives.checkBlocks(call, "receive", r, recvoffset, recvcounts, displs, recvtype, size);
            for (int i = 0; i < size; i++) {
                p.in[i] = ObjectCollectives.block(call, r, recvoffset, recvcounts, displs, recvtype, i);
            }
        }
        return p;
    }

    /** A root whose send side is refused sends every other rank an empty block first ({@link #sendEmpty}). */
    Plan scatterv(String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] displs, Datatype sendtype,
                  Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root, int tag) {
        checkRoot(call, root);
        ObjectCollectives.recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
        Plan p = new Plan(call, size);
        p.in[root] = ObjectItems.of(call, recvbuf, recvoffset, recvcount, recvtype);
        if (rank == root) {
            try {
                if (Comm.kind(call, sendtype) != Datatype.Kind.OBJECT) {
                    throw new MPIException(call + ": the receive type is OBJECT, so the send type must be too, was "
                        + sendtype);
                }
                Object[] s = Buffers.objects(call, sendbuf);
                ObjectCollectives.checkBlocks(call, "send", s, sendoffset, sendcounts, displs, sendtype, size);
                for (int j = 0; j < size; j++) {
                    p.out[j] = ObjectCollectives.block(call, s, sendoffset, sendcounts, displs, sendtype, j);
                }
            } catch (RuntimeException refused) {
                if (tag >= 0) {
                    sendEmpty(tag); // the others' requests complete (with an MPIException saying why), none waits
                }
                throw refused;
            }
        }
        return p;
    }

    Plan allgatherv(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
                    int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype) {
        ObjectItems mine = ObjectItems.of(call, sendbuf, sendoffset, sendcount, sendtype);
        Object[] r = ObjectCollectives.recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
        ObjectCollectives.checkBlocks(call, "receive", r, recvoffset, recvcounts, displs, recvtype, size);
        Plan p = new Plan(call, size);
        for (int i = 0; i < size; i++) {
            p.out[i] = mine;
            p.in[i] = ObjectCollectives.block(call, r, recvoffset, recvcounts, displs, recvtype, i);
        }
        return p;
    }

    Plan alltoallv(String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] sdispls, Datatype sendtype,
                   Object recvbuf, int recvoffset, int[] recvcounts, int[] rdispls, Datatype recvtype) {
        Object[] s = Buffers.objects(call, sendbuf);
        ObjectCollectives.checkBlocks(call, "send", s, sendoffset, sendcounts, sdispls, sendtype, size);
        Object[] r = ObjectCollectives.recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
        ObjectCollectives.checkBlocks(call, "receive", r, recvoffset, recvcounts, rdispls, recvtype, size);
        Plan p = new Plan(call, size);
        for (int i = 0; i < size; i++) {
            p.out[i] = ObjectCollectives.block(call, s, sendoffset, sendcounts, sdispls, sendtype, i);
            p.in[i] = ObjectCollectives.block(call, r, recvoffset, recvcounts, rdispls, recvtype, i);
        }
        return p;
    }

    /**
     * Reduce ({@code all} false, to {@code root}) or Allreduce ({@code all} true, combined on rank 0
     * and sent on) of OBJECT items with a user op: the items of every rank gathered to the root as
     * copies, combined there in rank order (x0 op x1 op … — {@link ObjectCollectives#prefixes}).
     */
    Plan reduce(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype type,
                Op op, int root, boolean all) {
        checkRoot(call, root);
        checkUserOp(call, op);
        int n = ObjectCollectives.objects(call, type, count);
        Plan p = new Plan(call, size);
        p.out[root] = ObjectItems.of(call, sendbuf, sendoffset, count, type);
        boolean receives = rank == root || all;
        ObjectItems result = receives ? ObjectItems.of(call, recvbuf, recvoffset, count, type) : null;
        if (receives) {
            ObjectCollectives.recvObjects(call, recvbuf, recvoffset, n, 1, type);
        }
        if (rank == root) {
            Object[] blocks = gathered(p, n, count, type);
            Object[] out = (Object[]) recvbuf;
            p.combine = () -> {
                ObjectCollectives.prefixes(blocks, n, count, type, op);
                System.arraycopy(blocks, (size - 1) * n, out, recvoffset, n);
            };
            if (all) {
                p.then = new ObjectItems[size];
                for (int j = 0; j < size; j++) {
                    p.then[j] = j == root ? null : result;
                }
            }
        } else if (all) {
            p.in[root] = result;
        }
        return p;
    }

    /**
     * Scan, or ({@code exclusive}) Exscan, of OBJECT items with a user op, as the blocking
     * {@link ObjectCollectives#scan}: every rank's items gathered to rank 0, which computes the
     * prefixes in rank order and sends rank r prefix r (exclusive: r - 1; rank 0's buffer is left
     * as it was).
     */
    Plan scan(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype type,
              Op op, boolean exclusive) {
        checkUserOp(call, op);
        int n = ObjectCollectives.objects(call, type, count);
        ObjectItems mine = ObjectItems.of(call, sendbuf, sendoffset, count, type);
        ObjectItems result = ObjectItems.of(call, recvbuf, recvoffset, count, type);
        ObjectCollectives.recvObjects(call, recvbuf, recvoffset, n, 1, type);
        Plan p = new Plan(call, size);
        p.out[0] = mine;
        if (rank == 0) {
            Object[] blocks = gathered(p, n, count, type);
            Object[] out = (Object[]) recvbuf;
            p.combine = () -> {
                ObjectCollectives.prefixes(blocks, n, count, type, op);
                if (!exclusive) {
                    System.arraycopy(blocks, 0, out, recvoffset, n);
                }
            };
            p.then = new ObjectItems[size];
            for (int j = 1; j < size; j++) {
                p.then[j] = ObjectItems.of(call, blocks, (exclusive ? j - 1 : j) * n, count, type);
            }
        } else {
            p.in[0] = result;
        }
        return p;
    }

    /**
     * Reduce-scatter of OBJECT items with a user op, as the blocking
     * {@link ObjectCollectives#reduceScatter}: every rank's whole vector gathered to rank 0,
     * combined there in rank order, and rank i sent its {@code recvcounts[i]} items.
     */
    Plan reduceScatter(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                       Datatype type, Op op) {
        checkUserOp(call, op);
        int total = ObjectCollectives.reduceScatterTotal(call, recvcounts, size);
        int n = ObjectCollectives.objects(call, type, total);
        int per = Math.toIntExact(type.objectsPerItem());
        ObjectItems mine = ObjectItems.of(call, sendbuf, sendoffset, total, type);
        ObjectItems result = ObjectItems.of(call, recvbuf, recvoffset, recvcounts[rank], type);
        ObjectCollectives.recvObjects(call, recvbuf, recvoffset, recvcounts[rank] * per, 1, type);
        Plan p = new Plan(call, size);
        p.out[0] = mine;
        if (rank == 0) {
            Object[] blocks = gathered(p, n, total, type);
            int last = (size - 1) * n; // where the full reduction lands
            Object[] out = (Object[]) recvbuf;
            int own = recvcounts[0] * per;
            p.combine = () -> {
                ObjectCollectives.prefixes(blocks, n, total, type, op);
                System.arraycopy(blocks, last, out, recvoffset, own);
            };
            p.then = new ObjectItems[size];
            for (int j = 1, at = own; j < size; at += recvcounts[j] * per, j++) {
                p.then[j] = ObjectItems.of(call, blocks, last + at, recvcounts[j], type);
            }
        } else {
            p.in[0] = result;
        }
        return p;
    }

    /**
     * At a reduction's root: where every rank's {@code count} items ({@code n} objects) come in,
     * rank i's at block i of the array returned, in rank order for the combining.
     */
    private Object[] gathered(Plan p, int n, int count, Datatype type) {
        Object[] blocks = new Object[n * size];
        for (int i = 0; i < size; i++) {
            p.in[i] = ObjectItems.of(p.call, blocks, i * n, count, type);
        }
        return blocks;
    }

    /** A reduction of objects takes a user op (objects have no arithmetic). */
    private static void checkUserOp(String call, Op op) {
        if (op == null) {
            throw new MPIException(call + ": op must not be null");
        }
        op.checkObjects(call);
    }

    /** Counts (or displacements) of one block per rank, all of {@code count} items. */
    int[] uniform(int count, boolean displacements) {
        return ObjectCollectives.uniform(count, size, displacements);
    }

    private void checkRoot(String call, int root) {
        if (root < 0 || root >= size) {
            throw new MPIException(call + ": root must be 0.." + (size - 1) + ", was " + root);
        }
    }

    /** A non-blocking call: started now with {@code tag}. */
    Request started(Plan plan, int tag) {
        Exchange e = new Exchange(plan);
        e.start(tag);
        return new Request(e);
    }

    /** A persistent call: each start takes the next call's number and sends what the buffers hold then. */
    Prequest persistent(Plan plan) {
        Exchange e = new Exchange(plan);
        return new Prequest(e, () -> e.start(nextTag()));
    }

    /** A root whose own argument was refused: each other rank gets an empty block (its buffer stays as it was). */
    void sendEmpty(int tag) {
        for (int j = 0; j < size; j++) {
            if (j != rank) {
                comm.isend(new byte[0], 0, 0, org.hympj.api.Datatype.BYTE, j, tag).free();
            }
        }
    }

    /** One call's messages. */
    private final class Exchange implements Pending {
        private final Plan plan;
        private final org.hympj.api.Request[] sends;
        private final ObjectRecv[] recvs;
        private final Status scratch = new Status();
        private boolean started;
        /** The combining step ran and its sends are under way (a reduction's root). */
        private boolean combined;
        private int tag;

        Exchange(Plan plan) {
            this.plan = plan;
            this.sends = new org.hympj.api.Request[size];
            this.recvs = new ObjectRecv[size];
        }

        void start(int tag) {
            this.tag = tag;
            combined = plan.combine == null;
            for (int j = 0; j < size; j++) {
                if (plan.out[j] == null) {
                    continue;
                }
                byte[] bytes = plan.out[j].serialize(plan.call);
                if (j == rank) {
                    plan.in[rank].deserialize(plan.call, bytes); // its own block: a copy, as a message would make
                } else {
                    sends[j] = comm.isend(bytes, 0, bytes.length, org.hympj.api.Datatype.BYTE, j, tag);
                }
            }
            for (int i = 0; i < size; i++) {
                if (plan.in[i] != null && i != rank) {
                    recvs[i] = new ObjectRecv(comm, plan.in[i], i, tag);
                }
            }
            started = true;
        }

        @Override
        public boolean active() {
            return started;
        }

        @Override
        public boolean test(Status out) {
            for (int j = 0; j < size; j++) {
                if (sends[j] != null) {
                    if (!sends[j].test()) {
                        return false;
                    }
                    sends[j] = null;
                }
            }
            for (int i = 0; i < size; i++) {
                if (recvs[i] != null) {
                    if (!recvs[i].test(scratch)) {
                        return false;
                    }
                    recvs[i] = null;
                }
            }
            if (!combined) {
                combined = true;
                plan.combine.run();
                for (int j = 0; plan.then != null && j < size; j++) {
                    if (plan.then[j] != null) {
                        byte[] bytes = plan.then[j].serialize(plan.call);
                        sends[j] = comm.isend(bytes, 0, bytes.length, org.hympj.api.Datatype.BYTE, j, tag);
                    }
                }
                return test(out); // the result's sends, if any
            }
            started = false;
            out.copy(NO_SOURCE);
            return true;
        }

        @Override
        public void waitFor(Status out) {
            Request.Idle idle = new Request.Idle();
            while (!test(out)) {
                idle.idle();
            }
        }

        @Override
        public void free() {
            for (int j = 0; j < size; j++) {
                if (sends[j] != null) {
                    sends[j].free();
                    sends[j] = null;
                }
            }
            for (int i = 0; i < size; i++) {
                if (recvs[i] != null) {
                    recvs[i].free();
                    recvs[i] = null;
                }
            }
            started = false;
        }
    }
}
