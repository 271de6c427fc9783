package org.hympj.api;

/**
 * A communicator with a Cartesian topology (row-major: the last dimension varies fastest).
 * Made by {@link Comm#createCart}.
 */
public interface CartComm extends Comm {
    /** The source and destination ranks of a shift; {@link Comm#PROC_NULL} off a non-periodic edge. */
    final class Shift {
        private final int source;
        private final int dest;

        public Shift(int source, int dest) {
            this.source = source;
            this.dest = dest;
        }

        /** The rank data comes from (this rank's coordinate minus the displacement). */
        public int source() {
            return source;
        }

        /** The rank data goes to (this rank's coordinate plus the displacement). */
        public int dest() {
            return dest;
        }

        @Override
        public String toString() {
            return "Shift[source=" + source + ", dest=" + dest + "]";
        }
    }

    /** Number of dimensions. */
    int ndims();

    /** Extent of each dimension (a copy). */
    int[] dims();

    /** Periodicity of each dimension (a copy). */
    boolean[] periods();

    /** This rank's coordinates. */
    int[] coords();

    /** The coordinates of {@code rank}. */
    int[] coords(int rank);

    /**
     * The rank at {@code coords}; coordinates of periodic dimensions wrap, others must be in range.
     */
    int rankOf(int... coords);

    /** MPI_Cart_shift: neighbours at distance {@code disp} along {@code dim}. */
    Shift shift(int dim, int disp);

    /**
     * MPI_Neighbor_alltoall_init: a persistent exchange with the 2·ndims neighbours — for each
     * dimension d the neighbour at coordinate -1, then the one at +1 ({@link Comm#PROC_NULL} off a
     * non-periodic edge: nothing goes there and its receive block is left as it was). Block j of
     * {@code sendCount} items (at {@code sendOffset + j·sendCount·extent}) goes to neighbour j;
     * block j of the receive buffer comes from neighbour j. Resolved at init like the other
     * persistent collectives (a start allocates nothing).
     */
    PersistentRequest neighborAlltoallInit(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                                           Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /** MPI_Ineighbor_alltoall: the same exchange once, non-blocking. */
    Request ineighborAlltoall(Object sendBuf, int sendOffset, int sendCount, Datatype sendType,
                              Object recvBuf, int recvOffset, int recvCount, Datatype recvType);

    /** MPI_Cart_sub: the sub-grid keeping the dimensions where {@code remain[d]} is true. */
    CartComm sub(boolean... remain);

    /** This communicator's duplicate keeps its grid (MPI_Comm_dup copies the topology). */
    @Override
    CartComm dup();

    /** A duplicate with hints ({@link Comm#dup(java.util.Map)}) keeps the grid too. */
    @Override
    CartComm dup(java.util.Map<String, String> hints);

    /**
     * MPI_Dims_create: fills the zero entries of {@code dims} with a balanced factorisation of
     * {@code nnodes} (non-increasing order), keeping the non-zero ones.
     *
     * @return the completed array (a copy)
     */
    static int[] dimsCreate(int nnodes, int[] dims) {
        return Topology.dimsCreate(nnodes, dims);
    }
}
