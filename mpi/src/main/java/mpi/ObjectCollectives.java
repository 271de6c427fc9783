package mpi;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.hympj.api.Datatype;

/**
 * Collectives of {@link MPI#OBJECT} buffers over the core's byte collectives: each block of
 * objects is serialized on its own, the blocks' byte lengths go first (a core gather, scatter
 * or allgather of ints), then the bytes (the core's v-collective with those lengths), and the
 * receiver deserializes each block into its place.
 */
final class ObjectCollectives {
    private final org.hympj.api.Comm core;
    private final int rank;
    private final int size;

    ObjectCollectives(org.hympj.api.Comm core) {
        this.core = core;
        this.rank = core.rank();
        this.size = core.size();
    }

    /** Objects in {@code count} items, for the reductions; a type of objects with gaps (Vector, Indexed …) is refused. */
    static int objects(String call, mpi.Datatype type, int count) {
        if (type.blocks != null) {
            throw MPIException.notSupported(call + " of " + type, "reductions of objects take runs of objects "
                + "(OBJECT or a Contiguous of it); types with gaps are not combined item by item");
        }
        return Math.toIntExact((long) count * type.objectsPerItem());
    }

    void checkRoot(String call, int root) {
        if (root < 0 || root >= size) {
            throw new MPIException(call + ": root must be 0.." + (size - 1) + ", was " + root);
        }
    }

    static Object[] recvObjects(String call, Object buf, int offset, int per, int blocks, mpi.Datatype type) {
        if (Comm.kind(call, type) != mpi.Datatype.Kind.OBJECT) {
            throw new MPIException(call + ": the send type is OBJECT, so the receive type must be too, was " + type);
        }
        Object[] out = Buffers.objects(call, buf);
        if (offset < 0 || offset + (long) per * blocks > out.length) {
            throw new MPIException(call + ": " + blocks + " block(s) of " + per + " objects from offset " + offset
                + " do not fit in recvbuf (length " + out.length + ")");
        }
        return out;
    }

    // every block the same size: the per-rank-count variants below with uniform counts

    void gather(Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype, int root) {
        gatherv("Gather", sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            uniform(recvcount, size, false), uniform(recvcount, size, true), recvtype, root);
    }

    void allgather(Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                   Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype) {
        allgatherv("Allgather", sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            uniform(recvcount, size, false), uniform(recvcount, size, true), recvtype);
    }

    void scatter(Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                 Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype, int root) {
        scatterv("Scatter", sendbuf, sendoffset, uniform(sendcount, size, false), uniform(sendcount, size, true),
            sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
    }

    // ---------------------------------------------------------------- per-rank counts (v) and all-to-all

    /** Block i of {@code counts}/{@code displs} (in items of {@code type}) of {@code buf} must lie inside it. */
    static void checkBlocks(String call, String which, Object[] buf, int offset, int[] counts, int[] displs,
                                    mpi.Datatype type, int blocks) {
        // entries past the group's size are not read (MPI; the primitive v-collectives take them too)
        if (counts == null || counts.length < blocks || (displs != null && displs.length < blocks)) {
            throw new MPIException(call + ": " + which + " counts and displacements must have " + blocks
                + " entries (one per rank), had " + (counts == null ? "none" : counts.length) + " and "
                + (displs == null ? "none" : displs.length));
        }
        for (int i = 0; i < blocks; i++) {
            try {
                block(call, buf, offset, counts, displs, type, i);
            } catch (MPIException e) {
                throw new MPIException(call + ": " + which + " block " + i + " (" + counts[i] + " items at "
                    + (displs == null ? 0 : displs[i]) + ") does not fit: " + e.getMessage(), e);
            }
        }
    }

    /** Block i: {@code counts[i]} items of {@code type} at {@code displs[i]} items (their extent) from offset. */
    static ObjectItems block(String call, Object[] buf, int offset, int[] counts, int[] displs,
                                     mpi.Datatype type, int i) {
        long at = offset + (long) (displs == null ? 0 : displs[i]) * type.objectExtent();
        if (at < 0 || at > Integer.MAX_VALUE) {
            throw new MPIException(call + ": block " + i + " starts at object " + at + ", outside buf");
        }
        return ObjectItems.of(call, buf, (int) at, counts[i], type);
    }

    /** Serializes block i of {@code buf} (counts[i] items at displs[i]) into one array; the blocks' lengths into {@code lengths}. */
    private static byte[] serializeBlocks(String call, Object[] buf, int offset, int[] counts, int[] displs,
                                          mpi.Datatype type, int[] lengths) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < lengths.length; i++) {
            byte[] b = block(call, buf, offset, counts, displs, type, i).serialize(call);
            lengths[i] = b.length;
            bytes.write(b, 0, b.length);
        }
        return bytes.toByteArray();
    }

    /** Deserializes block i of {@code all} (lengths[i] bytes) into counts[i] items at displs[i] of {@code out}. */
    private static void placeBlocks(String call, byte[] all, int[] lengths, Object[] out, int offset, int[] counts,
                                    int[] displs, mpi.Datatype type) {
        int at = 0;
        for (int i = 0; i < lengths.length; i++) {
            block(call, out, offset, counts, displs, type, i).deserialize(call,
                Arrays.copyOfRange(all, at, at + lengths[i]));
            at += lengths[i];
        }
    }

    static int[] uniform(int count, int blocks, boolean displacements) {
        int[] v = new int[blocks];
        for (int i = 0; i < blocks; i++) {
            v[i] = displacements ? i * count : count;
        }
        return v;
    }

    void gatherv(String call, Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                 Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, mpi.Datatype recvtype, int root) {
        checkRoot(call, root);
        byte[] data = ObjectItems.of(call, sendbuf, sendoffset, sendcount, sendtype).serialize(call);
        Object[] out = null;
        RuntimeException refused = null;
        if (rank == root) {
            try {
                out = recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
                checkBlocks(call, "receive", out, recvoffset, recvcounts, displs, recvtype, size);
            } catch (RuntimeException e) {
                refused = e; // the others send anyway: take their bytes, then refuse (nothing left for the next call)
            }
        }
        int[] lengths = new int[size];
        core.gather(new int[] {data.length}, 0, 1, Datatype.INT, lengths, 0, 1, Datatype.INT, root);
        byte[] all = new byte[rank == root ? total(lengths) : 0];
        core.gatherv(data, 0, data.length, Datatype.BYTE, all, 0, lengths, displacements(lengths), Datatype.BYTE, root);
        if (refused != null) {
            throw refused;
        }
        if (rank == root) {
            placeBlocks(call, all, lengths, out, recvoffset, recvcounts, displs, recvtype);
        }
    }

    void scatterv(String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] displs, mpi.Datatype sendtype,
                  Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype, int root) {
        checkRoot(call, root);
        recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
        ObjectItems mineItems = ObjectItems.of(call, recvbuf, recvoffset, recvcount, recvtype);
        int[] lengths = new int[size];
        byte[] all = new byte[0];
        RuntimeException refused = null;
        if (rank == root) {
            try {
                if (Comm.kind(call, sendtype) != mpi.Datatype.Kind.OBJECT) {
                    throw new MPIException(call + ": the receive type is OBJECT, so the send type must be too, was "
                        + sendtype);
                }
                Object[] in = Buffers.objects(call, sendbuf);
                checkBlocks(call, "send", in, sendoffset, sendcounts, displs, sendtype, size);
                all = serializeBlocks(call, in, sendoffset, sendcounts, displs, sendtype, lengths);
            } catch (RuntimeException e) {
                // the others wait for their blocks: send each an empty one (no object message is empty), then refuse
                refused = e;
                java.util.Arrays.fill(lengths, 0);
                all = new byte[0];
            }
        }
        int[] mine = new int[1];
        core.scatter(lengths, 0, 1, Datatype.INT, mine, 0, 1, Datatype.INT, root);
        byte[] data = new byte[mine[0]];
        core.scatterv(all, 0, lengths, displacements(lengths), Datatype.BYTE, data, 0, data.length, Datatype.BYTE,
            root);
        if (refused != null) {
            throw refused;
        }
        if (data.length == 0) {
            throw new MPIException(call + ": the root (rank " + root + ") sent no objects for this rank: its own "
                + "arguments were refused at its call");
        }
        mineItems.deserialize(call, data);
    }

    void allgatherv(String call, Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                    Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, mpi.Datatype recvtype) {
        byte[] data = ObjectItems.of(call, sendbuf, sendoffset, sendcount, sendtype).serialize(call);
        Object[] out = recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
        checkBlocks(call, "receive", out, recvoffset, recvcounts, displs, recvtype, size);
        int[] lengths = new int[size];
        core.allgather(new int[] {data.length}, 0, 1, Datatype.INT, lengths, 0, 1, Datatype.INT);
        byte[] all = new byte[total(lengths)];
        core.allgatherv(data, 0, data.length, Datatype.BYTE, all, 0, lengths, displacements(lengths), Datatype.BYTE);
        placeBlocks(call, all, lengths, out, recvoffset, recvcounts, displs, recvtype);
    }

    void alltoall(Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                  Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype) {
        alltoallv("Alltoall", sendbuf, sendoffset, uniform(sendcount, size, false), uniform(sendcount, size, true),
            sendtype, recvbuf, recvoffset, uniform(recvcount, size, false), uniform(recvcount, size, true), recvtype);
    }

    void alltoallv(String call, Object sendbuf, int sendoffset, int[] sendcounts, int[] sdispls, mpi.Datatype sendtype,
                   Object recvbuf, int recvoffset, int[] recvcounts, int[] rdispls, mpi.Datatype recvtype) {
        Object[] in = Buffers.objects(call, sendbuf);
        checkBlocks(call, "send", in, sendoffset, sendcounts, sdispls, sendtype, size);
        Object[] out = recvObjects(call, recvbuf, recvoffset, 0, 0, recvtype);
        checkBlocks(call, "receive", out, recvoffset, recvcounts, rdispls, recvtype, size);
        int[] sendLengths = new int[size];
        byte[] all = serializeBlocks(call, in, sendoffset, sendcounts, sdispls, sendtype, sendLengths);
        int[] recvLengths = new int[size];
        core.alltoall(sendLengths, 0, 1, Datatype.INT, recvLengths, 0, 1, Datatype.INT);
        byte[] got = new byte[total(recvLengths)];
        core.alltoallv(all, 0, sendLengths, displacements(sendLengths), Datatype.BYTE, got, 0, recvLengths,
            displacements(recvLengths), Datatype.BYTE);
        placeBlocks(call, got, recvLengths, out, recvoffset, recvcounts, rdispls, recvtype);
    }

    // ---------------------------------------------------------------- reductions with a user op

    /**
     * Reduce of OBJECT items with a user {@link Op}: every rank's items are gathered to the root
     * (serialized, so the root combines copies and no rank's send buffer changes), then combined
     * there in rank order — for a non-commutative op, x0 op x1 op … op x(n-1) — and the result
     * written to the root's receive buffer.
     */
    void reduce(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                mpi.Datatype type, Op op, int root) {
        checkRoot(call, root);
        op.checkObjects(call);
        int n = objects(call, type, count);
        Object[] all = rank == root ? new Object[n * size] : new Object[0];
        Object[] out = null;
        RuntimeException refused = null;
        try {
            out = rank == root ? recvObjects(call, recvbuf, recvoffset, n, 1, type) : null;
        } catch (RuntimeException e) {
            refused = e; // the others send anyway: gather their items (into nothing), then refuse
        }
        gatherv(call, sendbuf, sendoffset, count, type, all, 0, uniform(count, size, false), uniform(count, size, true),
            type, root);
        if (refused != null) {
            throw refused;
        }
        if (rank == root) {
            prefixes(all, n, count, type, op);
            System.arraycopy(all, (size - 1) * n, out, recvoffset, n);
        }
    }

    /**
     * Scan (inclusive prefix reduction) of OBJECT items with a user op: gathered to rank 0, the
     * prefixes x0 op … op xr computed there in rank order, each rank's scattered back to it.
     */
    void scan(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
              mpi.Datatype type, Op op) {
        prefixScan(call, sendbuf, sendoffset, recvbuf, recvoffset, count, type, op, false);
    }

    /**
     * Exclusive scan of OBJECT items with a user op: rank r gets x0 op … op x(r-1); rank 0's
     * receive buffer is left as it was (MPI leaves it undefined).
     */
    void exscan(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                mpi.Datatype type, Op op) {
        prefixScan(call, sendbuf, sendoffset, recvbuf, recvoffset, count, type, op, true);
    }

    /** Both scans: the prefixes computed on rank 0; rank r gets prefix r, or r - 1 when {@code exclusive}. */
    private void prefixScan(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                            mpi.Datatype type, Op op, boolean exclusive) {
        op.checkObjects(call);
        int n = objects(call, type, count);
        Object[] all = rank == 0 ? new Object[n * size] : new Object[0];
        recvObjects(call, recvbuf, recvoffset, n, 1, type);
        gatherv(call, sendbuf, sendoffset, count, type, all, 0, uniform(count, size, false), uniform(count, size, true),
            type, 0);
        if (rank == 0) {
            prefixes(all, n, count, type, op);
        }
        int[] counts = uniform(count, size, false);
        int[] displs = uniform(count, size, true);
        if (exclusive) { // rank r takes block r - 1 of the prefixes; rank 0 nothing
            counts[0] = 0;
            for (int r = 1; r < size; r++) {
                displs[r] = (r - 1) * count;
            }
        }
        scatterv(call, all, 0, counts, displs, type, recvbuf, recvoffset, exclusive && rank == 0 ? 0 : count, type, 0);
    }

    /**
     * The items a reduce-scatter reduces: the sum of the first {@code size} recvcounts (MPI reads no
     * more), each checked >= 0.
     *
     * @throws MPIException naming the call and the entry otherwise
     */
    static int reduceScatterTotal(String call, int[] recvcounts, int size) {
        if (recvcounts == null || recvcounts.length < size) {
            throw new MPIException(call + ": recvcounts must have " + size + " entries (one per rank), had "
                + (recvcounts == null ? "none" : recvcounts.length));
        }
        long total = 0;
        for (int i = 0; i < size; i++) {
            if (recvcounts[i] < 0) {
                throw new MPIException(call + ": recvcounts[" + i + "] must be >= 0, was " + recvcounts[i]);
            }
            total += recvcounts[i];
        }
        return Math.toIntExact(total);
    }

    /**
     * Reduce-scatter of OBJECT items with a user op: the sum(recvcounts) items of every rank
     * reduced on rank 0 as {@link #reduce} does, then block i (recvcounts[i] items) sent to rank i.
     */
    void reduceScatter(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                       mpi.Datatype type, Op op) {
        op.checkObjects(call);
        int total = reduceScatterTotal(call, recvcounts, size);
        int[] displs = new int[size];
        for (int i = 1; i < size; i++) {
            displs[i] = displs[i - 1] + recvcounts[i - 1];
        }
        int n = objects(call, type, total);
        Object[] reduced = new Object[rank == 0 ? n : 0];
        reduce(call, sendbuf, sendoffset, rank == 0 ? reduced : new Object[0], 0, total, type, op, 0);
        scatterv(call, reduced, 0, recvcounts, displs, type, recvbuf, recvoffset, recvcounts[rank], type, 0);
    }

    /**
     * In place: block r of {@code all} (the ranks' blocks of {@code n} objects, deserialized copies)
     * becomes x0 op … op xr. User_function.Call(in, inout) computes inout = in op inout and leaves
     * in as it was, so block r is combined into the prefix held by block r - 1.
     */
    static void prefixes(Object[] all, int n, int count, mpi.Datatype type, Op op) {
        for (int r = 1; r * n < all.length; r++) {
            op.call(all, (r - 1) * n, all, r * n, count, type);
        }
    }

    private static int[] displacements(int[] lengths) {
        int[] d = new int[lengths.length];
        int at = 0;
        for (int i = 0; i < lengths.length; i++) {
            d[i] = at;
            at += lengths[i];
        }
        return d;
    }

    private static int total(int[] lengths) {
        int t = 0;
        for (int l : lengths) {
            t += l;
        }
        return t;
    }
}
