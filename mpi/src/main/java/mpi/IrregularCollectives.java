package mpi;

/**
 * The gathers, scatters and all-to-alls (v variants included) with an irregular type (Indexed,
 * Hindexed, Struct … of primitives: {@link Blocks}) on either side, and the reductions of them
 * with a predefined op: a sender packs its items into a contiguous array of the element kind, the
 * core's collective of the same name moves (or reduces) the packed elements, and a receiver unpacks each rank's block to its place — one copy more on each side
 * than a core datatype takes, as for point-to-point. Counts and displacements stay the caller's:
 * in items of the call's types. A side whose type is a core one passes its buffer as it is.
 */
final class IrregularCollectives {
    private final org.hympj.api.Comm core;
    private final int size;

    IrregularCollectives(org.hympj.api.Comm core) {
        this.core = core;
        this.size = core.size();
    }

    /** True when either type is irregular: the call goes through this class. */
    static boolean involved(Datatype a, Datatype b) {
        return Comm.irregular(a) || Comm.irregular(b);
    }

    /** The core type of a regular side; BOOLEAN and OBJECT buffers are not mixed with irregular types. */
    private static org.hympj.api.Datatype coreType(String call, Datatype t) {
        if (t == null) {
            throw new MPIException(call + ": datatype must not be null");
        }
        if (Comm.irregular(t)) {
            return Comm.packedType(t);
        }
        if (Comm.kind(call, t) != Datatype.Kind.CORE) {
            throw MPIException.notSupported(call + " of " + t + " with an irregular type on the other side",
                "irregular types are of primitive elements; BOOLEAN and OBJECT buffers are converted on their own");
        }
        return t.core;
    }

    /** This rank's own {@code count} items of {@code t} (a send, or a scatter's receive), as the core sees them. */
    private static final class Own {
        final Object buf;
        final int offset;
        final int count;
        final org.hympj.api.Datatype type;

        private Own(Object buf, int offset, int count, org.hympj.api.Datatype type) {
            this.buf = buf;
            this.offset = offset;
            this.count = count;
            this.type = type;
        }

        static Own send(String call, Object buf, int offset, int count, Datatype t) {
            org.hympj.api.Datatype type = coreType(call, t);
            return Comm.irregular(t) ? new Own(t.blocks.pack(call, buf, offset, count, t), 0,
                Comm.packedCount(t, count), type) : new Own(buf, offset, count, type);
        }

        static Own receive(String call, Object buf, int offset, int count, Datatype t) {
            org.hympj.api.Datatype type = coreType(call, t);
            return Comm.irregular(t) ? new Own(t.blocks.scratch(call, buf, offset, count, t), 0,
                Comm.packedCount(t, count), type) : new Own(buf, offset, count, type);
        }

        /** After a receive: the items unpacked into the caller's buffer (nothing to do for a core type). */
        void unpack(Object target, int targetOffset, int items, Datatype t) {
            if (Comm.irregular(t)) {
                t.blocks.unpack(buf, 0, count, target, targetOffset, items);
            }
        }
    }

    /**
     * One block per rank: {@code counts[i]} items at {@code displs[i]} items of {@code t} from
     * {@code offset} (the receive of a gather, the send of a scatter, either side of an
     * all-to-all), as the core sees them: for an irregular type one packed array holding the
     * blocks in rank order, with packed counts and displacements; for a core type the caller's own.
     */
    private final class PerRank {
        final Object target;
        final int offset;
        final Datatype t;
        final int[] counts;
        final int[] displs;
        final Object buf;
        final org.hympj.api.Datatype type;
        final int[] coreCounts;
        final int[] coreDispls;

        PerRank(String call, Object target, int offset, int[] counts, int[] displs, Datatype t) {
            this.type = coreType(call, t);
            if (counts == null || displs == null || counts.length < size || displs.length < size) {
                throw new MPIException(call + ": counts and displacements must have " + size
                    + " entries (one per rank), had " + (counts == null ? "none" : counts.length) + " and "
                    + (displs == null ? "none" : displs.length));
            }
            this.target = target;
            this.offset = offset;
            this.t = t;
            this.counts = counts;
            this.displs = displs;
            if (!Comm.irregular(t)) {
                buf = target;
                coreCounts = counts;
                coreDispls = displs;
                return;
            }
            coreCounts = new int[size];
            coreDispls = new int[size];
            int total = 0;
            for (int i = 0; i < size; i++) {
                if (counts[i] < 0) {
                    throw new MPIException(call + ": count " + i + " must be >= 0, was " + counts[i]);
                }
                t.blocks.check(call, target, start(i), counts[i], t);
                coreCounts[i] = Comm.packedCount(t, counts[i]);
                coreDispls[i] = total;
                total = Math.addExact(total, coreCounts[i]);
            }
            buf = java.lang.reflect.Array.newInstance(t.core.primitive().arrayClass().getComponentType(), total);
        }

        /** The element where block i starts in the caller's buffer. */
        private int start(int i) {
            return Math.toIntExact(offset + (long) displs[i] * t.blocks.extent);
        }

        /** Before a send: each rank's block packed into place. */
        PerRank packed() {
            if (Comm.irregular(t)) {
                for (int i = 0; i < size; i++) {
                    t.blocks.packInto(target, start(i), counts[i], buf, coreDispls[i]);
                }
            }
            return this;
        }

        int coreOffset() {
            return Comm.irregular(t) ? 0 : offset;
        }

        /** After a receive: each rank's block unpacked to its place. */
        void unpack() {
            if (Comm.irregular(t)) {
                for (int i = 0; i < size; i++) {
                    t.blocks.unpack(buf, coreDispls[i], coreCounts[i], target, start(i), counts[i]);
                }
            }
        }
    }

    /**
     * The root's per-rank side ({@code make}; null at the other ranks). Refused, it is replaced by
     * {@code coreCall}, the same collective without it, before the refusal is thrown (see
     * {@link RootRefusal}).
     */
    private PerRank atRoot(int root, java.util.function.Supplier<PerRank> make, Runnable coreCall) {
        if (core.rank() != root) {
            return null;
        }
        try {
            return make.get();
        } catch (RuntimeException refused) {
            throw RootRefusal.afterCore(refused, coreCall);
        }
    }

    // ---------------------------------------------------------------- reductions (predefined ops)

    /**
     * The core op for an element-wise reduction of packed items: a predefined op combines
     * element by element, so it may reduce the packed elements; a user function is handed items
     * of the type's layout in mpiJava, and pairs need their (value, index) layout: both refused.
     */
    private static org.hympj.api.Op elementwise(String call, Op op, Datatype t) {
        if (op == null) {
            throw new MPIException(call + ": op must not be null");
        }
        org.hympj.api.Op o = op.predefined();
        if (o == null || o == org.hympj.api.Op.MINLOC || o == org.hympj.api.Op.MAXLOC) {
            throw MPIException.notSupported(call + " of " + t + " with " + (o == null ? "a user op" : "op " + op),
                "an irregular type is packed into contiguous elements, which a predefined op other than MINLOC and "
                    + "MAXLOC combines element by element; a user function expects the type's own layout");
        }
        return o;
    }

    void reduce(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype t,
                Op op, int root) {
        org.hympj.api.Op o = elementwise(call, op, t);
        Own s = Own.send(call, sendbuf, sendoffset, count, t);
        Own r;
        try {
            r = core.rank() == root ? Own.receive(call, recvbuf, recvoffset, count, t) : null;
        } catch (RuntimeException refused) {
            throw RootRefusal.afterCore(refused, () -> core.reduce(s.buf, s.offset, null, 0, s.count, s.type, o,
                root));
        }
        core.reduce(s.buf, s.offset, r == null ? null : r.buf, r == null ? 0 : r.offset, s.count, s.type, o, root);
        if (r != null) {
            r.unpack(recvbuf, recvoffset, count, t);
        }
    }

    void allreduce(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype t,
                   Op op) {
        org.hympj.api.Op o = elementwise(call, op, t);
        Own s = Own.send(call, sendbuf, sendoffset, count, t);
        Own r = Own.receive(call, recvbuf, recvoffset, count, t);
        core.allreduce(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o);
        r.unpack(recvbuf, recvoffset, count, t);
    }

    /** Scan ({@code exclusive} false) or Exscan of packed items; rank 0's Exscan result is left as it was. */
    void scan(String call, boolean exclusive, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
              int count, Datatype t, Op op) {
        org.hympj.api.Op o = elementwise(call, op, t);
        Own s = Own.send(call, sendbuf, sendoffset, count, t);
        Own r = Own.receive(call, recvbuf, recvoffset, count, t);
        if (exclusive) {
            core.exscan(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o);
        } else {
            core.scan(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o);
        }
        if (!exclusive || core.rank() > 0) {
            r.unpack(recvbuf, recvoffset, count, t);
        }
    }

    /**
     * Reduce-scatter of packed items: the sum(recvcounts) items of every rank are reduced element by
     * element and rank i gets its recvcounts[i] items, unpacked; {@code block} says the call was
     * Reduce_scatter_block (the core's own block call, so that a rank of core types meets it).
     */
    void reduceScatter(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                       boolean block, Datatype t, Op op) {
        org.hympj.api.Op o = elementwise(call, op, t);
        int total = ObjectCollectives.reduceScatterTotal(call, recvcounts, size);
        int[] packed = new int[size];
        for (int i = 0; i < size; i++) {
            packed[i] = Comm.packedCount(t, recvcounts[i]);
        }
        Own s = Own.send(call, sendbuf, sendoffset, total, t);
        int mine = recvcounts[core.rank()];
        Own r = Own.receive(call, recvbuf, recvoffset, mine, t);
        if (block) {
            core.reduceScatterBlock(s.buf, s.offset, r.buf, r.offset, packed[0], s.type, o);
        } else {
            core.reduceScatter(s.buf, s.offset, r.buf, r.offset, packed, s.type, o);
        }
        r.unpack(recvbuf, recvoffset, mine, t);
    }

    private int[] same(int count) {
        int[] v = new int[size];
        java.util.Arrays.fill(v, count);
        return v;
    }

    private int[] steps(int count) {
        int[] v = new int[size];
        for (int i = 0; i < size; i++) {
            v[i] = Math.multiplyExact(i, count);
        }
        return v;
    }

    void gatherv(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                 Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype, int root) {
        Own s = Own.send(call, sendbuf, sendoffset, sendcount, sendtype);
        // the others send anyway: the core's own refusal of a missing receive side takes their blocks
        PerRank r = atRoot(root, () -> new PerRank(call, recvbuf, recvoffset, recvcounts, displs, recvtype),
            () -> core.gatherv(s.buf, s.offset, s.count, s.type, null, 0, null, null, s.type, root));
        core.gatherv(s.buf, s.offset, s.count, s.type, r == null ? null : r.buf, r == null ? 0 : r.coreOffset(),
            r == null ? null : r.coreCounts, r == null ? null : r.coreDispls, r == null ? null : r.type, root);
        if (r != null) {
            r.unpack();
        }
    }

    /**
     * The non-v calls go to the core's non-v calls (every block has the same packed size, so the
     * packed blocks sit end to end as the core lays them out), so that a rank whose types are all
     * core ones, calling the core directly, takes part in the same collective.
     */
    void gather(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        Own s = Own.send(call, sendbuf, sendoffset, sendcount, sendtype);
        PerRank r = atRoot(root, () -> new PerRank(call, recvbuf, recvoffset, same(recvcount), steps(recvcount),
            recvtype), () -> core.gather(s.buf, s.offset, s.count, s.type, null, 0, s.count, s.type, root));
        core.gather(s.buf, s.offset, s.count, s.type, r == null ? null : r.buf, r == null ? 0 : r.coreOffset(),
            r == null ? 0 : r.coreCounts[0], r == null ? null : r.type, root);
        if (r != null) {
            r.unpack();
        }
    }

    void scatterv(String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] displs, Datatype sendtype,
                  Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        Own r = Own.receive(call, recvbuf, recvoffset, recvcount, recvtype);
        // the others wait for their blocks: the core's own refusal of a missing send side tells them
        PerRank s = atRoot(root, () -> new PerRank(call, sendbuf, sendoffset, sendcounts, displs, sendtype).packed(),
            () -> core.scatterv(null, 0, null, null, r.type, r.buf, r.offset, r.count, r.type, root));
        core.scatterv(s == null ? null : s.buf, s == null ? 0 : s.coreOffset(), s == null ? null : s.coreCounts,
            s == null ? null : s.coreDispls, s == null ? null : s.type, r.buf, r.offset, r.count, r.type, root);
        r.unpack(recvbuf, recvoffset, recvcount, recvtype);
    }

    void scatter(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                 Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        Own r = Own.receive(call, recvbuf, recvoffset, recvcount, recvtype);
        PerRank s = atRoot(root, () -> new PerRank(call, sendbuf, sendoffset, same(sendcount), steps(sendcount),
            sendtype).packed(), () -> core.scatter(null, 0, r.count, r.type, r.buf, r.offset, r.count, r.type, root));
        core.scatter(s == null ? null : s.buf, s == null ? 0 : s.coreOffset(), s == null ? 0 : s.coreCounts[0],
            s == null ? null : s.type, r.buf, r.offset, r.count, r.type, root);
        r.unpack(recvbuf, recvoffset, recvcount, recvtype);
    }

    void allgatherv(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                    Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype) {
        Own s = Own.send(call, sendbuf, sendoffset, sendcount, sendtype);
        PerRank r = new PerRank(call, recvbuf, recvoffset, recvcounts, displs, recvtype);
        core.allgatherv(s.buf, s.offset, s.count, s.type, r.buf, r.coreOffset(), r.coreCounts, r.coreDispls, r.type);
        r.unpack();
    }

    void allgather(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                   Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        Own s = Own.send(call, sendbuf, sendoffset, sendcount, sendtype);
        PerRank r = new PerRank(call, recvbuf, recvoffset, same(recvcount), steps(recvcount), recvtype);
        core.allgather(s.buf, s.offset, s.count, s.type, r.buf, r.coreOffset(), r.coreCounts[0], r.type);
        r.unpack();
    }

    void alltoallv(String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] sdispls, Datatype sendtype,
                   Object recvbuf, int recvoffset, int[] recvcounts, int[] rdispls, Datatype recvtype) {
        PerRank s = new PerRank(call, sendbuf, sendoffset, sendcounts, sdispls, sendtype).packed();
        PerRank r = new PerRank(call, recvbuf, recvoffset, recvcounts, rdispls, recvtype);
        core.alltoallv(s.buf, s.coreOffset(), s.coreCounts, s.coreDispls, s.type, r.buf, r.coreOffset(), r.coreCounts,
            r.coreDispls, r.type);
        r.unpack();
    }

    void alltoall(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                  Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        PerRank s = new PerRank(call, sendbuf, sendoffset, same(sendcount), steps(sendcount), sendtype).packed();
        PerRank r = new PerRank(call, recvbuf, recvoffset, same(recvcount), steps(recvcount), recvtype);
        core.alltoall(s.buf, s.coreOffset(), s.coreCounts[0], s.type, r.buf, r.coreOffset(), r.coreCounts[0], r.type);
        r.unpack();
    }
}
