package org.hympj.shm.pml;

import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Status;

/**
 * A communicator over the shared-memory engine: a group (its ranks, as world ranks) and two
 * context ids — {@code ctx} for point-to-point, {@code ctx + 1} for its collectives, so the
 * two never match each other. Ranks in arguments and statuses are local to the communicator;
 * the engine works in world ranks. Blocking calls reuse internal requests: they allocate
 * nothing.
 */
public class ShmComm implements Comm {
    private static final byte[] EMPTY = new byte[0];

    final Engine engine;
    final SegmentAllocator segment;
    final int ctx;
    final int collCtx;
    /** Local rank → world rank. */
    final int[] group;
    /** World rank → local rank (-1 when not a member). */
    final int[] localOf;
    final int rank;
    final int size;
    private final SendReq collSend;
    private final RecvReq collRecv;
    final Collectives coll;
    /** The per-rank-count ("v") collectives. */
    final VCollectives vcoll;
    /** The non-blocking and persistent collectives. */
    final NbcCollectives nbc;
    private final BarrierAlgorithm defaultBarrier;
    /** The two-sided engine's point-to-point: collectives always run on it. */
    final TwoSided twoSided;
    /** The user's point-to-point: {@link #twoSided}, or the one-sided engine's (--p2p onesided). */
    private final PointToPoint p2p;
    /** Makes the point-to-point of communicators derived from this one. */
    private final PointToPoint.Factory p2pFactory;
    /** Open or finalized: shared by every communicator of the rank. */
    final RankLifecycle life;

    /** The two-sided engine's point-to-point, as a factory. */
    static final PointToPoint.Factory TWO_SIDED = c -> c.twoSided;
    /** One-wave shared-memory allreduce of small counts: the world communicator of a job on one host, natively; else null. */
    final ShmReduce shmReduce;
    /** The hierarchical collectives of the world communicator of a job on several hosts; else null. */
    final HostCollectives hostColl;
    /** Its hints (route, RSched policy): the job's, or given by dup(hints); communicators made from it inherit them. */
    CommHints hints;

    /** The world communicator of a rank, on the two-sided engine. */
    public ShmComm(Engine engine, SegmentAllocator segment, BarrierAlgorithm defaultBarrier) {
        this(engine, segment, defaultBarrier, null, new RankLifecycle(engine.rank()));
    }

    /** The world communicator, with point-to-point on the one-sided engine when {@code os} is given. */
    public ShmComm(Engine engine, SegmentAllocator segment, BarrierAlgorithm defaultBarrier, OsEngine os,
                   RankLifecycle life) {
        this(engine, segment, 0, identity(engine.size()), defaultBarrier,
            os == null ? TWO_SIDED : c -> new OneSidedP2p(c, os), life);
    }

    ShmComm(Engine engine, SegmentAllocator segment, int ctx, int[] group, BarrierAlgorithm defaultBarrier,
            PointToPoint.Factory p2pFactory, RankLifecycle life) {
        this.engine = engine;
        this.segment = segment;
        this.ctx = ctx;
        this.collCtx = ctx + 1;
        this.group = group;
        this.localOf = new int[engine.size()];
        java.util.Arrays.fill(localOf, -1);
        for (int i = 0; i < group.length; i++) {
            localOf[group[i]] = i;
        }
        this.rank = localOf[engine.rank()];
        this.size = group.length;
        this.collSend = new SendReq(engine, true);
        this.collRecv = new RecvReq(engine, true);
        this.coll = new Collectives(this);
        this.vcoll = new VCollectives(this);
        this.nbc = new NbcCollectives(this);
        this.defaultBarrier = defaultBarrier;
        this.twoSided = new TwoSided(this);
        this.p2pFactory = p2pFactory;
        this.life = life;
        this.p2p = p2pFactory.of(this);
        this.shmReduce = ctx == 0 && engine.timing() == null && engine.fabric().singleHost()
            ? new ShmReduce(engine.fabric().collSlots(), rank, size) : null;
        this.hints = engine.defaultHints();
        engine.reserveContexts(ctx + 2);
        this.hostColl = ctx == 0 && engine.timing() == null && !engine.fabric().singleHost()
            ? HostCollectives.of(this) : null;
    }

    static int[] identity(int n) {
        int[] g = new int[n];
        for (int i = 0; i < n; i++) {
            g[i] = i;
        }
        return g;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    int world(int local) {
        return local == PROC_NULL ? PROC_NULL : group[local];
    }

    @Override
    public void send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        life.enter("send");
        try {
            engine.checkAbort();
            p2p.send(buf, offset, count, type, dest, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public Status recv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        Status st = new Status();
        recv(buf, offset, count, type, source, tag, st);
        return st;
    }

    @Override
    public void recv(Object buf, int offset, int count, Datatype type, int source, int tag, Status status) {
        life.enter("recv");
        try {
            engine.checkAbort();
            p2p.recv(buf, offset, count, type, source, tag, status);
        } finally {
            life.exit();
        }
    }

    @Override
    public Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        life.enter("isend");
        try {
            return p2p.isend(buf, offset, count, type, dest, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public void ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        life.enter("ssend");
        try {
            engine.checkAbort();
            p2p.ssend(buf, offset, count, type, dest, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public Request issend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        life.enter("issend");
        try {
            return p2p.issend(buf, offset, count, type, dest, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest ssendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        life.enter("ssendInit");
        try {
            return p2p.ssendInit(buf, offset, count, type, dest, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        life.enter("irecv");
        try {
            return p2p.irecv(buf, offset, count, type, source, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag) {
        life.enter("sendrecv");
        try {
            engine.checkAbort();
            return p2p.sendrecv(sendBuf, sendOffset, sendCount, sendType, dest, sendTag, recvBuf, recvOffset, recvCount,
                recvType, source, recvTag);
        } finally {
            life.exit();
        }
    }

    @Override
    public Status probe(int source, int tag) {
        life.enter("probe");
        try {
            return p2p.probe(source, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public Status iprobe(int source, int tag) {
        life.enter("iprobe");
        try {
            return p2p.iprobe(source, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        life.enter("sendInit");
        try {
            return p2p.sendInit(buf, offset, count, type, dest, tag);
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag) {
        life.enter("recvInit");
        try {
            return p2p.recvInit(buf, offset, count, type, source, tag);
        } finally {
            life.exit();
        }
    }

    // ------------------------------------------------------------ internal point-to-point of collectives

    /**
     * Exchange on the collective context (local ranks; PROC_NULL skips a side). Arguments are
     * checked by the collective's caller.
     */
    void exchange(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int tag) {
        boolean rx = source != PROC_NULL;
        boolean tx = dest != PROC_NULL;
        if (rx) {
            twoSided.bind(collRecv, recvBuf, recvOffset, recvCount, recvType, source, tag, collCtx).start();
        }
        if (tx) {
            twoSided.bind(collSend, sendBuf, sendOffset, sendCount, sendType, dest, tag, collCtx).start();
        }
        try {
            if (tx) {
                collSend.waitFor();
            }
        } finally {
            if (rx) {
                collRecv.waitFor();
            }
        }
    }

    void collSend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        exchange(buf, offset, count, type, dest, null, 0, 0, null, PROC_NULL, tag);
    }

    void collRecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        exchange(null, 0, 0, null, PROC_NULL, buf, offset, count, type, source, tag);
    }

    /**
     * Receives and drops the next collective message from {@code source} with {@code tag}, whatever
     * its size: a root whose own arguments were refused still takes the contributions sent to it, so
     * that none is left to match the next collective and the caller's exception changes nothing.
     */
    void collDiscard(int source, int tag) {
        int want = world(source);
        engine.resetIdle();
        Unexpected u;
        while ((u = engine.probe(collCtx, want, tag)) == null) {
            engine.idleStep(engine.progress());
        }
        byte[] sink = new byte[Math.toIntExact(u.total)];
        collRecv(sink, 0, sink.length, Datatype.BYTE, source, tag);
    }

    /** {@link #collDiscard} from every other rank: the root of a gather whose receive side was refused. */
    void discardFromOthers(int tag) {
        for (int i = 0; i < size; i++) {
            if (i != rank) {
                collDiscard(i, tag);
            }
        }
    }

    /**
     * An empty block to every other rank: the root of a scatter whose send side was refused. They
     * return with nothing received (their buffers as they were) rather than wait: a rank sent 0
     * items where it receives more is what MPICH and Open MPI take too, so it is no error there.
     */
    void signalOthers(int tag) {
        for (int i = 0; i < size; i++) {
            if (i != rank) {
                collSend(EMPTY, 0, 0, Datatype.BYTE, i, tag);
            }
        }
    }

    /** A zero-byte synchronisation message. */
    void signal(int dest, int source, int tag) {
        exchange(EMPTY, 0, 0, Datatype.BYTE, dest, EMPTY, 0, 0, Datatype.BYTE, source, tag);
    }

    // ------------------------------------------------------------ collectives

    @Override
    public void barrier() {
        barrier(defaultBarrier);
    }

    @Override
    public void barrier(BarrierAlgorithm algorithm) {
        life.enter("barrier");
        try {
            if (algorithm == null) {
                throw new IllegalArgumentException("barrier: algorithm must not be null");
            }
            engine.checkAbort();
            coll.barrier(algorithm);
        } finally {
            life.exit();
        }
    }

    @Override
    public void bcast(Object buf, int offset, int count, Datatype type, int root) {
        life.enter("bcast");
        try {
            engine.checkAbort();
            coll.bcast(buf, offset, count, type, root);
        } finally {
            life.exit();
        }
    }

    @Override
    public void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                       int root) {
        life.enter("reduce");
        try {
            engine.checkAbort();
            coll.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
        } finally {
            life.exit();
        }
    }

    @Override
    public void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                          Op op) {
        life.enter("allreduce");
        try {
            engine.checkAbort();
            coll.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
        } finally {
            life.exit();
        }
    }

    @Override
    public void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                       Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.enter("gather");
        try {
            engine.checkAbort();
            coll.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        } finally {
            life.exit();
        }
    }

    @Override
    public void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life.enter("allgather");
        try {
            engine.checkAbort();
            coll.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        } finally {
            life.exit();
        }
    }

    @Override
    public void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.enter("scatter");
        try {
            engine.checkAbort();
            coll.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
        } finally {
            life.exit();
        }
    }

    @Override
    public void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life.enter("alltoall");
        try {
            engine.checkAbort();
            coll.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
        } finally {
            life.exit();
        }
    }

    @Override
    public void gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        life.check("gatherv");
        engine.checkAbort();
        vcoll.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType,
            root);
    }

    @Override
    public void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.check("scatterv");
        engine.checkAbort();
        vcoll.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType,
            root);
    }

    @Override
    public void allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        life.check("allgatherv");
        engine.checkAbort();
        vcoll.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts, displs, recvType);
    }

    @Override
    public void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                          Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType) {
        life.check("alltoallv");
        engine.checkAbort();
        vcoll.alltoallv(sendBuf, sendOffset, sendCounts, sdispls, sendType, recvBuf, recvOffset, recvCounts, rdispls,
            recvType);
    }

    @Override
    public void scan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op) {
        life.check("scan");
        engine.checkAbort();
        coll.scan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    @Override
    public void exscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                       Op op) {
        life.check("exscan");
        engine.checkAbort();
        coll.exscan(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    @Override
    public void reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                              Datatype type, Op op) {
        life.check("reduceScatter");
        engine.checkAbort();
        coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op);
    }

    @Override
    public void reduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount,
                                   Datatype type, Op op) {
        life.check("reduceScatterBlock");
        engine.checkAbort();
        if (recvCount < 0) {
            throw new IllegalArgumentException("reduceScatterBlock: recvCount must be >= 0, was " + recvCount);
        }
        int[] counts = new int[size];
        java.util.Arrays.fill(counts, recvCount);
        coll.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, counts, type, op);
    }

    // ------------------------------------------------------------ non-blocking and persistent collectives

    /** Starts a non-blocking collective's schedule (its first round runs now). */
    static Request started(NbcRequest r) {
        r.start();
        return r;
    }

    @Override
    public Request ibarrier() {
        life.enter("ibarrier");
        try {
            engine.checkAbort();
            return started(nbc.barrier(false, "ibarrier"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request ibcast(Object buf, int offset, int count, Datatype type, int root) {
        life.enter("ibcast");
        try {
            engine.checkAbort();
            return started(nbc.bcast(buf, offset, count, type, root, false, "ibcast"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request ireduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                           Op op, int root) {
        life.enter("ireduce");
        try {
            engine.checkAbort();
            return started(nbc.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root, false,
                "ireduce"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request iallreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                              Datatype type, Op op) {
        life.enter("iallreduce");
        try {
            engine.checkAbort();
            return started(nbc.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, false,
                "iallreduce"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request igather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.enter("igather");
        try {
            engine.checkAbort();
            return started(nbc.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
                recvCount, recvType, root, false, "igather"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request iscatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.enter("iscatter");
        try {
            engine.checkAbort();
            return started(nbc.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
                recvCount, recvType, root, false, "iscatter"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request iallgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                              Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life.enter("iallgather");
        try {
            engine.checkAbort();
            return started(nbc.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
                recvCount, recvType, false, "iallgather"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request ialltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life.enter("ialltoall");
        try {
            engine.checkAbort();
            return started(nbc.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
                recvCount, recvType, false, "ialltoall"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request igatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                            Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType,
                            int root) {
        life.enter("igatherv");
        try {
            engine.checkAbort();
            return started(nbc.gatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts,
                displs, recvType, root, "igatherv"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request iscatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                             Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.enter("iscatterv");
        try {
            engine.checkAbort();
            return started(nbc.scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset,
                recvCount, recvType, root, "iscatterv"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request iallgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                               Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        life.enter("iallgatherv");
        try {
            engine.checkAbort();
            return started(nbc.allgatherv(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCounts,
                displs, recvType, "iallgatherv"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request ialltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                              Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType) {
        life.enter("ialltoallv");
        try {
            engine.checkAbort();
            return started(nbc.alltoallv(sendBuf, sendOffset, sendCounts, sdispls, sendType, recvBuf, recvOffset,
                recvCounts, rdispls, recvType, "ialltoallv"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request iscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                         Op op) {
        life.enter("iscan");
        try {
            engine.checkAbort();
            return started(nbc.scan(false, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, "iscan"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request iexscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                           Op op) {
        life.enter("iexscan");
        try {
            engine.checkAbort();
            return started(nbc.scan(true, sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, "iexscan"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request ireduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                                  Datatype type, Op op) {
        life.enter("ireduceScatter");
        try {
            engine.checkAbort();
            return started(nbc.reduceScatter(sendBuf, sendOffset, recvBuf, recvOffset, recvCounts, type, op,
                "ireduceScatter"));
        } finally {
            life.exit();
        }
    }

    @Override
    public Request ireduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount,
                                       Datatype type, Op op) {
        life.enter("ireduceScatterBlock");
        try {
            engine.checkAbort();
            return started(nbc.reduceScatterBlock(sendBuf, sendOffset, recvBuf, recvOffset, recvCount, type, op,
                "ireduceScatterBlock"));
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest barrierInit() {
        life.enter("barrierInit");
        try {
            engine.checkAbort();
            return nbc.barrier(true, "barrierInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest bcastInit(Object buf, int offset, int count, Datatype type, int root) {
        life.enter("bcastInit");
        try {
            engine.checkAbort();
            return nbc.bcast(buf, offset, count, type, root, true, "bcastInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest reduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                        Datatype type, Op op, int root) {
        life.enter("reduceInit");
        try {
            engine.checkAbort();
            return nbc.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root, true, "reduceInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest allreduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                           Datatype type, Op op) {
        life.enter("allreduceInit");
        try {
            engine.checkAbort();
            return nbc.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, true, "allreduceInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest gatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.enter("gatherInit");
        try {
            engine.checkAbort();
            return nbc.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root,
                true, "gatherInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest scatterInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        life.enter("scatterInit");
        try {
            engine.checkAbort();
            return nbc.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root,
                true, "scatterInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest allgatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life.enter("allgatherInit");
        try {
            engine.checkAbort();
            return nbc.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType,
                true, "allgatherInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public PersistentRequest alltoallInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        life.enter("alltoallInit");
        try {
            engine.checkAbort();
            return nbc.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType,
                true, "alltoallInit");
        } finally {
            life.exit();
        }
    }

    // ------------------------------------------------------------ communicators

    /** Agrees with every member on a fresh pair of context ids (collective over this communicator). */
    int agreeContext() {
        return agreeContext(hints, "");
    }

    /**
     * Agrees on a fresh pair of context ids and checks, in the same reduction, that every member
     * has hints {@code h} (a communicator's hints must be the same on all its ranks).
     *
     * @throws IllegalArgumentException on every rank when the hints differ
     */
    int agreeContext(CommHints h, String op) {
        int fp = h.fingerprint();
        int[] v = {engine.nextContext(), fp, -fp};
        coll.allreduce(IN_PLACE, 0, v, 0, 3, Datatype.INT, Op.MAX);
        engine.reserveContexts(v[0] + 2);
        if (v[1] != -v[2]) {
            throw new IllegalArgumentException(op + ": the ranks passed different hints (this rank: " + h + ")");
        }
        return v[0];
    }

    /** {@code child} with this communicator's hints (a communicator made from this one inherits them). */
    <T extends ShmComm> T inherit(T child) {
        child.hints = hints;
        return child;
    }

    /** A communicator like this one (its group, its topology) on {@code context}: what dup makes. */
    ShmComm copy(int context) {
        return new ShmComm(engine, segment, context, group.clone(), defaultBarrier, p2pFactory, life);
    }

    @Override
    public Comm dup() {
        life.enter("dup");
        try {
            engine.checkAbort();
            return inherit(copy(agreeContext()));
        } finally {
            life.exit();
        }
    }

    @Override
    public Comm dup(java.util.Map<String, String> given) {
        life.enter("dup");
        try {
            engine.checkAbort();
            CommHints h = hints.with("dup", given, engine.jobFabric());
            ShmComm c = copy(agreeContext(h, "dup"));
            c.hints = h;
            return c;
        } finally {
            life.exit();
        }
    }

    @Override
    public String hint(String key) {
        return hints.get(key);
    }

    @Override
    public Comm split(int color, int key) {
        life.enter("split");
        try {
            engine.checkAbort();
            if (color < 0 && color != UNDEFINED) {
                throw new IllegalArgumentException("split: color must be >= 0 or UNDEFINED, was " + color);
            }
            int[] mine = {color, key};
            int[] all = new int[2 * size];
            coll.allgather(mine, 0, 2, Datatype.INT, all, 0, 2, Datatype.INT);
            int context = agreeContext();
            if (color == UNDEFINED) {
                return null;
            }
            return inherit(new ShmComm(engine, segment, context, members(all, color), defaultBarrier, p2pFactory, life));
        } finally {
            life.exit();
        }
    }

    /** World ranks of the members of {@code color}, ordered by (key, rank). */
    int[] members(int[] colorKey, int color) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (colorKey[2 * i] == color) {
                n++;
            }
        }
        Integer[] idx = new Integer[n];
        int k = 0;
        for (int i = 0; i < size; i++) {
            if (colorKey[2 * i] == color) {
                idx[k++] = i;
            }
        }
        java.util.Arrays.sort(idx, (a, b) -> colorKey[2 * a + 1] != colorKey[2 * b + 1]
            ? Integer.compare(colorKey[2 * a + 1], colorKey[2 * b + 1]) : Integer.compare(a, b));
        int[] g = new int[n];
        for (int i = 0; i < n; i++) {
            g[i] = group[idx[i]];
        }
        return g;
    }

    @Override
    public CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        life.enter("createCart");
        try {
            engine.checkAbort();
            if (dims == null || periods == null || dims.length != periods.length || dims.length == 0) {
                throw new IllegalArgumentException("createCart: dims and periods must be non-empty and of equal length");
            }
            long n = 1;
            for (int d = 0; d < dims.length; d++) {
                if (dims[d] < 1) {
                    throw new IllegalArgumentException("createCart: dims[" + d + "] must be >= 1, was " + dims[d]);
                }
                n *= dims[d];
            }
            if (n > size) {
                throw new IllegalArgumentException("createCart: dims " + java.util.Arrays.toString(dims) + " need " + n
                    + " ranks, the communicator has " + size);
            }
            int context = agreeContext();
            if (rank >= n) {
                return null;
            }
            // reorder is allowed but not used: on one shared-memory machine every placement is equal
            int[] g = java.util.Arrays.copyOf(group, (int) n);
            return inherit(new ShmCartComm(engine, segment, context, g, dims.clone(), periods.clone(), defaultBarrier,
                p2pFactory, life));
        } finally {
            life.exit();
        }
    }

    @Override
    public org.hympj.api.GraphComm createGraph(int[] index, int[] edges, boolean reorder) {
        life.enter("createGraph");
        try {
            engine.checkAbort();
            return ShmGraphComm.create(this, index, edges);
        } finally {
            life.exit();
        }
    }

    @Override
    public org.hympj.api.InterComm createIntercomm(int localLeader, Comm peerComm, int remoteLeader, int tag) {
        life.enter("createIntercomm");
        try {
            engine.checkAbort();
            return ShmInterComm.create(this, localLeader, peerComm, remoteLeader, tag);
        } finally {
            life.exit();
        }
    }

    BarrierAlgorithm defaultBarrier() {
        return defaultBarrier;
    }

    /** How communicators derived from this one make their point-to-point. */
    PointToPoint.Factory p2pFactory() {
        return p2pFactory;
    }

    // ------------------------------------------------------------ memory and time

    @Override
    public SegmentBuffer allocDoubles(int n) {
        life.enter("allocDoubles");
        try {
            return segment.alloc(Primitive.DOUBLE, n);
        } finally {
            life.exit();
        }
    }

    @Override
    public SegmentBuffer alloc(Primitive type, int n) {
        life.enter("alloc");
        try {
            return segment.alloc(type, n);
        } finally {
            life.exit();
        }
    }

    /**
     * Seconds. Under a timing model this is the emulated machine's clock: on virtual time the
     * rank's modelled clock (its modelled communication, plus its CPU time between library calls
     * times --compute-scale), on the wall clock the real time since the job's epoch divided by
     * the time dilation. Natively the real clock. {@link org.hympj.api.Mpj#wtime()} stays real.
     */
    @Override
    public double wtime() {
        org.hympj.shm.emu.VirtualClock clock = life.clock();
        if (clock != null) {
            clock.enter(); // the computation up to this call counts
            double t = clock.now() * 1e-9;
            clock.exit();
            return t;
        }
        org.hympj.shm.emu.FabricTiming t = engine.timing();
        long now = System.nanoTime();
        return t == null ? now * 1e-9 : t.modelNow(now) * 1e-9;
    }

    @Override
    public void compute(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("compute: seconds must be a finite number >= 0, was " + seconds);
        }
        life.check("compute");
        long ns = (long) (seconds * 1e9);
        org.hympj.shm.emu.VirtualClock clock = life.clock();
        if (clock != null) {
            clock.enter();
            clock.compute(ns);
            clock.exit();
            return;
        }
        org.hympj.shm.emu.FabricTiming t = engine.timing();
        long real = t == null ? ns : (long) (ns * t.dilation());
        long end = System.nanoTime() + real;
        for (long left = real; left > 0; left = end - System.nanoTime()) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
    }

    @Override
    public String toString() {
        return "Comm[rank " + rank + " of " + size + ", context " + ctx + "]";
    }
}
