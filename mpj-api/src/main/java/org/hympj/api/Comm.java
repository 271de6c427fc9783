package org.hympj.api;

/**
 * A communicator: a group of ranks and a private matching space. Buffers are Java arrays
 * of the datatype's primitive ({@code double[]} for {@link Datatype#DOUBLE} …) or
 * {@link SegmentBuffer}s of it; {@code offset} and {@code count} are in elements and items.
 * Messages between one pair of ranks with the same tag are received in the order sent.
 *
 * <p>Every argument is checked at the call: a bad one throws {@link IllegalArgumentException}
 * naming it, and nothing is sent, posted or changed. One thread per rank calls a
 * communicator (MPI_THREAD_FUNNELED).
 */
public interface Comm {
    /** Receive from any rank. */
    int ANY_SOURCE = -1;
    /** Receive any tag. */
    int ANY_TAG = -1;
    /** A rank that does not exist: sends and receives with it complete at once. */
    int PROC_NULL = -2;
    /** An undefined count or index (as MPI_UNDEFINED). */
    int UNDEFINED = -32766;
    /** The largest tag an application may use. */
    int TAG_UB = Integer.MAX_VALUE;

    /** This rank's number, 0 … size-1. */
    int rank();

    /** Number of ranks. */
    int size();

    /** Blocking send; returns when the buffer may be reused. */
    void send(Object buf, int offset, int count, Datatype type, int dest, int tag);

    /** Blocking receive; returns its status (a new object). */
    Status recv(Object buf, int offset, int count, Datatype type, int source, int tag);

    /**
     * Blocking receive that fills {@code status} (may be null to ignore it): allocates nothing.
     */
    void recv(Object buf, int offset, int count, Datatype type, int source, int tag, Status status);

    /** Non-blocking send. */
    Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag);

    /** Non-blocking receive. */
    Request irecv(Object buf, int offset, int count, Datatype type, int source, int tag);

    /** Send and receive at once (deadlock-free exchange); returns the receive's status. */
    Status sendrecv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType, int dest, int sendTag,
                    Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int source, int recvTag);

    /** Blocks until a matching message can be received; returns its status, receives nothing. */
    Status probe(int source, int tag);

    /** The status of a matching message if one is there now, else null. */
    Status iprobe(int source, int tag);

    /** A persistent send (MPI_Send_init). */
    PersistentRequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag);

    /** A persistent receive (MPI_Recv_init). */
    PersistentRequest recvInit(Object buf, int offset, int count, Datatype type, int source, int tag);

    /** Blocks until every rank of the communicator has entered the barrier. */
    void barrier();

    /** Allocates {@code n} doubles in this rank's shared segment (zeroed). */
    SegmentBuffer allocDoubles(int n);

    /** Allocates {@code n} elements of {@code type} in this rank's shared segment (zeroed). */
    SegmentBuffer alloc(Primitive type, int n);

    /** Seconds since an arbitrary origin, the same clock for every rank of the machine. */
    double wtime();

    // ---- conveniences: offset 0 ----

    default void send(Object buf, int count, Datatype type, int dest, int tag) {
        send(buf, 0, count, type, dest, tag);
    }

    default Status recv(Object buf, int count, Datatype type, int source, int tag) {
        return recv(buf, 0, count, type, source, tag);
    }
}
