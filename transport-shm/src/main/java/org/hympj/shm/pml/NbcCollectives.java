package org.hympj.shm.pml;

import java.lang.reflect.Array;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Op;
import org.hympj.api.Primitive;

/**
 * The non-blocking (MPI-3) and persistent (MPI-4) collectives of one communicator, compiled into
 * {@link NbcSchedule}s. Each collective checks every argument before it changes anything, then
 * takes the next tags of the communicator's collective sequence: tags from {@link #TAG_BASE} up
 * on the collective context, where the blocking collectives use tags below 64 and user messages
 * never go. Every rank calls the collectives of a communicator in the same order (MPI's rule), so
 * every rank gives the same collective the same tags; several may be outstanding at once, and a
 * persistent one keeps its tags for all its starts (a start's messages cannot overtake the
 * previous start's between the same pair: same tag, same order). Combination orders are those
 * of the blocking {@link Collectives}: ireduce and iallreduce give the bits reduce and the
 * message-based allreduce give.
 */
final class NbcCollectives {
    /** The collective tags of non-blocking and persistent collectives: [2^30, 2^31). */
    static final int TAG_BASE = 1 << 30;
    private static final int TAG_SPACE = 1 << 30;
    private static final byte[] EMPTY = new byte[0];

    private final ShmComm comm;
    private final int rank;
    private final int size;
    /** Tags taken so far (wraps after 2^30: only as many collectives as that may be outstanding). */
    private int sequence;

    NbcCollectives(ShmComm comm) {
        this.comm = comm;
        this.rank = comm.rank;
        this.size = comm.size;
    }

    /** The first of {@code n} fresh tags (taken only when the arguments have been checked). */
    private int tags(int n) {
        if ((sequence & (TAG_SPACE - 1)) > TAG_SPACE - n) {
            sequence += TAG_SPACE - (sequence & (TAG_SPACE - 1)); // a block of tags never wraps past 2^31 - 1
        }
        int t = TAG_BASE + (sequence & (TAG_SPACE - 1));
        sequence += n;
        return t;
    }

    private NbcRequest request(NbcSchedule.Builder b, boolean persistent, String name) {
        return new NbcRequest(comm.engine, comm.engine.schedules(), b.build(), persistent, name);
    }

    // ------------------------------------------------------------------ barrier

    /** Dissemination: ceil(log2 p) rounds, in round k a zero-byte message to rank+2^k. */
    NbcRequest barrier(boolean persistent, String name) {
        int tag = tags(1);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        for (int k = 1; k < size; k <<= 1) {
            b.recv(EMPTY, 0, 0, Datatype.BYTE, (rank - k + size) % size, tag)
                .send(EMPTY, 0, 0, Datatype.BYTE, (rank + k) % size, tag).round();
        }
        return request(b, persistent, name);
    }

    // ------------------------------------------------------------------ bcast

    /** Binomial tree from {@code root}: receive from the parent, then send to every child at once. */
    NbcRequest bcast(Object buf, int offset, int count, Datatype type, int root, boolean persistent, String name) {
        int tag = tags(1); // first: a call refused at some ranks leaves every rank's tag sequence in step
        checkRoot(name, root);
        Args.buffer(name, buf, offset, count, type, comm.segment);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        bcastSteps(b, buf, offset, count, type, root, tag);
        return request(b, persistent, name);
    }

    private void bcastSteps(NbcSchedule.Builder b, Object buf, int offset, int count, Datatype type, int root,
                            int tag) {
        int vr = (rank - root + size) % size;
        int mask = 1;
        while (mask < size) {
            if ((vr & mask) != 0) {
                b.recv(buf, offset, count, type, (vr - mask + root) % size, tag).round();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (vr + mask < size) {
                b.send(buf, offset, count, type, (vr + mask + root) % size, tag);
            }
        }
        b.round();
    }

    // ------------------------------------------------------------------ reductions

    /**
     * Binomial tree onto rank 0 as {@link Collectives#reduce}: the children's partials are
     * received at once (each into its own buffer) and folded in the blocking order, the lower
     * rank's partial always the left operand; then rank 0 sends the result to {@code root}.
     */
    NbcRequest reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                      int root, boolean persistent, String name) {
        int tag = tags(1);
        checkRoot(name, root);
        checkReduction(name, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, rank == root);
        int n = Collectives.elementCount(type, count);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        reduceSteps(b, sendBuf, sendOffset, recvBuf, recvOffset, n, type.primitive(), op, root, tag);
        return request(b, persistent, name);
    }

    private void reduceSteps(NbcSchedule.Builder b, Object sendBuf, int sendOffset, Object recvBuf, int recvOffset,
                             int n, Primitive p, Op op, int root, int tag) {
        Datatype t = Datatype.of(p);
        Object acc = scratch(p, n);
        boolean inPlace = sendBuf == Comm.IN_PLACE;
        b.copy(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, acc, 0, n);
        int parent = Comm.PROC_NULL;
        int children = 0;
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((rank & mask) != 0) {
                parent = rank - mask;
                break;
            }
            if (rank + mask < size) {
                children++;
            }
        }
        Object[] partials = new Object[children];
        for (int i = 0, mask = 1; i < children; i++, mask <<= 1) {
            partials[i] = scratch(p, n);
            b.recv(partials[i], 0, n, t, rank + mask, tag);
        }
        for (Object partial : partials) {
            b.reduce(op, acc, 0, partial, 0, n, p);    // partial = acc op partial
            b.copy(partial, 0, acc, 0, n);
        }
        b.round();
        b.send(acc, 0, n, t, parent, tag);
        if (rank == root && root != 0) {
            b.recv(recvBuf, recvOffset, n, t, 0, tag); // the result, straight into place, while our partial goes up
        }
        if (rank == 0 && root != 0) {
            b.send(acc, 0, n, t, root, tag);
        }
        if (rank == root && root == 0) {
            b.copy(acc, 0, recvBuf, recvOffset, n);
        }
        b.round();
    }

    /**
     * Recursive doubling as the message-based {@link Collectives#allreduce} (the p - 2^n extra
     * ranks fold into the lower 2^n first; both partners evaluate lower op higher); a
     * non-commutative op reduces onto rank 0 in rank order and broadcasts from there.
     */
    NbcRequest allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                         Op op, boolean persistent, String name) {
        int tag = tags(1);
        checkReduction(name, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true);
        int n = Collectives.elementCount(type, count);
        Primitive p = type.primitive();
        Datatype t = Datatype.of(p);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        if (!op.isCommutative()) {
            reduceSteps(b, sendBuf, sendOffset, recvBuf, recvOffset, n, p, op, 0, tag);
            bcastSteps(b, recvBuf, recvOffset, n, t, 0, tag); // reduce sends go up, bcast sends down: no mix-up
            return request(b, persistent, name);
        }
        Object acc = scratch(p, n);
        Object tmp = scratch(p, n);
        boolean inPlace = sendBuf == Comm.IN_PLACE;
        b.copy(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, acc, 0, n);
        int p2 = Integer.highestOneBit(size);
        int extra = size - p2;
        if (rank >= p2) {
            b.send(acc, 0, n, t, rank - p2, tag).recv(recvBuf, recvOffset, n, t, rank - p2, tag);
            return request(b, persistent, name);
        }
        if (rank < extra) {
            b.recv(tmp, 0, n, t, rank + p2, tag);
            b.reduce(op, acc, 0, tmp, 0, n, p).copy(tmp, 0, acc, 0, n);
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            int partner = rank ^ mask;
            b.send(acc, 0, n, t, partner, tag).recv(tmp, 0, n, t, partner, tag);
            if (partner > rank) {
                b.reduce(op, acc, 0, tmp, 0, n, p).copy(tmp, 0, acc, 0, n);   // mine op theirs
            } else {
                b.reduce(op, tmp, 0, acc, 0, n, p);                             // theirs op mine
            }
        }
        b.copy(acc, 0, recvBuf, recvOffset, n);
        if (rank < extra) {
            b.send(acc, 0, n, t, rank + p2, tag);
        }
        return request(b, persistent, name);
    }

    // ------------------------------------------------------------------ scan, exscan, reduce-scatter

    /**
     * Scan, or ({@code exclusive}) exscan, as the blocking {@link Collectives#scan}: a chain in rank
     * order — rank i receives x_0 op … op x_(i-1) from rank i - 1, puts it on the left of its own
     * and passes the result on; exscan leaves rank 0's receive buffer as it was.
     */
    NbcRequest scan(boolean exclusive, Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                    Datatype type, Op op, String name) {
        int tag = tags(1);
        checkReduction(name, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true);
        int n = Collectives.elementCount(type, count);
        Primitive p = type.primitive();
        Datatype t = Datatype.of(p);
        Object acc = scratch(p, n);
        Object prefix = scratch(p, n);
        boolean inPlace = sendBuf == Comm.IN_PLACE;
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        b.copy(inPlace ? recvBuf : sendBuf, inPlace ? recvOffset : sendOffset, acc, 0, n);
        if (rank > 0) {
            b.recv(prefix, 0, n, t, rank - 1, tag);
            b.reduce(op, prefix, 0, acc, 0, n, p); // acc = prefix op mine
        }
        b.send(acc, 0, n, t, rank < size - 1 ? rank + 1 : Comm.PROC_NULL, tag);
        if (!exclusive) {
            b.copy(acc, 0, recvBuf, recvOffset, n);
        } else if (rank > 0) {
            b.copy(prefix, 0, recvBuf, recvOffset, n);
        }
        return request(b, false, name);
    }

    /**
     * Reduce-scatter as the blocking {@link Collectives#reduceScatter}: the whole vector reduced
     * onto rank 0 ({@link #reduce}'s tree and order, the same bits), then block i sent from there
     * to rank i. The counts are read at the call.
     */
    NbcRequest reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                             Datatype type, Op op, String name) {
        int tag = tags(1);
        int items = Collectives.reduceScatterItems(name, recvCounts, size);
        return reduceScatterSteps(tag, sendBuf, sendOffset, recvBuf, recvOffset, recvCounts.clone(), items, type, op,
            name);
    }

    /** {@link #reduceScatter} with {@code recvCount} items for every rank. */
    NbcRequest reduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount,
                                  Datatype type, Op op, String name) {
        int tag = tags(1);
        if (recvCount < 0) {
            throw new IllegalArgumentException(name + ": recvCount must be >= 0, was " + recvCount);
        }
        int[] counts = new int[size];
        java.util.Arrays.fill(counts, recvCount);
        return reduceScatterSteps(tag, sendBuf, sendOffset, recvBuf, recvOffset, counts,
            Math.multiplyExact(recvCount, size), type, op, name);
    }

    /** Reduce-scatter of {@code items} items, {@code counts[i]} of them to rank i (counts checked). */
    private NbcRequest reduceScatterSteps(int tag, Object sendBuf, int sendOffset, Object recvBuf, int recvOffset,
                                          int[] counts, int items, Datatype type, Op op, String name) {
        boolean inPlace = sendBuf == Comm.IN_PLACE;
        Object in = inPlace ? recvBuf : sendBuf;
        int inOffset = inPlace ? recvOffset : sendOffset;
        checkReduction(name, in, inOffset, recvBuf, recvOffset, inPlace ? items : counts[rank], type, op, true);
        if (!inPlace) {
            Args.buffer(name + " (send)", sendBuf, sendOffset, items, type, comm.segment);
        }
        int per = Math.toIntExact(type.elements());
        Primitive p = type.primitive();
        Datatype t = Datatype.of(p);
        Object full = scratch(p, Collectives.elementCount(type, items));
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        reduceSteps(b, in, inOffset, full, 0, Collectives.elementCount(type, items), p, op, 0, tag);
        if (rank == 0) {
            // block 0 stays here; the others go out at once (the reduce's messages all came in to rank 0)
            b.copy(full, 0, recvBuf, recvOffset, counts[0] * per);
            for (int i = 1, at = counts[0] * per; i < size; at += counts[i] * per, i++) {
                b.send(full, at, counts[i] * per, t, i, tag);
            }
        } else {
            b.recv(recvBuf, recvOffset, counts[rank] * per, t, 0, tag);
        }
        return request(b, false, name);
    }

    // ------------------------------------------------------------------ gather / scatter / allgather / alltoall

    /** Linear: the root receives every block straight into place at once. */
    NbcRequest gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, Object recvBuf,
                      int recvOffset, int recvCount, Datatype recvType, int root, boolean persistent, String name) {
        int tag = tags(1);
        checkRoot(name, root);
        Args.buffer(name + " (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        if (rank == root) {
            Args.buffer(name + " (receive)", recvBuf, recvOffset, count(name, recvCount, size), recvType, comm.segment);
        }
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        if (rank == root) {
            for (int i = 0; i < size; i++) {
                b.recv(recvBuf, Collectives.block(recvOffset, recvCount, recvType, i), recvCount, recvType, i, tag);
            }
        }
        b.send(sendBuf, sendOffset, sendCount, sendType, root, tag);
        return request(b, persistent, name);
    }

    /** Linear: the root sends every block at once. */
    NbcRequest scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, Object recvBuf,
                       int recvOffset, int recvCount, Datatype recvType, int root, boolean persistent, String name) {
        int tag = tags(1);
        checkRoot(name, root);
        Args.buffer(name + " (receive)", recvBuf, recvOffset, recvCount, recvType, comm.segment);
        if (rank == root) {
            try {
                Args.buffer(name + " (send)", sendBuf, sendOffset, count(name, sendCount, size), sendType, comm.segment);
            } catch (RuntimeException refused) {
                throw answered(refused, persistent, tag);
            }
        }
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        b.recv(recvBuf, recvOffset, recvCount, recvType, root, tag);
        if (rank == root) {
            for (int k = 0; k < size; k++) {
                int i = (rank + k) % size;
                b.send(sendBuf, Collectives.block(sendOffset, sendCount, sendType, i), sendCount, sendType, i, tag);
            }
        }
        return request(b, persistent, name);
    }

    /**
     * The root of a non-blocking scatter refused its own send side: the others wait for their
     * blocks, so each gets an empty one, sent in the background (a schedule started and left to the
     * engine), and returns with its buffer as it was; then the refusal is thrown. A persistent
     * scatter refused at its init has no start to answer: it is thrown as it is.
     */
    private RuntimeException answered(RuntimeException refused, boolean persistent, int tag) {
        if (!persistent) {
            NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
            for (int i = 0; i < size; i++) {
                if (i != rank) {
                    b.send(EMPTY, 0, 0, Datatype.BYTE, i, tag);
                }
            }
            request(b, false, "empty blocks of a refused scatter").start();
        }
        return refused;
    }

    /** One round: every rank sends its block to every rank and receives every block into place. */
    NbcRequest allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, Object recvBuf,
                         int recvOffset, int recvCount, Datatype recvType, boolean persistent, String name) {
        int tag = tags(1);
        Args.buffer(name + " (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        Args.buffer(name + " (receive)", recvBuf, recvOffset, count(name, recvCount, size), recvType, comm.segment);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        for (int k = 0; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            b.recv(recvBuf, Collectives.block(recvOffset, recvCount, recvType, from), recvCount, recvType, from, tag)
                .send(sendBuf, sendOffset, sendCount, sendType, to, tag);
        }
        return request(b, persistent, name);
    }

    /** One round: block j to rank j, block i from rank i, all at once (in the pairwise order). */
    NbcRequest alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, Object recvBuf,
                        int recvOffset, int recvCount, Datatype recvType, boolean persistent, String name) {
        int tag = tags(1);
        Args.buffer(name + " (send)", sendBuf, sendOffset, count(name, sendCount, size), sendType, comm.segment);
        Args.buffer(name + " (receive)", recvBuf, recvOffset, count(name, recvCount, size), recvType, comm.segment);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        for (int k = 0; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            b.recv(recvBuf, Collectives.block(recvOffset, recvCount, recvType, from), recvCount, recvType, from, tag)
                .send(sendBuf, Collectives.block(sendOffset, sendCount, sendType, to), sendCount, sendType, to, tag);
        }
        return request(b, persistent, name);
    }

    // ------------------------------------------------------------------ per-rank counts ("v")

    /** Linear, as {@link #gather}: block i lands at {@code displs[i]} items (read at the call). */
    NbcRequest gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, Object recvBuf,
                       int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root, String name) {
        int tag = tags(1);
        checkRoot(name, root);
        Args.buffer(name + " (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        if (rank == root) {
            comm.vcoll.checkBlocks(name + " (receive)", recvBuf, recvOffset, recvCounts, displs, recvType);
        }
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        if (rank == root) {
            for (int i = 0; i < size; i++) {
                b.recv(recvBuf, VCollectives.at(recvOffset, displs[i], recvType), recvCounts[i], recvType, i, tag);
            }
        }
        b.send(sendBuf, sendOffset, sendCount, sendType, root, tag);
        return request(b, false, name);
    }

    /** Linear, as {@link #scatter}: block i from {@code displs[i]} items of the root's buffer. */
    NbcRequest scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root, String name) {
        int tag = tags(1);
        checkRoot(name, root);
        Args.buffer(name + " (receive)", recvBuf, recvOffset, recvCount, recvType, comm.segment);
        if (rank == root) {
            try {
                comm.vcoll.checkBlocks(name + " (send)", sendBuf, sendOffset, sendCounts, displs, sendType);
            } catch (RuntimeException refused) {
                throw answered(refused, false, tag);
            }
        }
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        b.recv(recvBuf, recvOffset, recvCount, recvType, root, tag);
        if (rank == root) {
            for (int k = 0; k < size; k++) {
                int i = (rank + k) % size;
                b.send(sendBuf, VCollectives.at(sendOffset, displs[i], sendType), sendCounts[i], sendType, i, tag);
            }
        }
        return request(b, false, name);
    }

    /** One round, as {@link #allgather}, block i at {@code displs[i]}. */
    NbcRequest allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, Object recvBuf,
                          int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, String name) {
        int tag = tags(1);
        Args.buffer(name + " (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        comm.vcoll.checkBlocks(name + " (receive)", recvBuf, recvOffset, recvCounts, displs, recvType);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        for (int k = 0; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            b.recv(recvBuf, VCollectives.at(recvOffset, displs[from], recvType), recvCounts[from], recvType, from, tag)
                .send(sendBuf, sendOffset, sendCount, sendType, to, tag);
        }
        return request(b, false, name);
    }

    /** One round, as {@link #alltoall}, with a count and a displacement per rank on each side. */
    NbcRequest alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                         Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType,
                         String name) {
        int tag = tags(1);
        comm.vcoll.checkBlocks(name + " (send)", sendBuf, sendOffset, sendCounts, sdispls, sendType);
        comm.vcoll.checkBlocks(name + " (receive)", recvBuf, recvOffset, recvCounts, rdispls, recvType);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        for (int k = 0; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            b.recv(recvBuf, VCollectives.at(recvOffset, rdispls[from], recvType), recvCounts[from], recvType, from,
                tag).send(sendBuf, VCollectives.at(sendOffset, sdispls[to], sendType), sendCounts[to], sendType, to,
                tag);
        }
        return request(b, false, name);
    }

    // ------------------------------------------------------------------ Cartesian neighbourhood

    /**
     * MPI_Neighbor_alltoall on a Cartesian grid: the neighbours, in order, are for each dimension
     * d the one at coordinate -1 then the one at +1 (PROC_NULL off a non-periodic edge: nothing is
     * sent to it, its receive block is left as it was); block j goes to neighbour j and block j
     * comes from it. A message carries the direction it travels in its tag, so a dimension of
     * extent 1 or 2 (the same rank on both sides) pairs every block right.
     */
    NbcRequest neighborAlltoall(ShmCartComm cart, Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                Object recvBuf, int recvOffset, int recvCount, Datatype recvType, boolean persistent,
                                String name) {
        int nd = cart.ndims();
        int blocks = 2 * nd;
        int tag = tags(blocks); // first, as every collective here: a call refused at some ranks keeps the tags in step
        Args.buffer(name + " (send)", sendBuf, sendOffset, count(name, sendCount, blocks), sendType, comm.segment);
        Args.buffer(name + " (receive)", recvBuf, recvOffset, count(name, recvCount, blocks), recvType, comm.segment);
        NbcSchedule.Builder b = new NbcSchedule.Builder(comm);
        for (int d = 0; d < nd; d++) {
            org.hympj.api.CartComm.Shift s = cart.shift(d, 1);
            int minus = s.source();
            int plus = s.dest();
            // tag + 2d: travelling towards -1; tag + 2d + 1: towards +1
            b.recv(recvBuf, Collectives.block(recvOffset, recvCount, recvType, 2 * d), recvCount, recvType, minus,
                tag + 2 * d + 1);
            b.recv(recvBuf, Collectives.block(recvOffset, recvCount, recvType, 2 * d + 1), recvCount, recvType, plus,
                tag + 2 * d);
            b.send(sendBuf, Collectives.block(sendOffset, sendCount, sendType, 2 * d), sendCount, sendType, minus,
                tag + 2 * d);
            b.send(sendBuf, Collectives.block(sendOffset, sendCount, sendType, 2 * d + 1), sendCount, sendType, plus,
                tag + 2 * d + 1);
        }
        return request(b, persistent, name);
    }

    // ------------------------------------------------------------------ helpers

    /** Items of {@code ranks} blocks of {@code perRank}; a negative count is passed on for Args.buffer to name. */
    private static int count(String op, int perRank, int ranks) {
        long n = (long) perRank * ranks;
        if (perRank >= 0 && n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(op + ": count " + perRank + " for each of " + ranks
                + " blocks is too large (" + n + " items)");
        }
        return perRank < 0 ? perRank : (int) n;
    }

    /**
     * The blocking reductions' checks, and Java arrays of a predefined or contiguous type: the
     * schedule's local steps copy and combine elements of arrays (the blocking reductions stage
     * segment buffers and strided types; these do not yet).
     */
    private void checkReduction(String name, Object sendBuf, int sendOffset, Object recvBuf, int recvOffset,
                                int count, Datatype type, Op op, boolean needRecv) {
        comm.coll.checkReduction(name, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, needRecv);
        if (StagedOperands.needed(sendBuf, needRecv ? recvBuf : null, type)) {
            throw new IllegalArgumentException(name + ": non-blocking and persistent reductions take Java arrays "
                + "of a predefined or contiguous type; was " + type + (sendBuf instanceof org.hympj.api.SegmentBuffer
                || recvBuf instanceof org.hympj.api.SegmentBuffer ? " with a segment buffer" : ""));
        }
    }

    private static Object scratch(Primitive p, int n) {
        return Array.newInstance(p.arrayClass().getComponentType(), Math.max(n, 1));
    }

    private void checkRoot(String op, int root) {
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException(op + ": root must be 0.." + (size - 1) + ", was " + root);
        }
    }
}
