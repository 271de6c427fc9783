package mpi;

import org.hympj.api.Primitive;

/**
 * An mpiJava datatype: a core {@link org.hympj.api.Datatype} layout, or one of the kinds the
 * core has no primitive for — BOOLEAN (carried as bytes 0/1 in the same layout), OBJECT
 * (Java serialization: a message of objects is one byte message) — or the LB/UB markers.
 * Offsets and counts are in elements of the buffer's array, as in mpiJava. A derived type of
 * OBJECT with gaps (Vector, Indexed, Struct …) keeps kind OBJECT and a {@link Blocks} layout
 * of object positions: its message is the objects at those positions, in order.
 */
public class Datatype {
    enum Kind { CORE, BOOLEAN, OBJECT, MARKER, BLOCKS }

    final Kind kind;
    /** The layout of an irregular type (Indexed, Hindexed, Struct); null for the others. */
    final Blocks blocks;
    /** The layout: for BOOLEAN a BYTE layout of the same shape; for OBJECT a BYTE layout counting objects. */
    final org.hympj.api.Datatype core;
    private final String name;

    Datatype(Kind kind, org.hympj.api.Datatype core, String name) {
        this(kind, core, null, name);
    }

    private Datatype(Kind kind, org.hympj.api.Datatype core, Blocks blocks, String name) {
        this.kind = kind;
        this.core = core;
        this.blocks = blocks;
        this.name = name;
    }

    /**
     * An irregular type of {@code base}'s element kind: packed by the facade (see {@link Blocks});
     * of OBJECT, a layout of object positions (the objects there are serialized in order).
     */
    private static Datatype irregular(Datatype base, Blocks b, String name) {
        if (base.kind == Kind.OBJECT) {
            return new Datatype(Kind.OBJECT, org.hympj.api.Datatype.BYTE, b, name);
        }
        return new Datatype(Kind.BLOCKS, org.hympj.api.Datatype.of(base.core.primitive()), b, name);
    }

    /** {@code counts[i]} items of {@code old} from element {@code starts[i]} (starts in elements). */
    private static Datatype irregular(String call, Datatype old, int[] counts, int[] starts, String name) {
        Blocks[] olds = new Blocks[counts.length];
        java.util.Arrays.fill(olds, Blocks.of(old));
        return irregular(old, Blocks.build(call, olds, counts, starts, Integer.MIN_VALUE, Integer.MIN_VALUE), name);
    }

    private static void checkIrregularBase(String call, Datatype oldtype) {
        if (oldtype.kind == Kind.BOOLEAN) {
            throw MPIException.notSupported(call + " of " + oldtype, "irregular layouts are packed as primitive "
                + "elements; BOOLEAN data travels as bytes of its own layout");
        }
    }

    private static void checkLists(String call, int[] a, String an, int[] b, String bn) {
        if (a == null || b == null || a.length != b.length) {
            throw new MPIException(call + ": " + an + " and " + bn + " must be non-null and of equal length");
        }
    }

    /** Objects in one item of an OBJECT type (a plain or contiguous one counts at least one, as before). */
    int objectsPerItem() {
        return blocks != null ? blocks.size : (int) Math.max(1, core.elements());
    }

    /** Span of one item of an OBJECT type, in objects (where item i+1 starts). */
    int objectExtent() {
        return blocks != null ? blocks.extent : objectsPerItem();
    }

    /** Bytes of data in one item. */
    long itemBytes() {
        return blocks != null ? (long) blocks.size * core.primitive().bytes() : core.size();
    }

    static Datatype ofCore(org.hympj.api.Datatype t, String name) {
        return new Datatype(Kind.CORE, t, name);
    }

    // ---------------------------------------------------------------- constructors (mpiJava 1.2: static)

    /** {@code count} consecutive copies of {@code oldtype} (MPI_Type_contiguous). */
    public static Datatype Contiguous(int count, Datatype oldtype) {
        try {
            check("Contiguous", oldtype);
            if (oldtype.blocks != null) {
                return irregular("Contiguous", oldtype, new int[] {count}, new int[] {0},
                    "Contiguous(" + count + ", " + oldtype + ")");
            }
            return derived(oldtype, oldtype.core.contiguous(count), "Contiguous(" + count + ", " + oldtype + ")");
        } catch (RuntimeException e) {
            throw MPIException.of("Contiguous", e);
        }
    }

    /** {@code count} blocks of {@code blocklength} items, block starts {@code stride} items apart. */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        try {
            check("Vector", oldtype);
            if (oldtype.blocks != null || oldtype.kind == Kind.OBJECT) {
                // objects (always: their positions are the message) and irregular types: blocks
                if (count < 0 || blocklength < 0) {
                    throw new MPIException("Vector: count and blocklength must be >= 0, were " + count + " and "
                        + blocklength);
                }
                if (stride < 0) {
                    throw MPIException.notSupported("Vector of " + oldtype + " with stride " + stride,
                        "negative strides would address elements before the buffer offset");
                }
                int ext = Blocks.of(oldtype).extent;
                int[] counts = new int[count];
                int[] starts = new int[count];
                for (int i = 0; i < count; i++) {
                    counts[i] = blocklength;
                    starts[i] = Math.toIntExact((long) i * stride * ext);
                }
                return irregular("Vector", oldtype, counts, starts,
                    "Vector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")");
            }
            return derived(oldtype, oldtype.core.vector(count, blocklength, stride),
                "Vector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")");
        } catch (RuntimeException e) {
            throw MPIException.of("Vector", e);
        }
    }

    /**
     * As {@link #Vector} with the stride in elements of the buffer (mpiJava's unit: Java has no
     * byte addresses) rather than items of {@code oldtype}. A whole number of items is a vector
     * (zero-copy where the core's layouts allow); any other stride, as MPJ Express allows it,
     * is a layout of blocks at {@code i * stride} elements, packed and unpacked (stride >= 0).
     */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        try {
            check("Hvector", oldtype);
            long ext = Math.max(1, oldtype.Extent());
            if (stride % ext != 0) {
                checkIrregularBase("Hvector", oldtype);
                if (count < 0 || blocklength < 0 || stride < 0) {
                    throw new MPIException("Hvector: count, blocklength and a stride that is not a whole number of items"
                        + " (extent " + ext + " elements) must be >= 0, were " + count + ", " + blocklength + ", " + stride);
                }
                int[] counts = new int[count];
                int[] starts = new int[count];
                for (int i = 0; i < count; i++) {
                    counts[i] = blocklength;
                    starts[i] = Math.toIntExact((long) i * stride);
                }
                return irregular("Hvector", oldtype, counts, starts,
                    "Hvector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")");
            }
            return Vector(count, blocklength, (int) (stride / ext), oldtype);
        } catch (RuntimeException e) {
            throw MPIException.of("Hvector", e);
        }
    }

    /**
     * Blocks of {@code blocklengths[i]} items of {@code oldtype} at {@code displacements[i]}
     * items (MPI_Type_indexed). Messages of it are packed into a contiguous array and unpacked
     * (the core's zero-copy layouts do not cover irregular blocks). Displacements must be >= 0.
     */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        try {
            check("Indexed", oldtype);
            checkIrregularBase("Indexed", oldtype);
            checkLists("Indexed", blocklengths, "blocklengths", displacements, "displacements");
            int ext = oldtype.Extent();
            int[] starts = new int[displacements.length];
            for (int i = 0; i < starts.length; i++) {
                starts[i] = Math.toIntExact((long) displacements[i] * ext);
            }
            return irregular("Indexed", oldtype, blocklengths.clone(), starts, "Indexed(" + oldtype + ")");
        } catch (RuntimeException e) {
            throw MPIException.of("Indexed", e);
        }
    }

    /** As {@link #Indexed} with displacements in elements of the buffer (mpiJava's unit). */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        try {
            check("Hindexed", oldtype);
            checkIrregularBase("Hindexed", oldtype);
            checkLists("Hindexed", blocklengths, "blocklengths", displacements, "displacements");
            return irregular("Hindexed", oldtype, blocklengths.clone(), displacements.clone(),
                "Hindexed(" + oldtype + ")");
        } catch (RuntimeException e) {
            throw MPIException.of("Hindexed", e);
        }
    }

    /**
     * MPI_Type_struct with displacements in elements. A Java buffer is one array, so every type
     * must have the same element kind; {@link MPI#LB} and {@link MPI#UB} set the bounds.
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        try {
            checkLists("Struct", blocklengths, "blocklengths", displacements, "displacements");
            if (types == null || types.length != blocklengths.length) {
                throw new MPIException("Struct: types must have one entry per block");
            }
            Datatype base = null;
            Blocks[] olds = new Blocks[types.length];
            int lb = Integer.MIN_VALUE;
            int ub = Integer.MIN_VALUE;
            for (int i = 0; i < types.length; i++) {
                Datatype t = types[i];
                if (t == null) {
                    throw new MPIException("Struct: types[" + i + "] must not be null");
                }
                if (t == MPI.LB) {
                    lb = displacements[i];
                    continue;
                }
                if (t == MPI.UB) {
                    ub = displacements[i];
                    continue;
                }
                checkIrregularBase("Struct", t);
                if (base != null && (base.core.primitive() != t.core.primitive()
                    || (base.kind == Kind.OBJECT) != (t.kind == Kind.OBJECT))) {
                    throw MPIException.notSupported("Struct of " + base + " and " + t,
                        "a Java buffer is one array of one element kind");
                }
                base = base == null ? t : base;
                olds[i] = Blocks.of(t);
            }
            Blocks b = Blocks.build("Struct", olds, blocklengths, displacements, lb, ub);
            if (base == null) {
                // no blocks, or only LB/UB: a type of no data (MPI allows it), sent as an empty message from any array
                return new Datatype(Kind.BLOCKS, org.hympj.api.Datatype.BYTE, b, "Struct");
            }
            return irregular(base, b, "Struct");
        } catch (RuntimeException e) {
            throw MPIException.of("Struct", e);
        }
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
        if (blocks != null) {
            return blocks.extent;
        }
        return kind == Kind.MARKER ? 0 : (int) core.extent();
    }

    /** Elements of data in one item. */
    public int Size() {
        if (blocks != null) {
            return blocks.size;
        }
        return kind == Kind.MARKER ? 0 : (int) core.elements();
    }

    /** Lower bound, in elements (0 but for irregular types, whose data may start later). */
    public int Lb() {
        return blocks != null ? blocks.lb : 0;
    }

    /** Upper bound: the lower bound plus the extent. */
    public int Ub() {
        return Lb() + Extent();
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
