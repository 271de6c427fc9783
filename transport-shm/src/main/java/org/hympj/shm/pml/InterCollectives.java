package org.hympj.shm.pml;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.InterComm;
import org.hympj.api.Op;
import org.hympj.api.Primitive;

/**
 * The collectives of an intercommunicator (MPI's rules for them), built from the local group's
 * own collectives ({@code local}, an intracommunicator of the local group) and messages between
 * the groups on the intercommunicator's collective context ({@code peers}, whose ranks are the
 * remote group's). Each group's rank 0 is its leader: for barrier, bcast, the reductions and
 * allgather a group gathers or reduces onto its leader, the two leaders exchange, and the leader
 * broadcasts or scatters within its group; the rooted ones at ROOT talk to every remote rank
 * directly; alltoall(v) and allgatherv pair every rank with every remote rank, step by step.
 */
final class InterCollectives {
    private static final int TAG_BARRIER = 1;
    private static final int TAG_BCAST = 2;
    private static final int TAG_REDUCE = 3;
    private static final int TAG_ALLREDUCE = 4;
    private static final int TAG_GATHER = 5;
    private static final int TAG_ALLGATHER = 6;
    private static final int TAG_SCATTER = 7;
    private static final int TAG_ALLTOALL = 8;
    private static final int TAG_GATHERV = 9;
    private static final int TAG_SCATTERV = 10;
    private static final int TAG_ALLGATHERV = 11;
    private static final int TAG_ALLTOALLV = 12;
    private static final int TAG_REDUCE_SCATTER = 13;
    private static final int LEADER = 0;

    private final ShmComm local;
    private final ShmComm peers;
    /** The leader's staging of its group's partial result, one per primitive, grown on demand. */
    private final Object[] scratch = new Object[Primitive.values().length];

    InterCollectives(ShmComm local, ShmComm peers) {
        this.local = local;
        this.peers = peers;
    }

    private boolean leader() {
        return local.rank == LEADER;
    }

    /** Nobody leaves before every rank of both groups has entered. */
    void barrier() {
        local.coll.barrier(local.defaultBarrier());   // the whole local group is here
        if (leader()) {
            peers.signal(LEADER, LEADER, TAG_BARRIER); // and so is the remote one
        }
        local.coll.barrier(local.defaultBarrier());   // the leader releases its group
    }

    /** ROOT sends to the remote leader, which broadcasts in its group; PROC_NULL ranks take no part. */
    void bcast(Object buf, int offset, int count, Datatype type, int root) {
        checkRoot("bcast", root);
        if (root == Comm.PROC_NULL) {
            return;
        }
        Args.buffer("bcast", buf, offset, count, type, local.segment);
        if (root == InterComm.ROOT) {
            peers.collSend(buf, offset, count, type, LEADER, TAG_BCAST);
            return;
        }
        if (leader()) {
            peers.collRecv(buf, offset, count, type, root, TAG_BCAST);
        }
        local.coll.bcast(buf, offset, count, type, LEADER);
    }

    /** The remote group reduces onto its leader, which sends the result to ROOT. */
    void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                int root) {
        checkRoot("reduce", root);
        if (root == Comm.PROC_NULL) {
            return;
        }
        if (root == InterComm.ROOT) {
            try {
                Args.buffer("reduce (receive)", recvBuf, recvOffset, count, type, local.segment);
            } catch (RuntimeException refused) {
                peers.collDiscard(LEADER, TAG_REDUCE); // the remote group's result is on its way: take it first
                throw refused;
            }
            peers.collRecv(recvBuf, recvOffset, count, type, LEADER, TAG_REDUCE);
            return;
        }
        noInPlace("reduce", sendBuf);
        Object partial = leader() ? scratch(type, count) : null;
        local.coll.reduce(sendBuf, sendOffset, partial, 0, count, type, op, LEADER);
        if (leader()) {
            peers.collSend(partial, 0, count, type, root, TAG_REDUCE);
        }
    }

    /** Each group gets the reduction of the other group's data. */
    void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        noInPlace("allreduce", sendBuf);
        Args.buffer("allreduce (receive)", recvBuf, recvOffset, count, type, local.segment);
        Object partial = leader() ? scratch(type, count) : null;
        local.coll.reduce(sendBuf, sendOffset, partial, 0, count, type, op, LEADER);
        if (leader()) {
            peers.exchange(partial, 0, count, type, LEADER, recvBuf, recvOffset, count, type, LEADER, TAG_ALLREDUCE);
        }
        local.coll.bcast(recvBuf, recvOffset, count, type, LEADER);
    }

    /** The ROOT's own receive side was refused: every remote rank has sent its block, take them, then throw. */
    private RuntimeException drained(RuntimeException refused, int tag) {
        for (int i = 0; i < peers.size; i++) {
            peers.collDiscard(i, tag);
        }
        return refused;
    }

    /** The ROOT's own send side was refused: every remote rank waits for a block, send each an empty one. */
    private RuntimeException answered(RuntimeException refused, int tag) {
        for (int i = 0; i < peers.size; i++) {
            peers.collSend(new byte[0], 0, 0, Datatype.BYTE, i, tag);
        }
        return refused;
    }

    /** ROOT receives block i from remote rank i; the remote ranks send; PROC_NULL ranks take no part. */
    void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRoot("gather", root);
        if (root == Comm.PROC_NULL) {
            return;
        }
        if (root == InterComm.ROOT) {
            int n = peers.size;
            try {
                Args.buffer("gather (receive)", recvBuf, recvOffset, recvCount * n, recvType, local.segment);
            } catch (RuntimeException refused) {
                throw drained(refused, TAG_GATHER);
            }
            for (int i = 0; i < n; i++) {
                peers.collRecv(recvBuf, Collectives.block(recvOffset, recvCount, recvType, i), recvCount, recvType, i, TAG_GATHER);
            }
            return;
        }
        Args.buffer("gather (send)", sendBuf, sendOffset, sendCount, sendType, local.segment);
        peers.collSend(sendBuf, sendOffset, sendCount, sendType, root, TAG_GATHER);
    }

    /** ROOT sends block i to remote rank i; PROC_NULL ranks take no part. */
    void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                 Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRoot("scatter", root);
        if (root == Comm.PROC_NULL) {
            return;
        }
        if (root == InterComm.ROOT) {
            int n = peers.size;
            try {
                Args.buffer("scatter (send)", sendBuf, sendOffset, sendCount * n, sendType, local.segment);
            } catch (RuntimeException refused) {
                throw answered(refused, TAG_SCATTER);
            }
            for (int i = 0; i < n; i++) {
                peers.collSend(sendBuf, Collectives.block(sendOffset, sendCount, sendType, i), sendCount, sendType, i, TAG_SCATTER);
            }
            return;
        }
        Args.buffer("scatter (receive)", recvBuf, recvOffset, recvCount, recvType, local.segment);
        peers.collRecv(recvBuf, recvOffset, recvCount, recvType, root, TAG_SCATTER);
    }

    /** Each group gets the other group's blocks in remote rank order: gather to the leader, swap, broadcast. */
    void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                   Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        Args.buffer("allgather (send)", sendBuf, sendOffset, sendCount, sendType, local.segment);
        int remoteItems = Math.multiplyExact(recvCount, peers.size);
        Args.buffer("allgather (receive)", recvBuf, recvOffset, remoteItems, recvType, local.segment);
        int localItems = Math.multiplyExact(sendCount, local.size);
        Object mine = leader() ? scratch(sendType, localItems) : null;
        local.coll.gather(sendBuf, sendOffset, sendCount, sendType, mine, 0, sendCount, sendType, LEADER);
        if (leader()) {
            peers.exchange(mine, 0, localItems, sendType, LEADER, recvBuf, recvOffset, remoteItems, recvType, LEADER,
                TAG_ALLGATHER);
        }
        local.coll.bcast(recvBuf, recvOffset, remoteItems, recvType, LEADER);
    }

    /**
     * Block j of every rank goes to remote rank j: in step k of max(L, R), rank i sends to remote
     * (i + k) mod max and receives from remote (i - k) mod max, skipping ranks the remote group
     * lacks (as MPICH pairs them), so both groups agree on every pair without a deadlock.
     */
    void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        int remote = peers.size;
        Args.buffer("alltoall (send)", sendBuf, sendOffset, Math.multiplyExact(sendCount, remote), sendType,
            local.segment);
        Args.buffer("alltoall (receive)", recvBuf, recvOffset, Math.multiplyExact(recvCount, remote), recvType,
            local.segment);
        int max = Math.max(local.size, remote);
        int me = local.rank;
        for (int k = 0; k < max; k++) {
            int to = (me + k) % max;
            int from = (me - k + max) % max;
            to = to < remote ? to : Comm.PROC_NULL;
            from = from < remote ? from : Comm.PROC_NULL;
            peers.exchange(sendBuf, to == Comm.PROC_NULL ? sendOffset : Collectives.block(sendOffset, sendCount, sendType, to),
                sendCount, sendType, to,
                recvBuf, from == Comm.PROC_NULL ? recvOffset : Collectives.block(recvOffset, recvCount, recvType, from), recvCount,
                recvType, from, TAG_ALLTOALL);
        }
    }

    /** ROOT receives {@code recvCounts[i]} items at {@code displs[i]} from remote rank i; the remote ranks send. */
    void gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                 Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        checkRoot("gatherv", root);
        if (root == Comm.PROC_NULL) {
            return;
        }
        if (root == InterComm.ROOT) {
            try {
                peers.vcoll.checkBlocks("gatherv (receive)", recvBuf, recvOffset, recvCounts, displs, recvType);
            } catch (RuntimeException refused) {
                throw drained(refused, TAG_GATHERV);
            }
            for (int i = 0; i < peers.size; i++) {
                peers.collRecv(recvBuf, VCollectives.at(recvOffset, displs[i], recvType), recvCounts[i], recvType, i,
                    TAG_GATHERV);
            }
            return;
        }
        Args.buffer("gatherv (send)", sendBuf, sendOffset, sendCount, sendType, local.segment);
        peers.collSend(sendBuf, sendOffset, sendCount, sendType, root, TAG_GATHERV);
    }

    /** ROOT sends {@code sendCounts[i]} items at {@code displs[i]} to remote rank i; the remote ranks receive. */
    void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        checkRoot("scatterv", root);
        if (root == Comm.PROC_NULL) {
            return;
        }
        if (root == InterComm.ROOT) {
            try {
                peers.vcoll.checkBlocks("scatterv (send)", sendBuf, sendOffset, sendCounts, displs, sendType);
            } catch (RuntimeException refused) {
                throw answered(refused, TAG_SCATTERV);
            }
            for (int i = 0; i < peers.size; i++) {
                peers.collSend(sendBuf, VCollectives.at(sendOffset, displs[i], sendType), sendCounts[i], sendType, i,
                    TAG_SCATTERV);
            }
            return;
        }
        Args.buffer("scatterv (receive)", recvBuf, recvOffset, recvCount, recvType, local.segment);
        peers.collRecv(recvBuf, recvOffset, recvCount, recvType, root, TAG_SCATTERV);
    }

    /** Every rank's block to every remote rank; remote rank j's lands at {@code displs[j]}: alltoall's pairing. */
    void allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                    Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        Args.buffer("allgatherv (send)", sendBuf, sendOffset, sendCount, sendType, local.segment);
        peers.vcoll.checkBlocks("allgatherv (receive)", recvBuf, recvOffset, recvCounts, displs, recvType);
        int max = Math.max(local.size, peers.size);
        for (int k = 0; k < max; k++) {
            int to = remoteOrNull((local.rank + k) % max);
            int from = remoteOrNull((local.rank - k + max) % max);
            boolean rx = from != Comm.PROC_NULL;
            peers.exchange(sendBuf, sendOffset, sendCount, sendType, to,
                recvBuf, rx ? VCollectives.at(recvOffset, displs[from], recvType) : recvOffset, rx ? recvCounts[from] : 0,
                recvType, from, TAG_ALLGATHERV);
        }
    }

    /** {@link #alltoall} with a count and a displacement per remote rank, each side. */
    void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                   Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType) {
        peers.vcoll.checkBlocks("alltoallv (send)", sendBuf, sendOffset, sendCounts, sdispls, sendType);
        peers.vcoll.checkBlocks("alltoallv (receive)", recvBuf, recvOffset, recvCounts, rdispls, recvType);
        int max = Math.max(local.size, peers.size);
        for (int k = 0; k < max; k++) {
            int to = remoteOrNull((local.rank + k) % max);
            int from = remoteOrNull((local.rank - k + max) % max);
            boolean tx = to != Comm.PROC_NULL;
            boolean rx = from != Comm.PROC_NULL;
            peers.exchange(sendBuf, tx ? VCollectives.at(sendOffset, sdispls[to], sendType) : sendOffset,
                tx ? sendCounts[to] : 0, sendType, to,
                recvBuf, rx ? VCollectives.at(recvOffset, rdispls[from], recvType) : recvOffset, rx ? recvCounts[from] : 0,
                recvType, from, TAG_ALLTOALLV);
        }
    }

    /**
     * The reduction of the remote group's data, scattered over this group by {@code recvCounts}
     * (one entry per local rank; both groups' counts add up to the same total): each group
     * reduces onto its leader, the leaders swap, and each leader scatters what it received.
     */
    void reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                       Datatype type, Op op) {
        noInPlace("reduceScatter", sendBuf);
        if (recvCounts == null || recvCounts.length < local.size) { // entries past the group are not read (MPI)
            throw new IllegalArgumentException("reduceScatter: recvCounts must have " + local.size + " entries (one per"
                + " rank of the local group)" + (recvCounts == null ? ", was null" : ", had " + recvCounts.length));
        }
        int[] displs = new int[local.size];
        long total = 0;
        for (int i = 0; i < local.size; i++) {
            if (recvCounts[i] < 0) {
                throw new IllegalArgumentException("reduceScatter: recvCounts[" + i + "] must be >= 0, was "
                    + recvCounts[i]);
            }
            displs[i] = Math.toIntExact(total);
            total += recvCounts[i];
        }
        int items = Math.toIntExact(total);
        Args.buffer("reduceScatter (receive)", recvBuf, recvOffset, recvCounts[local.rank], type, local.segment);
        // at the leader: this group's reduction, then the remote group's after it
        Object both = leader() ? scratch(type, Math.multiplyExact(2, items)) : null;
        int theirsAt = Math.toIntExact(items * type.extent());
        local.coll.reduce(sendBuf, sendOffset, both, 0, items, type, op, LEADER);
        if (leader()) {
            peers.exchange(both, 0, items, type, LEADER, both, theirsAt, items, type, LEADER, TAG_REDUCE_SCATTER);
        }
        local.vcoll.scatterv(both, theirsAt, recvCounts, displs, type, recvBuf, recvOffset, recvCounts[local.rank], type,
            LEADER);
    }

    /** A remote rank, or PROC_NULL for a step's partner the remote group lacks. */
    private int remoteOrNull(int r) {
        return r < peers.size ? r : Comm.PROC_NULL;
    }

    private void checkRoot(String op, int root) {
        if (root != InterComm.ROOT && root != Comm.PROC_NULL && (root < 0 || root >= peers.size)) {
            throw new IllegalArgumentException(op + ": root must be ROOT (this rank is the root), PROC_NULL (another "
                + "rank of this group is) or the root's rank in the remote group 0.." + (peers.size - 1) + ", was "
                + root);
        }
    }

    private static void noInPlace(String op, Object sendBuf) {
        if (sendBuf == Comm.IN_PLACE) {
            throw new IllegalArgumentException(op + ": IN_PLACE is not allowed on an intercommunicator (MPI)");
        }
    }

    /** A staging array for {@code count} items of {@code type}, reused across calls. */
    private Object scratch(Datatype type, int count) {
        return Collectives.scratch(scratch, type.primitive(), Math.toIntExact(type.span(count)));
    }

}
