package mpi;

/** What {@link Cartcomm#Shift(int, int)} returns; {@link MPI#PROC_NULL} off a non-periodic edge. */
public class ShiftParms {
    public int rank_source;
    public int rank_dest;

    public ShiftParms(int rankSource, int rankDest) {
        this.rank_source = rankSource;
        this.rank_dest = rankDest;
    }
}
