package mpi;

/**
 * What a receive, probe or wait found (mpiJava 1.2): the public fields {@code source},
 * {@code tag} and {@code index} (the position in the array for Waitany/Testany/Waitsome…).
 */
public class Status {
    public int source = MPI.ANY_SOURCE;
    public int tag = MPI.ANY_TAG;
    public int index = MPI.UNDEFINED;
    /** Bytes that arrived (serialized bytes for OBJECT). */
    long bytes;
    /** Objects that arrived, for an OBJECT receive; -1 otherwise. */
    int objects = -1;

    public Status() {
    }

    static Status of(org.hympj.api.Status s) {
        Status st = new Status();
        st.set(s);
        return st;
    }

    void set(org.hympj.api.Status s) {
        source = s.source();
        tag = s.tag();
        bytes = s.bytes();
        objects = -1;
        cancelled = s.isCancelled();
    }

    /** Becomes a copy of {@code o} (a caller's Status reused by {@link Request#Waitall(Request[], Status[])}). */
    void copy(Status o) {
        source = o.source;
        tag = o.tag;
        index = o.index;
        bytes = o.bytes;
        objects = o.objects;
        cancelled = o.cancelled;
    }

    /** Set from the core's status: the receive was withdrawn by Cancel before it matched. */
    boolean cancelled;

    /** Items of {@code datatype} that arrived; {@link MPI#UNDEFINED} if not a whole number. */
    public int Get_count(Datatype datatype) {
        if (datatype == null) {
            throw new MPIException("Get_count: datatype must not be null");
        }
        if (datatype.kind == Datatype.Kind.OBJECT || objects >= 0) {
            if (objects < 0) {
                throw new MPIException("Get_count: the message was not received as OBJECT");
            }
            long per = datatype.kind == Datatype.Kind.OBJECT ? datatype.objectsPerItem() : 1;
            if (per == 0) {
                return 0; // items of no objects: as for a type of size 0
            }
            return objects % per == 0 ? (int) (objects / per) : MPI.UNDEFINED;
        }
        if (datatype.kind == Datatype.Kind.MARKER) {
            throw new MPIException("Get_count: " + datatype + " is a marker, not a type of data");
        }
        long size = datatype.itemBytes();
        if (size == 0) {
            return 0;
        }
        return bytes % size == 0 ? (int) (bytes / size) : MPI.UNDEFINED;
    }

    /** Elements (of the datatype's primitive kind) that arrived. */
    public int Get_elements(Datatype datatype) {
        if (datatype == null) {
            throw new MPIException("Get_elements: datatype must not be null");
        }
        if (objects >= 0) {
            return objects;
        }
        if (datatype.kind == Datatype.Kind.MARKER) {
            throw new MPIException("Get_elements: " + datatype + " is a marker, not a type of data");
        }
        return (int) (bytes / datatype.core.primitive().bytes());
    }

    /**
     * True when the operation was cancelled ({@link Request#Cancel}): a receive withdrawn before
     * it matched. Sends are never cancelled (MPI allows it), so theirs is false.
     */
    public boolean Test_cancelled() {
        return cancelled;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", index=" + index + ", bytes=" + bytes + "]";
    }
}
