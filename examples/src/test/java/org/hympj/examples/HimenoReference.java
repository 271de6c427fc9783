package org.hympj.examples;

/**
 * An independent, deliberately plain serial Himeno (himenoBMTxp's structure: 3D float arrays
 * indexed [i][j][k], {@code a[4]}, {@code b[3]}, {@code c[3]}, {@code bnd}, {@code wrk1},
 * {@code wrk2}, the original's initialisation and loops), written in the test from the C code
 * and sharing nothing with {@link Himeno}. gosa is returned two ways: as the original (float
 * sum) and as {@link Himeno} documents it (each float {@code ss*ss} added to a double in
 * (i, j, k) order).
 */
final class HimenoReference {
    final int mimax;
    final int mjmax;
    final int mkmax;
    final float[][][] p;
    private final float[][][][] a;
    private final float[][][][] b;
    private final float[][][][] c;
    private final float[][][] bnd;
    private final float[][][] wrk1;
    private final float[][][] wrk2;
    private final float omega = (float) 0.8;
    /** gosa of the last iteration, summed in double. */
    double gosa;
    /** gosa of the last iteration, summed in float as the original does. */
    float gosaFloat;

    HimenoReference(int mimax, int mjmax, int mkmax) {
        this.mimax = mimax;
        this.mjmax = mjmax;
        this.mkmax = mkmax;
        p = new float[mimax][mjmax][mkmax];
        a = new float[4][mimax][mjmax][mkmax];
        b = new float[3][mimax][mjmax][mkmax];
        c = new float[3][mimax][mjmax][mkmax];
        bnd = new float[mimax][mjmax][mkmax];
        wrk1 = new float[mimax][mjmax][mkmax];
        wrk2 = new float[mimax][mjmax][mkmax];
        // mat_set_init(&p)
        for (int i = 0; i < mimax; i++) {
            for (int j = 0; j < mjmax; j++) {
                for (int k = 0; k < mkmax; k++) {
                    p[i][j][k] = (float) (i * i) / (float) ((mimax - 1) * (mimax - 1));
                }
            }
        }
        set(bnd, 1.0f);
        set(wrk1, 0.0f);
        set(wrk2, 0.0f);
        set(a[0], 1.0f);
        set(a[1], 1.0f);
        set(a[2], 1.0f);
        set(a[3], (float) (1.0 / 6.0));   // mat_set(&a,3,1.0/6.0): the double 1/6 passed as a float
        set(b[0], 0.0f);
        set(b[1], 0.0f);
        set(b[2], 0.0f);
        set(c[0], 1.0f);
        set(c[1], 1.0f);
        set(c[2], 1.0f);
    }

    private void set(float[][][] m, float v) {
        for (float[][] plane : m) {
            for (float[] row : plane) {
                java.util.Arrays.fill(row, v);
            }
        }
    }

    /** The original jacobi(nn, ...): returns the double gosa of the last iteration. */
    double jacobi(int nn) {
        int imax = mimax - 1;
        int jmax = mjmax - 1;
        int kmax = mkmax - 1;
        for (int n = 0; n < nn; n++) {
            double g = 0.0;
            float gf = 0.0f;
            for (int i = 1; i < imax; i++) {
                for (int j = 1; j < jmax; j++) {
                    for (int k = 1; k < kmax; k++) {
                        float s0 = a[0][i][j][k] * p[i + 1][j][k]
                            + a[1][i][j][k] * p[i][j + 1][k]
                            + a[2][i][j][k] * p[i][j][k + 1]
                            + b[0][i][j][k]
                            * (p[i + 1][j + 1][k] - p[i + 1][j - 1][k]
                            - p[i - 1][j + 1][k] + p[i - 1][j - 1][k])
                            + b[1][i][j][k]
                            * (p[i][j + 1][k + 1] - p[i][j - 1][k + 1]
                            - p[i][j + 1][k - 1] + p[i][j - 1][k - 1])
                            + b[2][i][j][k]
                            * (p[i + 1][j][k + 1] - p[i - 1][j][k + 1]
                            - p[i + 1][j][k - 1] + p[i - 1][j][k - 1])
                            + c[0][i][j][k] * p[i - 1][j][k]
                            + c[1][i][j][k] * p[i][j - 1][k]
                            + c[2][i][j][k] * p[i][j][k - 1]
                            + wrk1[i][j][k];
                        float ss = (s0 * a[3][i][j][k] - p[i][j][k]) * bnd[i][j][k];
                        float sq = ss * ss;
                        g += sq;
                        gf += sq;
                        wrk2[i][j][k] = p[i][j][k] + omega * ss;
                    }
                }
            }
            for (int i = 1; i < imax; i++) {
                for (int j = 1; j < jmax; j++) {
                    for (int k = 1; k < kmax; k++) {
                        p[i][j][k] = wrk2[i][j][k];
                    }
                }
            }
            gosa = g;
            gosaFloat = gf;
        }
        return gosa;
    }
}
