package org.hympj.shm.pml;

import java.lang.reflect.Array;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Op;
import org.hympj.api.Primitive;
import org.hympj.api.SegmentBuffer;

/**
 * The collective algorithms of one communicator, built on its internal point-to-point
 * (the collective context). Combination orders depend on ranks only, never on timing, so
 * reductions give the same bits run after run — and, for allreduce, on every rank.
 */
final class Collectives {
    private static final int TAG_BARRIER = 1;
    private static final int TAG_BCAST = 2;
    private static final int TAG_REDUCE = 3;
    private static final int TAG_ALLREDUCE = 4;
    private static final int TAG_GATHER = 5;
    private static final int TAG_ALLGATHER = 6;
    private static final int TAG_SCATTER = 7;
    private static final int TAG_ALLTOALL = 8;
    private static final int TAG_SCAN = 9;
    private static final int TAG_EXSCAN = 10;
    private static final int TAG_REDUCE_SCATTER = 11;

    private final ShmComm comm;
    private final int rank;
    private final int size;
    /** Reduction scratch, one pair per primitive, grown on demand (no steady-state allocation). */
    private final Object[] accScratch = new Object[Primitive.values().length];
    private final Object[] tmpScratch = new Object[Primitive.values().length];
    /** Operands of reductions over segment buffers and derived types, made contiguous. */
    private final StagedOperands staged;

    Collectives(ShmComm comm) {
        this.comm = comm;
        this.rank = comm.rank;
        this.size = comm.size;
        this.staged = new StagedOperands(comm.engine);
    }

    // ------------------------------------------------------------------ barrier

    void barrier(Comm.BarrierAlgorithm algorithm) {
        if (algorithm == Comm.BarrierAlgorithm.SHARED_MEMORY && comm.shmReduce != null) {
            comm.shmReduce.barrier(comm.engine);
            return;
        }
        if (algorithm == Comm.BarrierAlgorithm.SHARED_MEMORY && comm.hostColl != null) {
            comm.hostColl.barrier(); // several hosts: shared memory inside each, dissemination among their leaders
            return;
        }
        switch (algorithm) {
            case RING:
                for (int step = 1; step < size; step++) {
                    comm.signal((rank + 1) % size, (rank - 1 + size) % size, TAG_BARRIER);
                }
                break;
            case RECURSIVE_DOUBLING:
                recursiveDoublingBarrier();
                break;
            default:
                for (int k = 1; k < size; k <<= 1) {
                    comm.signal((rank + k) % size, (rank - k + size) % size, TAG_BARRIER);
                }
        }
    }

    /** S4's recursive doubling: for p = 2^n + r the r extra ranks fold into the lower 2^n and are released last. */
    private void recursiveDoublingBarrier() {
        int p2 = Integer.highestOneBit(size);
        int extra = size - p2;
        if (rank >= p2) {
            comm.signal(rank - p2, Comm.PROC_NULL, TAG_BARRIER);
            comm.signal(Comm.PROC_NULL, rank - p2, TAG_BARRIER);
            return;
        }
        if (rank < extra) {
            comm.signal(Comm.PROC_NULL, rank + p2, TAG_BARRIER);
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            int partner = rank ^ mask;
            comm.signal(partner, partner, TAG_BARRIER);
        }
        if (rank < extra) {
            comm.signal(rank + p2, Comm.PROC_NULL, TAG_BARRIER);
        }
    }

    // ------------------------------------------------------------------ bcast

    void bcast(Object buf, int offset, int count, Datatype type, int root) {
        checkRoot("bcast", root);
        Args.buffer("bcast", buf, offset, count, type, comm.segment);
        int vr = (rank - root + size) % size;
        int mask = 1;
        while (mask < size) {
            if ((vr & mask) != 0) {
                comm.collRecv(buf, offset, count, type, (vr - mask + root) % size, TAG_BCAST);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (vr + mask < size) {
                comm.collSend(buf, offset, count, type, (vr + mask + root) % size, TAG_BCAST);
            }
            mask >>= 1;
        }
    }

    // ------------------------------------------------------------------ reductions

    void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                int root) {
        checkRoot("reduce", root);
        checkSendSide("reduce", sendBuf, sendOffset, count, type, op, rank == root);
        RuntimeException refused = null;
        if (rank == root) {
            try {
                Args.buffer("reduce (receive)", recvBuf, recvOffset, count, type, comm.segment);
            } catch (RuntimeException e) {
                // the others take part already: reduce into a scratch of the type's layout, then refuse
                refused = e;
                if (sendBuf == Comm.IN_PLACE) {
                    sendBuf = scratchOf(type, count); // this rank's own contribution was to come from there
                    sendOffset = 0;
                }
                recvBuf = scratchOf(type, count);
                recvOffset = 0;
            }
        }
        reduceChecked(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
        if (refused != null) {
            throw refused;
        }
    }

    /** A zeroed Java array that holds {@code count} items of {@code type}'s layout. */
    private static Object scratchOf(Datatype type, int count) {
        return java.lang.reflect.Array.newInstance(type.primitive().arrayClass().getComponentType(),
            Math.toIntExact(Math.max(0, type.span(count))));
    }

    private void reduceChecked(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                               Datatype type, Op op, int root) {
        if (StagedOperands.needed(sendBuf, recvBuf, type)) {
            // a segment buffer or a derived type: reduce contiguous copies, the result back in the caller's layout
            Primitive p = type.primitive();
            int n = Math.toIntExact(count * type.elements());
            Object in = staged.in(p, n);
            Object out = staged.out(p, n);
            boolean inPlace = sendBuf == Comm.IN_PLACE;
            staged.gather(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, count, type, in);
            reduceArrays(in, 0, out, 0, n, Datatype.of(p), op, root);
            if (rank == root) {
                staged.scatter(out, recvBuf, recvOffset, count, type);
            }
            return;
        }
        reduceArrays(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
    }

    /** reduce over Java arrays of a contiguous type (checked by the caller). */
    private void reduceArrays(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                              Op op, int root) {
        count = elementCount(type, count);
        type = Datatype.of(type.primitive());
        Primitive p = type.primitive();
        Object acc = scratch(accScratch, p, count);
        Object tmp = scratch(tmpScratch, p, count);
        load(sendBuf == Comm.IN_PLACE ? recvBuf : sendBuf, sendBuf == Comm.IN_PLACE ? recvOffset : sendOffset, acc,
            count);
        // binomial tree onto rank 0: the lower rank's partial is always the left operand (rank order)
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((rank & mask) != 0) {
                comm.collSend(acc, 0, count, type, rank - mask, TAG_REDUCE);
                break;
            }
            if (rank + mask < size) {
                comm.collRecv(tmp, 0, count, type, rank + mask, TAG_REDUCE);
                op.apply(acc, 0, tmp, 0, count, p);      // tmp = acc op tmp
                System.arraycopy(tmp, 0, acc, 0, count);
            }
        }
        if (root != 0) {
            if (rank == 0) {
                comm.collSend(acc, 0, count, type, root, TAG_REDUCE);
            } else if (rank == root) {
                comm.collRecv(acc, 0, count, type, 0, TAG_REDUCE);
            }
        }
        if (rank == root) {
            System.arraycopy(acc, 0, recvBuf, recvOffset, count);
        }
    }

    void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        checkReduction("allreduce", sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true);
        if (StagedOperands.needed(sendBuf, recvBuf, type)) {
            Primitive p = type.primitive();
            int n = Math.toIntExact(count * type.elements());
            Object in = staged.in(p, n);
            Object out = staged.out(p, n);
            boolean inPlace = sendBuf == Comm.IN_PLACE;
            staged.gather(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, count, type, in);
            allreduceArrays(in, 0, out, 0, n, Datatype.of(p), op);
            staged.scatter(out, recvBuf, recvOffset, count, type);
            return;
        }
        allreduceArrays(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    /** allreduce over Java arrays of a contiguous type (checked by the caller). */
    void allreduceArrays(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                         Datatype type, Op op) {
        count = elementCount(type, count);
        type = Datatype.of(type.primitive());
        if (comm.shmReduce != null && comm.shmReduce.takes((long) count * type.size(), op)) {
            boolean inPlace = sendBuf == Comm.IN_PLACE;
            comm.shmReduce.allreduce(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, recvBuf,
                recvOffset, count, type.primitive(), op, comm.engine);
            return;
        }
        if (comm.hostColl != null && comm.engine.hierarchicalAllreduce() && HostCollectives.fits((long) count * type.size())) {
            // several hosts: inside each host through shared memory, then the hosts' leaders over the network
            boolean inPlace = sendBuf == Comm.IN_PLACE;
            comm.hostColl.allreduce(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, recvBuf,
                recvOffset, count, type.primitive(), op);
            return;
        }
        if (!op.isCommutative()) {
            // rank order is required: reduce onto 0 in order, then broadcast (IN_PLACE: the input is in recvBuf)
            boolean inPlace = sendBuf == Comm.IN_PLACE;
            reduce(inPlace && rank != 0 ? recvBuf : sendBuf, inPlace && rank != 0 ? recvOffset : sendOffset,
                recvBuf, recvOffset, count, type, op, 0);
            bcast(recvBuf, recvOffset, count, type, 0);
            return;
        }
        Primitive p = type.primitive();
        Object acc = scratch(accScratch, p, count);
        Object tmp = scratch(tmpScratch, p, count);
        load(sendBuf == Comm.IN_PLACE ? recvBuf : sendBuf, sendBuf == Comm.IN_PLACE ? recvOffset : sendOffset, acc,
            count);
        int p2 = Integer.highestOneBit(size);
        int extra = size - p2;
        if (rank >= p2) {
            comm.collSend(acc, 0, count, type, rank - p2, TAG_ALLREDUCE);
            comm.collRecv(acc, 0, count, type, rank - p2, TAG_ALLREDUCE);
        } else {
            if (rank < extra) {
                comm.collRecv(tmp, 0, count, type, rank + p2, TAG_ALLREDUCE);
                op.apply(acc, 0, tmp, 0, count, p);
                System.arraycopy(tmp, 0, acc, 0, count);
            }
            for (int mask = 1; mask < p2; mask <<= 1) {
                int partner = rank ^ mask;
                comm.exchange(acc, 0, count, type, partner, tmp, 0, count, type, partner, TAG_ALLREDUCE);
                // both partners evaluate (lower op higher): the same bits on both
                if (partner > rank) {
                    op.apply(acc, 0, tmp, 0, count, p);     // tmp = mine op theirs
                    System.arraycopy(tmp, 0, acc, 0, count);
                } else {
                    op.apply(tmp, 0, acc, 0, count, p);     // acc = theirs op mine
                }
            }
            if (rank < extra) {
                comm.collSend(acc, 0, count, type, rank + p2, TAG_ALLREDUCE);
            }
        }
        System.arraycopy(acc, 0, recvBuf, recvOffset, count);
    }

    private static void load(Object src, int offset, Object acc, int count) {
        System.arraycopy(src, offset, acc, 0, count);
    }

    /** An array of at least {@code count} elements of {@code p} from {@code pool} (one per primitive), grown on demand. */
    static Object scratch(Object[] pool, Primitive p, int count) {
        Object a = pool[p.ordinal()];
        if (a == null || PrimitiveArrays.length(a) < count) {
            a = Array.newInstance(p.arrayClass().getComponentType(), Math.max(count, 16));
            pool[p.ordinal()] = a;
        }
        return a;
    }

    void checkReduction(String op, Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                Datatype type, Op operation, boolean needRecv) {
        checkSendSide(op, sendBuf, sendOffset, count, type, operation, needRecv);
        if (needRecv) {
            Args.buffer(op + " (receive)", recvBuf, recvOffset, count, type, comm.segment);
        }
    }

    /** The checks of {@link #checkReduction} but the receive buffer's: every rank's own arguments. */
    private void checkSendSide(String op, Object sendBuf, int sendOffset, int count, Datatype type, Op operation,
                               boolean receives) {
        if (type == null) {
            throw new IllegalArgumentException(op + ": type must not be null");
        }
        if (operation != null && operation.isPair() && (type.elements() != 2 || !type.isContiguous()
            || type.displacement() != 0)) {
            throw new IllegalArgumentException(op + ": " + operation + " needs a (value, index) pair type "
                + "(e.g. INT.contiguous(2)), was " + type);
        }
        if (operation == null) {
            throw new IllegalArgumentException(op + ": op must not be null");
        }
        if (!operation.isDefinedOn(type.primitive())) {
            throw new IllegalArgumentException(op + ": op " + operation + " is not defined on " + type.primitive()
                + " (SUM/PROD: numeric kinds; logical and bitwise: integer kinds; MINLOC/MAXLOC: pairs of SHORT, INT,"
                + " LONG, FLOAT, DOUBLE)");
        }
        if (sendBuf == Comm.IN_PLACE) {
            if (!receives) {
                throw new IllegalArgumentException(op + ": IN_PLACE is only allowed where the result is received");
            }
        } else {
            Args.buffer(op + " (send)", sendBuf, sendOffset, count, type, comm.segment);
        }
    }

    // ------------------------------------------------------------------ gather / scatter / alltoall

    void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRoot("gather", root);
        Args.buffer("gather (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        if (rank == root) {
            try {
                Args.buffer("gather (receive)", recvBuf, recvOffset, recvCount * size, recvType, comm.segment);
            } catch (RuntimeException refused) {
                comm.discardFromOthers(TAG_GATHER); // the others have sent: take their blocks, then refuse
                throw refused;
            }
            for (int i = 0; i < size; i++) {
                int at = block(recvOffset, recvCount, recvType, i);
                if (i == rank) {
                    comm.exchange(sendBuf, sendOffset, sendCount, sendType, rank,
                        recvBuf, at, recvCount, recvType, rank, TAG_GATHER);
                } else {
                    comm.collRecv(recvBuf, at, recvCount, recvType, i, TAG_GATHER);
                }
            }
        } else {
            comm.collSend(sendBuf, sendOffset, sendCount, sendType, root, TAG_GATHER);
        }
    }

    /** Ring allgather: p-1 steps, each passing one block to the right, straight into place. */
    void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                   Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        Args.buffer("allgather (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        Args.buffer("allgather (receive)", recvBuf, recvOffset, recvCount * size, recvType, comm.segment);
        comm.exchange(sendBuf, sendOffset, sendCount, sendType, rank,
            recvBuf, block(recvOffset, recvCount, recvType, rank), recvCount, recvType, rank, TAG_ALLGATHER);
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int step = 0; step < size - 1; step++) {
            int out = (rank - step + size) % size;
            int in = (rank - step - 1 + size) % size;
            comm.exchange(recvBuf, block(recvOffset, recvCount, recvType, out), recvCount, recvType, right,
                recvBuf, block(recvOffset, recvCount, recvType, in), recvCount, recvType, left, TAG_ALLGATHER);
        }
    }

    void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                 Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRoot("scatter", root);
        Args.buffer("scatter (receive)", recvBuf, recvOffset, recvCount, recvType, comm.segment);
        if (rank == root) {
            try {
                Args.buffer("scatter (send)", sendBuf, sendOffset, sendCount * size, sendType, comm.segment);
            } catch (RuntimeException refused) {
                comm.signalOthers(TAG_SCATTER); // the others wait for their block: an empty one tells them
                throw refused;
            }
            for (int i = 0; i < size; i++) {
                int at = block(sendOffset, sendCount, sendType, i);
                if (i == rank) {
                    comm.exchange(sendBuf, at, sendCount, sendType, rank,
                        recvBuf, recvOffset, recvCount, recvType, rank, TAG_SCATTER);
                } else {
                    comm.collSend(sendBuf, at, sendCount, sendType, i, TAG_SCATTER);
                }
            }
        } else {
            comm.collRecv(recvBuf, recvOffset, recvCount, recvType, root, TAG_SCATTER);
        }
    }

    /** Pairwise exchange: in step k, send to rank+k and receive from rank-k. */
    void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        Args.buffer("alltoall (send)", sendBuf, sendOffset, sendCount * size, sendType, comm.segment);
        Args.buffer("alltoall (receive)", recvBuf, recvOffset, recvCount * size, recvType, comm.segment);
        for (int k = 0; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            comm.exchange(sendBuf, block(sendOffset, sendCount, sendType, to), sendCount, sendType, to,
                recvBuf, block(recvOffset, recvCount, recvType, from), recvCount, recvType, from, TAG_ALLTOALL);
        }
    }

    /** Primitive elements in {@code count} items of a contiguous type (reductions work element-wise). */
    static int elementCount(Datatype type, int count) {
        return Math.toIntExact((long) count * type.elements());
    }

    // ------------------------------------------------------------------ prefix reductions, reduce-scatter

    /** Inclusive scan: a chain in rank order, so rank i combines (x_0 op … op x_(i-1)) op x_i. */
    void scan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        prefix("scan", false, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    /** Exclusive scan: rank 0's receive buffer is not touched (MPI leaves it undefined). */
    void exscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        prefix("exscan", true, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    private void prefix(String name, boolean exclusive, Object sendBuf, int sendOffset, Object recvBuf,
                        int recvOffset, int count, Datatype type, Op op) {
        checkReduction(name, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true);
        arraysOnly(name, sendBuf, recvBuf, type);
        int n = elementCount(type, count);
        Datatype t = Datatype.of(type.primitive());
        Primitive p = t.primitive();
        int tag = exclusive ? TAG_EXSCAN : TAG_SCAN;
        Object acc = scratch(accScratch, p, n);
        Object tmp = scratch(tmpScratch, p, n);
        boolean inPlace = sendBuf == Comm.IN_PLACE;
        load(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, acc, n);
        if (rank > 0) {
            comm.collRecv(tmp, 0, n, t, rank - 1, tag);   // x_0 op … op x_(rank-1)
            op.apply(tmp, 0, acc, 0, n, p);                 // acc = prefix op mine
        }
        if (rank < size - 1) {
            comm.collSend(acc, 0, n, t, rank + 1, tag);
        }
        if (!exclusive) {
            System.arraycopy(acc, 0, recvBuf, recvOffset, n);
        } else if (rank > 0) {
            System.arraycopy(tmp, 0, recvBuf, recvOffset, n);
        }
    }

    /**
     * Reduce-scatter: the whole vector is reduced onto rank 0 (the binomial tree of
     * {@link #reduce}, same bits as a reduce) and its blocks scattered from there.
     */
    void reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                       Datatype type, Op op) {
        int items = reduceScatterItems("reduceScatter", recvCounts, size);
        boolean inPlace = sendBuf == Comm.IN_PLACE;
        checkReduction("reduceScatter", inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, recvBuf,
            recvOffset, inPlace ? items : recvCounts[rank], type, op, true);
        arraysOnly("reduceScatter", sendBuf, recvBuf, type);
        if (!inPlace) {
            Args.buffer("reduceScatter (send)", sendBuf, sendOffset, items, type, comm.segment);
        }
        int per = Math.toIntExact(type.elements());
        Datatype t = Datatype.of(type.primitive());
        Object full = Array.newInstance(t.primitive().arrayClass().getComponentType(), Math.max(1, items * per));
        reduce(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, full, 0, items, type, op, 0);
        int[] counts = new int[size];
        int[] displs = new int[size];
        int at = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = recvCounts[i] * per;
            displs[i] = at;
            at += counts[i];
        }
        comm.vcoll.scatterv(full, 0, counts, displs, t, recvBuf, recvOffset, counts[rank], t, 0, TAG_REDUCE_SCATTER);
    }

    /**
     * The items a reduce-scatter ({@code name}) reduces: the sum of the first {@code size} counts
     * (MPI reads no more), each checked >= 0.
     */
    static int reduceScatterItems(String name, int[] recvCounts, int size) {
        if (recvCounts == null || recvCounts.length < size) { // entries past the group's size are not read (MPI)
            throw new IllegalArgumentException(name + ": recvCounts must have " + size + " entries (one per rank)"
                + (recvCounts == null ? ", was null" : ", had " + recvCounts.length));
        }
        long total = 0;
        for (int i = 0; i < size; i++) {
            if (recvCounts[i] < 0) {
                throw new IllegalArgumentException(name + ": recvCounts[" + i + "] must be >= 0, was " + recvCounts[i]);
            }
            total += recvCounts[i];
        }
        return Math.toIntExact(total);
    }

    /** Element offset of block {@code i} of {@code count} items each. */
    static int block(int offset, int count, Datatype type, int i) {
        return Math.toIntExact(offset + (long) i * count * type.extent());
    }

    /** The reductions not staged yet (scan, exscan, reduceScatter) take Java arrays of a contiguous type. */
    private static void arraysOnly(String op, Object sendBuf, Object recvBuf, Datatype type) {
        if (StagedOperands.needed(sendBuf, recvBuf, type)) {
            throw new IllegalArgumentException(op + ": takes Java arrays of a predefined or contiguous type; segment "
                + "buffers and derived types are not supported here yet (reduce and allreduce take them), was " + type
                + (sendBuf instanceof org.hympj.api.SegmentBuffer || recvBuf instanceof org.hympj.api.SegmentBuffer
                ? " on a segment buffer" : ""));
        }
    }

    private void checkRoot(String op, int root) {
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException(op + ": root must be 0.." + (size - 1) + ", was " + root);
        }
    }
}
