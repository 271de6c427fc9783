package mpi;

/** A communicator with a Cartesian topology (mpiJava 1.2), over {@link org.hympj.api.CartComm}. */
public class Cartcomm extends Intracomm {
    private final org.hympj.api.CartComm cart;

    Cartcomm(org.hympj.api.CartComm cart, int[] worldRanks) {
        super(cart, worldRanks);
        this.cart = cart;
    }

    /** The grid's extents, periodicity and this rank's coordinates. */
    public CartParms Get() {
        return new CartParms(cart.dims(), cart.periods(), cart.coords());
    }

    /** The rank at {@code coords} (periodic dimensions wrap). */
    public int Rank(int[] coords) {
        try {
            if (coords == null || coords.length != cart.ndims()) {
                throw new MPIException("Rank: coords must have " + cart.ndims() + " entries");
            }
            return cart.rankOf(coords);
        } catch (RuntimeException e) {
            throw MPIException.of("Rank", e);
        }
    }

    /** The coordinates of {@code rank}. */
    public int[] Coords(int rank) {
        if (rank < 0 || rank >= Size()) {
            throw new MPIException("Coords: rank must be 0.." + (Size() - 1) + ", was " + rank);
        }
        return cart.coords(rank);
    }

    /** Neighbours at distance {@code disp} along {@code direction}; {@link MPI#PROC_NULL} off a non-periodic edge. */
    public ShiftParms Shift(int direction, int disp) {
        try {
            org.hympj.api.CartComm.Shift s = cart.shift(direction, disp);
            return new ShiftParms(s.source(), s.dest());
        } catch (RuntimeException e) {
            throw MPIException.of("Shift", e);
        }
    }

    /** The sub-grid keeping the dimensions where {@code remain_dims[d]} is true (collective). */
    public Cartcomm Sub(boolean[] remain_dims) {
        try {
            if (remain_dims == null) {
                throw new MPIException("Sub: remain_dims must not be null");
            }
            org.hympj.api.CartComm c = cart.sub(remain_dims);
            return new Cartcomm(c, worldRanksOf(c));
        } catch (RuntimeException e) {
            throw MPIException.of("Sub", e);
        }
    }

    /** MPI_Cart_map: the rank this process would have in such a grid (no reordering), or UNDEFINED. */
    public int Map(int[] dims, boolean[] periods) {
        if (dims == null || periods == null || dims.length != periods.length) {
            throw new MPIException("Map: dims and periods must be of equal length");
        }
        long n = 1;
        for (int d : dims) {
            if (d < 1) {
                throw new MPIException("Map: every dimension must be >= 1");
            }
            n *= d;
        }
        if (n > Size()) {
            throw new MPIException("Map: the grid needs " + n + " ranks, the communicator has " + Size());
        }
        return Rank() < n ? Rank() : MPI.UNDEFINED;
    }

    @Override
    public int Topo_test() {
        return MPI.CART;
    }

    @Override
    public Cartcomm Dup() {
        try {
            // a Cartesian communicator's duplicate keeps its topology
            org.hympj.api.CartComm c = cart.createCart(cart.dims(), cart.periods(), false);
            return new Cartcomm(c, group.members.clone());
        } catch (RuntimeException e) {
            throw MPIException.of("Dup", e);
        }
    }

    /**
     * Fills the zero entries of {@code dims} with a balanced factorisation of {@code nnodes},
     * keeping the entries the caller fixed (non-zero).
     */
    public static void Dims_create(int nnodes, int[] dims) {
        try {
            int[] out = org.hympj.api.CartComm.dimsCreate(nnodes, dims);
            System.arraycopy(out, 0, dims, 0, dims.length);
        } catch (RuntimeException e) {
            throw MPIException.of("Dims_create", e);
        }
    }
}
