package org.hympj.shm.pml;

import org.hympj.api.Datatype;

/**
 * The collectives with a count and a displacement per rank (MPI's "v" variants) of one
 * communicator, on its collective context. Displacements are in items of the datatype (its
 * extent), from the buffer offset. Every argument a rank uses is checked before it sends or
 * receives anything.
 */
final class VCollectives {
    static final int TAG_GATHERV = 20;
    static final int TAG_SCATTERV = 21;
    static final int TAG_ALLGATHERV = 22;
    static final int TAG_ALLTOALLV = 23;

    private final ShmComm comm;
    private final int rank;
    private final int size;

    VCollectives(ShmComm comm) {
        this.comm = comm;
        this.rank = comm.rank;
        this.size = comm.size;
    }

    /** Linear gather onto the root, each block straight into place. */
    void gatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                 Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType, int root) {
        checkRoot("gatherv", root);
        Args.buffer("gatherv (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        if (rank != root) {
            comm.collSend(sendBuf, sendOffset, sendCount, sendType, root, TAG_GATHERV);
            return;
        }
        try {
            checkBlocks("gatherv (receive)", recvBuf, recvOffset, recvCounts, displs, recvType);
        } catch (RuntimeException refused) {
            comm.discardFromOthers(TAG_GATHERV); // the others have sent: take their blocks, then refuse
            throw refused;
        }
        for (int i = 0; i < size; i++) {
            int at = at(recvOffset, displs[i], recvType);
            if (i == rank) {
                comm.exchange(sendBuf, sendOffset, sendCount, sendType, rank,
                    recvBuf, at, recvCounts[i], recvType, rank, TAG_GATHERV);
            } else {
                comm.collRecv(recvBuf, at, recvCounts[i], recvType, i, TAG_GATHERV);
            }
        }
    }

    void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root) {
        scatterv(sendBuf, sendOffset, sendCounts, displs, sendType, recvBuf, recvOffset, recvCount, recvType, root,
            TAG_SCATTERV);
    }

    /** Linear scatter from the root; {@code tag} lets reduce-scatter use its own. */
    void scatterv(Object sendBuf, int sendOffset, int[] sendCounts, int[] displs, Datatype sendType,
                  Object recvBuf, int recvOffset, int recvCount, Datatype recvType, int root, int tag) {
        checkRoot("scatterv", root);
        Args.buffer("scatterv (receive)", recvBuf, recvOffset, recvCount, recvType, comm.segment);
        if (rank != root) {
            comm.collRecv(recvBuf, recvOffset, recvCount, recvType, root, tag);
            return;
        }
        try {
            checkBlocks("scatterv (send)", sendBuf, sendOffset, sendCounts, displs, sendType);
        } catch (RuntimeException refused) {
            comm.signalOthers(tag); // the others wait for their block: an empty one tells them
            throw refused;
        }
        for (int i = 0; i < size; i++) {
            int at = at(sendOffset, displs[i], sendType);
            if (i == rank) {
                comm.exchange(sendBuf, at, sendCounts[i], sendType, rank,
                    recvBuf, recvOffset, recvCount, recvType, rank, tag);
            } else {
                comm.collSend(sendBuf, at, sendCounts[i], sendType, i, tag);
            }
        }
    }

    /** Ring: p-1 steps, each passing the block received last to the right, straight into place. */
    void allgatherv(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                    Object recvBuf, int recvOffset, int[] recvCounts, int[] displs, Datatype recvType) {
        Args.buffer("allgatherv (send)", sendBuf, sendOffset, sendCount, sendType, comm.segment);
        checkBlocks("allgatherv (receive)", recvBuf, recvOffset, recvCounts, displs, recvType);
        comm.exchange(sendBuf, sendOffset, sendCount, sendType, rank,
            recvBuf, at(recvOffset, displs[rank], recvType), recvCounts[rank], recvType, rank, TAG_ALLGATHERV);
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int step = 0; step < size - 1; step++) {
            int out = (rank - step + size) % size;
            int in = (rank - step - 1 + size) % size;
            comm.exchange(recvBuf, at(recvOffset, displs[out], recvType), recvCounts[out], recvType, right,
                recvBuf, at(recvOffset, displs[in], recvType), recvCounts[in], recvType, left, TAG_ALLGATHERV);
        }
    }

    /** Pairwise exchange: in step k, send to rank+k and receive from rank-k. */
    void alltoallv(Object sendBuf, int sendOffset, int[] sendCounts, int[] sdispls, Datatype sendType,
                   Object recvBuf, int recvOffset, int[] recvCounts, int[] rdispls, Datatype recvType) {
        checkBlocks("alltoallv (send)", sendBuf, sendOffset, sendCounts, sdispls, sendType);
        checkBlocks("alltoallv (receive)", recvBuf, recvOffset, recvCounts, rdispls, recvType);
        for (int k = 0; k < size; k++) {
            int to = (rank + k) % size;
            int from = (rank - k + size) % size;
            comm.exchange(sendBuf, at(sendOffset, sdispls[to], sendType), sendCounts[to], sendType, to,
                recvBuf, at(recvOffset, rdispls[from], recvType), recvCounts[from], recvType, from, TAG_ALLTOALLV);
        }
    }

    static int at(int offset, int displ, Datatype type) {
        return Math.toIntExact(offset + (long) displ * type.extent());
    }

    /**
     * Counts and displacements have one entry per rank (of this communicator's group: an
     * intercommunicator's remote group for its view of it), none negative, and every block lies
     * in the buffer.
     */
    void checkBlocks(String op, Object buf, int offset, int[] counts, int[] displs, Datatype type) {
        if (counts == null || counts.length < size) {
            throw new IllegalArgumentException(op + ": counts must have " + size + " entries (one per rank), "
                + (counts == null ? "was null" : "had " + counts.length));
        }
        if (displs == null || displs.length < size) {
            throw new IllegalArgumentException(op + ": displs must have " + size + " entries (one per rank), "
                + (displs == null ? "was null" : "had " + displs.length));
        }
        Args.buffer(op, buf, offset, 0, type, comm.segment);
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0) {
                throw new IllegalArgumentException(op + ": counts[" + i + "] must be >= 0, was " + counts[i]);
            }
            if (displs[i] < 0) {
                throw new IllegalArgumentException(op + ": displs[" + i + "] must be >= 0, was " + displs[i]);
            }
            Args.buffer(op + " block " + i, buf, at(offset, displs[i], type), counts[i], type, comm.segment);
        }
    }

    private void checkRoot(String op, int root) {
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException(op + ": root must be 0.." + (size - 1) + ", was " + root);
        }
    }
}
