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
    private final SendReq blockingSend;
    private final RecvReq blockingRecv;
    private final SendReq collSend;
    private final RecvReq collRecv;
    final Collectives coll;
    private final BarrierAlgorithm defaultBarrier;
    /** The one-sided point-to-point engine (--p2p onesided), or null: then the two-sided engine. */
    final OsEngine os;
    private final OsRequest osBlockingSend;
    private final OsRequest osBlockingRecv;
    /** One-wave shared-memory allreduce of small counts: the world communicator, natively; else null. */
    final ShmReduce shmReduce;

    /** The world communicator. */
    public ShmComm(Engine engine, SegmentAllocator segment, BarrierAlgorithm defaultBarrier) {
        this(engine, segment, defaultBarrier, null);
    }

    /** The world communicator, with point-to-point on the one-sided engine when {@code os} is given. */
    public ShmComm(Engine engine, SegmentAllocator segment, BarrierAlgorithm defaultBarrier, OsEngine os) {
        this(engine, segment, 0, identity(engine.size()), defaultBarrier, os);
    }

    ShmComm(Engine engine, SegmentAllocator segment, int ctx, int[] group, BarrierAlgorithm defaultBarrier,
            OsEngine os) {
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
        this.blockingSend = new SendReq(engine, true);
        this.blockingRecv = new RecvReq(engine, true);
        this.collSend = new SendReq(engine, true);
        this.collRecv = new RecvReq(engine, true);
        this.coll = new Collectives(this);
        this.defaultBarrier = defaultBarrier;
        this.os = os;
        this.osBlockingSend = os == null ? null : os.newRequest(true, true);
        this.osBlockingRecv = os == null ? null : os.newRequest(false, true);
        this.shmReduce = ctx == 0 && engine.timing() == null
            ? new ShmReduce(engine.fabric().collSlots(), rank, size) : null;
        engine.reserveContexts(ctx + 2);
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

    private SendReq prepareSend(String op, SendReq s, Object buf, int offset, int count, Datatype type, int dest,
                                int tag) {
        Args.buffer(op, buf, offset, count, type, segment);
        Args.dest(op, dest, size);
        Args.sendTag(op, tag);
        engine.channelFor(world(dest), op); // a route error is thrown here, before anything changes
        return bind(s, buf, offset, count, type, dest, tag, ctx);
    }

    private SendReq bind(SendReq s, Object buf, int offset, int count, Datatype type, int dest, int tag, int context) {
        s.buf.set(buf, offset, count, type, engine);
        s.dest = world(dest);
        s.layout = org.hympj.spi.Layout.of(type, count);
        s.channel = engine.channelFor(s.dest, s.buf.bytes, s.layout, "send");
        s.stripe = engine.stripeFor(s.dest, s.buf.bytes, s.layout);
        s.tag = tag;
        s.ctx = context;
        engine.traceRoute(s);
        return s;
    }

    private RecvReq prepareRecv(String op, RecvReq r, Object buf, int offset, int count, Datatype type, int source,
                                int tag) {
        Args.buffer(op, buf, offset, count, type, segment);
        Args.source(op, source, size);
        Args.recvTag(op, tag);
        return bind(r, buf, offset, count, type, source, tag, ctx);
    }

    private RecvReq bind(RecvReq r, Object buf, int offset, int count, Datatype type, int source, int tag,
                         int context) {
        r.buf.set(buf, offset, count, type, engine);
        r.source = source == ANY_SOURCE ? ANY_SOURCE : world(source);
        r.localOf = localOf;
        r.tag = tag;
        r.ctx = context;
        return r;
    }

    // ------------------------------------------------------------ one-sided point-to-point

    private OsRequest osSend(String op, OsRequest q, Object buf, int offset, int count, Datatype type, int dest,
                             int tag) {
        Args.buffer(op, buf, offset, count, type, segment);
        Args.dest(op, dest, size);
        Args.sendTag(op, tag);
        q.buf.set(buf, offset, count, type, engine);
        q.peer = world(dest);
        q.tag = tag;
        q.ctx = ctx;
        q.localOf = localOf;
        return q;
    }

    private OsRequest osRecv(String op, OsRequest q, Object buf, int offset, int count, Datatype type, int source,
                             int tag) {
        Args.buffer(op, buf, offset, count, type, segment);
        Args.source(op, source, size);
        Args.recvTag(op, tag);
        if (source == ANY_SOURCE) {
            throw new UnsupportedOperationException(op + ": ANY_SOURCE is not supported by --p2p onesided: a receive "
                + "writes its address into one sender's Remote Address Buffer (S2); name the source");
        }
        q.buf.set(buf, offset, count, type, engine);
        q.peer = world(source);
        q.tag = tag;
        q.ctx = ctx;
        q.localOf = localOf;
        return q;
    }

    private static UnsupportedOperationException noProbe(String op) {
        return new UnsupportedOperationException(op + " is not supported by --p2p onesided: nothing arrives "
            + "before the receive has posted its address (S2)");
    }

    @Override
    public void send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        engine.checkAbort();
        if (os != null) {
            OsRequest q = osSend("send", osBlockingSend, buf, offset, count, type, dest, tag);
            q.start();
            q.waitFor();
            return;
        }
        SendReq s = prepareSend("send", blockingSend, buf, offset, count, type, dest, tag);
        s.start();
        s.waitFor();
    }

    @Override
    public Status recv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        Status st = new Status();
        recv(buf, offset, count, type, source, tag, st);
        return st;
    }

    @Override
    public void recv(Object buf, int offset, int count, Datatype type, int source, int tag, Status status) {
        engine.checkAbort();
        if (os != null) {
            OsRequest q = osRecv("recv", osBlockingRecv, buf, offset, count, type, source, tag);
            q.start();
            try {
                q.waitFor();
            } finally {
                if (status != null) {
                    status.set(q.status);
                }
            }
            return;
        }
        RecvReq r = prepareRecv("recv", blockingRecv, buf, offset, count, type, source, tag);
        r.start();
        try {
            r.waitFor();
        } finally {
            if (status != null) {
                status.set(r.status);
            }
        }
    }

    @Override
    public Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        if (os != null) {
            OsRequest q = osSend("isend", os.newRequest(true, false), buf, offset, count, type, dest, tag);
            q.start();
            return q;
        }
        SendReq s = prepareSend("isend", new SendReq(engine, false), buf, offset, count, type, dest, tag);
        s.start();
        return s;
    }

    @Override
    public Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        if (os != null) {
            OsRequest q = osRecv("irecv", os.newRequest(false, false), buf, offset, count, type, source, tag);
            q.start();
            return q;
        }
        RecvReq r = prepareRecv("irecv", new RecvReq(engine, false), buf, offset, count, type, source, tag);
        r.start();
        return r;
    }

    @Override
    public Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag) {
        engine.checkAbort();
        if (os != null) {
            Args.buffer("sendrecv (send side)", sendBuf, sendOffset, sendCount, sendType, segment);
            Args.dest("sendrecv", dest, size);
            Args.sendTag("sendrecv", sendTag);
            OsRequest r = osRecv("sendrecv (receive side)", osBlockingRecv, recvBuf, recvOffset, recvCount, recvType,
                source, recvTag);
            OsRequest q = osSend("sendrecv", osBlockingSend, sendBuf, sendOffset, sendCount, sendType, dest, sendTag);
            r.start();
            q.start();
            try {
                q.waitFor();
            } finally {
                r.waitFor();
            }
            return r.status.copy();
        }
        // check both sides before starting either, so a bad argument changes nothing
        Args.buffer("sendrecv (send side)", sendBuf, sendOffset, sendCount, sendType, segment);
        Args.dest("sendrecv", dest, size);
        Args.sendTag("sendrecv", sendTag);
        RecvReq r = prepareRecv("sendrecv (receive side)", blockingRecv, recvBuf, recvOffset, recvCount, recvType,
            source, recvTag);
        SendReq s = bind(blockingSend, sendBuf, sendOffset, sendCount, sendType, dest, sendTag, ctx);
        r.start();
        s.start();
        try {
            s.waitFor();
        } finally {
            r.waitFor();
        }
        return r.status.copy();
    }

    @Override
    public Status probe(int source, int tag) {
        Args.source("probe", source, size);
        Args.recvTag("probe", tag);
        if (os != null) {
            throw noProbe("probe");
        }
        engine.checkAbort();
        Status st = new Status();
        if (source == PROC_NULL) {
            st.fill(PROC_NULL, ANY_TAG, 0, 0, 1, 1);
            return st;
        }
        int want = source == ANY_SOURCE ? ANY_SOURCE : group[source];
        engine.resetIdle();
        while (true) {
            int work = engine.progress();
            Unexpected u = engine.probe(ctx, want, tag);
            if (u != null) {
                st.fill(localOf[u.source], u.tag, u.total, u.total, 1, 1);
                return st;
            }
            engine.idleStep(work);
        }
    }

    @Override
    public Status iprobe(int source, int tag) {
        Args.source("iprobe", source, size);
        Args.recvTag("iprobe", tag);
        if (os != null) {
            throw noProbe("iprobe");
        }
        engine.checkAbort();
        if (source == PROC_NULL) {
            Status st = new Status();
            st.fill(PROC_NULL, ANY_TAG, 0, 0, 1, 1);
            return st;
        }
        engine.progress();
        Unexpected u = engine.probe(ctx, source == ANY_SOURCE ? ANY_SOURCE : group[source], tag);
        if (u == null) {
            engine.pollFailures();
            return null;
        }
        Status st = new Status();
        st.fill(localOf[u.source], u.tag, u.total, u.total, 1, 1);
        return st;
    }

    @Override
    public PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        if (os != null) {
            return osSend("sendInit", os.newRequest(true, true), buf, offset, count, type, dest, tag);
        }
        SendReq s = prepareSend("sendInit", new SendReq(engine, true), buf, offset, count, type, dest, tag);
        engine.registerPersistent(s); // route and descriptors decided once, at init (S1)
        return s;
    }

    @Override
    public PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag) {
        if (os != null) {
            return osRecv("recvInit", os.newRequest(false, true), buf, offset, count, type, source, tag);
        }
        return prepareRecv("recvInit", new RecvReq(engine, true), buf, offset, count, type, source, tag);
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
            bind(collRecv, recvBuf, recvOffset, recvCount, recvType, source, tag, collCtx).start();
        }
        if (tx) {
            bind(collSend, sendBuf, sendOffset, sendCount, sendType, dest, tag, collCtx).start();
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
        if (algorithm == null) {
            throw new IllegalArgumentException("barrier: algorithm must not be null");
        }
        engine.checkAbort();
        coll.barrier(algorithm);
    }

    @Override
    public void bcast(Object buf, int offset, int count, Datatype type, int root) {
        engine.checkAbort();
        coll.bcast(buf, offset, count, type, root);
    }

    @Override
    public void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                       int root) {
        engine.checkAbort();
        coll.reduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op, root);
    }

    @Override
    public void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                          Op op) {
        engine.checkAbort();
        coll.allreduce(sendBuf, sendOffset, recvBuf, recvOffset, count, type, op);
    }

    @Override
    public void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                       Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        engine.checkAbort();
        coll.gather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    @Override
    public void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                          Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        engine.checkAbort();
        coll.allgather(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    @Override
    public void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        engine.checkAbort();
        coll.scatter(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType, root);
    }

    @Override
    public void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                         Object recvBuf, int recvOffset, int recvCount, Datatype recvType) {
        engine.checkAbort();
        coll.alltoall(sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset, recvCount, recvType);
    }

    // ------------------------------------------------------------ communicators

    /** Agrees with every member on a fresh pair of context ids (collective over this communicator). */
    int agreeContext() {
        int[] v = {engine.nextContext()};
        coll.allreduce(IN_PLACE, 0, v, 0, 1, Datatype.INT, Op.MAX);
        engine.reserveContexts(v[0] + 2);
        return v[0];
    }

    @Override
    public Comm dup() {
        engine.checkAbort();
        return new ShmComm(engine, segment, agreeContext(), group.clone(), defaultBarrier, os);
    }

    @Override
    public Comm split(int color, int key) {
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
        return new ShmComm(engine, segment, context, members(all, color), defaultBarrier, os);
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
        return new ShmCartComm(engine, segment, context, g, dims.clone(), periods.clone(), defaultBarrier, os);
    }

    BarrierAlgorithm defaultBarrier() {
        return defaultBarrier;
    }

    // ------------------------------------------------------------ memory and time

    @Override
    public SegmentBuffer allocDoubles(int n) {
        return segment.alloc(Primitive.DOUBLE, n);
    }

    @Override
    public SegmentBuffer alloc(Primitive type, int n) {
        return segment.alloc(type, n);
    }

    /**
     * Seconds. Under a timing model this is the emulated machine's clock — wall time since the
     * job's epoch divided by the time dilation — so programs time themselves in modelled time
     * (computation, which is not modelled, then appears dilation times faster).
     */
    @Override
    public double wtime() {
        org.hympj.shm.emu.FabricTiming t = engine.timing();
        long now = System.nanoTime();
        return t == null ? now * 1e-9 : t.modelNow(now) * 1e-9;
    }

    @Override
    public String toString() {
        return "Comm[rank " + rank + " of " + size + ", context " + ctx + "]";
    }
}
