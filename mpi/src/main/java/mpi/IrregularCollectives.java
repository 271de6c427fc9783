package mpi;

import org.hympj.api.PersistentRequest;

/**
 * The collectives with an irregular type (Indexed, Hindexed, Struct … of primitives: {@link Blocks})
 * on either side, the reductions of them (a predefined op element by element, a user op on the items
 * put back in the type's layout: {@link Op#coreInLayout}), and the broadcast: a sender packs
 * its items into a contiguous array of the element kind, the core's collective of the same name
 * moves (or reduces) the packed elements, and a receiver unpacks each rank's block to its place —
 * one copy more on each side than a core datatype takes, as for point-to-point. Counts and
 * displacements stay the caller's: in items of the call's types. A side whose type is a core one
 * passes its buffer as it is.
 *
 * <p>Each collective is written once and runs in one of three {@link Form}s: blocking (pack, the
 * core's call, unpack), non-blocking (pack, the core's non-blocking call, unpack when a wait or test
 * sees it complete) or persistent (the packed arrays made at init; pack before each start, unpack
 * after each completion).
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

    // ---------------------------------------------------------------- forms

    /** What packs before the core's call (a send side) or unpacks after it (a receive side). */
    private interface Side {
        void pack();

        void unpack();
    }

    /** How a collective runs, and what the call returns: nothing, a started request, a persistent one. */
    abstract static class Form<R> {
        static final Form<Void> BLOCKING = new Form<Void>() {
            @Override
            Void finish(Side send, Side recv, java.util.function.Supplier<Object> call) {
                pack(send);
                call.get();
                unpack(recv);
                return null;
            }
        };

        static final Form<Request> STARTED = new Form<Request>() {
            @Override
            Request finish(Side send, Side recv, java.util.function.Supplier<Object> call) {
                pack(send);
                return new Request(new CorePending((org.hympj.api.Request) call.get(), after(recv)));
            }
        };

        static final Form<Prequest> PERSISTENT = new Form<Prequest>() {
            @Override
            Prequest finish(Side send, Side recv, java.util.function.Supplier<Object> call) {
                return new Prequest((PersistentRequest) call.get(), after(recv), send == null ? null : send::pack);
            }
        };

        /** Runs, starts or makes the core's {@code call}, {@code send} packed before and {@code recv} unpacked after. */
        abstract R finish(Side send, Side recv, java.util.function.Supplier<Object> call);

        private static void pack(Side s) {
            if (s != null) {
                s.pack();
            }
        }

        private static void unpack(Side s) {
            if (s != null) {
                s.unpack();
            }
        }

        private static CorePending.After after(Side recv) {
            return recv == null ? null : (st, out) -> recv.unpack();
        }
    }

    /**
     * The core's blocking, non-blocking or persistent call: one of the three, as {@code f} says
     * ({@code persistent} null for the v variants, which the facade offers in no persistent form).
     */
    private static Object pick(Form<?> f, Runnable blocking, java.util.function.Supplier<org.hympj.api.Request> started,
                               java.util.function.Supplier<PersistentRequest> persistent) {
        if (f == Form.BLOCKING) {
            blocking.run();
            return null;
        }
        if (f == Form.STARTED) {
            return started.get();
        }
        if (persistent == null) {
            throw new IllegalStateException("no persistent form of this collective");
        }
        return persistent.get();
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

    /**
     * This rank's own {@code count} items of {@code t} (a send, a scatter's receive, a reduction's
     * buffers), as the core sees them: for an irregular type a packed array of its elements.
     */
    private static final class Own implements Side {
        private final Object target;
        private final int targetOffset;
        private final int items;
        private final Datatype t;
        final Object buf;
        final int offset;
        final int count;
        final org.hympj.api.Datatype type;

        Own(String call, Object target, int targetOffset, int items, Datatype t) {
            this.type = coreType(call, t);
            this.target = target;
            this.targetOffset = targetOffset;
            this.items = items;
            this.t = t;
            boolean packs = Comm.irregular(t);
            this.buf = packs ? t.blocks.scratch(call, target, targetOffset, items, t) : target;
            this.offset = packs ? 0 : targetOffset;
            this.count = packs ? Comm.packedCount(t, items) : items;
        }

        @Override
        public void pack() {
            if (Comm.irregular(t)) {
                t.blocks.packInto(target, targetOffset, items, buf, 0);
            }
        }

        @Override
        public void unpack() {
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
    private final class PerRank implements Side {
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
            // kept as they are now: a persistent request packs at each start with the counts of its init
            this.counts = counts.clone();
            this.displs = displs.clone();
            if (!Comm.irregular(t)) {
                buf = target;
                coreCounts = this.counts;
                coreDispls = this.displs;
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
        @Override
        public void pack() {
            if (Comm.irregular(t)) {
                for (int i = 0; i < size; i++) {
                    t.blocks.packInto(target, start(i), counts[i], buf, coreDispls[i]);
                }
            }
        }

        int coreOffset() {
            return Comm.irregular(t) ? 0 : offset;
        }

        /** After a receive: each rank's block unpacked to its place. */
        @Override
        public void unpack() {
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

    private static Object buf(PerRank p) {
        return p == null ? null : p.buf;
    }

    private static int[] counts(PerRank p) {
        return p == null ? null : p.coreCounts;
    }

    private static int[] displs(PerRank p) {
        return p == null ? null : p.coreDispls;
    }

    // ---------------------------------------------------------------- broadcast

    <R> R bcast(Form<R> f, String call, Object buf, int offset, int count, Datatype t, int root) {
        Own b = new Own(call, buf, offset, count, t);
        boolean atRoot = core.rank() == root;
        return f.finish(atRoot ? b : null, atRoot ? null : b, () -> pick(f,
            () -> core.bcast(b.buf, b.offset, b.count, b.type, root),
            () -> core.ibcast(b.buf, b.offset, b.count, b.type, root),
            () -> core.bcastInit(b.buf, b.offset, b.count, b.type, root)));
    }

    // ---------------------------------------------------------------- reductions (predefined ops)

    /**
     * The core op for a reduction of packed items: a predefined op combines element by element,
     * so it reduces the packed elements; a user op is handed the items put back in the type's
     * layout ({@link Op#coreInLayout}); pairs (MINLOC, MAXLOC) need their (value, index) layout,
     * which packing an irregular type does not keep: refused.
     */
    private static org.hympj.api.Op elementwise(String call, Op op, Datatype t) {
        if (op == null) {
            throw new MPIException(call + ": op must not be null");
        }
        org.hympj.api.Op o = op.predefined();
        if (o == null) {
            return op.coreInLayout(t);
        }
        if (o == org.hympj.api.Op.MINLOC || o == org.hympj.api.Op.MAXLOC) {
            throw MPIException.notSupported(call + " of " + t + " with op " + op, "an irregular type is packed into "
                + "contiguous elements; MINLOC and MAXLOC need (value, index) pairs of a pair type (INT2, DOUBLE2 …)");
        }
        return o;
    }

    <R> R reduce(Form<R> f, String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                 Datatype t, Op op, int root) {
        org.hympj.api.Op o = elementwise(call, op, t);
        Own s = new Own(call, sendbuf, sendoffset, count, t);
        Own r;
        try {
            r = core.rank() == root ? new Own(call, recvbuf, recvoffset, count, t) : null;
        } catch (RuntimeException refused) {
            throw RootRefusal.afterCore(refused, () -> reduceCall(f, s, null, o, root));
        }
        return f.finish(s, r, () -> reduceCall(f, s, r, o, root));
    }

    private Object reduceCall(Form<?> f, Own s, Own r, org.hympj.api.Op o, int root) {
        Object rb = r == null ? null : r.buf;
        int ro = r == null ? 0 : r.offset;
        return pick(f, () -> core.reduce(s.buf, s.offset, rb, ro, s.count, s.type, o, root),
            () -> core.ireduce(s.buf, s.offset, rb, ro, s.count, s.type, o, root),
            () -> core.reduceInit(s.buf, s.offset, rb, ro, s.count, s.type, o, root));
    }

    <R> R allreduce(Form<R> f, String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                    Datatype t, Op op) {
        org.hympj.api.Op o = elementwise(call, op, t);
        Own s = new Own(call, sendbuf, sendoffset, count, t);
        Own r = new Own(call, recvbuf, recvoffset, count, t);
        return f.finish(s, r, () -> pick(f, () -> core.allreduce(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o),
            () -> core.iallreduce(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o),
            () -> core.allreduceInit(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o)));
    }

    /**
     * Scan ({@code exclusive} false) or Exscan of packed items, blocking or started (no persistent
     * form); rank 0's Exscan result is left as it was.
     */
    <R> R scan(Form<R> f, String call, boolean exclusive, Object sendbuf, int sendoffset, Object recvbuf,
               int recvoffset, int count, Datatype t, Op op) {
        org.hympj.api.Op o = elementwise(call, op, t);
        Own s = new Own(call, sendbuf, sendoffset, count, t);
        Own r = new Own(call, recvbuf, recvoffset, count, t);
        return f.finish(s, exclusive && core.rank() == 0 ? null : r, () -> pick(f, () -> {
            if (exclusive) {
                core.exscan(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o);
            } else {
                core.scan(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o);
            }
        }, () -> exclusive ? core.iexscan(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o)
            : core.iscan(s.buf, s.offset, r.buf, r.offset, s.count, s.type, o), null));
    }

    /**
     * Reduce-scatter of packed items, blocking or started: the sum(recvcounts) items of every rank are
     * reduced element by element and rank i gets its recvcounts[i] items, unpacked; {@code block} says the call was
     * Reduce_scatter_block (the core's own block call, so that a rank of core types meets it).
     */
    <R> R reduceScatter(Form<R> f, String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                        int[] recvcounts, boolean block, Datatype t, Op op) {
        org.hympj.api.Op o = elementwise(call, op, t);
        int total = ObjectCollectives.reduceScatterTotal(call, recvcounts, size);
        int[] packed = new int[size];
        for (int i = 0; i < size; i++) {
            packed[i] = Comm.packedCount(t, recvcounts[i]);
        }
        Own s = new Own(call, sendbuf, sendoffset, total, t);
        Own r = new Own(call, recvbuf, recvoffset, recvcounts[core.rank()], t);
        return f.finish(s, r, () -> pick(f, () -> {
            if (block) {
                core.reduceScatterBlock(s.buf, s.offset, r.buf, r.offset, packed[0], s.type, o);
            } else {
                core.reduceScatter(s.buf, s.offset, r.buf, r.offset, packed, s.type, o);
            }
        }, () -> block ? core.ireduceScatterBlock(s.buf, s.offset, r.buf, r.offset, packed[0], s.type, o)
            : core.ireduceScatter(s.buf, s.offset, r.buf, r.offset, packed, s.type, o), null));
    }

    // ---------------------------------------------------------------- gathers, scatters, all-to-alls

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

    <R> R gatherv(Form<R> f, String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                  Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype, int root) {
        Own s = new Own(call, sendbuf, sendoffset, sendcount, sendtype);
        // the others send anyway: the core's own refusal of a missing receive side takes their blocks
        PerRank r = atRoot(root, () -> new PerRank(call, recvbuf, recvoffset, recvcounts, displs, recvtype),
            () -> gathervCall(f, s, null, root));
        return f.finish(s, r, () -> gathervCall(f, s, r, root));
    }

    private Object gathervCall(Form<?> f, Own s, PerRank r, int root) {
        int ro = r == null ? 0 : r.coreOffset();
        org.hympj.api.Datatype rt = r == null ? s.type : r.type;
        return pick(f, () -> core.gatherv(s.buf, s.offset, s.count, s.type, buf(r), ro, counts(r), displs(r), rt, root),
            () -> core.igatherv(s.buf, s.offset, s.count, s.type, buf(r), ro, counts(r), displs(r), rt, root),
            null);
    }

    /**
     * The non-v calls go to the core's non-v calls (every block has the same packed size, so the
     * packed blocks sit end to end as the core lays them out), so that a rank whose types are all
     * core ones, calling the core directly, takes part in the same collective.
     */
    <R> R gather(Form<R> f, String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                 Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        Own s = new Own(call, sendbuf, sendoffset, sendcount, sendtype);
        PerRank r = atRoot(root, () -> new PerRank(call, recvbuf, recvoffset, same(recvcount), steps(recvcount),
            recvtype), () -> gatherCall(f, s, null, root));
        return f.finish(s, r, () -> gatherCall(f, s, r, root));
    }

    private Object gatherCall(Form<?> f, Own s, PerRank r, int root) {
        int ro = r == null ? 0 : r.coreOffset();
        int rc = r == null ? s.count : r.coreCounts[0];
        org.hympj.api.Datatype rt = r == null ? s.type : r.type;
        return pick(f, () -> core.gather(s.buf, s.offset, s.count, s.type, buf(r), ro, rc, rt, root),
            () -> core.igather(s.buf, s.offset, s.count, s.type, buf(r), ro, rc, rt, root),
            () -> core.gatherInit(s.buf, s.offset, s.count, s.type, buf(r), ro, rc, rt, root));
    }

    <R> R scatterv(Form<R> f, String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] displs,
                   Datatype sendtype, Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        Own r = new Own(call, recvbuf, recvoffset, recvcount, recvtype);
        // the others wait for their blocks: the core's own refusal of a missing send side tells them
        PerRank s = atRoot(root, () -> new PerRank(call, sendbuf, sendoffset, sendcounts, displs, sendtype),
            () -> scattervCall(f, null, r, root));
        return f.finish(s, r, () -> scattervCall(f, s, r, root));
    }

    private Object scattervCall(Form<?> f, PerRank s, Own r, int root) {
        int so = s == null ? 0 : s.coreOffset();
        org.hympj.api.Datatype st = s == null ? r.type : s.type;
        return pick(f,
            () -> core.scatterv(buf(s), so, counts(s), displs(s), st, r.buf, r.offset, r.count, r.type, root),
            () -> core.iscatterv(buf(s), so, counts(s), displs(s), st, r.buf, r.offset, r.count, r.type, root),
            null);
    }

    <R> R scatter(Form<R> f, String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                  Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        Own r = new Own(call, recvbuf, recvoffset, recvcount, recvtype);
        PerRank s = atRoot(root, () -> new PerRank(call, sendbuf, sendoffset, same(sendcount), steps(sendcount),
            sendtype), () -> scatterCall(f, null, r, root));
        return f.finish(s, r, () -> scatterCall(f, s, r, root));
    }

    private Object scatterCall(Form<?> f, PerRank s, Own r, int root) {
        int so = s == null ? 0 : s.coreOffset();
        int sc = s == null ? r.count : s.coreCounts[0];
        org.hympj.api.Datatype st = s == null ? r.type : s.type;
        return pick(f, () -> core.scatter(buf(s), so, sc, st, r.buf, r.offset, r.count, r.type, root),
            () -> core.iscatter(buf(s), so, sc, st, r.buf, r.offset, r.count, r.type, root),
            () -> core.scatterInit(buf(s), so, sc, st, r.buf, r.offset, r.count, r.type, root));
    }

    <R> R allgatherv(Form<R> f, String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                     Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype) {
        Own s = new Own(call, sendbuf, sendoffset, sendcount, sendtype);
        PerRank r = new PerRank(call, recvbuf, recvoffset, recvcounts, displs, recvtype);
        return f.finish(s, r, () -> pick(f,
            () -> core.allgatherv(s.buf, s.offset, s.count, s.type, r.buf, r.coreOffset(), r.coreCounts, r.coreDispls,
                r.type),
            () -> core.iallgatherv(s.buf, s.offset, s.count, s.type, r.buf, r.coreOffset(), r.coreCounts, r.coreDispls,
                r.type),
            null));
    }

    <R> R allgather(Form<R> f, String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                    Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        Own s = new Own(call, sendbuf, sendoffset, sendcount, sendtype);
        PerRank r = new PerRank(call, recvbuf, recvoffset, same(recvcount), steps(recvcount), recvtype);
        return f.finish(s, r, () -> pick(f,
            () -> core.allgather(s.buf, s.offset, s.count, s.type, r.buf, r.coreOffset(), r.coreCounts[0], r.type),
            () -> core.iallgather(s.buf, s.offset, s.count, s.type, r.buf, r.coreOffset(), r.coreCounts[0], r.type),
            () -> core.allgatherInit(s.buf, s.offset, s.count, s.type, r.buf, r.coreOffset(), r.coreCounts[0],
                r.type)));
    }

    <R> R alltoallv(Form<R> f, String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] sdispls,
                    Datatype sendtype, Object recvbuf, int recvoffset, int[] recvcounts, int[] rdispls,
                    Datatype recvtype) {
        PerRank s = new PerRank(call, sendbuf, sendoffset, sendcounts, sdispls, sendtype);
        PerRank r = new PerRank(call, recvbuf, recvoffset, recvcounts, rdispls, recvtype);
        return f.finish(s, r, () -> pick(f,
            () -> core.alltoallv(s.buf, s.coreOffset(), s.coreCounts, s.coreDispls, s.type, r.buf, r.coreOffset(),
                r.coreCounts, r.coreDispls, r.type),
            () -> core.ialltoallv(s.buf, s.coreOffset(), s.coreCounts, s.coreDispls, s.type, r.buf, r.coreOffset(),
                r.coreCounts, r.coreDispls, r.type),
            null));
    }

    <R> R alltoall(Form<R> f, String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                   Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        PerRank s = new PerRank(call, sendbuf, sendoffset, same(sendcount), steps(sendcount), sendtype);
        PerRank r = new PerRank(call, recvbuf, recvoffset, same(recvcount), steps(recvcount), recvtype);
        return f.finish(s, r, () -> pick(f,
            () -> core.alltoall(s.buf, s.coreOffset(), s.coreCounts[0], s.type, r.buf, r.coreOffset(), r.coreCounts[0],
                r.type),
            () -> core.ialltoall(s.buf, s.coreOffset(), s.coreCounts[0], s.type, r.buf, r.coreOffset(),
                r.coreCounts[0], r.type),
            () -> core.alltoallInit(s.buf, s.coreOffset(), s.coreCounts[0], s.type, r.buf, r.coreOffset(),
                r.coreCounts[0], r.type)));
    }
}
