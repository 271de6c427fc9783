package mpi;

/**
 * A communicator (mpiJava 1.2): point-to-point, probes, packing and the communicator queries.
 * Each call maps onto {@link org.hympj.api.Comm}; buffers are {@code (Object buf, int offset,
 * int count, Datatype, peer, tag)} with a primitive array, a {@code boolean[]} with
 * {@link MPI#BOOLEAN} or an {@code Object[]} with {@link MPI#OBJECT}. Errors are
 * {@link MPIException}s naming the call; the communicator stays usable after one.
 */
public class Comm {
    final org.hympj.api.Comm core;
    /** The members, as world ranks, in this communicator's rank order. */
    final Group group;
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    /** Filled by blocking receives of the core, then copied into the Status returned (one thread per rank). */
    private final org.hympj.api.Status received = new org.hympj.api.Status();

    Comm(org.hympj.api.Comm core, int[] worldRanks) {
        this.core = core;
        this.group = new Group(worldRanks);
    }

    /** The world ranks of the members of a new core communicator, in its rank order (collective over it). */
    static int[] worldRanksOf(org.hympj.api.Comm c) {
        int[] all = new int[c.size()];
        c.allgather(new int[] {MPI.worldRank()}, 0, 1, org.hympj.api.Datatype.INT, all, 0, 1,
            org.hympj.api.Datatype.INT);
        return all;
    }

    /**
     * HyMPJ extension (not mpiJava): the core API's communicator this one stands for, for a
     * program that moves from the mpiJava API to {@code org.hympj.api} one part at a time, or
     * that wants a core-only feature (segment buffers, {@code compute}, route statistics). Both
     * may be used on the same communicator: they share its matching space and its order.
     */
    public org.hympj.api.Comm core() {
        return core;
    }

    // ---------------------------------------------------------------- queries

    public int Rank() {
        return core.rank();
    }

    public int Size() {
        return core.size();
    }

    /** The group of this communicator. */
    public Group Group() {
        return new Group(group.members.clone());
    }

    /**
     * {@link MPI#IDENT} (the same communicator), {@link MPI#CONGRUENT} (same members in the same
     * order, another context), {@link MPI#SIMILAR} (same members) or {@link MPI#UNEQUAL}.
     */
    public static int Compare(Comm comm1, Comm comm2) {
        if (comm1 == null || comm2 == null) {
            throw new MPIException("Compare: communicators must not be null");
        }
        if (comm1.core == comm2.core) {
            return MPI.IDENT;
        }
        int g = Group.Compare(comm1.group, comm2.group);
        return g == MPI.IDENT ? MPI.CONGRUENT : g;
    }

    /** False: a communicator object stands for a communicator (mpiJava returns null for COMM_NULL). */
    public boolean Is_null() {
        return false;
    }

    /**
     * The predefined attributes: {@link MPI#TAG_UB} the largest tag, {@link MPI#HOST}
     * {@link MPI#PROC_NULL} (no host process), {@link MPI#IO} {@link MPI#ANY_SOURCE} (every rank
     * may do I/O), {@link MPI#WTIME_IS_GLOBAL} 1 (one clock for every rank of the machine).
     */
    public Integer Attr_get(int keyval) {
        switch (keyval) {
            case MPI.TAG_UB:
                return org.hympj.api.Comm.TAG_UB;
            case MPI.HOST:
                return MPI.PROC_NULL;
            case MPI.IO:
                return MPI.ANY_SOURCE;
            case MPI.WTIME_IS_GLOBAL:
                return 1;
            default:
                throw MPIException.notSupported("Attr_get of key " + keyval, "only the predefined keys TAG_UB, HOST,"
                    + " IO and WTIME_IS_GLOBAL exist (no Keyval_create)");
        }
    }

    /**
     * MPJ Express has it (mpiJava 1.2 does not): the predefined attributes are the only ones and
     * MPI forbids deleting them, so this is an error naming the key, and nothing changes.
     */
    public void Attr_delete(int keyval) {
        Attr_get(keyval); // an unknown key is refused as Attr_get refuses it
        throw new MPIException("Attr_delete: key " + keyval + " is a predefined attribute, which MPI does not let a"
            + " program delete");
    }

    /**
     * A duplicate of this communicator: the same members and topology, a separate matching space
     * (collective; {@code Dup}). On {@code Comm} as in MPJ Express, so {@code (Comm) c.clone()}
     * compiles for any communicator.
     */
    @Override
    public Object clone() {
        try {
            return new Comm(core.dup(), group.members.clone());
        } catch (RuntimeException e) {
            throw MPIException.of("clone", e);
        }
    }

    /**
     * An intercommunicator from {@code local_comm}'s group and a disjoint remote group, whose
     * leaders (rank {@code local_leader} of {@code local_comm}, rank {@code remote_leader} of this
     * communicator, the peer) agree through this communicator with {@code tag}. Collective over
     * both groups. On {@code Comm} as in MPJ Express (mpiJava 1.2 has it on {@code Intracomm}).
     */
    public Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag) {
        try {
            if (local_comm == null) {
                throw new MPIException("Create_intercomm: local_comm must not be null");
            }
            if (local_comm instanceof Intercomm) {
                throw new MPIException("Create_intercomm: local_comm must be an intracommunicator, was an "
                    + "Intercomm");
            }
            org.hympj.api.InterComm ic = local_comm.core.createIntercomm(local_leader, core, remote_leader, tag);
            // the remote group's world ranks: each group gathers the other's (an intercommunicator allgather)
            int[] remote = new int[ic.remoteSize()];
            ic.allgather(new int[] {MPI.worldRank()}, 0, 1, org.hympj.api.Datatype.INT, remote, 0, 1,
                org.hympj.api.Datatype.INT);
            return new Intercomm(ic, local_comm.group.members.clone(), remote);
        } catch (RuntimeException e) {
            throw MPIException.of("Create_intercomm", e);
        }
    }

    /** False: an intracommunicator ({@link Intercomm} says true). */
    public boolean Test_inter() {
        return false;
    }

    /** {@link MPI#CART}, {@link MPI#GRAPH} or {@link MPI#UNDEFINED}. */
    public int Topo_test() {
        return MPI.UNDEFINED;
    }

    /** Releases nothing: a communicator's resources are the engine's; it is garbage collected. */
    public void Free() {
    }

    public void Errhandler_set(Errhandler errhandler) {
        if (errhandler == null) {
            throw new MPIException("Errhandler_set: errhandler must not be null");
        }
        this.errhandler = errhandler;
    }

    public Errhandler Errhandler_get() {
        return errhandler;
    }

    /** Ends every rank of the job: see {@link MPI#Abort(int)}. */
    public void Abort(int errorcode) {
        MPI.Abort(errorcode);
    }

    // ---------------------------------------------------------------- blocking point-to-point

    public void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            if (datatype != null && datatype.kind == Datatype.Kind.CORE) {
                core.send(buf, offset, count, datatype.core, dest, tag); // the common case, kept small
                return;
            }
            send("Send", buf, offset, count, datatype, dest, tag, false);
        } catch (RuntimeException e) {
            throw MPIException.of("Send", e);
        }
    }

    private void send(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag,
                      boolean sync) {
        if (irregular(datatype)) {
            coreSend(sync, datatype.blocks.pack(call, buf, offset, count, datatype), 0, packedCount(datatype, count),
                packedType(datatype), dest, tag);
            return;
        }
        switch (kind(call, datatype)) {
            case CORE:
                coreSend(sync, buf, offset, count, datatype.core, dest, tag);
                break;
            case BOOLEAN:
                coreSend(sync, Buffers.toBytes(Buffers.booleans(call, buf)), offset, count, datatype.core, dest, tag);
                break;
            default: {
                byte[] data = objectMessage(call, buf, offset, count, datatype);
                coreSend(sync, data, 0, data.length, org.hympj.api.Datatype.BYTE, dest, tag);
            }
        }
    }

    /** Standard-mode send: ready mode needs no more (a correct program's receive is already posted). */
    public void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            send("Rsend", buf, offset, count, datatype, dest, tag, false);
        } catch (RuntimeException e) {
            throw MPIException.of("Rsend", e);
        }
    }

    /** Synchronous send: returns once the matching receive has started (the core's ssend: always a rendezvous). */
    public void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            send("Ssend", buf, offset, count, datatype, dest, tag, true);
        } catch (RuntimeException e) {
            throw MPIException.of("Ssend", e);
        }
    }

    private void coreSend(boolean sync, Object buf, int offset, int count, org.hympj.api.Datatype type, int dest,
                          int tag) {
        if (ObjectRecv.anyPosted()) {
            // a blocking send must not keep this rank's posted object receives from matching (their
            // sender may wait for them while we wait for its receive): wait by polling them too
            Request.waitFor(new CorePending(coreIsend(sync, buf, offset, count, type, dest, tag), null), new Status());
            return;
        }
        if (sync) {
            core.ssend(buf, offset, count, type, dest, tag);
        } else {
            core.send(buf, offset, count, type, dest, tag);
        }
    }

    private org.hympj.api.Request coreIsend(boolean sync, Object buf, int offset, int count,
                                            org.hympj.api.Datatype type, int dest, int tag) {
        return sync ? core.issend(buf, offset, count, type, dest, tag) : core.isend(buf, offset, count, type, dest, tag);
    }

    private org.hympj.api.PersistentRequest coreSendInit(boolean sync, Object buf, int offset, int count,
                                                         org.hympj.api.Datatype type, int dest, int tag) {
        return sync ? core.ssendInit(buf, offset, count, type, dest, tag)
            : core.sendInit(buf, offset, count, type, dest, tag);
    }

    /** Buffered send: copies the data into the attached buffer's space and returns (MPI.Buffer_attach). */
    public void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            bsend("Bsend", buf, offset, count, datatype, dest, tag);
        } catch (RuntimeException e) {
            throw MPIException.of("Bsend", e);
        }
    }

    void bsend(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        if (irregular(datatype)) {
            MPI.bsendBuffer().send(call, core, datatype.blocks.pack(call, buf, offset, count, datatype), 0,
                packedCount(datatype, count), packedType(datatype), dest, tag);
            return;
        }
        switch (kind(call, datatype)) {
            case CORE:
                MPI.bsendBuffer().send(call, core, buf, offset, count, datatype.core, dest, tag);
                break;
            case BOOLEAN:
                MPI.bsendBuffer().send(call, core, Buffers.toBytes(Buffers.booleans(call, buf)), offset, count,
                    datatype.core, dest, tag);
                break;
            default: {
                byte[] data = objectMessage(call, buf, offset, count, datatype);
                MPI.bsendBuffer().send(call, core, data, 0, data.length, org.hympj.api.Datatype.BYTE, dest, tag);
            }
        }
    }

    public Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        try {
            if (ObjectRecv.anyPosted()) {
                return Irecv(buf, offset, count, datatype, source, tag).Wait(); // polls the posted object receives too
            }
            if (datatype != null && datatype.kind == Datatype.Kind.CORE) {
                core.recv(buf, offset, count, datatype.core, source, tag, received); // the common case, kept small
                return Status.of(received);
            }
            return recv(buf, offset, count, datatype, source, tag);
        } catch (RuntimeException e) {
            throw MPIException.of("Recv", e);
        }
    }

    /** Receives of BOOLEAN, OBJECT and irregular types. */
    private Status recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        {
            if (irregular(datatype)) {
                Object packed = datatype.blocks.scratch("Recv", buf, offset, count, datatype);
                org.hympj.api.Status st = core.recv(packed, 0, packedCount(datatype, count), packedType(datatype),
                    source, tag);
                datatype.blocks.unpack(packed, st.bytes() / datatype.core.primitive().bytes(), buf, offset, count);
                return Status.of(st);
            }
            switch (kind("Recv", datatype)) {
                case CORE:
                    core.recv(buf, offset, count, datatype.core, source, tag, received);
                    return Status.of(received);
                case BOOLEAN: {
                    boolean[] b = Buffers.booleans("Recv", buf);
                    byte[] bytes = Buffers.toBytes(b);
                    Status s = Status.of(core.recv(bytes, offset, count, datatype.core, source, tag));
                    Buffers.fromBytes(bytes, b);
                    return s;
                }
                default: {
                    ObjectItems items = ObjectItems.of("Recv", buf, offset, count, datatype);
                    Status s = new Status();
                    if (source == MPI.PROC_NULL) {
                        s.source = MPI.PROC_NULL;
                        s.objects = 0;
                        return s;
                    }
                    ObjectRecv.receive("Recv", core, core.probe(source, tag), items, s);
                    return s;
                }
            }
        }
    }

    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag) {
        try {
            // one core call, unless object receives are posted: the general path below polls them while it waits
            if (!irregular(sendtype) && !irregular(recvtype) && kind("Sendrecv", sendtype) == Datatype.Kind.CORE
                && kind("Sendrecv", recvtype) == Datatype.Kind.CORE && !ObjectRecv.anyPosted()) {
                return Status.of(core.sendrecv(sendbuf, sendoffset, sendcount, sendtype.core, dest, sendtag,
                    recvbuf, recvoffset, recvcount, recvtype.core, source, recvtag));
            }
            Request r = isend("Sendrecv", sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, false);
            Status s = Recv(recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
            r.Wait();
            return s;
        } catch (RuntimeException e) {
            throw MPIException.of("Sendrecv", e);
        }
    }

    /** Sends the buffer and receives into it: the outgoing data is copied first. */
    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype, int dest, int sendtag,
                                   int source, int recvtag) {
        try {
            if (!irregular(datatype) && kind("Sendrecv_replace", datatype) == Datatype.Kind.CORE
                && !ObjectRecv.anyPosted()) {
                Object copy = Buffers.copyOf("Sendrecv_replace", buf);
                return Status.of(core.sendrecv(copy, offset, count, datatype.core, dest, sendtag,
                    buf, offset, count, datatype.core, source, recvtag));
            }
            Object copy = datatype.kind == Datatype.Kind.OBJECT
                ? Buffers.objects("Sendrecv_replace", buf).clone() : Buffers.copyOf("Sendrecv_replace", buf);
            return Sendrecv(copy, offset, count, datatype, dest, sendtag, buf, offset, count, datatype, source, recvtag);
        } catch (RuntimeException e) {
            throw MPIException.of("Sendrecv_replace", e);
        }
    }

    // ---------------------------------------------------------------- non-blocking

    public Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            return isend("Isend", buf, offset, count, datatype, dest, tag, false);
        } catch (RuntimeException e) {
            throw MPIException.of("Isend", e);
        }
    }

    private Request isend(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag,
                      boolean sync) {
        if (irregular(datatype)) {
            return new Request(new CorePending(coreIsend(sync, datatype.blocks.pack(call, buf, offset, count, datatype), 0,
                packedCount(datatype, count), packedType(datatype), dest, tag), null));
        }
        switch (kind(call, datatype)) {
            case CORE:
                return new Request(new CorePending(coreIsend(sync, buf, offset, count, datatype.core, dest, tag), null));
            case BOOLEAN:
                return new Request(new CorePending(coreIsend(sync, Buffers.toBytes(Buffers.booleans(call, buf)), offset,
                    count, datatype.core, dest, tag), null));
            default: {
                byte[] data = objectMessage(call, buf, offset, count, datatype);
                return new Request(new CorePending(coreIsend(sync, data, 0, data.length, org.hympj.api.Datatype.BYTE, dest,
                    tag), null));
            }
        }
    }

    /** Ready mode as standard mode (see {@link #Rsend}). */
    public Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            return isend("Irsend", buf, offset, count, datatype, dest, tag, false);
        } catch (RuntimeException e) {
            throw MPIException.of("Irsend", e);
        }
    }

    /** Non-blocking synchronous send: completes once the matching receive has started. */
    public Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            return isend("Issend", buf, offset, count, datatype, dest, tag, true);
        } catch (RuntimeException e) {
            throw MPIException.of("Issend", e);
        }
    }

    /** A buffered send is complete at its call: the request it returns is already done. */
    public Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            bsend("Ibsend", buf, offset, count, datatype, dest, tag);
            Status s = new Status();
            return new Request(new Done(s));
        } catch (RuntimeException e) {
            throw MPIException.of("Ibsend", e);
        }
    }

    public Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        try {
            if (irregular(datatype)) {
                Object packed = datatype.blocks.scratch("Irecv", buf, offset, count, datatype);
                return new Request(new CorePending(core.irecv(packed, 0, packedCount(datatype, count),
                    packedType(datatype), source, tag), (st, out) -> datatype.blocks.unpack(packed,
                    st.bytes() / datatype.core.primitive().bytes(), buf, offset, count)));
            }
            switch (kind("Irecv", datatype)) {
                case CORE:
                    return new Request(new CorePending(core.irecv(buf, offset, count, datatype.core, source, tag),
                        null));
                case BOOLEAN: {
                    boolean[] b = Buffers.booleans("Irecv", buf);
                    byte[] bytes = Buffers.toBytes(b);
                    return new Request(new CorePending(core.irecv(bytes, offset, count, datatype.core, source, tag),
                        (st, out) -> Buffers.fromBytes(bytes, b)));
                }
                default: {
                    ObjectItems items = ObjectItems.of("Irecv", buf, offset, count, datatype);
                    if (source == MPI.PROC_NULL) {
                        Status s = new Status();
                        s.source = MPI.PROC_NULL;
                        s.objects = 0;
                        return new Request(new Done(s));
                    }
                    checkSource("Irecv", source);
                    return new Request(new ObjectRecv(core, items, source, tag));
                }
            }
        } catch (RuntimeException e) {
            throw MPIException.of("Irecv", e);
        }
    }

    // ---------------------------------------------------------------- persistent

    public Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            return sendInit("Send_init", buf, offset, count, datatype, dest, tag, false);
        } catch (RuntimeException e) {
            throw MPIException.of("Send_init", e);
        }
    }

    private Prequest sendInit(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag,
                      boolean sync) {
        if (irregular(datatype)) {
            // the core request is bound to a packed copy made once; each start packs the items into it
            Object packed = datatype.blocks.scratch(call, buf, offset, count, datatype);
            return new Prequest(coreSendInit(sync, packed, 0, packedCount(datatype, count), packedType(datatype), dest,
                tag), null, () -> datatype.blocks.packInto(buf, offset, count, packed, 0));
        }
        switch (kind(call, datatype)) {
            case CORE:
                return new Prequest(coreSendInit(sync, buf, offset, count, datatype.core, dest, tag), null, null);
            case BOOLEAN: {
                boolean[] b = Buffers.booleans(call, buf);
                byte[] bytes = Buffers.toBytes(b);
                return new Prequest(coreSendInit(sync, bytes, offset, count, datatype.core, dest, tag), null, () -> {
                    for (int i = 0; i < b.length; i++) {
                        bytes[i] = b[i] ? (byte) 1 : 0;
                    }
                });
            }
            default: {
                // checked now, serialized at each start (the objects as they are then)
                ObjectItems.of(call, buf, offset, count, datatype);
                if (dest != MPI.PROC_NULL && (dest < 0 || dest >= peerCount())) {
                    throw new MPIException(call + ": dest must be 0.." + (peerCount() - 1) + " or PROC_NULL, was " + dest);
                }
                ObjectPersistent p = new ObjectPersistent(() -> {
                    byte[] data = objectMessage(call, buf, offset, count, datatype);
                    return new CorePending(coreIsend(sync, data, 0, data.length, org.hympj.api.Datatype.BYTE, dest, tag),
                        null);
                });
                return new Prequest(p, p::start);
            }
        }
    }

    /** Ready mode as standard mode (see {@link #Rsend}). */
    public Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            return sendInit("Rsend_init", buf, offset, count, datatype, dest, tag, false);
        } catch (RuntimeException e) {
            throw MPIException.of("Rsend_init", e);
        }
    }

    /** Persistent synchronous send: each start completes once its receive has started. */
    public Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            return sendInit("Ssend_init", buf, offset, count, datatype, dest, tag, true);
        } catch (RuntimeException e) {
            throw MPIException.of("Ssend_init", e);
        }
    }

    /**
     * Persistent buffered send: each {@code Start} copies the data into the attached buffer's
     * space and sends the copy, as {@link #Bsend} does, so the request is complete once started;
     * a start that does not fit fails with an MPIException naming both sizes. Primitive, BOOLEAN
     * and OBJECT data (objects serialized at each start), and Indexed/Hindexed/Struct types (packed at each start).
     */
    public Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        try {
            BsendPending p = BsendPending.of(this, buf, offset, count, datatype, dest, tag);
            return new Prequest(p, p::start);
        } catch (RuntimeException e) {
            throw MPIException.of("Bsend_init", e);
        }
    }

    public Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        try {
            if (irregular(datatype)) {
                // bound to a packed array made once; each completion unpacks what arrived into the items
                Object packed = datatype.blocks.scratch("Recv_init", buf, offset, count, datatype);
                return new Prequest(core.recvInit(packed, 0, packedCount(datatype, count), packedType(datatype), source,
                    tag), (st, out) -> datatype.blocks.unpack(packed, st.bytes() / datatype.core.primitive().bytes(), buf,
                    offset, count), null);
            }
            switch (kind("Recv_init", datatype)) {
                case CORE:
                    return new Prequest(core.recvInit(buf, offset, count, datatype.core, source, tag), null, null);
                case BOOLEAN: {
                    boolean[] b = Buffers.booleans("Recv_init", buf);
                    byte[] bytes = Buffers.toBytes(b);
                    return new Prequest(core.recvInit(bytes, offset, count, datatype.core, source, tag),
                        (st, out) -> Buffers.fromBytes(bytes, b), null);
                }
                default: {
                    ObjectItems items = ObjectItems.of("Recv_init", buf, offset, count, datatype);
                    if (source != MPI.PROC_NULL) {
                        checkSource("Recv_init", source);
                    }
                    // each start posts a receive that is made when a probe finds the message (its size)
                    ObjectPersistent p = new ObjectPersistent(() -> {
                        if (source == MPI.PROC_NULL) {
                            Status s = new Status();
                            s.source = MPI.PROC_NULL;
                            s.objects = 0;
                            return new Done(s);
                        }
                        return new ObjectRecv(core, items, source, tag);
                    });
                    return new Prequest(p, p::start);
                }
            }
        } catch (RuntimeException e) {
            throw MPIException.of("Recv_init", e);
        }
    }

    // ---------------------------------------------------------------- probes

    /** Blocks until a matching message can be received; its status. */
    public Status Probe(int source, int tag) {
        try {
            if (source == MPI.PROC_NULL) {
                Status s = new Status();
                s.source = MPI.PROC_NULL;
                return s;
            }
            return Status.of(core.probe(source, tag));
        } catch (RuntimeException e) {
            throw MPIException.of("Probe", e);
        }
    }

    /** The status of a matching message if there is one now, else null. */
    public Status Iprobe(int source, int tag) {
        try {
            if (source == MPI.PROC_NULL) {
                Status s = new Status();
                s.source = MPI.PROC_NULL;
                return s;
            }
            org.hympj.api.Status s = core.iprobe(source, tag);
            return s == null ? null : Status.of(s);
        } catch (RuntimeException e) {
            throw MPIException.of("Iprobe", e);
        }
    }

    // ---------------------------------------------------------------- packing

    /** Packs {@code incount} items into {@code outbuf} at {@code position}; returns the new position. */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position) {
        try {
            return Packer.pack(inbuf, offset, incount, datatype, outbuf, position);
        } catch (RuntimeException e) {
            throw MPIException.of("Pack", e);
        }
    }

    /** Unpacks {@code outcount} items from {@code inbuf} at {@code position}; returns the new position. */
    public int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype) {
        try {
            return Packer.unpack(inbuf, position, outbuf, offset, outcount, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Unpack", e);
        }
    }

    /** Bytes {@code incount} items take packed. */
    public int Pack_size(int incount, Datatype datatype) {
        try {
            return Packer.size("Pack_size", incount, datatype);
        } catch (RuntimeException e) {
            throw MPIException.of("Pack_size", e);
        }
    }

    // ---------------------------------------------------------------- helpers

    static Datatype.Kind kind(String call, Datatype datatype) {
        if (datatype == null) {
            throw new MPIException(call + ": datatype must not be null");
        }
        datatype.requireData(call);
        if (datatype.kind == Datatype.Kind.BLOCKS) {
            throw MPIException.notSupported(call + " of " + datatype, "irregular types (Indexed, Hindexed, Struct) "
                + "are packed by point-to-point calls, Pack and the collectives of an Intracomm (blocking, "
                + "non-blocking and persistent), not by this call");
        }
        return datatype.kind;
    }

    /** A type of primitive elements the facade packs (Indexed, Struct …); objects are serialized instead. */
    static boolean irregular(Datatype datatype) {
        return datatype != null && datatype.kind == Datatype.Kind.BLOCKS;
    }

    /** The packed element type of an irregular message of {@code count} items. */
    static org.hympj.api.Datatype packedType(Datatype datatype) {
        return datatype.core;
    }

    static int packedCount(Datatype datatype, int count) {
        return Math.toIntExact((long) count * datatype.blocks.size);
    }

    private static byte[] objectMessage(String call, Object buf, int offset, int count, Datatype datatype) {
        return ObjectItems.of(call, buf, offset, count, datatype).serialize(call);
    }

    private void checkSource(String call, int source) {
        if (source != MPI.ANY_SOURCE && (source < 0 || source >= peerCount())) {
            throw new MPIException(call + ": source must be 0.." + (peerCount() - 1) + ", ANY_SOURCE or PROC_NULL, was "
                + source);
        }
    }

    /** How many ranks point-to-point can name: this group's (an intercommunicator's: the remote group's). */
    int peerCount() {
        return core.size();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[rank " + Rank() + " of " + Size() + "]";
    }
}
