package org.hympj.shm.pml;

import org.hympj.api.Datatype;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.Status;

/**
 * The point-to-point operations of one communicator, over one engine: the two-sided engine
 * ({@link TwoSided}, the default) or the one-sided isend/irecv of S2 ({@link OneSidedP2p},
 * {@code --p2p onesided}). Ranks are the communicator's; arguments are checked here, before
 * anything changes. A communicator holds one, made by the job's {@link Factory}.
 */
interface PointToPoint {
    /** Makes the point-to-point of a communicator (the world one and every one derived from it). */
    @FunctionalInterface
    interface Factory {
        PointToPoint of(ShmComm comm);
    }

    void send(Object buf, int offset, int count, Datatype type, int dest, int tag);

    void recv(Object buf, int offset, int count, Datatype type, int source, int tag, Status status);

    Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag);

    /** Synchronous mode: a send completes only once its matching receive has started. */
    void ssend(Object buf, int offset, int count, Datatype type, int dest, int tag);

    Request issend(Object buf, int offset, int count, Datatype type, int dest, int tag);

    PersistentRequest ssendInit(Object buf, int offset, int count, Datatype type, int dest, int tag);

    Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag);

    Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                    Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag);

    /** Blocks until a message from (source, tag) can be received; its status. */
    Status probe(int source, int tag);

    /** The status of a message from (source, tag) that can be received now, or null. */
    Status iprobe(int source, int tag);

    PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag);

    PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag);

    // The blocking patterns both engines share, over their own requests.

    /** Starts a receive and waits for it; its status goes to {@code status} (null: ignored), also on failure. */
    static void receive(PersistentRequest r, Status status) {
        r.start();
        try {
            r.waitFor();
        } finally {
            if (status != null) {
                status.set(r.status());
            }
        }
    }

    /** Starts a receive, then a send, waits for both (the receive even when the send fails); the receive's status. */
    static Status exchange(PersistentRequest r, PersistentRequest s) {
        r.start();
        s.start();
        try {
            s.waitFor();
        } finally {
            r.waitFor();
        }
        return r.status().copy();
    }
}
