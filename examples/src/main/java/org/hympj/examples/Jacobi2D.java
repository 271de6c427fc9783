package org.hympj.examples;

import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;

/**
 * 2D Jacobi iteration for a periodic Poisson problem (5-point stencil) on an N×N grid split
 * over a 2D Cartesian process grid ({@link CartComm#dimsCreate}, periodic in both
 * dimensions). Each rank owns a block of rows × columns (sizes differ by at most one when N
 * does not divide evenly) plus one ghost row/column on every side. Every iteration exchanges
 * the four edges with persistent requests: a row is {@code DOUBLE.contiguous(cols)}, a column
 * is {@code DOUBLE.vector(rows, 1, cols + 2)} (one element per row, a row apart) — sent and
 * received in place, no packing by hand.
 *
 * <pre>bin/mpjrun -np 4 org.hympj.examples.Jacobi2D [--n 512] [--iters 200] [--verify]</pre>
 *
 * The update is {@code u'[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] + f[i][j])}
 * with a zero-mean source f. Prints a checksum (the sum of the field: each rank sums its
 * block, the sums are combined by an allreduce whose order depends on the ranks only), the
 * largest change in the last iteration (an allreduce MAX with {@code IN_PLACE}) and the time
 * per iteration. With {@code --verify} the field is gathered on rank 0 (subarray datatypes)
 * and compared bit for bit with a serial run of the whole grid: every point's update is the
 * same arithmetic in the same order whatever the decomposition, so any halo error shows.
 */
public final class Jacobi2D {
    private static final int TAG_UP = 1;     // a row travelling to the lower-index neighbour
    private static final int TAG_DOWN = 2;   // a row travelling to the higher-index neighbour
    private static final int TAG_LEFT = 3;
    private static final int TAG_RIGHT = 4;

    private Jacobi2D() {
    }

    public static void main(String[] args) {
        int n = 512;
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
        }
    }

    static void run(Comm world, int n, int iters, boolean verify) {
        int[] dims = CartComm.dimsCreate(world.size(), new int[2]);
        if (n < Math.max(dims[0], dims[1])) {
            throw new IllegalArgumentException("--n " + n + " is smaller than the process grid " + Blocks.format(dims));
        }
        CartComm cart = world.createCart(dims, new boolean[] {true, true}, false);
        int[] c = cart.coords();
        int rows = Blocks.size(n, dims[0], c[0]);
        int cols = Blocks.size(n, dims[1], c[1]);
        int row0 = Blocks.start(n, dims[0], c[0]);
        int col0 = Blocks.start(n, dims[1], c[1]);
        int m = cols + 2;                                   // row length with the two ghost columns
        double[] u = new double[(rows + 2) * m];
        double[] v = new double[u.length];
        double[] f = new double[u.length];
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                u[i * m + j] = initialValue(row0 + i - 1, col0 + j - 1);
                f[i * m + j] = source(row0 + i - 1, col0 + j - 1, n);
            }
        }

        Datatype row = Datatype.DOUBLE.contiguous(cols);           // one interior row
        Datatype column = Datatype.DOUBLE.vector(rows, 1, m);      // one interior column
        PersistentRequest[][] reqs = {halo(cart, u, rows, cols, row, column), halo(cart, v, rows, cols, row, column)};

        cart.barrier();
        double t0 = cart.wtime();
        for (int it = 0; it < iters; it++) {
            PersistentRequest[] r = reqs[it & 1];
            Request.startAll(r);
            Request.waitAll(r);
            step(it % 2 == 0 ? u : v, it % 2 == 0 ? v : u, f, rows, cols);
        }
        double[] elapsed = {cart.wtime() - t0};
        double[] result = iters % 2 == 0 ? u : v;
        double[] other = iters % 2 == 0 ? v : u;

        double[] sum = {0};
        double[] change = {0};
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                sum[0] += result[i * m + j];
                change[0] = Math.max(change[0], Math.abs(result[i * m + j] - other[i * m + j]));
            }
        }
        cart.allreduce(Comm.IN_PLACE, 0, sum, 0, 1, Datatype.DOUBLE, Op.SUM);
        cart.allreduce(Comm.IN_PLACE, 0, change, 0, 1, Datatype.DOUBLE, Op.MAX);
        cart.allreduce(Comm.IN_PLACE, 0, elapsed, 0, 1, Datatype.DOUBLE, Op.MAX);
        if (cart.rank() == 0) {
            System.out.printf("Jacobi2D: %d ranks as %s, %dx%d grid (periodic), %d iterations%n",
                cart.size(), Blocks.format(dims), n, n, iters);
            System.out.printf("checksum %.12e%n", sum[0]);
            System.out.printf("max change in the last iteration %.6e%n", iters > 0 ? change[0] : 0.0);
            System.out.printf("time per iteration %.2f us (halo exchange of 4 edges + update)%n",
                elapsed[0] * 1e6 / Math.max(1, iters));
        }
        if (verify) {
            verify(cart, dims, result, n, iters);
        }
        for (PersistentRequest[] rs : reqs) {
            for (PersistentRequest r : rs) {
                r.free();
            }
        }
    }

    /**
     * 8 persistent requests on {@code a}: per dimension, receive both ghost lines and send both
     * edge lines. Tags say which way a line travels, so they match even when both neighbours are
     * the same rank (a grid 2 wide) or this rank itself (a grid 1 wide).
     */
    private static PersistentRequest[] halo(CartComm cart, double[] a, int rows, int cols, Datatype row,
                                            Datatype column) {
        int m = cols + 2;
        CartComm.Shift ud = cart.shift(0, 1);      // source = the row above (lower index), dest = below
        CartComm.Shift lr = cart.shift(1, 1);
        return new PersistentRequest[] {
            cart.recvInit(a, 1, 1, row, ud.source(), TAG_DOWN),                  // ghost row 0
            cart.recvInit(a, (rows + 1) * m + 1, 1, row, ud.dest(), TAG_UP),     // ghost row rows+1
            cart.recvInit(a, m, 1, column, lr.source(), TAG_RIGHT),              // ghost column 0
            cart.recvInit(a, m + cols + 1, 1, column, lr.dest(), TAG_LEFT),      // ghost column cols+1
            cart.sendInit(a, rows * m + 1, 1, row, ud.dest(), TAG_DOWN),         // last row, down
            cart.sendInit(a, m + 1, 1, row, ud.source(), TAG_UP),                // first row, up
            cart.sendInit(a, m + cols, 1, column, lr.dest(), TAG_RIGHT),         // last column, right
            cart.sendInit(a, m + 1, 1, column, lr.source(), TAG_LEFT),           // first column, left
        };
    }

    /** One Jacobi sweep from a into b over the interior (ghosts of a filled). */
    static void step(double[] a, double[] b, double[] f, int rows, int cols) {
        int m = cols + 2;
        for (int i = 1; i <= rows; i++) {
            int base = i * m;
            for (int j = 1; j <= cols; j++) {
                int x = base + j;
                b[x] = 0.25 * (a[x - m] + a[x + m] + a[x - 1] + a[x + 1] + f[x]);
            }
        }
    }

    static double initialValue(int gi, int gj) {
        // deterministic and irregular: any wrong halo value changes the result
        return Math.sin(0.37 * gi + 0.11) * Math.cos(0.23 * gj) + 0.01 * ((gi * 7 + gj * 13) % 17);
    }

    /** A zero-mean periodic source (h² f of the Poisson problem). */
    static double source(int gi, int gj, int n) {
        double h = 1.0 / n;
        return h * h * Math.sin(2 * Math.PI * gi / n) * Math.cos(4 * Math.PI * gj / n);
    }

    /** The whole periodic grid on one rank, same arithmetic, same operand order; row-major. */
    static double[] serial(int n, int iters) {
        double[] a = new double[n * n];
        double[] b = new double[n * n];
        double[] f = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i * n + j] = initialValue(i, j);
                f[i * n + j] = source(i, j, n);
            }
        }
        for (int it = 0; it < iters; it++) {
            for (int i = 0; i < n; i++) {
                int im = (i + n - 1) % n;
                int ip = (i + 1) % n;
                for (int j = 0; j < n; j++) {
                    int jm = (j + n - 1) % n;
                    int jp = (j + 1) % n;
                    b[i * n + j] = 0.25 * (a[im * n + j] + a[ip * n + j] + a[i * n + jm] + a[i * n + jp] + f[i * n + j]);
                }
            }
            double[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    /** Gathers the field on rank 0 and compares every point with the serial run, bit for bit. */
    private static void verify(CartComm cart, int[] dims, double[] result, int n, int iters) {
        int[] c = cart.coords();
        int rows = Blocks.size(n, dims[0], c[0]);
        int cols = Blocks.size(n, dims[1], c[1]);
        Datatype mine = Datatype.DOUBLE.subarray(new int[] {rows + 2, cols + 2}, new int[] {rows, cols},
            new int[] {1, 1});
        double[] global = null;
        Datatype[] boxes = null;
        if (cart.rank() == 0) {
            global = new double[n * n];
            boxes = new Datatype[cart.size()];
            for (int r = 0; r < cart.size(); r++) {
                int[] rc = cart.coords(r);
                boxes[r] = Datatype.DOUBLE.subarray(new int[] {n, n},
                    new int[] {Blocks.size(n, dims[0], rc[0]), Blocks.size(n, dims[1], rc[1])},
                    new int[] {Blocks.start(n, dims[0], rc[0]), Blocks.start(n, dims[1], rc[1])});
            }
        }
        Gather.toRoot(cart, result, mine, global, boxes);
        if (cart.rank() != 0) {
            return;
        }
        double[] ref = serial(n, iters);
        long mismatches = 0;
        for (int x = 0; x < ref.length; x++) {
            if (Double.doubleToRawLongBits(global[x]) != Double.doubleToRawLongBits(ref[x])) {
                mismatches++;
            }
        }
        if (mismatches != 0) {
            throw new IllegalStateException("verify FAILED: " + mismatches + " points differ from the serial run");
        }
        System.out.println("verify: distributed field is bit-identical to the serial run (" + (long) n * n + " points)");
    }
}
