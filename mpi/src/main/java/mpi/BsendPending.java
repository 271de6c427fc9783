package mpi;

/**
 * A persistent buffered send (Bsend_init): each start does what {@link Comm#Bsend} does — the
 * data are copied into the attached buffer's space and sent by a core non-blocking send — so
 * the request is complete as soon as it has started. A start that does not fit in the attached
 * buffer fails with an MPIException naming both sizes and leaves the request inactive.
 */
final class BsendPending implements Pending {
    private final Comm comm;
    private final Object buf;
    private final int offset;
    private final int count;
    private final Datatype datatype;
    private final int dest;
    private final int tag;
    /** Bytes of the attached buffer each start of primitive data takes (data + MPI.BSEND_OVERHEAD); -1 for OBJECT. */
    private final long need;
    private boolean started;

    BsendPending(Comm comm, Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        this.comm = comm;
        this.buf = buf;
        this.offset = offset;
        this.count = count;
        this.datatype = datatype;
        this.dest = dest;
        this.tag = tag;
        this.need = datatype.kind == Datatype.Kind.OBJECT ? -1 : datatype.itemBytes() * count + MPI.BSEND_OVERHEAD;
    }

    /**
     * Bytes of the attached buffer the next start takes: fixed for primitive data; for OBJECT
     * the objects as they are now, serialized (the start serializes them again: they must not
     * change in between, as a send buffer must not).
     */
    long need() {
        if (need >= 0) {
            return need;
        }
        return ObjectItems.of("Startall", buf, offset, count, datatype).serialize("Startall").length
            + MPI.BSEND_OVERHEAD;
    }

    /** The checks of Bsend_init, before anything is made: the send's arguments as Bsend would check them. */
    static BsendPending of(Comm comm, Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        String call = "Bsend_init";
        if (Comm.irregular(datatype)) {
            // packed into the attached buffer's copy at each start, as Bsend packs it
            datatype.blocks.check(call, buf, offset, count, datatype);
            checkPeer(call, comm, dest, tag);
            return new BsendPending(comm, buf, offset, count, datatype, dest, tag);
        }
        Datatype.Kind kind = Comm.kind(call, datatype);
        if (kind == Datatype.Kind.OBJECT) {
            // serialized at each start (Startall serializes first to check the space of all its sends)
            ObjectItems.of(call, buf, offset, count, datatype);
        }
        Object array = kind == Datatype.Kind.BOOLEAN ? Buffers.toBytes(Buffers.booleans(call, buf))
            : kind == Datatype.Kind.OBJECT ? null : buf;
        if (kind != Datatype.Kind.OBJECT && (array == null || array.getClass() != datatype.core.primitive().arrayClass())) {
            throw new MPIException(call + ": buf must be a " + (kind == Datatype.Kind.BOOLEAN ? "boolean[]"
                : datatype.core.primitive().arrayClass().getSimpleName()) + " for " + datatype);
        }
        if (count < 0 || offset < 0) {
            throw new MPIException(call + ": offset and count must be >= 0, were " + offset + " and " + count);
        }
        long span = datatype.core.span(count);
        int length = array == null ? Integer.MAX_VALUE : java.lang.reflect.Array.getLength(array);
        if (array != null && offset + span > length) {
            throw new MPIException(call + ": offset " + offset + " + " + count + " items of " + datatype + " span "
                + span + " elements, past the end of buf (length " + length + ")");
        }
        checkPeer(call, comm, dest, tag);
        return new BsendPending(comm, buf, offset, count, datatype, dest, tag);
    }

    private static void checkPeer(String call, Comm comm, int dest, int tag) {
        if (dest != MPI.PROC_NULL && (dest < 0 || dest >= comm.peerCount())) {
            throw new MPIException(call + ": dest must be 0.." + (comm.peerCount() - 1) + " or PROC_NULL, was " + dest);
        }
        if (tag < 0) {
            throw new MPIException(call + ": tag must be >= 0, was " + tag);
        }
    }

    /** One start: the copy and its send, as Bsend (a failure leaves the request inactive). */
    void start() {
        comm.bsend("Start (Bsend_init)", buf, offset, count, datatype, dest, tag);
        started = true;
    }

    /**
     * Before a Startall starts anything: the attached buffer must hold every buffered send of
     * the set at once, or none is started.
     */
    static void checkSpace(Prequest[] requests) {
        long total = 0;
        for (Prequest p : requests) {
            if (p != null && p.impl instanceof BsendPending) {
                total += ((BsendPending) p.impl).need();
            }
        }
        if (total > 0) {
            MPI.bsendBuffer().require("Startall", total);
        }
    }

    @Override
    public boolean active() {
        return started;
    }

    @Override
    public boolean test(Status out) {
        waitFor(out);
        return true;
    }

    @Override
    public void waitFor(Status out) {
        started = false;
        out.source = MPI.ANY_SOURCE;
        out.tag = MPI.ANY_TAG;
        out.bytes = 0;
        out.objects = -1;
    }

    @Override
    public void free() {
        started = false; // the copy already in flight is still delivered (Buffer_detach and Finalize wait for it)
    }
}
