package org.hympj.examples;

/** The serial reference of {@link Jacobi3D}: the whole periodic grid on one rank, same arithmetic. */
final class SerialHeat {
    private SerialHeat() {
    }

    /** Runs {@code iters} steps on a gx×gy×gz periodic grid; returns the field, k fastest. */
    static double[] run(int gx, int gy, int gz, int iters, double alpha) {
        double[] a = new double[gx * gy * gz];
        double[] b = new double[a.length];
        for (int i = 0; i < gx; i++) {
            for (int j = 0; j < gy; j++) {
                for (int k = 0; k < gz; k++) {
                    a[(i * gy + j) * gz + k] = Jacobi3D.initialValue(i, j, k);
                }
            }
        }
        for (int it = 0; it < iters; it++) {
            for (int i = 0; i < gx; i++) {
                int im = (i + gx - 1) % gx;
                int ip = (i + 1) % gx;
                for (int j = 0; j < gy; j++) {
                    int jm = (j + gy - 1) % gy;
                    int jp = (j + 1) % gy;
                    for (int k = 0; k < gz; k++) {
                        int km = (k + gz - 1) % gz;
                        int kp = (k + 1) % gz;
                        double c = a[(i * gy + j) * gz + k];
                        // same operand order as Jacobi3D.step: i-1, i+1, j-1, j+1, k-1, k+1
                        double sum = a[(im * gy + j) * gz + k] + a[(ip * gy + j) * gz + k]
                            + a[(i * gy + jm) * gz + k] + a[(i * gy + jp) * gz + k]
                            + a[(i * gy + j) * gz + km] + a[(i * gy + j) * gz + kp];
                        b[(i * gy + j) * gz + k] = c + alpha * (sum - 6 * c);
                    }
                }
            }
            double[] t = a;
            a = b;
            b = t;
        }
        return a;
    }
}
