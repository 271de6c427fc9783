package org.hympj.shm.pml;

import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.GraphComm;
import org.hympj.api.InterComm;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Status;

/**
 * An intercommunicator over the shared-memory engine. It takes four context ids from
 * {@code ctx}: point-to-point between the groups ({@code ctx}), collective messages between them
 * ({@code ctx + 1}), and the local group's own intracommunicator ({@code ctx + 2}, {@code + 3}).
 * Point-to-point runs on {@link #peers}, a communicator view whose group is the remote one: its
 * ranks, argument checks and statuses are the remote group's, so the engine's point-to-point
 * serves an intercommunicator unchanged.
 */
final class ShmInterComm implements InterComm {
    /** Context ids an intercommunicator takes. */
    static final int CONTEXTS = 4;
    /** Tag of the leaders' messages of dup and merge (beside InterCollectives' tags, on the same context). */
    private static final int TAG_AGREE = 30;

    /** The local group as an intracommunicator (rank, size, the local halves of collectives). */
    private final ShmComm local;
    /** The remote group as seen from here: point-to-point (its context) and inter-group collective messages. */
    private final ShmComm peers;
    private final InterCollectives coll;

    private ShmInterComm(ShmComm parent, int ctx, int[] localGroup, int[] remoteGroup) {
        parent.engine.reserveContexts(ctx + CONTEXTS);
        this.peers = parent.inherit(new ShmComm(parent.engine, parent.segment, ctx, remoteGroup,
            parent.defaultBarrier(), parent.p2pFactory(), parent.life));
        this.local = parent.inherit(new ShmComm(parent.engine, parent.segment, ctx + 2, localGroup,
            parent.defaultBarrier(), parent.p2pFactory(), parent.life));
        this.coll = new InterCollectives(local, peers);
    }

    /**
     * MPI_Intercomm_create, collective over {@code localComm} and the remote group: the local
     * group agrees on its lowest free context, the leaders swap theirs and their groups (world
     * ranks) through {@code peerComm}, and each leader broadcasts the outcome to its group.
     */
    static InterComm create(ShmComm localComm, int localLeader, Comm peerComm, int remoteLeader, int tag) {
        String op = "createIntercomm";
        if (localLeader < 0 || localLeader >= localComm.size) {
            throw new IllegalArgumentException(op + ": localLeader must be 0.." + (localComm.size - 1) + ", was "
                + localLeader);
        }
        if (tag < 0) {
            throw new IllegalArgumentException(op + ": tag must be 0.." + Comm.TAG_UB + ", was " + tag);
        }
        boolean leader = localComm.rank == localLeader;
        if (leader) {
            if (peerComm == null) {
                throw new IllegalArgumentException(op + ": peerComm must not be null at the local leader");
            }
            if (remoteLeader < 0 || remoteLeader >= peerComm.size()) {
                throw new IllegalArgumentException(op + ": remoteLeader must be 0.." + (peerComm.size() - 1)
                    + " (a rank of peerComm), was " + remoteLeader);
            }
        }
        int mine = localComm.agreeContext();
        // the leader's answer: {context (or -1: the groups overlap), remote size, overlapping world rank}
        int[] head = new int[3];
        int[] remote = null;
        if (leader) {
            int[] sent = {mine, localComm.size};
            int[] got = new int[2];
            peerComm.sendrecv(sent, 0, 2, Datatype.INT, remoteLeader, tag, got, 0, 2, Datatype.INT, remoteLeader, tag);
            remote = new int[got[1]];
            peerComm.sendrecv(localComm.group, 0, localComm.size, Datatype.INT, remoteLeader, tag,
                remote, 0, remote.length, Datatype.INT, remoteLeader, tag);
            int overlap = overlap(localComm, remote);
            head[0] = overlap >= 0 ? -1 : Math.max(mine, got[0]);
            head[1] = remote.length;
            head[2] = overlap;
        }
        localComm.coll.bcast(head, 0, 3, Datatype.INT, localLeader);
        if (head[0] < 0) {
            throw new IllegalArgumentException(op + ": the local and remote groups overlap (process " + head[2]
                + " of the job is in both); MPI requires them disjoint");
        }
        if (!leader) {
            remote = new int[head[1]];
        }
        localComm.coll.bcast(remote, 0, remote.length, Datatype.INT, localLeader);
        return new ShmInterComm(localComm, head[0], localComm.group.clone(), remote);
    }

    /** A world rank in both the local group and {@code remote}, or -1. */
    private static int overlap(ShmComm localComm, int[] remote) {
        for (int w : remote) {
            if (w < 0 || w >= localComm.localOf.length) {
                throw new IllegalStateException("createIntercomm: the remote leader sent world rank " + w);
            }
            if (localComm.localOf[w] >= 0) {
                return w;
            }
        }
        return -1;
    }

    /**
     * A context free at every rank of both groups (collective over both): the local group's
     * maximum, swapped between the leaders, the larger one broadcast.
     */
    private int agreeAcross() {
        int[] v = {local.engine.nextContext()};
        local.coll.allreduce(Comm.IN_PLACE, 0, v, 0, 1, Datatype.INT, Op.MAX);
        if (local.rank == 0) {
            int[] theirs = new int[1];
            peers.exchange(v, 0, 1, Datatype.INT, 0, theirs, 0, 1, Datatype.INT, 0, TAG_AGREE);
            v[0] = Math.max(v[0], theirs[0]);
        }
        local.coll.bcast(v, 0, 1, Datatype.INT, 0);
        return v[0];
    }

    // ------------------------------------------------------------ the intercommunicator's own calls

    @Override
    public int remoteSize() {
        return peers.size;
    }

    @Override
    public Comm merge(boolean high) {
        life().enter("merge");
        try {
            local.engine.checkAbort();
            // the leaders swap their group's flag and its first process (world rank), which orders equal flags
            int[] mine = {high ? 1 : 0, local.group[0]};
            int[] theirs = new int[2];
            if (local.rank == 0) {
                peers.exchange(mine, 0, 2, Datatype.INT, 0, theirs, 0, 2, Datatype.INT, 0, TAG_AGREE);
            }
            local.coll.bcast(theirs, 0, 2, Datatype.INT, 0);
            int context = agreeAcross();
            boolean localFirst = mine[0] != theirs[0] ? !high : mine[1] < theirs[1];
            int[] first = localFirst ? local.group : peers.group;
            int[] second = localFirst ? peers.group : local.group;
            int[] merged = new int[first.length + second.length];
            System.arraycopy(first, 0, merged, 0, first.length);
            System.arraycopy(second, 0, merged, first.length, second.length);
            return local.inherit(new ShmComm(local.engine, local.segment, context, merged, local.defaultBarrier(),
                local.p2pFactory(), local.life));
        } finally {
            life().exit();
        }
    }

    @Override
    public InterComm dup() {
        life().enter("dup");
        try {
            local.engine.checkAbort();
            return new ShmInterComm(local, agreeAcross(), local.group.clone(), peers.group.clone());
        } finally {
            life().exit();
        }
    }

    @Override
    public InterComm dup(java.util.Map<String, String> hints) {
        life().enter("dup");
        try {
            local.engine.checkAbort();
            CommHints h = local.hints.with("dup", hints, local.engine.jobFabric());
            ShmInterComm c = new ShmInterComm(local, agreeAcross(), local.group.clone(), peers.group.clone());
            c.local.hints = h;
            c.peers.hints = h;
            return c;
        } finally {
            life().exit();
        }
    }

    @Override
    public String hint(String key) {
        return local.hint(key);
    }

    private RankLifecycle life() {
        return local.life;
    }

    @Override
    public int rank() {
        return local.rank;
    }

    @Override
    public int size() {
        return local.size;
    }

    // ------------------------------------------------------------ point-to-point: the remote group's ranks

    @Override
    public void send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        peers.send(buf, offset, count, type, dest, tag);
    }

    @Override
    public Status recv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return peers.recv(buf, offset, count, type, source, tag);
    }

    @Override
    public void recv(Object buf, int offset, int count, Datatype type, int source, int tag, Status status) {
        peers.recv(buf, offset, count, type, source, tag, status);
    }

    @Override
    public Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return peers.isend(buf, offset, count, type, dest, tag);
    }

    @Override
    public void ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        peers.ssend(buf, offset, count, type, dest, tag);
    }

    @Override
    public Request issend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return peers.issend(buf, offset, count, type, dest, tag);
    }

    @Override
    public PersistentRequest ssendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return peers.ssendInit(buf, offset, count, type, dest, tag);
    }

    @Override
    public Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return peers.irecv(buf, offset, count, type, source, tag);
    }

    @Override
    public Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag) {
        return peers.sendrecv(sendBuf, sendOffset, sendCount, sendType, dest, sendTag, recvBuf, recvOffset, recvCount,
            recvType, source, recvTag);
    }

    @Override
    public Status probe(int source, int tag) {
        return peers.probe(source, tag);
    }

    @Override
    public Status iprobe(int source, int tag) {
        return peers.iprobe(source, tag);
    }

    @Override
    public PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return peers.sendInit(buf, offset, count, type, dest, tag);
    }

    @Override
    public PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return peers.recvInit(buf, offset, count, type, source, tag);
    }

    // ------------------------------------------------------------ collectives (MPI's intercommunicator rules)

    @Override
    public void barrier() {
        barrier(local.defaultBarrier());
    }

    /** The algorithm is not used: the groups meet through their leaders (local barriers on the job's default). */
    @Override
    public void barrier(BarrierAlgorithm algorithm) {
        life().enter("barrier");
        try {
            if (algorithm == null) {
                throw new IllegalArgumentException("barrier: algorithm must not be null");
            }
            local.engine.checkAbort();
            coll.barrier();
        } finally {
            life().exit();
        }
    }

    @Override
    public void bcast(Object buf, int offset, int count, Datatype type, int root) {
        life().enter("bcast");
        try {
            local.engine.checkAbort();
            coll.bcast(buf, offset, count, type, root);
        } finally {
            life().exit();
        }
    }

    @Override
    public void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                       int root) {
        life().enter("reduce");
        try {
            local.engine.checkAbort();
            coll.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
        } finally {
            life().exit();
        }
    }

    @Override
    public void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                          Op op) {
        life().enter("allreduce");
        try {
            local.engine.checkAbort();
            coll.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
        } finally {
            life().exit();
        }
    }

    @Override
    public void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                       Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life().enter("gather");
        try {
            local.engine.checkAbort();
            coll.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        } finally {
            life().exit();
        }
    }

    @Override
    public void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life().enter("allgather");
        try {
            local.engine.checkAbort();
            coll.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        } finally {
            life().exit();
        }
    }

    @Override
    public void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life().enter("scatter");
        try {
            local.engine.checkAbort();
            coll.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        } finally {
            life().exit();
        }
    }

    private static UnsupportedOperationException undefined(String op) {
        return new UnsupportedOperationException(op + " is not defined on an intercommunicator (MPI)");
    }

    @Override
    public void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life().enter("alltoall");
        try {
            local.engine.checkAbort();
            coll.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        } finally {
            life().exit();
        }
    }

    @Override
    public void gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        life().enter("gatherv");
        try {
            local.engine.checkAbort();
            coll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType, root);
        } finally {
            life().exit();
        }
    }

    @Override
    public void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life().enter("scatterv");
        try {
            local.engine.checkAbort();
            coll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        } finally {
            life().exit();
        }
    }

    @Override
    public void allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        life().enter("allgatherv");
        try {
            local.engine.checkAbort();
            coll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType);
        } finally {
            life().exit();
        }
    }

    @Override
    public void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                          Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType) {
        life().enter("alltoallv");
        try {
            local.engine.checkAbort();
            coll.alltoallv(sendBuf, sendOffset, sendCounts, sdispls, sendType, recvBuf, recvOffset, recvCounts, rdispls, recvType);
        } finally {
            life().exit();
        }
    }

    @Override
    public void reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                              Datatype type, Op op) {
        life().enter("reduceScatter");
        try {
            local.engine.checkAbort();
            coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op);
        } finally {
            life().exit();
        }
    }

    @Override
    public void reduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount,
                                   Datatype type, Op op) {
        if (recvCount < 0) {
            throw new IllegalArgumentException("reduceScatterBlock: recvCount must be >= 0, was " + recvCount);
        }
        int[] counts = new int[local.size];
        java.util.Arrays.fill(counts, recvCount);
        reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, counts, type, op);
    }

    @Override
    public void scan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        throw undefined("scan");
    }

    @Override
    public void exscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                       Op op) {
        throw undefined("exscan");
    }

    // ------------------------------------------------------------ communicators

    @Override
    public Comm split(int color, int key) {
        throw new UnsupportedOperationException("split of an intercommunicator is not implemented; merge it first");
    }

    @Override
    public CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        throw undefined("createCart (a Cartesian topology)");
    }

    @Override
    public GraphComm createGraph(int[] index, int[] edges, boolean reorder) {
        throw undefined("createGraph (a graph topology)");
    }

    @Override
    public InterComm createIntercomm(int localLeader, Comm peerComm, int remoteLeader, int tag) {
        throw new UnsupportedOperationException("createIntercomm: its local communicator must be an intracommunicator"
            + " (MPI), this is an intercommunicator");
    }

    // ------------------------------------------------------------ memory and time: the rank's

    @Override
    public SegmentBuffer allocDoubles(int n) {
        return local.allocDoubles(n);
    }

    @Override
    public SegmentBuffer alloc(Primitive type, int n) {
        return local.alloc(type, n);
    }

    @Override
    public double wtime() {
        return local.wtime();
    }

    @Override
    public void compute(double seconds) {
        local.compute(seconds);
    }

    @Override
    public String toString() {
        return "InterComm[rank " + local.rank + " of " + local.size + ", remote size " + peers.size + ", context "
            + peers.ctx + "]";
    }

    // ---- non-blocking and persistent collectives: MPI defines them here, HyMPJ does not have them yet

    private static UnsupportedOperationException notYet(String op) {
        return new UnsupportedOperationException(op + " is not implemented on an intercommunicator yet "
            + "(non-blocking and persistent collectives run on intracommunicators; merge it first)");
    }

    @Override
    public Request ibarrier() {
        throw notYet("ibarrier");
    }

    @Override
    public Request ibcast(Object buf, int offset, int count, Datatype type, int root) {
        throw notYet("ibcast");
    }

    @Override
    public Request ireduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                           Op op, int root) {
        throw notYet("ireduce");
    }

    @Override
    public Request iallreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                              Datatype type, Op op) {
        throw notYet("iallreduce");
    }

    @Override
    public Request igather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        throw notYet("igather");
    }

    @Override
    public Request iscatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        throw notYet("iscatter");
    }

    @Override
    public Request iallgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                              Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        throw notYet("iallgather");
    }

    @Override
    public Request ialltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        throw notYet("ialltoall");
    }

    @Override
    public Request igatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType,
                            int root) {
        throw notYet("igatherv");
    }

    @Override
    public Request iscatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        throw notYet("iscatterv");
    }

    @Override
    public Request iallgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        throw notYet("iallgatherv");
    }

    @Override
    public Request ialltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                              Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType) {
        throw notYet("ialltoallv");
    }

    @Override
    public Request iscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                         Op op) {
        throw undefined("iscan");
    }

    @Override
    public Request iexscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                           Op op) {
        throw undefined("iexscan");
    }

    @Override
    public Request ireduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                                  Datatype type, Op op) {
        throw notYet("ireduceScatter");
    }

    @Override
    public Request ireduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount,
                                       Datatype type, Op op) {
        throw notYet("ireduceScatterBlock");
    }

    @Override
    public PersistentRequest barrierInit() {
        throw notYet("barrierInit");
    }

    @Override
    public PersistentRequest bcastInit(Object buf, int offset, int count, Datatype type, int root) {
        throw notYet("bcastInit");
    }

    @Override
    public PersistentRequest reduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                        Datatype type, Op op, int root) {
        throw notYet("reduceInit");
    }

    @Override
    public PersistentRequest allreduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                           Datatype type, Op op) {
        throw notYet("allreduceInit");
    }

    @Override
    public PersistentRequest gatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        throw notYet("gatherInit");
    }

    @Override
    public PersistentRequest scatterInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        throw notYet("scatterInit");
    }

    @Override
    public PersistentRequest allgatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        throw notYet("allgatherInit");
    }

    @Override
    public PersistentRequest alltoallInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        throw notYet("alltoallInit");
    }
}
