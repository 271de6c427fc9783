package org.hympj.shm.pml;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.spi.Layout;

/**
 * Point-to-point on the two-sided engine: matching, eager and rendezvous ({@link Engine}).
 * The route of a message (TCA or IB under the emulated fabrics) is decided when it is bound to
 * its request: at the call, or once at init for a persistent one. Blocking calls reuse one send
 * and one receive request of the communicator: they allocate nothing.
 */
final class TwoSided implements PointToPoint {
    private final ShmComm comm;
    private final Engine engine;
    private final SendReq blockingSend;
    private final RecvReq blockingRecv;

    TwoSided(ShmComm comm) {
        this.comm = comm;
        this.engine = comm.engine;
        this.blockingSend = new SendReq(engine, true);
        this.blockingRecv = new RecvReq(engine, true);
    }

    private SendReq prepareSend(String op, SendReq s, Object buf, int offset, int count, Datatype type, int dest,
                                int tag) {
        return prepareSend(op, s, buf, offset, count, type, dest, tag, false);
    }

    private SendReq prepareSend(String op, SendReq s, Object buf, int offset, int count, Datatype type, int dest,
                                int tag, boolean synchronous) {
        Args.buffer(op, buf, offset, count, type, comm.segment);
        Args.dest(op, dest, comm.size);
        Args.sendTag(op, tag);
        engine.channelFor(comm.hints.policy().routes(), comm.world(dest), op); // a route error is thrown here, before anything changes
        SendReq bound = bind(s, buf, offset, count, type, dest, tag, comm.ctx);
        bound.synchronous = synchronous;
        return bound;
    }

    /** Binds a send to its data, peer and context; its route is decided here. */
    SendReq bind(SendReq s, Object buf, int offset, int count, Datatype type, int dest, int tag, int context) {
        s.synchronous = false;
        s.buf.set(buf, offset, count, type, engine);
        s.dest = comm.world(dest);
        s.layout = Layout.of(type, count);
        s.policy = comm.hints.policy();
        s.channel = engine.channelFor(s.policy.routes(), s.dest, s.buf.bytes, s.layout, "send");
        s.stripe = engine.stripeFor(s.policy.routes(), s.dest, s.buf.bytes, s.layout);
        s.tag = tag;
        s.ctx = context;
        engine.traceRoute(s);
        return s;
    }

    private RecvReq prepareRecv(String op, RecvReq r, Object buf, int offset, int count, Datatype type, int source,
                                int tag) {
        Args.buffer(op, buf, offset, count, type, comm.segment);
        Args.source(op, source, comm.size);
        Args.recvTag(op, tag);
        return bind(r, buf, offset, count, type, source, tag, comm.ctx);
    }

    /** Binds a receive to its buffer, source and context. */
    RecvReq bind(RecvReq r, Object buf, int offset, int count, Datatype type, int source, int tag, int context) {
        r.buf.set(buf, offset, count, type, engine);
        r.source = source == Comm.ANY_SOURCE ? Comm.ANY_SOURCE : comm.world(source);
        r.localOf = comm.localOf;
        r.policy = comm.hints.policy();
        r.tag = tag;
        r.ctx = context;
        return r;
    }

    @Override
    public void send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        SendReq s = prepareSend("send", blockingSend, buf, offset, count, type, dest, tag);
        s.start();
        s.waitFor();
    }

    @Override
    public void recv(Object buf, int offset, int count, Datatype type, int source, int tag, Status status) {
        RecvReq r = prepareRecv("recv", blockingRecv, buf, offset, count, type, source, tag);
        PointToPoint.receive(r, status);
    }

    @Override
    public Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        SendReq s = prepareSend("isend", new SendReq(engine, false), buf, offset, count, type, dest, tag);
        s.start();
        return s;
    }

    @Override
    public void ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        SendReq s = prepareSend("ssend", blockingSend, buf, offset, count, type, dest, tag, true);
        s.start();
        s.waitFor();
    }

    @Override
    public Request issend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        SendReq s = prepareSend("issend", new SendReq(engine, false), buf, offset, count, type, dest, tag, true);
        s.start();
        return s;
    }

    @Override
    public PersistentRequest ssendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        SendReq s = prepareSend("ssendInit", new SendReq(engine, true), buf, offset, count, type, dest, tag, true);
        engine.registerPersistent(s);
        return s;
    }

    @Override
    public Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        RecvReq r = prepareRecv("irecv", new RecvReq(engine, false), buf, offset, count, type, source, tag);
        r.start();
        return r;
    }

    @Override
    public Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag) {
        // check both sides before starting either, so a bad argument changes nothing
        Args.buffer("sendrecv (send side)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        Args.dest("sendrecv", dest, comm.size);
        Args.sendTag("sendrecv", sendTag);
        RecvReq r = prepareRecv("sendrecv (receive side)", blockingRecv, recvBuf, recvOffset, recvCount, recvType,
            source, recvTag);
        SendReq s = bind(blockingSend, sendBuf, sendOffset, sendCount, sendType, dest, sendTag, comm.ctx);
        return PointToPoint.exchange(r, s);
    }

    @Override
    public Status probe(int source, int tag) {
        Args.source("probe", source, comm.size);
        Args.recvTag("probe", tag);
        engine.checkAbort();
        if (source == Comm.PROC_NULL) {
            return procNull();
        }
        int want = source == Comm.ANY_SOURCE ? Comm.ANY_SOURCE : comm.world(source);
        engine.resetIdle();
        while (true) {
            int work = engine.progress();
            Unexpected u = engine.probe(comm.ctx, want, tag);
            if (u != null) {
                return statusOf(u);
            }
            engine.idleStep(work);
        }
    }

    @Override
    public Status iprobe(int source, int tag) {
        Args.source("iprobe", source, comm.size);
        Args.recvTag("iprobe", tag);
        engine.checkAbort();
        if (source == Comm.PROC_NULL) {
            return procNull();
        }
        engine.progress();
        Unexpected u = engine.probe(comm.ctx, source == Comm.ANY_SOURCE ? Comm.ANY_SOURCE : comm.world(source), tag);
        if (u == null) {
            engine.pollFailures();
            return null;
        }
        return statusOf(u);
    }

    private Status statusOf(Unexpected u) {
        Status st = new Status();
        st.fill(comm.localOf[u.source], u.tag, u.total, u.total, 1, 1);
        return st;
    }

    private static Status procNull() {
        Status st = new Status();
        st.fill(Comm.PROC_NULL, Comm.ANY_TAG, 0, 0, 1, 1);
        return st;
    }

    @Override
    public PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        SendReq s = prepareSend("sendInit", new SendReq(engine, true), buf, offset, count, type, dest, tag);
        engine.registerPersistent(s); // route and descriptors decided once, at init (S1)
        return s;
    }

    @Override
    public PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return prepareRecv("recvInit", new RecvReq(engine, true), buf, offset, count, type, source, tag);
    }
}
