package org.hympj.examples;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.Status;

/**
 * The flagship demo: explicit 3D heat diffusion (a 7-point Jacobi stencil) on a periodic
 * grid split over the ranks in 3D. Each rank owns an n³ block plus one ghost layer; every
 * iteration exchanges the six faces with persistent requests — one face of each layout:
 * contiguous (i planes), block-stride (j planes), element-stride (k planes) — then updates.
 *
 * <pre>bin/mpjrun -np 8 org.hympj.examples.Jacobi3D [--n 32] [--iters 200] [--verify]</pre>
 *
 * Prints a checksum (the sum of the field, added in a fixed order) and the time per
 * iteration. With {@code --verify} rank 0 also runs the whole grid serially and checks that
 * the distributed field is bit-identical to it (each point's update is the same arithmetic
 * in the same order whatever the decomposition, so any halo error shows).
 */
public final class Jacobi3D {
    private static final double ALPHA = 0.125;

    private Jacobi3D() {
    }

    public static void main(String[] args) {
        int n = 32;
        int iters = 200;
        boolean verify = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n":
                    n = Integer.parseInt(args[++i]);
                    break;
                case "--iters":
                    iters = Integer.parseInt(args[++i]);
                    break;
                case "--verify":
                    verify = true;
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (expected --n N, --iters I, --verify)");
            }
        }
        try (Mpj mpj = Mpj.init(args)) {
            run(mpj.world(), n, iters, verify);
            if (mpj.world().rank() == 0 && !mpj.statistics().isEmpty()) {
                // under a fabric model: how the hybrid router sent rank 0's messages
                System.out.println("rank 0 routes: " + mpj.statistics());
            }
        }
    }

    static void run(Comm comm, int n, int iters, boolean verify) {
        int[] dims = Grid3.dimsFor(comm.size());
        Grid3 grid = new Grid3(dims, comm.rank());
        int m = n + 2;                       // block edge with ghosts
        double[] u = new double[m * m * m];
        double[] v = new double[m * m * m];
        initialise(u, n, grid);

        // faces, sent from the first/last interior plane into the neighbour's ghost plane
        Datatype iFace = Datatype.DOUBLE.contiguous(m * m);             // contiguous
        Datatype jFace = Datatype.DOUBLE.vector(m, m, m * m);           // block-stride
        Datatype kFace = Datatype.DOUBLE.vector(m * m, 1, m);           // element-stride
        Datatype[] face = {iFace, jFace, kFace};
        int[] stride = {m * m, m, 1};
        PersistentRequest[][] reqs = {exchange(comm, grid, face, stride, u, n), exchange(comm, grid, face, stride, v, n)};

        comm.barrier();
        double t0 = comm.wtime();
        for (int it = 0; it < iters; it++) {
            PersistentRequest[] r = reqs[it & 1];
            Request.startAll(r);
            Request.waitAll(r);
            step(it % 2 == 0 ? u : v, it % 2 == 0 ? v : u, n);
        }
        double elapsed = comm.wtime() - t0;
        double[] result = iters % 2 == 0 ? u : v;

        double[] sums = new double[1];
        sums[0] = interiorSum(result, n);
        double total = 0;
        double maxElapsed = elapsed;
        if (comm.rank() == 0) {
            total = sums[0];
            double[] in = new double[2];
            for (int src = 1; src < comm.size(); src++) {  // fixed order: same checksum every run
                comm.recv(in, 0, 2, Datatype.DOUBLE, src, 99, (Status) null);
                total += in[0];
                maxElapsed = Math.max(maxElapsed, in[1]);
            }
        } else {
            comm.send(new double[] {sums[0], elapsed}, 0, 2, Datatype.DOUBLE, 0, 99);
        }
        if (comm.rank() == 0) {
            System.out.printf("Jacobi3D: %d ranks as %dx%dx%d, %d^3 points per rank, %d iterations%n",
                comm.size(), dims[0], dims[1], dims[2], n, iters);
            System.out.printf("checksum %.12e%n", total);
            System.out.printf("time per iteration %.2f us (halo exchange of 6 faces + update)%n",
                maxElapsed * 1e6 / Math.max(1, iters));
        }
        if (verify) {
            verify(comm, grid, result, n, iters);
        }
        for (PersistentRequest[] rs : reqs) {
            for (PersistentRequest r : rs) {
                r.free();
            }
        }
    }

    /** 12 persistent requests: per dimension, send low/high interior planes, receive both ghost planes. */
    private static PersistentRequest[] exchange(Comm comm, Grid3 g, Datatype[] face, int[] stride, double[] a, int n) {
        PersistentRequest[] r = new PersistentRequest[12];
        int k = 0;
        for (int d = 0; d < 3; d++) {
            int lo = g.neighbour(d, -1);
            int hi = g.neighbour(d, +1);
            int s = stride[d];
            r[k++] = comm.recvInit(a, 0, 1, face[d], lo, 2 * d);                 // ghost plane 0 from low
            r[k++] = comm.recvInit(a, (n + 1) * s, 1, face[d], hi, 2 * d + 1);   // ghost plane n+1 from high
            r[k++] = comm.sendInit(a, n * s, 1, face[d], hi, 2 * d);             // my plane n to high's ghost 0
            r[k++] = comm.sendInit(a, s, 1, face[d], lo, 2 * d + 1);             // my plane 1 to low's ghost n+1
        }
        return r;
    }

    static void initialise(double[] u, int n, Grid3 g) {
        int m = n + 2;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                for (int k = 1; k <= n; k++) {
                    u[(i * m + j) * m + k] = initialValue(g.coord(0) * n + i - 1, g.coord(1) * n + j - 1,
                        g.coord(2) * n + k - 1);
                }
            }
        }
    }

    static double initialValue(int gi, int gj, int gk) {
        // a deterministic, irregular field: any wrong halo value changes the result
        return Math.sin(0.37 * gi + 0.11) * Math.cos(0.23 * gj) + 0.01 * ((gi * 7 + gj * 13 + gk * 29) % 17);
    }

    /** One explicit diffusion step from a into b over the interior. */
    static void step(double[] a, double[] b, int n) {
        int m = n + 2;
        int mm = m * m;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                int base = (i * m + j) * m;
                for (int k = 1; k <= n; k++) {
                    int x = base + k;
                    double sum = a[x - mm] + a[x + mm] + a[x - m] + a[x + m] + a[x - 1] + a[x + 1];
                    b[x] = a[x] + ALPHA * (sum - 6 * a[x]);
                }
            }
        }
    }

    static double interiorSum(double[] a, int n) {
        int m = n + 2;
        double s = 0;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                for (int k = 1; k <= n; k++) {
                    s += a[(i * m + j) * m + k];
                }
            }
        }
        return s;
    }

    /** Rank 0 runs the whole grid serially (periodic) and compares every point bit for bit. */
    private static void verify(Comm comm, Grid3 g, double[] result, int n, int iters) {
        int m = n + 2;
        double[] mine = new double[n * n * n];
        int x = 0;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                for (int k = 1; k <= n; k++) {
                    mine[x++] = result[(i * m + j) * m + k];
                }
            }
        }
        if (comm.rank() != 0) {
            comm.send(mine, 0, mine.length, Datatype.DOUBLE, 0, 98);
            return;
        }
        int[] dims = g.dims();
        int gx = dims[0] * n;
        int gy = dims[1] * n;
        int gz = dims[2] * n;
        double[] ref = SerialHeat.run(gx, gy, gz, iters, ALPHA);
        long mismatches = 0;
        double[] block = new double[n * n * n];
        for (int r = 0; r < comm.size(); r++) {
            if (r == 0) {
                System.arraycopy(mine, 0, block, 0, block.length);
            } else {
                comm.recv(block, 0, block.length, Datatype.DOUBLE, r, 98, (Status) null);
            }
            int[] c = Grid3.coordsOf(dims, r);
            int y = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    for (int k = 0; k < n; k++) {
                        double want = ref[((c[0] * n + i) * gy + c[1] * n + j) * gz + c[2] * n + k];
                        if (Double.doubleToRawLongBits(block[y++]) != Double.doubleToRawLongBits(want)) {
                            mismatches++;
                        }
                    }
                }
            }
        }
        if (mismatches != 0) {
            throw new IllegalStateException("verify FAILED: " + mismatches + " points differ from the serial run");
        }
        System.out.println("verify: distributed field is bit-identical to the serial run ("
            + (long) gx * gy * gz + " points)");
    }
}
