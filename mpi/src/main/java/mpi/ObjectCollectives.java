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

    static int objects(mpi.Datatype type, int count) {
        return Math.toIntExact((long) count * Math.max(1, type.core.elements()));
    }

    private void checkRoot(String call, int root) {
        if (root < 0 || root >= size) {
            throw new MPIException(call + ": root must be 0.." + (size - 1) + ", was " + root);
        }
    }

    private static Object[] recvObjects(String call, Object buf, int offset, int per, int blocks, mpi.Datatype type) {
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

    void gather(Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype, int root) {
        checkRoot("Gather", root);
        byte[] data = Buffers.serialize("Gather", Buffers.objects("Gather", sendbuf), sendoffset,
            objects(sendtype, sendcount));
        Object[] out = null;
        int per = 0;
        if (rank == root) {
            per = objects(recvtype, recvcount);
            out = recvObjects("Gather", recvbuf, recvoffset, per, size, recvtype);
        }
        int[] lengths = new int[size];
        core.gather(new int[] {data.length}, 0, 1, Datatype.INT, lengths, 0, 1, Datatype.INT, root);
        int[] displs = displacements(lengths);
        byte[] all = new byte[rank == root ? total(lengths) : 0];
        core.gatherv(data, 0, data.length, Datatype.BYTE, all, 0, lengths, displs, Datatype.BYTE, root);
        if (rank == root) {
            place("Gather", all, lengths, displs, out, recvoffset, per);
        }
    }

    void allgather(Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                   Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype) {
        byte[] data = Buffers.serialize("Allgather", Buffers.objects("Allgather", sendbuf), sendoffset,
            objects(sendtype, sendcount));
        int per = objects(recvtype, recvcount);
        Object[] out = recvObjects("Allgather", recvbuf, recvoffset, per, size, recvtype);
        int[] lengths = new int[size];
        core.allgather(new int[] {data.length}, 0, 1, Datatype.INT, lengths, 0, 1, Datatype.INT);
        int[] displs = displacements(lengths);
        byte[] all = new byte[total(lengths)];
        core.allgatherv(data, 0, data.length, Datatype.BYTE, all, 0, lengths, displs, Datatype.BYTE);
        place("Allgather", all, lengths, displs, out, recvoffset, per);
    }

    void scatter(Object sendbuf, int sendoffset, int sendcount, mpi.Datatype sendtype,
                 Object recvbuf, int recvoffset, int recvcount, mpi.Datatype recvtype, int root) {
        checkRoot("Scatter", root);
        int per = objects(recvtype, recvcount);
        Object[] out = recvObjects("Scatter", recvbuf, recvoffset, per, 1, recvtype);
        int[] lengths = new int[size];
        byte[] all = new byte[0];
        if (rank == root) {
            if (Comm.kind("Scatter", sendtype) != mpi.Datatype.Kind.OBJECT) {
                throw new MPIException("Scatter: the receive type is OBJECT, so the send type must be too, was "
                    + sendtype);
            }
            Object[] in = Buffers.objects("Scatter", sendbuf);
            int n = objects(sendtype, sendcount);
            if (sendoffset < 0 || sendoffset + (long) n * size > in.length) {
                throw new MPIException("Scatter: " + size + " blocks of " + n + " objects from offset " + sendoffset
                    + " do not fit in sendbuf (length " + in.length + ")");
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int i = 0; i < size; i++) {
                byte[] b = Buffers.serialize("Scatter", in, sendoffset + i * n, n);
                lengths[i] = b.length;
                bytes.write(b, 0, b.length);
            }
            all = bytes.toByteArray();
        }
        int[] mine = new int[1];
        core.scatter(lengths, 0, 1, Datatype.INT, mine, 0, 1, Datatype.INT, root);
        byte[] data = new byte[mine[0]];
        core.scatterv(all, 0, lengths, displacements(lengths), Datatype.BYTE, data, 0, data.length, Datatype.BYTE,
            root);
        Buffers.deserialize("Scatter", data, out, recvoffset, per);
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

    private static void place(String call, byte[] all, int[] lengths, int[] displs, Object[] out, int offset, int per) {
        for (int i = 0; i < lengths.length; i++) {
            Buffers.deserialize(call, Arrays.copyOfRange(all, displs[i], displs[i] + lengths[i]), out, offset + i * per,
                per);
        }
    }
}
