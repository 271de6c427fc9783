package mpijava;

import mpi.MPI;

/**
 * C = A B with the rows of A dealt unevenly (Scatterv), B broadcast, the rows of C collected
 * with Gatherv; the root checks C against a serial product (integer-valued doubles: exact).
 */
public class MatMul {
    static final int M = 10;
    static final int K = 7;
    static final int N = 5;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int[] rows = new int[size];
        for (int r = 0; r < size; r++) {
            rows[r] = M / size + (r < M % size ? 1 : 0);
        }
        int[] countsA = new int[size];
        int[] displsA = new int[size];
        int[] countsC = new int[size];
        int[] displsC = new int[size];
        for (int r = 0, at = 0; r < size; at += rows[r], r++) {
            countsA[r] = rows[r] * K;
            displsA[r] = at * K;
            countsC[r] = rows[r] * N;
            displsC[r] = at * N;
        }
        double[] a = null;
        double[] b = new double[K * N];
        double[] c = null;
        if (me == 0) {
            a = new double[M * K];
            c = new double[M * N];
            for (int i = 0; i < a.length; i++) {
                a[i] = (i * 7) % 11 - 5;
            }
            for (int i = 0; i < b.length; i++) {
                b[i] = (i * 3) % 5 - 2;
            }
        }
        double[] myA = new double[Math.max(1, rows[me] * K)];
        double[] myC = new double[Math.max(1, rows[me] * N)];
        MPI.COMM_WORLD.Scatterv(a, 0, countsA, displsA, MPI.DOUBLE, myA, 0, countsA[me], MPI.DOUBLE, 0);
        MPI.COMM_WORLD.Bcast(b, 0, b.length, MPI.DOUBLE, 0);
        for (int i = 0; i < rows[me]; i++) {
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < K; k++) {
                    s += myA[i * K + k] * b[k * N + j];
                }
                myC[i * N + j] = s;
            }
        }
        MPI.COMM_WORLD.Gatherv(myC, 0, countsC[me], MPI.DOUBLE, c, 0, countsC, displsC, MPI.DOUBLE, 0);
        if (me == 0) {
            for (int i = 0; i < M; i++) {
                for (int j = 0; j < N; j++) {
                    double s = 0;
                    for (int k = 0; k < K; k++) {
                        s += a[i * K + k] * b[k * N + j];
                    }
                    Ring.check(c[i * N + j] == s, "C[" + i + "][" + j + "] = " + c[i * N + j] + ", expected " + s);
                }
            }
        }
        System.out.println("PASS matmul");
        MPI.Finalize();
        System.out.println("finalize");
    }
}
