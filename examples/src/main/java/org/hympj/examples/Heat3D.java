package org.hympj.examples;

import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;

/**
 * Explicit 3D heat diffusion (7-point stencil) with fixed boundary values, overlapping the
 * halo exchange with computation. The NX×NY×NZ grid is split over a non-periodic 3D
 * Cartesian process grid ({@link CartComm#dimsCreate}); neighbours off the edge are
 * {@link Comm#PROC_NULL}, so the ghost planes there keep the boundary values. The six faces
 * are {@link Datatype#subarray} types of the local array (ghosts included in its size, so one
 * item at offset 0 is the face), bound once into 12 persistent requests. Each iteration:
 *
 * <ol>
 *   <li>{@code Request.startAll} — the faces start moving;</li>
 *   <li>update the inner points, those whose six neighbours are all owned by this rank;</li>
 *   <li>{@code Request.waitAll} — the ghost planes are now filled;</li>
 *   <li>update the boundary layer (the owned points next to a ghost plane).</li>
 * </ol>
 *
 * Sending from the array while the inner update reads it is safe (both only read it); the
 * update writes the other array of the pair. {@code --no-overlap} waits before updating
 * everything, for comparison.
 *
 * <pre>bin/mpjrun -np 8 org.hympj.examples.Heat3D [--n 64 | --grid NXxNYxNZ] [--iters 100] [--no-overlap] [--verify]</pre>
 *
 * Prints a checksum, the time per iteration and the share of it spent waiting for the halo.
 * {@code --verify}: rank 0 gathers the field (subarray types again) and checks it is
 * bit-identical to a plain serial run: the update of a point is the same arithmetic in the same
 * order whichever rank does it and whenever (before or after the wait), so the split into
 * inner and boundary points cannot change a bit — only a halo error can.
 */
public final class Heat3D {
    private static final double ALPHA = 0.1;

    private Heat3D() {
    }

    public static void main(String[] args) {
        int[] grid = {64, 64, 64};
        int iters = 100;
        boolean verify = false;
        boolean overlap = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n": {
                    int n = Integer.parseInt(args[++i]);
                    grid = new int[] {n, n, n};
                    break;
                }
                case "--grid":
                    grid = Blocks.parseDims(args[++i]);
                    if (grid.length != 3) {
                        throw new IllegalArgumentException("--grid needs NXxNYxNZ, was " + args[i]);
                    }
                    break;
                case "--iters":
                    iters = Integer.parseInt(args[++i]);
                    break;
                case "--verify":
                    verify = true;
                    break;
                case "--no-overlap":
                    overlap = false;
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (expected --n N, --grid NXxNYxNZ, --iters I, --no-overlap, --verify)");
            }
        }
        try (Mpj mpj = Mpj.init(args)) {
            run(mpj.world(), grid, iters, overlap, verify);
        }
    }

    /** This rank's block: owned sizes {@code n[d]} and global start {@code g0[d]}. */
    private static final class Block {
        final int[] n = new int[3];
        final int[] g0 = new int[3];
        final int mx;
        final int my;
        final int mz;

        Block(int[] grid, int[] dims, int[] coords) {
            for (int d = 0; d < 3; d++) {
                n[d] = Blocks.size(grid[d], dims[d], coords[d]);
                g0[d] = Blocks.start(grid[d], dims[d], coords[d]);
            }
            mx = n[0] + 2;
            my = n[1] + 2;
            mz = n[2] + 2;
        }

        int[] sizes() {
            return new int[] {mx, my, mz};
        }

        int at(int i, int j, int k) {
            return (i * my + j) * mz + k;
        }
    }

    static void run(Comm world, int[] grid, int iters, boolean overlap, boolean verify) {
        int[] dims = CartComm.dimsCreate(world.size(), new int[3]);
        for (int d = 0; d < 3; d++) {
            if (grid[d] < dims[d]) {
                throw new IllegalArgumentException("grid " + Blocks.format(grid) + " is smaller than the process grid "
                    + Blocks.format(dims));
            }
        }
        CartComm cart = world.createCart(dims, new boolean[3], false);
        Block b = new Block(grid, dims, cart.coords());
        double[] u = new double[b.mx * b.my * b.mz];
        double[] v = new double[u.length];
        // every local point, ghosts included, starts at its global value: interior points get the
        // initial field, ghost planes on the global boundary the boundary value (both arrays, and
        // never overwritten: their requests have PROC_NULL peers); other ghosts come from the halo
        for (int i = 0; i < b.mx; i++) {
            for (int j = 0; j < b.my; j++) {
                for (int k = 0; k < b.mz; k++) {
                    double x = value(b.g0[0] + i - 1, b.g0[1] + j - 1, b.g0[2] + k - 1, grid);
                    u[b.at(i, j, k)] = x;
                    v[b.at(i, j, k)] = x;
                }
            }
        }
        PersistentRequest[][] reqs = {halo(cart, b, u), halo(cart, b, v)};

        cart.barrier();
        double waited = 0;
        double t0 = cart.wtime();
        for (int it = 0; it < iters; it++) {
            double[] src = it % 2 == 0 ? u : v;
            double[] dst = it % 2 == 0 ? v : u;
            PersistentRequest[] r = reqs[it & 1];
            Request.startAll(r);
            if (overlap) {
                update(src, dst, b, 2, b.n[0] - 1, 2, b.n[1] - 1, 2, b.n[2] - 1);   // needs no ghost value
                double w = cart.wtime();
                Request.waitAll(r);
                waited += cart.wtime() - w;
                boundaryLayer(src, dst, b);
            } else {
                double w = cart.wtime();
                Request.waitAll(r);
                waited += cart.wtime() - w;
                update(src, dst, b, 1, b.n[0], 1, b.n[1], 1, b.n[2]);
            }
        }
        double[] times = {cart.wtime() - t0, waited};
        double[] result = iters % 2 == 0 ? u : v;

        double[] sum = {0};
        for (int i = 1; i <= b.n[0]; i++) {
            for (int j = 1; j <= b.n[1]; j++) {
                for (int k = 1; k <= b.n[2]; k++) {
                    sum[0] += result[b.at(i, j, k)];
                }
            }
        }
        cart.allreduce(Comm.IN_PLACE, 0, sum, 0, 1, Datatype.DOUBLE, Op.SUM);
        cart.allreduce(Comm.IN_PLACE, 0, times, 0, 2, Datatype.DOUBLE, Op.MAX);
        if (cart.rank() == 0) {
            System.out.printf("Heat3D: %d ranks as %s, %s grid (fixed boundary), %d iterations, overlap %s%n",
                cart.size(), Blocks.format(dims), Blocks.format(grid), iters, overlap ? "on" : "off");
            System.out.printf("checksum %.12e%n", sum[0]);
            System.out.printf("time per iteration %.2f us (of which waiting for the halo %.2f us)%n",
                times[0] * 1e6 / Math.max(1, iters), times[1] * 1e6 / Math.max(1, iters));
        }
        if (verify) {
            verify(cart, dims, b, result, grid, iters);
        }
        for (PersistentRequest[] rs : reqs) {
            for (PersistentRequest r : rs) {
                r.free();
            }
        }
    }

    /**
     * 12 persistent requests on {@code a}. Faces are subarrays of the whole local array: for
     * dimension d, the owned plane 1 or n[d] goes to the low or high neighbour, whose ghost plane
     * n[d]+1 or 0 receives it. The other two dimensions cover the owned points only (a 7-point
     * stencil needs no edge or corner ghosts).
     */
    private static PersistentRequest[] halo(CartComm cart, Block b, double[] a) {
        PersistentRequest[] r = new PersistentRequest[12];
        int q = 0;
        for (int d = 0; d < 3; d++) {
            CartComm.Shift s = cart.shift(d, 1);        // source = low neighbour, dest = high neighbour
            int[] sub = b.n.clone();
            sub[d] = 1;
            r[q++] = cart.recvInit(a, 0, 1, face(b, sub, d, 0), s.source(), 2 * d);              // from low
            r[q++] = cart.recvInit(a, 0, 1, face(b, sub, d, b.n[d] + 1), s.dest(), 2 * d + 1);  // from high
            r[q++] = cart.sendInit(a, 0, 1, face(b, sub, d, b.n[d]), s.dest(), 2 * d);           // to high
            r[q++] = cart.sendInit(a, 0, 1, face(b, sub, d, 1), s.source(), 2 * d + 1);          // to low
        }
        return r;
    }

    /** The plane {@code index} of dimension {@code d}, owned extent in the others. */
    private static Datatype face(Block b, int[] sub, int d, int index) {
        int[] starts = {1, 1, 1};
        starts[d] = index;
        return Datatype.DOUBLE.subarray(b.sizes(), sub, starts);
    }

    /** Updates the box [i0,i1]×[j0,j1]×[k0,k1] (local indices, inclusive; empty if reversed) from a into b. */
    static void update(double[] a, double[] c, Block b, int i0, int i1, int j0, int j1, int k0, int k1) {
        int mz = b.mz;
        int mm = b.my * mz;
        for (int i = i0; i <= i1; i++) {
            for (int j = j0; j <= j1; j++) {
                int base = b.at(i, j, 0);
                for (int k = k0; k <= k1; k++) {
                    int x = base + k;
                    double sum = a[x - mm] + a[x + mm] + a[x - mz] + a[x + mz] + a[x - 1] + a[x + 1];
                    c[x] = a[x] + ALPHA * (sum - 6 * a[x]);
                }
            }
        }
    }

    /** The owned points next to a ghost plane: every point not updated by the inner pass, exactly once. */
    private static void boundaryLayer(double[] a, double[] c, Block b) {
        int nx = b.n[0];
        int ny = b.n[1];
        int nz = b.n[2];
        update(a, c, b, 1, 1, 1, ny, 1, nz);                   // plane i = 1
        if (nx > 1) {
            update(a, c, b, nx, nx, 1, ny, 1, nz);             // plane i = nx
        }
        update(a, c, b, 2, nx - 1, 1, 1, 1, nz);               // plane j = 1 (without the i planes)
        if (ny > 1) {
            update(a, c, b, 2, nx - 1, ny, ny, 1, nz);
        }
        update(a, c, b, 2, nx - 1, 2, ny - 1, 1, 1);           // plane k = 1 (without the i and j planes)
        if (nz > 1) {
            update(a, c, b, 2, nx - 1, 2, ny - 1, nz, nz);
        }
    }

    /**
     * The global field at (gi, gj, gk), -1 and N being the boundary: an irregular initial
     * interior and boundary values that vary along the walls.
     */
    static double value(int gi, int gj, int gk, int[] grid) {
        boolean boundary = gi < 0 || gj < 0 || gk < 0 || gi >= grid[0] || gj >= grid[1] || gk >= grid[2];
        if (boundary) {
            return gi < 0 ? 1.0 : 0.25 * Math.cos(0.3 * gj + 0.7 * gk) + 0.1 * Math.sin(0.2 * gi);
        }
        return Math.sin(0.37 * gi + 0.11) * Math.cos(0.23 * gj) + 0.01 * ((gi * 7 + gj * 13 + gk * 29) % 17);
    }

    /** The whole grid on one rank, the plainest loop; returns the NX×NY×NZ field, k fastest. */
    static double[] serial(int[] grid, int iters) {
        int mx = grid[0] + 2;
        int my = grid[1] + 2;
        int mz = grid[2] + 2;
        double[] a = new double[mx * my * mz];
        for (int i = 0; i < mx; i++) {
            for (int j = 0; j < my; j++) {
                for (int k = 0; k < mz; k++) {
                    a[(i * my + j) * mz + k] = value(i - 1, j - 1, k - 1, grid);
                }
            }
        }
        double[] c = a.clone();
        for (int it = 0; it < iters; it++) {
            for (int i = 1; i < mx - 1; i++) {
                for (int j = 1; j < my - 1; j++) {
                    for (int k = 1; k < mz - 1; k++) {
                        double p = a[(i * my + j) * mz + k];
                        // operand order as in update: i-1, i+1, j-1, j+1, k-1, k+1
                        double sum = a[((i - 1) * my + j) * mz + k] + a[((i + 1) * my + j) * mz + k]
                            + a[(i * my + j - 1) * mz + k] + a[(i * my + j + 1) * mz + k]
                            + a[(i * my + j) * mz + k - 1] + a[(i * my + j) * mz + k + 1];
                        c[(i * my + j) * mz + k] = p + ALPHA * (sum - 6 * p);
                    }
                }
            }
            double[] t = a;
            a = c;
            c = t;
        }
        double[] out = new double[grid[0] * grid[1] * grid[2]];
        for (int i = 0; i < grid[0]; i++) {
            for (int j = 0; j < grid[1]; j++) {
                System.arraycopy(a, ((i + 1) * my + j + 1) * mz + 1, out, (i * grid[1] + j) * grid[2], grid[2]);
            }
        }
        return out;
    }

    private static void verify(CartComm cart, int[] dims, Block b, double[] result, int[] grid, int iters) {
        Datatype mine = Datatype.DOUBLE.subarray(b.sizes(), b.n, new int[] {1, 1, 1});
        double[] global = null;
        Datatype[] boxes = null;
        if (cart.rank() == 0) {
            global = new double[grid[0] * grid[1] * grid[2]];
            boxes = new Datatype[cart.size()];
            for (int r = 0; r < cart.size(); r++) {
                Block rb = new Block(grid, dims, cart.coords(r));
                boxes[r] = Datatype.DOUBLE.subarray(grid, rb.n, rb.g0);
            }
        }
        Gather.toRoot(cart, result, mine, global, boxes);
        if (cart.rank() != 0) {
            return;
        }
        double[] ref = serial(grid, iters);
        long mismatches = 0;
        for (int x = 0; x < ref.length; x++) {
            if (Double.doubleToRawLongBits(global[x]) != Double.doubleToRawLongBits(ref[x])) {
                mismatches++;
            }
        }
        if (mismatches != 0) {
            throw new IllegalStateException("verify FAILED: " + mismatches + " points differ from the serial run");
        }
        System.out.println("verify: distributed field is bit-identical to the serial run (" + ref.length + " points)");
    }
}
