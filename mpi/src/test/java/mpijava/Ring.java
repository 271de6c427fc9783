package mpijava;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * A token passed around the ring three times, in the mpiJava style: every rank adds one to
 * it, so after lap L rank 0 must hold L * size. Each rank checks what it received.
 */
public class Ring {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        int[] token = new int[1];
        int laps = 3;
        for (int lap = 1; lap <= laps; lap++) {
            if (me == 0) {
                token[0]++;
                Request r = MPI.COMM_WORLD.Isend(token, 0, 1, MPI.INT, next, 99);
                Status s = MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, prev, 99);
                r.Wait();
                check(s.source == prev && s.tag == 99, "status source " + s.source + " tag " + s.tag);
                check(token[0] == lap * size, "lap " + lap + ": token " + token[0] + ", expected " + lap * size);
            } else {
                Status s = MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                check(s.source == prev && s.tag == 99 && s.Get_count(MPI.INT) == 1, "status " + s);
                check(token[0] == (lap - 1) * size + me, "lap " + lap + ": token " + token[0]);
                token[0]++;
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, next, 99);
            }
        }
        System.out.println("PASS ring");
        MPI.Finalize();
        System.out.println("finalize");
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("rank " + MPI.COMM_WORLD.Rank() + ": " + what);
        }
    }
}
