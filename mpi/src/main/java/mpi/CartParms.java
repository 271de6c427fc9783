package mpi;

/** What {@link Cartcomm#Get()} returns: the grid's extents, periodicity and this rank's coordinates. */
public class CartParms {
    public int[] dims;
    public boolean[] periods;
    public int[] coords;

    public CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }
}
