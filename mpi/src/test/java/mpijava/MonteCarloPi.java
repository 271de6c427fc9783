package mpijava;

import java.util.Random;
import mpi.MPI;

/**
 * Monte-Carlo pi: every rank throws darts with its own seed and the hits are summed with
 * Reduce (and Allreduce). The root recomputes every rank's hits serially from the same seeds
 * and checks the reduced count equals them exactly, and that pi is near.
 */
public class MonteCarloPi {
    static final int DARTS = 200_000;

    static long hits(int rank) {
        Random r = new Random(12345L + rank);
        long h = 0;
        for (int i = 0; i < DARTS; i++) {
            double x = r.nextDouble();
            double y = r.nextDouble();
            if (x * x + y * y <= 1.0) {
                h++;
            }
        }
        return h;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        long[] mine = {hits(me)};
        long[] total = new long[1];
        MPI.COMM_WORLD.Reduce(mine, 0, total, 0, 1, MPI.LONG, MPI.SUM, 0);
        long[] everywhere = new long[1];
        MPI.COMM_WORLD.Allreduce(mine, 0, everywhere, 0, 1, MPI.LONG, MPI.SUM);
        long expected = 0;
        for (int r = 0; r < size; r++) {
            expected += hits(r);
        }
        Ring.check(everywhere[0] == expected, "Allreduce " + everywhere[0] + ", expected " + expected);
        if (me == 0) {
            Ring.check(total[0] == expected, "Reduce " + total[0] + ", expected " + expected);
            double pi = 4.0 * total[0] / ((double) DARTS * size);
            Ring.check(Math.abs(pi - Math.PI) < 0.02, "pi " + pi);
            System.out.println("pi " + pi);
        }
        System.out.println("PASS pi");
        MPI.Finalize();
        System.out.println("finalize");
    }
}
