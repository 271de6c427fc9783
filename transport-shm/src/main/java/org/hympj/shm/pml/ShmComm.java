package org.hympj.shm.pml;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Status;

/**
 * A communicator over the shared-memory engine. Point-to-point traffic uses context
 * {@code ctx}, the communicator's own collectives {@code ctx + 1}, so the two never match
 * each other. Blocking calls reuse internal requests: they allocate nothing.
 */
public final class ShmComm implements Comm {
    private static final byte[] EMPTY = new byte[0];

    private final Engine engine;
    private final SegmentAllocator segment;
    private final int ctx;
    private final int collCtx;
    private final int rank;
    private final int size;
    private final SendReq blockingSend;
    private final RecvReq blockingRecv;
    private final SendReq collSend;
    private final RecvReq collRecv;

    public ShmComm(Engine engine, SegmentAllocator segment, int ctx) {
        this.engine = engine;
        this.segment = segment;
        this.ctx = ctx;
        this.collCtx = ctx + 1;
        this.rank = engine.rank();
        this.size = engine.size();
        this.blockingSend = new SendReq(engine, true);
        this.blockingRecv = new RecvReq(engine, true);
        this.collSend = new SendReq(engine, true);
        this.collRecv = new RecvReq(engine, true);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    private SendReq prepareSend(String op, SendReq s, Object buf, int offset, int count, Datatype type, int dest,
                                int tag) {
        Args.buffer(op, buf, offset, count, type, segment);
        Args.dest(op, dest, size);
        Args.sendTag(op, tag);
        s.buf.set(buf, offset, count, type, engine);
        s.dest = dest;
        s.tag = tag;
        s.ctx = ctx;
        return s;
    }

    private RecvReq prepareRecv(String op, RecvReq r, Object buf, int offset, int count, Datatype type, int source,
                                int tag) {
        Args.buffer(op, buf, offset, count, type, segment);
        Args.source(op, source, size);
        Args.recvTag(op, tag);
        r.buf.set(buf, offset, count, type, engine);
        r.source = source;
        r.tag = tag;
        r.ctx = ctx;
        return r;
    }

    @Override
    public void send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        engine.checkAbort();
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
        SendReq s = prepareSend("isend", new SendReq(engine, false), buf, offset, count, type, dest, tag);
        s.start();
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
        engine.checkAbort();
        // check both sides before starting either, so a bad argument changes nothing
        Args.buffer("sendrecv (send side)", sendBuf, sendOffset, sendCount, sendType, segment);
        Args.dest("sendrecv", dest, size);
        Args.sendTag("sendrecv", sendTag);
        RecvReq r = prepareRecv("sendrecv (receive side)", blockingRecv, recvBuf, recvOffset, recvCount, recvType,
            source, recvTag);
        SendReq s = prepareSend("sendrecv", blockingSend, sendBuf, sendOffset, sendCount, sendType, dest, sendTag);
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
        engine.checkAbort();
        Status st = new Status();
        if (source == PROC_NULL) {
            st.fill(PROC_NULL, ANY_TAG, 0, 0, 1, 1);
            return st;
        }
        engine.resetIdle();
        while (true) {
            int work = engine.progress();
            Unexpected u = engine.probe(ctx, source, tag);
            if (u != null) {
                st.fill(u.source, u.tag, u.total, u.total, 1, 1);
                return st;
            }
            engine.idleStep(work);
        }
    }

    @Override
    public Status iprobe(int source, int tag) {
        Args.source("iprobe", source, size);
        Args.recvTag("iprobe", tag);
        engine.checkAbort();
        if (source == PROC_NULL) {
            Status st = new Status();
            st.fill(PROC_NULL, ANY_TAG, 0, 0, 1, 1);
            return st;
        }
        engine.progress();
        Unexpected u = engine.probe(ctx, source, tag);
        if (u == null) {
            engine.pollFailures();
            return null;
        }
        Status st = new Status();
        st.fill(u.source, u.tag, u.total, u.total, 1, 1);
        return st;
    }

    @Override
    public PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return prepareSend("sendInit", new SendReq(engine, true), buf, offset, count, type, dest, tag);
    }

    @Override
    public PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return prepareRecv("recvInit", new RecvReq(engine, true), buf, offset, count, type, source, tag);
    }

    /** Dissemination barrier: ceil(log2 p) rounds of zero-byte messages on the collective context. */
    @Override
    public void barrier() {
        engine.checkAbort();
        int round = 0;
        for (int k = 1; k < size; k <<= 1, round++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            collRecv.buf.set(EMPTY, 0, 0, Datatype.BYTE, engine);
            collRecv.source = from;
            collRecv.tag = round;
            collRecv.ctx = collCtx;
            collSend.buf.set(EMPTY, 0, 0, Datatype.BYTE, engine);
            collSend.dest = to;
            collSend.tag = round;
            collSend.ctx = collCtx;
            collRecv.start();
            collSend.start();
            collSend.waitFor();
            collRecv.waitFor();
        }
    }

    @Override
    public SegmentBuffer allocDoubles(int n) {
        return segment.alloc(Primitive.DOUBLE, n);
    }

    @Override
    public SegmentBuffer alloc(Primitive type, int n) {
        return segment.alloc(type, n);
    }

    @Override
    public double wtime() {
        return System.nanoTime() * 1e-9;
    }

    @Override
    public String toString() {
        return "Comm[rank " + rank + " of " + size + "]";
    }
}
