package mpijava;

import mpi.MPI;

/** Rank 1 aborts while rank 0 waits for a message that never comes: the whole job must end. */
public class AbortJob {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 1) {
            MPI.COMM_WORLD.Abort(7);
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 1);
        System.out.println("not reached");
        MPI.Finalize();
    }
}
