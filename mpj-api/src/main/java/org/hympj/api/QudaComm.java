package org.hympj.api;

/**
 * A facade mirroring QUDA's communication layer (S2): messages are declared once
 * ({@code comm_declare_send/receive} ≈ Send_init/Recv_init), then started, waited for
 * ({@code comm_wait}) or queried ({@code comm_query}) every iteration. Over
 * {@code bin/mpjrun --p2p onesided} they run on the one-sided engine (address notify buffers
 * and a polling thread); otherwise on the two-sided one.
 */
public final class QudaComm {
    private final Comm comm;

    public QudaComm(Comm comm) {
        if (comm == null) {
            throw new IllegalArgumentException("comm must not be null");
        }
        this.comm = comm;
    }

    /** A declared message: start it, wait for it, query it. */
    public static final class MsgHandle {
        private final PersistentRequest request;

        private MsgHandle(PersistentRequest request) {
            this.request = request;
        }

        /** comm_start. */
        public void start() {
            request.start();
        }

        /** comm_wait: blocks until the message has completed. */
        public void waitFor() {
            request.waitFor();
        }

        /** comm_query: true once the message has completed (then it may be started again). */
        public boolean query() {
            return request.test();
        }

        /** The status of the last completed receive. */
        public Status status() {
            return request.status();
        }

        /** comm_free. */
        public void free() {
            request.free();
        }
    }

    /** comm_declare_send: {@code count} items of {@code type} from {@code buf} to {@code dest}. */
    public MsgHandle declareSend(Object buf, int offset, int count, Datatype type, int dest, int tag) {
        return new MsgHandle(comm.sendInit(buf, offset, count, type, dest, tag));
    }

    /** comm_declare_receive: into {@code buf} from {@code source}. */
    public MsgHandle declareReceive(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return new MsgHandle(comm.recvInit(buf, offset, count, type, source, tag));
    }

    /** Starts every handle (as QUDA starts a direction's sends and receives together). */
    public static void startAll(MsgHandle... handles) {
        PersistentRequest[] rs = new PersistentRequest[handles.length];
        for (int i = 0; i < handles.length; i++) {
            rs[i] = handles[i] == null ? null : handles[i].request;
        }
        Request.startAll(rs);
    }

    /** Waits for every handle. */
    public static void waitAll(MsgHandle... handles) {
        Request[] rs = new Request[handles.length];
        for (int i = 0; i < handles.length; i++) {
            rs[i] = handles[i] == null ? null : handles[i].request;
        }
        Request.waitAll(rs);
    }

    public Comm comm() {
        return comm;
    }
}
