package org.hympj.shm.pml;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.Status;

/**
 * Point-to-point on the one-sided engine ({@link OsEngine}, {@code --p2p onesided}): a receive
 * writes its address into one sender's Remote Address Buffer, so ANY_SOURCE, probe and iprobe
 * are refused (S2). Blocking calls reuse one send and one receive request of the communicator.
 */
final class OneSidedP2p implements PointToPoint {
    private final ShmComm comm;
    private final OsEngine os;
    private final OsRequest blockingSend;
    private final OsRequest blockingRecv;

    OneSidedP2p(ShmComm comm, OsEngine os) {
        this.comm = comm;
        this.os = os;
        this.blockingSend = os.newRequest(true, true);
        this.blockingRecv = os.newRequest(false, true);
    }

    private OsRequest bindSend(String op, OsRequest q, Object buf, int offset, int count, Datatype type, int dest,
                               int tag) {
        Args.buffer(op, buf, offset, count, type, comm.segment);
        Args.dest(op, dest, comm.size);
        Args.sendTag(op, tag);
        q.buf.set(buf, offset, count, type, comm.engine);
        q.peer = comm.world(dest);
        q.tag = tag;
        q.ctx = comm.ctx;
        q.localOf = comm.localOf;
        return q;
    }

    private OsRequest bindRecv(String op, OsRequest q, Object buf, int offset, int count, Datatype type, int source,
                               int tag) {
        Args.buffer(op, buf, offset, count, type, comm.segment);
        Args.source(op, source, comm.size);
        Args.recvTag(op, tag);
        if (source == Comm.ANY_SOURCE) {
            throw new UnsupportedOperationException(op + ": ANY_SOURCE is not supported by --p2p onesided: a receive "
                + "writes its address into one sender's Remote Address Buffer (S2); name the source");
        }
        q.buf.set(buf, offset, count, type, comm.engine);
        q.peer = comm.world(source);
        q.tag = tag;
        q.ctx = comm.ctx;
        q.localOf = comm.localOf;
        return q;
    }

    private static UnsupportedOperationException noProbe(String op) {
        return new UnsupportedOperationException(op + " is not supported by --p2p onesided: nothing arrives "
            + "before the receive has posted its address (S2)");
    }

    @Override
    public void send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        OsRequest q = bindSend("send", blockingSend, buf, offset, count, type, dest, tag);
        q.start();
        q.waitFor();
    }

    @Override
    public void recv(Object buf, int offset, int count, Datatype type, int source, int tag, Status status) {
        OsRequest q = bindRecv("recv", blockingRecv, buf, offset, count, type, source, tag);
        PointToPoint.receive(q, status);
    }

    @Override
    public Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        OsRequest q = bindSend("isend", os.newRequest(true, false), buf, offset, count, type, dest, tag);
        q.start();
        return q;
    }

    // Synchronous mode is what the one-sided engine does anyway: a send puts its data only into the
    // address its matching receive announced, so it cannot complete before that receive started.

    @Override
    public void ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        OsRequest q = bindSend("ssend", blockingSend, buf, offset, count, type, dest, tag);
        q.start();
        q.waitFor();
    }

    @Override
    public Request issend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        OsRequest q = bindSend("issend", os.newRequest(true, false), buf, offset, count, type, dest, tag);
        q.start();
        return q;
    }

    @Override
    public PersistentRequest ssendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return bindSend("ssendInit", os.newRequest(true, true), buf, offset, count, type, dest, tag);
    }

    @Override
    public Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag) {
        OsRequest q = bindRecv("irecv", os.newRequest(false, false), buf, offset, count, type, source, tag);
        q.start();
        return q;
    }

    @Override
    public Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag) {
        // check both sides before starting either, so a bad argument changes nothing
        Args.buffer("sendrecv (send side)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        Args.dest("sendrecv", dest, comm.size);
        Args.sendTag("sendrecv", sendTag);
        OsRequest r = bindRecv("sendrecv (receive side)", blockingRecv, recvBuf, recvOffset, recvCount, recvType,
            source, recvTag);
        OsRequest q = bindSend("sendrecv", blockingSend, sendBuf, sendOffset, sendCount, sendType, dest, sendTag);
        return PointToPoint.exchange(r, q);
    }

    @Override
    public Status probe(int source, int tag) {
        Args.source("probe", source, comm.size);
        Args.recvTag("probe", tag);
        throw noProbe("probe");
    }

    @Override
    public Status iprobe(int source, int tag) {
        Args.source("iprobe", source, comm.size);
        Args.recvTag("iprobe", tag);
        throw noProbe("iprobe");
    }

    @Override
    public PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return bindSend("sendInit", os.newRequest(true, true), buf, offset, count, type, dest, tag);
    }

    @Override
    public PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return bindRecv("recvInit", os.newRequest(false, true), buf, offset, count, type, source, tag);
    }
}
