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
    /** As the send buffer of {@link #reduce}/{@link #allreduce}: take the input from the receive buffer. */
    Object IN_PLACE = new Object() {
        @Override
        public String toString() {
            return "IN_PLACE";
        }
    };

    /** Barrier algorithms (S4 compares them). */
    enum BarrierAlgorithm {
        /** ceil(log2 p) rounds, each rank sends to rank+2^k (the default). */
        DISSEMINATION,
        /** log2 p exchange rounds; for p = 2^n + r the r extra ranks fold into the lower 2^n first. */
        RECURSIVE_DOUBLING,
        /** A token around the ring twice: p-1 steps to gather, p-1 to release. */
        RING,
        /**
         * Through shared memory in one wave, as Open MPI's coll/sm: every rank stamps its own
         * slot and waits until every slot carries the stamp (no message, no round to wait
         * for). For the world communicator of a native job (the job's default there);
         * elsewhere it runs {@link #DISSEMINATION}.
         */
        SHARED_MEMORY
    }

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

    /**
     * Synchronous send (MPI_Ssend): returns once the matching receive has started and the
     * buffer may be reused — never before the receiver has posted it, whatever the size.
     */
    void ssend(Object buf, int offset, int count, Datatype type, int dest, int tag);

    /** Non-blocking synchronous send (MPI_Issend): completes once the matching receive has started. */
    Request issend(Object buf, int offset, int count, Datatype type, int dest, int tag);

    /** Persistent synchronous send (MPI_Ssend_init): each start completes once its receive has started. */
    PersistentRequest ssendInit(Object buf, int offset, int count, Datatype type, int dest, int tag);

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

    /** Blocks until every rank of the communicator has entered the barrier (the job's default algorithm). */
    void barrier();

    /** A barrier with the given algorithm. */
    void barrier(BarrierAlgorithm algorithm);

    /** Broadcast from {@code root} (binomial tree). Any datatype. */
    void bcast(Object buf, int offset, int count, Datatype type, int root);

    /**
     * Element-wise reduction of {@code count} elements of a predefined type onto {@code root}.
     * Buffers are arrays; {@code sendBuf} may be {@link #IN_PLACE} at the root. The order of
     * combination depends on the ranks only, so results are reproducible bit for bit.
     */
    void reduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                int root);

    /**
     * Reduction whose result every rank gets, the same bits on every rank (recursive
     * doubling; non-powers of two fold the extra ranks in first). {@code sendBuf} may be
     * {@link #IN_PLACE}.
     */
    void allreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op);

    /** Gathers {@code sendCount} items from every rank into rank order at {@code root}. */
    void gather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** Gather whose result every rank gets. */
    void allgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                   Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /** Sends block i of {@code root}'s buffer to rank i. */
    void scatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                 Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** Every rank sends block j of its buffer to rank j and receives block i from rank i. */
    void alltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /**
     * Gathers {@code sendCount} items from every rank; rank i's items land at
     * {@code recvOffset + displs[i] * recvType.extent()} of {@code root}'s buffer
     * ({@code recvCounts[i]} items). {@code recvCounts} and {@code displs} matter at the root only.
     */
    void gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                 Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root);

    /** Sends {@code sendCounts[i]} items at {@code displs[i]} (in items) of {@code root}'s buffer to rank i. */
    void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** {@link #gatherv} whose result every rank gets (a ring). */
    void allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                    Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType);

    /** Every rank sends {@code sendCounts[j]} items at {@code sdispls[j]} to rank j (displacements in items). */
    void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                   Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType);

    /**
     * Inclusive prefix reduction: rank i gets {@code x_0 op … op x_i}, combined in rank order
     * (so non-commutative operations are right). {@code sendBuf} may be {@link #IN_PLACE}.
     */
    void scan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op);

    /** Exclusive prefix reduction: rank i gets {@code x_0 op … op x_(i-1)}; rank 0's buffer is left as it was. */
    void exscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op);

    /**
     * Reduces {@code sum(recvCounts)} items element-wise and leaves block i (of
     * {@code recvCounts[i]} items, blocks in rank order) on rank i.
     */
    void reduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                       Datatype type, Op op);

    /** {@link #reduceScatter} with {@code recvCount} items for every rank. */
    void reduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount,
                            Datatype type, Op op);

    // ---- non-blocking collectives (MPI-3): the request completes once this rank's part is done

    /*
     * Each returns at once with an active request; the collective moves on whenever this rank
     * makes progress (any wait, test or other call of the library), round by round, and the
     * request completes when this rank's part is done. Buffers must not be touched until then.
     * Every rank calls the collectives of a communicator, blocking and non-blocking, in the same
     * order; several may be outstanding at once. Arguments are checked at the call as for the
     * blocking collective (IllegalArgumentException, nothing changed). Results are those of the
     * blocking collectives (reductions: the same combination order).
     */

    /** MPI_Ibarrier: completes once every rank has entered it. */
    Request ibarrier();

    /** MPI_Ibcast (binomial tree). */
    Request ibcast(Object buf, int offset, int count, Datatype type, int root);

    /** MPI_Ireduce ({@link #reduce}'s order; {@code sendBuf} may be {@link #IN_PLACE} at the root). */
    Request ireduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op,
                    int root);

    /** MPI_Iallreduce ({@code sendBuf} may be {@link #IN_PLACE}). */
    Request iallreduce(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type,
                       Op op);

    /** MPI_Igather. */
    Request igather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                    Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** MPI_Iscatter. */
    Request iscatter(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                     Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** MPI_Iallgather. */
    Request iallgather(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                       Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /** MPI_Ialltoall. */
    Request ialltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                      Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /** MPI_Igatherv (see {@link #gatherv}; counts and displacements are read at the call). */
    Request igatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                     Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root);

    /** MPI_Iscatterv (see {@link #scatterv}). */
    Request iscatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                      Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** MPI_Iallgatherv (see {@link #allgatherv}). */
    Request iallgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                        Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType);

    /** MPI_Ialltoallv (see {@link #alltoallv}). */
    Request ialltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                       Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType);

    /** MPI_Iscan (see {@link #scan}: the same chain in rank order; {@code sendBuf} may be {@link #IN_PLACE}). */
    Request iscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op);

    /** MPI_Iexscan (see {@link #exscan}: rank 0's receive buffer is left as it was). */
    Request iexscan(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count, Datatype type, Op op);

    /**
     * MPI_Ireduce_scatter (see {@link #reduceScatter}: reduced onto rank 0 as {@link #ireduce} does,
     * then each block sent to its rank; counts are read at the call).
     */
    Request ireduceScatter(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int[] recvCounts,
                           Datatype type, Op op);

    /** MPI_Ireduce_scatter_block: {@link #ireduceScatter} with {@code recvCount} items for every rank. */
    Request ireduceScatterBlock(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int recvCount,
                                Datatype type, Op op);

    // ---- persistent collectives (MPI-4)

    /*
     * Made once (a collective call: every rank makes it, in the same order as its other
     * collectives), started many times with start() or Request.startAll, each start completed by
     * a wait or test like a non-blocking collective. Peers, schedule, tags and internal requests
     * are resolved at init: a start allocates nothing, and takes the data the buffers hold then.
     * Every rank starts its persistent collectives of a communicator in the same order.
     */

    /** MPI_Barrier_init. */
    PersistentRequest barrierInit();

    /** MPI_Bcast_init. */
    PersistentRequest bcastInit(Object buf, int offset, int count, Datatype type, int root);

    /** MPI_Reduce_init. */
    PersistentRequest reduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                 Datatype type, Op op, int root);

    /** MPI_Allreduce_init. */
    PersistentRequest allreduceInit(Object sendBuf, int sendOffset, Object recvBuf, int recvOffset, int count,
                                    Datatype type, Op op);

    /** MPI_Gather_init. */
    PersistentRequest gatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                 Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** MPI_Scatter_init. */
    PersistentRequest scatterInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root);

    /** MPI_Allgather_init. */
    PersistentRequest allgatherInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                    Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /** MPI_Alltoall_init. */
    PersistentRequest alltoallInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                   Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /** A communicator with the same ranks and a separate matching space (collective). */
    Comm dup();

    /**
     * Hint key: the RSched policy of the persistent sets started on the communicator — {@code none},
     * {@code rndv} or an RSched policy ({@code rr:1|2|4}, {@code bl:1|2|4}, {@code bl+}, {@code bl+oh}),
     * as {@code --sched} sets it job-wide (which is the default). Under a timing model only.
     */
    String HINT_SCHED = "hympj.sched";

    /**
     * Hint key: the route of the communicator's messages — {@code auto}, {@code hybrid},
     * {@code tca}, {@code ib} or {@code tca+ib}, as {@code --route} sets it job-wide (the default).
     * Needs emulated fabrics (a model, or {@code --route} at launch).
     */
    String HINT_ROUTE = "hympj.route";

    /**
     * MPI_Comm_dup_with_info: a duplicate (collective) whose hints are this communicator's with
     * {@code hints} applied ({@link #HINT_SCHED}, {@link #HINT_ROUTE}). Every rank must pass the
     * same hints. A request takes its communicator's hints when it is bound to its message (at the
     * call, at init for a persistent one): a sweep over policies is one communicator per policy,
     * in one job. Communicators made from this one (dup, split, createCart …) inherit its hints.
     *
     * @throws IllegalArgumentException for a null map, an unknown key, a value the key does not
     *         take (naming the key and the values it takes), a route on a job without emulated
     *         fabrics — nothing is changed — or hints that differ between the ranks (found by the
     *         collective; every rank throws)
     */
    Comm dup(java.util.Map<String, String> hints);

    /**
     * MPI_Comm_get_info for one key: the value in force on this communicator — its own hint, or
     * the job's setting ({@code --sched}, {@code --route}).
     *
     * @throws IllegalArgumentException for a key other than {@link #HINT_SCHED} and {@link #HINT_ROUTE}
     */
    String hint(String key);

    /**
     * Splits into communicators of the ranks with the same color, ordered by key then rank
     * (collective); null for ranks whose color is {@link #UNDEFINED}.
     */
    Comm split(int color, int key);

    /**
     * A Cartesian communicator over the first prod(dims) ranks (collective); null for the
     * others. With {@code reorder} false ranks keep their numbers.
     */
    CartComm createCart(int[] dims, boolean[] periods, boolean reorder);

    /**
     * MPI_Graph_create: a communicator over the first {@code index.length} ranks whose node i
     * has the neighbours {@code edges[index[i-1] .. index[i]-1]} (collective: every rank passes
     * the same graph); null for the ranks beyond the graph. {@code reorder} is allowed and not
     * used: ranks keep their numbers (on one machine every placement is equal).
     *
     * @throws IllegalArgumentException for an index that decreases or starts below 0, edges of
     *         the wrong length or naming a node out of range, or more nodes than ranks; nothing
     *         is changed
     */
    GraphComm createGraph(int[] index, int[] edges, boolean reorder);

    /**
     * MPI_Intercomm_create: an intercommunicator between this communicator's group (the local
     * one) and a disjoint remote group (collective over both groups). The leaders — rank
     * {@code localLeader} here, rank {@code remoteLeader} of {@code peerComm} there — agree
     * through {@code peerComm} with {@code tag}; {@code peerComm} and {@code remoteLeader} matter
     * at the local leader only (others may pass null and anything).
     *
     * @throws IllegalArgumentException for a leader out of range, a negative tag, a missing
     *         peer communicator at the leader, or groups that overlap
     */
    InterComm createIntercomm(int localLeader, Comm peerComm, int remoteLeader, int tag);

    /** Allocates {@code n} doubles in this rank's shared segment (zeroed). */
    SegmentBuffer allocDoubles(int n);

    /** Allocates {@code n} elements of {@code type} in this rank's shared segment (zeroed). */
    SegmentBuffer alloc(Primitive type, int n);

    /**
     * Seconds since an arbitrary origin, the same clock for every rank of the machine; under a
     * timing model ({@code --model}), the emulated machine's clock (wall time divided by the
     * time dilation).
     */
    double wtime();

    /**
     * Modelled computation of {@code seconds} (S4's {@code Comp(t)}), for codes whose kernels run
     * on a modelled device (a GPU). Under a timing model on virtual time it advances this rank's
     * clock; on the wall clock it waits {@code seconds} × the time dilation; natively it waits
     * {@code seconds}. The rank's own CPU time between library calls is counted separately
     * ({@code --compute-scale}).
     *
     * @throws IllegalArgumentException for a negative or non-finite time
     */
    void compute(double seconds);

    // ---- conveniences: offset 0 ----

    default void send(Object buf, int count, Datatype type, int dest, int tag) {
        send(buf, 0, count, type, dest, tag);
    }

    default Status recv(Object buf, int count, Datatype type, int source, int tag) {
        return recv(buf, 0, count, type, source, tag);
    }
}
