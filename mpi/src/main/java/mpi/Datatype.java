package mpi;

import org.hympj.api.Primitive;

/**
 * An mpiJava datatype: a core {@link org.hympj.api.Datatype} layout, or one of the kinds the
 * core has no primitive for — BOOLEAN (carried as bytes 0/1 in the same layout), OBJECT
 * (Java serialization: a message of objects is one byte message) — or the LB/UB markers.
 * Offsets and counts are in elements of the buffer's array, as in mpiJava.
 */
public class Datatype {
    enum Kind { CORE, BOOLEAN, OBJECT, MARKER }

    final Kind kind;
    /** The layout: for BOOLEAN a BYTE layout of the same shape; for OBJECT a BYTE layout counting objects. */
    final org.hympj.api.Datatype core;
    private final String name;

    Datatype(Kind kind, org.hympj.api.Datatype core, String name) {
        this.kind = kind;
        this.core = core;
        this.name = name;
    }

    static Datatype ofCore(org.hympj.api.Datatype t, String name) {
        return new Datatype(Kind.CORE, t, name);
    }

    // ---------------------------------------------------------------- constructors (mpiJava 1.2: static)

    /** {@code count} consecutive copies of {@code oldtype} (MPI_Type_contiguous). */
    public static Datatype Contiguous(int count, Datatype oldtype) {
        try {
            check("Contiguous", oldtype);
            return derived(oldtype, oldtype.core.contiguous(count), "Contiguous(" + count + ", " + oldtype + ")");
        } catch (RuntimeException e) {
            throw MPIException.of("Contiguous", e);
        }
    }

    /** {@code count} blocks of {@code blocklength} items, block starts {@code stride} items apart. */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        try {
            check("Vector", oldtype);
            if (oldtype.kind == Kind.OBJECT) {
                throw MPIException.notSupported("Vector of OBJECT", "object messages are serialized as a whole; "
                    + "only contiguous runs of objects are sent");
            }
            return derived(oldtype, oldtype.core.vector(count, blocklength, stride),
                "Vector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")");
        } catch (RuntimeException e) {
            throw MPIException.of("Vector", e);
        }
    }

    /**
     * As {@link #Vector} with the stride in elements of the buffer (mpiJava's unit: Java has no
     * byte addresses) rather than items of {@code oldtype}; it must be a whole number of items.
     */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        try {
            check("Hvector", oldtype);
            long ext = Math.max(1, oldtype.core.extent());
            if (stride % ext != 0) {
                throw MPIException.notSupported("Hvector with stride " + stride, "the core vector strides in whole items"
                    + " of the old type (extent " + ext + " elements)");
            }
            return Vector(count, blocklength, (int) (stride / ext), oldtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Hvector", e);
        }
    }

    /** MPI_Type_indexed. Not supported (see docs/MIGRATING.md). */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        throw MPIException.notSupported("Indexed", "the core datatype is one block repeated over strided dimensions;"
            + " irregular block lists need a new core layout (docs/MIGRATING.md)");
    }

    /** MPI_Type_hindexed. Not supported (see docs/MIGRATING.md). */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        throw MPIException.notSupported("Hindexed", "the core datatype is one block repeated over strided dimensions;"
            + " irregular block lists need a new core layout (docs/MIGRATING.md)");
    }

    /** MPI_Type_struct. Not supported (see docs/MIGRATING.md). */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        throw MPIException.notSupported("Struct", "a Java buffer is one array of one element kind; mixed-type "
            + "layouts need a new core layout (docs/MIGRATING.md)");
    }

    private static void check(String call, Datatype oldtype) {
        if (oldtype == null) {
            throw new MPIException(call + ": oldtype must not be null");
        }
        if (oldtype.kind == Kind.MARKER) {
            throw new MPIException(call + ": " + oldtype + " is a marker, not a type of data");
        }
    }

    private static Datatype derived(Datatype old, org.hympj.api.Datatype layout, String name) {
        return new Datatype(old.kind, layout, name);
    }

    // ---------------------------------------------------------------- queries

    /** Span of one item, in elements of the buffer (mpiJava counts extents in elements). */
    public int Extent() {
        return kind == Kind.MARKER ? 0 : (int) core.extent();
    }

    /** Elements of data in one item. */
    public int Size() {
        return kind == Kind.MARKER ? 0 : (int) core.elements();
    }

    /** Lower bound (always 0 here: no type starts before its buffer position). */
    public int Lb() {
        return 0;
    }

    /** Upper bound: the extent. */
    public int Ub() {
        return Extent();
    }

    /** Nothing to do: a datatype is ready when made. */
    public void Commit() {
    }

    /** Nothing to release: datatypes are garbage collected. */
    public void Free() {
    }

    /** The primitive kind of the data (BYTE for BOOLEAN and OBJECT). */
    Primitive primitive() {
        return core.primitive();
    }

    void requireData(String call) {
        if (kind == Kind.MARKER) {
            throw new MPIException(call + ": " + name + " is a marker, not a type of data");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
