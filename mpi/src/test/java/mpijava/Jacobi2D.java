package mpijava;

import mpi.Cartcomm;
import mpi.Datatype;
import mpi.MPI;
import mpi.ShiftParms;

/**
 * 2D Jacobi on a G x G grid (fixed boundary: the top edge is 1, the others 0) over a Cartesian
 * communicator made with Dims_create and Create_cart. Halos are exchanged with Sendrecv: rows
 * contiguous, columns as a Vector type; off the grid the neighbour is PROC_NULL. The residual
 * is an Allreduce. The root gathers the blocks and checks them bit for bit against a serial
 * Jacobi of the same grid (the same arithmetic per point).
 */
public class Jacobi2D {
    static final int G = 12;
    static final int ITERS = 30;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int size = MPI.COMM_WORLD.Size();
        int[] dims = new int[2];
        Cartcomm.Dims_create(size, dims);
        Cartcomm cart = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {false, false}, false);
        int[] coords = cart.Coords(cart.Rank());
        int nr = G / dims[0];
        int nc = G / dims[1];
        int w = nc + 2;
        double[] u = new double[(nr + 2) * w];
        double[] v = new double[(nr + 2) * w];
        // global boundary: row -1 (above the grid) is 1.0
        if (coords[0] == 0) {
            for (int j = 0; j < w; j++) {
                u[j] = 1.0;
                v[j] = 1.0;
            }
        }
        ShiftParms ud = cart.Shift(0, 1);
        ShiftParms lr = cart.Shift(1, 1);
        Datatype column = Datatype.Vector(nr, 1, w, MPI.DOUBLE);
        column.Commit();
        double residual = 0;
        for (int it = 0; it < ITERS; it++) {
            // down: my last row to the rank below, my top halo from the rank above
            cart.Sendrecv(u, nr * w + 1, nc, MPI.DOUBLE, ud.rank_dest, 1, u, 1, nc, MPI.DOUBLE, ud.rank_source, 1);
            cart.Sendrecv(u, w + 1, nc, MPI.DOUBLE, ud.rank_source, 2, u, (nr + 1) * w + 1, nc, MPI.DOUBLE,
                ud.rank_dest, 2);
            cart.Sendrecv(u, w + nc, 1, column, lr.rank_dest, 3, u, w, 1, column, lr.rank_source, 3);
            cart.Sendrecv(u, w + 1, 1, column, lr.rank_source, 4, u, w + nc + 1, 1, column, lr.rank_dest, 4);
            double local = 0;
            for (int i = 1; i <= nr; i++) {
                for (int j = 1; j <= nc; j++) {
                    double x = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
                    local += (x - u[i * w + j]) * (x - u[i * w + j]);
                    v[i * w + j] = x;
                }
            }
            double[] t = u;
            u = v;
            v = t;
            double[] in = {local};
            double[] out = new double[1];
            cart.Allreduce(in, 0, out, 0, 1, MPI.DOUBLE, MPI.SUM);
            residual = out[0];
        }
        // gather the interiors at rank 0 of the grid
        double[] block = new double[nr * nc];
        for (int i = 0; i < nr; i++) {
            System.arraycopy(u, (i + 1) * w + 1, block, i * nc, nc);
        }
        int p = cart.Size();
        double[] all = cart.Rank() == 0 ? new double[p * nr * nc] : null;
        cart.Gather(block, 0, nr * nc, MPI.DOUBLE, all, 0, nr * nc, MPI.DOUBLE, 0);
        if (cart.Rank() == 0) {
            double[][] ref = serial();
            for (int r = 0; r < p; r++) {
                int[] c = cart.Coords(r);
                for (int i = 0; i < nr; i++) {
                    for (int j = 0; j < nc; j++) {
                        double got = all[r * nr * nc + i * nc + j];
                        double want = ref[c[0] * nr + i + 1][c[1] * nc + j + 1];
                        Ring.check(got == want, "rank " + r + " (" + i + "," + j + "): " + got + " vs serial " + want);
                    }
                }
            }
            System.out.println("residual " + residual + " dims " + dims[0] + "x" + dims[1]);
        }
        System.out.println("PASS jacobi2d");
        MPI.Finalize();
        System.out.println("finalize");
    }

    static double[][] serial() {
        double[][] u = new double[G + 2][G + 2];
        double[][] v = new double[G + 2][G + 2];
        for (int j = 0; j < G + 2; j++) {
            u[0][j] = 1.0;
            v[0][j] = 1.0;
        }
        for (int it = 0; it < ITERS; it++) {
            for (int i = 1; i <= G; i++) {
                for (int j = 1; j <= G; j++) {
                    v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
                }
            }
            double[][] t = u;
            u = v;
            v = t;
        }
        return u;
    }
}
