package org.hympj.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;

/**
 * The RIKEN Himeno benchmark (himenoBMTxp, R. Himeno, version 3.0): point-Jacobi iterations
 * of a 3D pressure Poisson equation with the original 19-point stencil, coefficient arrays
 * {@code a[4], b[3], c[3], bnd, wrk1}, work array {@code wrk2}, relaxation {@code omega = 0.8},
 * all in {@code float} as in the C code, and the same initialisation: {@code a = 1, 1, 1, 1/6},
 * {@code b = 0}, {@code c = 1}, {@code bnd = 1}, {@code wrk1 = 0} and
 * {@code p[i][j][k] = (float)(i*i) / (float)((mimax-1)*(mimax-1))} (the original's
 * {@code mat_set_init}: p varies along i, the first index). Sizes (points per dimension,
 * boundary included, {@code mimax × mjmax × mkmax}): XS 32×32×64, S 64×64×128, M 128×128×256,
 * L 256×256×512.
 *
 * <pre>bin/mpjrun -np 8 org.hympj.examples.Himeno [--size XS|S|M|L | --grid MIxMJxMK] [--split IxJxK]
 *     [--iters 100] [--warmup 0] [--dump FILE] [--coef original|varied]</pre>
 *
 * <p><b>Decomposition.</b> The interior points of each dimension are split in blocks over a
 * non-periodic 3D Cartesian grid: {@code --split IxJxK}, or {@link CartComm#dimsCreate} (the
 * largest factor on i). Each rank holds its block plus one ghost layer. Ghosts on the global
 * boundary hold the boundary values (never updated, as in the original); the other ghosts
 * start as NaN, so a ghost the halo exchange fails to fill poisons the result instead of
 * going unnoticed. The stencil reads the edge neighbours ({@code p[i±1][j±1][k]} …), so the
 * exchange runs in three phases — i faces, then j faces including the i ghosts, then k faces
 * including the i and j ghosts — which carries the edges along; each phase is 4 persistent
 * requests over {@link Datatype#subarray} faces, started and waited together.
 *
 * <p><b>The field is exact.</b> Each point's update reads only p of the previous iteration and
 * constant coefficients, with the same float operations in the same order on any rank, so after
 * n iterations the pressure field is bit-identical for every decomposition (the tests compare
 * whole fields, written by {@code --dump}).
 *
 * <p><b>gosa.</b> The original sums {@code ss*ss} into a float in (i, j, k) order. Here each
 * rank sums its points' float {@code ss*ss} into a <em>double</em> in (i, j, k) order, and the
 * global gosa is an allreduce SUM of those doubles (combined in an order fixed by the ranks,
 * the same bits on every rank). On one rank that is exactly the serial double sum; a
 * decomposition only regroups the same N = (mimax-2)(mjmax-2)(mkmax-2) non-negative terms, so
 * two decompositions differ by at most {@code 2 (N-1) u / (1 - (N-1) u)} relative (u = 2^-53,
 * the standard bound for summing non-negative terms in any order) — about 1.2e-11 for XS.
 * The float sum of the original would differ by far more (and depend on the decomposition).
 *
 * <p><b>Output</b> as the original: gosa after the last iteration and MFLOPS with the
 * original's flop count, {@code 34 * (mimax-3)(mjmax-3)(mkmax-3)} per iteration (its
 * {@code fflop(imax, jmax, kmax)} with {@code imax = mimax-1}), over the slowest rank's time.
 * Every iteration is timed: halo exchange, stencil, copy back and the gosa allreduce (the MPI
 * version reduces gosa every iteration too). Unlike the original there is no target time:
 * {@code --iters} fixes the count; {@code --warmup W} (default 0) runs W untimed iterations
 * first (the JIT's warm-up, as the original's rehearsal) and then re-initialises the fields,
 * so the printed gosa and the field are always those after {@code --iters} iterations. {@code --coef varied} (not in the
 * original) replaces the constant coefficients by values that vary from point to point,
 * {@code b} non-zero, so the edge terms of the stencil and an exchange of edges matter.
 */
public final class Himeno {
    /** The relaxation parameter, a float as in the C code. */
    static final float OMEGA = 0.8f;

    private Himeno() {
    }

    /** {mimax, mjmax, mkmax} of a named size. */
    static int[] size(String name) {
        switch (name.toUpperCase()) {
            case "XS": return new int[] {32, 32, 64};
            case "S": return new int[] {64, 64, 128};
            case "M": return new int[] {128, 128, 256};
            case "L": return new int[] {256, 256, 512};
            default: throw new IllegalArgumentException("--size must be XS, S, M or L, was " + name);
        }
    }

    public static void main(String[] args) {
        int[] grid = size("XS");
        String sizeName = "XS";
        int[] split = null;
        int iters = 100;
        int warmup = 0;
        String dump = null;
        boolean varied = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size":
                    sizeName = args[++i].toUpperCase();
                    grid = size(sizeName);
                    break;
                case "--grid":
                    grid = Blocks.parseDims(args[++i]);
                    sizeName = Blocks.format(grid);
                    break;
                case "--split":
                    split = Blocks.parseDims(args[++i]);
                    break;
                case "--iters":
                    iters = Integer.parseInt(args[++i]);
                    break;
                case "--warmup":
                    warmup = Integer.parseInt(args[++i]);
                    break;
                case "--dump":
                    dump = args[++i];
                    break;
                case "--coef": {
                    String c = args[++i];
                    if (!c.equals("original") && !c.equals("varied")) {
                        throw new IllegalArgumentException("--coef must be original or varied, was " + c);
                    }
                    varied = c.equals("varied");
                    break;
                }
                default:
                    throw new IllegalArgumentException("unknown argument " + args[i] + " (expected --size XS|S|M|L, "
                        + "--grid MIxMJxMK, --split IxJxK, --iters N, --warmup N, --dump FILE, --coef original|varied)");
            }
        }
        if (grid.length != 3 || grid[0] < 3 || grid[1] < 3 || grid[2] < 3) {
            throw new IllegalArgumentException("the grid needs 3 dimensions of at least 3 points, was "
                + Blocks.format(grid));
        }
        try (Mpj mpj = Mpj.init(args)) {
            run(mpj.world(), sizeName, grid, split, iters, warmup, dump, varied);
        }
    }

    /** One rank's part: owned interior points {@code n[d]} from global index {@code g0[d]}, one ghost layer. */
    static final class Part {
        final int[] grid;
        final int[] n = new int[3];
        final int[] g0 = new int[3];
        final int mj;
        final int mk;
        final int si;
        final int points;

        Part(int[] grid, int[] dims, int[] coords) {
            this.grid = grid.clone();
            for (int d = 0; d < 3; d++) {
                n[d] = Blocks.size(grid[d] - 2, dims[d], coords[d]);
                g0[d] = 1 + Blocks.start(grid[d] - 2, dims[d], coords[d]);
            }
            mj = n[1] + 2;
            mk = n[2] + 2;
            si = mj * mk;
            points = (n[0] + 2) * si;
        }

        int[] sizes() {
            return new int[] {n[0] + 2, n[1] + 2, n[2] + 2};
        }

        /** True if local index {@code x} of dimension d is on the global boundary (index 0 or max). */
        boolean onBoundary(int d, int x) {
            int g = g0[d] + x - 1;
            return g == 0 || g == grid[d] - 1;
        }
    }

    /** The arrays of one rank, named as in the original. */
    static final class Fields {
        final float[] p;
        final float[][] a = new float[4][];
        final float[][] b = new float[3][];
        final float[][] c = new float[3][];
        final float[] bnd;
        final float[] wrk1;
        final float[] wrk2;

        Fields(int points) {
            p = new float[points];
            for (int l = 0; l < 4; l++) {
                a[l] = new float[points];
            }
            for (int l = 0; l < 3; l++) {
                b[l] = new float[points];
                c[l] = new float[points];
            }
            bnd = new float[points];
            wrk1 = new float[points];
            wrk2 = new float[points];
        }
    }

    static void run(Comm world, String sizeName, int[] grid, int[] split, int iters, int warmup, String dump,
                    boolean varied) {
        int[] dims = split != null ? split.clone() : CartComm.dimsCreate(world.size(), new int[3]);
        if (dims.length != 3 || dims[0] * dims[1] * dims[2] != world.size()) {
            throw new IllegalArgumentException("--split " + Blocks.format(dims) + " does not multiply to "
                + world.size() + " ranks");
        }
        for (int d = 0; d < 3; d++) {
            if (grid[d] - 2 < dims[d]) {
                throw new IllegalArgumentException("dimension " + d + " has " + (grid[d] - 2)
                    + " interior points, fewer than the " + dims[d] + " ranks splitting it");
            }
        }
        CartComm cart = world.createCart(dims, new boolean[3], false);
        Part part = new Part(grid, dims, cart.coords());
        Fields f = new Fields(part.points);
        initialise(f, part, varied);
        PersistentRequest[][] halo = halo(cart, part, f.p);

        double[] gosa = {0};
        if (warmup > 0) {
            for (int n = 0; n < warmup; n++) {
                iteration(cart, halo, f, part, gosa);
            }
            initialise(f, part, varied);       // the measured run starts from the initial field again
        }
        cart.barrier();
        double t0 = cart.wtime();
        for (int n = 0; n < iters; n++) {
            iteration(cart, halo, f, part, gosa);
        }
        double[] cpu = {cart.wtime() - t0};
        cart.allreduce(Comm.IN_PLACE, 0, cpu, 0, 1, Datatype.DOUBLE, Op.MAX);

        if (cart.rank() == 0) {
            double flop = fflop(grid[0] - 1, grid[1] - 1, grid[2] - 1);
            double mflops = mflops(iters, cpu[0], flop);
            System.out.printf("Himeno: size %s, mimax = %d mjmax = %d mkmax = %d, %d ranks as %s (i x j x k),"
                + " coefficients %s%n", sizeName, grid[0], grid[1], grid[2], cart.size(), Blocks.format(dims),
                varied ? "varied" : "original");
            System.out.printf(" imax = %d jmax = %d kmax = %d%n", grid[0] - 1, grid[1] - 1, grid[2] - 1);
            System.out.printf(" Loop executed for %d times%n", iters);
            System.out.printf(" Gosa : %e %n", gosa[0]);
            System.out.printf(" MFLOPS measured : %f\tcpu : %f%n", mflops, cpu[0]);
            System.out.printf(" Score based on Pentium III 600MHz using Fortran 77: %f%n", mflops / 82.84);
            // exact, for tests and scripts: the double gosa round-trips through Double.toString
            System.out.println("result gosa=" + gosa[0] + " mflops=" + mflops + " seconds=" + cpu[0]);
        }
        if (dump != null) {
            dump(cart, dims, part, f.p, Path.of(dump));
        }
        for (PersistentRequest[] phase : halo) {
            for (PersistentRequest r : phase) {
                r.free();
            }
        }
    }

    /** One timed iteration: the three halo phases, the kernel, the global gosa into {@code gosa[0]}. */
    private static void iteration(CartComm cart, PersistentRequest[][] halo, Fields f, Part part, double[] gosa) {
        for (PersistentRequest[] phase : halo) {
            Request.startAll(phase);
            Request.waitAll(phase);
        }
        gosa[0] = jacobi(f, part);
        cart.allreduce(Comm.IN_PLACE, 0, gosa, 0, 1, Datatype.DOUBLE, Op.SUM);
    }

    /** The original's flop count per iteration: {@code fflop(imax, jmax, kmax)}, 34 per point. */
    static double fflop(int mx, int my, int mz) {
        return (double) (mz - 2) * (double) (my - 2) * (double) (mx - 2) * 34.0;
    }

    static double mflops(int nn, double cpu, double flop) {
        return flop / cpu * 1.e-6 * (double) nn;
    }

    /** Sets every local point, ghosts included, as the original's mat_set / mat_set_init would globally. */
    static void initialise(Fields f, Part part, boolean varied) {
        int[] grid = part.grid;
        float pdiv = (float) ((grid[0] - 1) * (grid[0] - 1));
        for (int i = 0; i < part.n[0] + 2; i++) {
            for (int j = 0; j < part.mj; j++) {
                for (int k = 0; k < part.mk; k++) {
                    int x = (i * part.mj + j) * part.mk + k;
                    int gi = part.g0[0] + i - 1;
                    int gj = part.g0[1] + j - 1;
                    int gk = part.g0[2] + k - 1;
                    boolean ghost = i == 0 || j == 0 || k == 0 || i == part.n[0] + 1 || j == part.mj - 1
                        || k == part.mk - 1;
                    boolean boundary = part.onBoundary(0, i) || part.onBoundary(1, j) || part.onBoundary(2, k);
                    // a ghost inside the global grid must come from the halo exchange: NaN until it does
                    f.p[x] = ghost && !boundary ? Float.NaN : (float) (gi * gi) / pdiv;
                    f.wrk2[x] = 0.0f;
                    if (!varied) {
                        f.a[0][x] = 1.0f;
                        f.a[1][x] = 1.0f;
                        f.a[2][x] = 1.0f;
                        f.a[3][x] = (float) (1.0 / 6.0);
                        f.b[0][x] = 0.0f;
                        f.b[1][x] = 0.0f;
                        f.b[2][x] = 0.0f;
                        f.c[0][x] = 1.0f;
                        f.c[1][x] = 1.0f;
                        f.c[2][x] = 1.0f;
                        f.bnd[x] = 1.0f;
                        f.wrk1[x] = 0.0f;
                    } else {
                        for (int l = 0; l < 3; l++) {
                            f.a[l][x] = 1.0f + 0.1f * wobble(gi, gj, gk, l);
                            f.b[l][x] = 0.05f * wobble(gi, gj, gk, 3 + l);
                            f.c[l][x] = 1.0f + 0.1f * wobble(gi, gj, gk, 6 + l);
                        }
                        f.a[3][x] = (float) (1.0 / 6.0) * (1.0f + 0.1f * wobble(gi, gj, gk, 9));
                        f.bnd[x] = hash(gi, gj, gk, 10) == 0 ? 0.0f : 1.0f;   // a few "objects"
                        f.wrk1[x] = 0.001f * wobble(gi, gj, gk, 11);
                        if (!Float.isNaN(f.p[x])) {
                            f.p[x] += 0.01f * wobble(gi, gj, gk, 12);     // p varies along j and k too
                        }
                    }
                }
            }
        }
    }

    private static int hash(int gi, int gj, int gk, int seed) {
        return Math.floorMod(gi * 7 + gj * 13 + gk * 29 + seed * 31 + gi * gj * 3 + gj * gk * 5, 17);
    }

    /** A deterministic value in [-0.5, 0.5) that changes from point to point. */
    static float wobble(int gi, int gj, int gk, int seed) {
        return hash(gi, gj, gk, seed) / 17.0f - 0.5f;
    }

    /**
     * Persistent requests of the three exchange phases. Phase d sends the owned planes 1 and
     * n[d] and receives the ghost planes 0 and n[d]+1 of dimension d; in the dimensions already
     * exchanged the faces include the ghosts (so edges travel on), in the others only the
     * owned points. Neighbours off the global edge are PROC_NULL.
     */
    static PersistentRequest[][] halo(CartComm cart, Part part, float[] p) {
        PersistentRequest[][] phases = new PersistentRequest[3][];
        int[] sizes = part.sizes();
        for (int d = 0; d < 3; d++) {
            int[] sub = new int[3];
            int[] from = new int[3];
            for (int e = 0; e < 3; e++) {
                sub[e] = e < d ? part.n[e] + 2 : part.n[e];
                from[e] = e < d ? 0 : 1;
            }
            sub[d] = 1;
            CartComm.Shift s = cart.shift(d, 1);
            phases[d] = new PersistentRequest[] {
                cart.recvInit(p, 0, 1, plane(sizes, sub, from, d, 0), s.source(), 2 * d),
                cart.recvInit(p, 0, 1, plane(sizes, sub, from, d, part.n[d] + 1), s.dest(), 2 * d + 1),
                cart.sendInit(p, 0, 1, plane(sizes, sub, from, d, part.n[d]), s.dest(), 2 * d),
                cart.sendInit(p, 0, 1, plane(sizes, sub, from, d, 1), s.source(), 2 * d + 1),
            };
        }
        return phases;
    }

    private static Datatype plane(int[] sizes, int[] sub, int[] from, int d, int index) {
        int[] starts = from.clone();
        starts[d] = index;
        return Datatype.FLOAT.subarray(sizes, sub, starts);
    }

    /**
     * One iteration of the original kernel over the owned points (ghosts filled): wrk2 = p +
     * omega·ss, then p = wrk2. Returns this rank's gosa: the float ss*ss summed in a double,
     * in (i, j, k) order.
     */
    static double jacobi(Fields f, Part part) {
        float[] p = f.p;
        float[] a0 = f.a[0];
        float[] a1 = f.a[1];
        float[] a2 = f.a[2];
        float[] a3 = f.a[3];
        float[] b0 = f.b[0];
        float[] b1 = f.b[1];
        float[] b2 = f.b[2];
        float[] c0 = f.c[0];
        float[] c1 = f.c[1];
        float[] c2 = f.c[2];
        float[] bnd = f.bnd;
        float[] wrk1 = f.wrk1;
        float[] wrk2 = f.wrk2;
        int si = part.si;
        int sj = part.mk;
        double gosa = 0.0;
        for (int i = 1; i <= part.n[0]; i++) {
            for (int j = 1; j <= part.n[1]; j++) {
                int base = (i * part.mj + j) * part.mk;
                for (int k = 1; k <= part.n[2]; k++) {
                    int x = base + k;
                    float s0 = a0[x] * p[x + si]
                        + a1[x] * p[x + sj]
                        + a2[x] * p[x + 1]
                        + b0[x] * (p[x + si + sj] - p[x + si - sj]
                                   - p[x - si + sj] + p[x - si - sj])
                        + b1[x] * (p[x + sj + 1] - p[x - sj + 1]
                                   - p[x + sj - 1] + p[x - sj - 1])
                        + b2[x] * (p[x + si + 1] - p[x - si + 1]
                                   - p[x + si - 1] + p[x - si - 1])
                        + c0[x] * p[x - si]
                        + c1[x] * p[x - sj]
                        + c2[x] * p[x - 1]
                        + wrk1[x];
                    float ss = (s0 * a3[x] - p[x]) * bnd[x];
                    gosa += ss * ss;
                    wrk2[x] = p[x] + OMEGA * ss;
                }
            }
        }
        for (int i = 1; i <= part.n[0]; i++) {
            for (int j = 1; j <= part.n[1]; j++) {
                int base = (i * part.mj + j) * part.mk;
                System.arraycopy(wrk2, base + 1, p, base + 1, part.n[2]);
            }
        }
        return gosa;
    }

    /**
     * Gathers the whole pressure field, boundary included, on rank 0 (each rank sends its owned
     * points plus the boundary layers it touches, as a subarray; rank 0 receives each straight
     * into place) and writes it: three big-endian ints mimax, mjmax, mkmax, then the floats in
     * (i, j, k) order, k fastest.
     */
    static void dump(CartComm cart, int[] dims, Part part, float[] p, Path file) {
        int[][] box = ownedWithBoundary(part);
        Datatype mine = Datatype.FLOAT.subarray(part.sizes(), box[1], box[0]);
        int[] grid = part.grid;
        float[] global = null;
        Datatype[] boxes = null;
        if (cart.rank() == 0) {
            global = new float[grid[0] * grid[1] * grid[2]];
            boxes = new Datatype[cart.size()];
            for (int r = 0; r < cart.size(); r++) {
                Part rp = new Part(grid, dims, cart.coords(r));
                int[][] rb = ownedWithBoundary(rp);
                int[] gstart = new int[3];
                for (int d = 0; d < 3; d++) {
                    gstart[d] = rp.g0[d] + rb[0][d] - 1;
                }
                boxes[r] = Datatype.FLOAT.subarray(grid, rb[1], gstart);
            }
        }
        Gather.toRoot(cart, p, mine, global, boxes);
        if (cart.rank() != 0) {
            return;
        }
        ByteBuffer bytes = ByteBuffer.allocate(12 + 4 * global.length).order(ByteOrder.BIG_ENDIAN);
        bytes.putInt(grid[0]).putInt(grid[1]).putInt(grid[2]);
        bytes.asFloatBuffer().put(global);   // a view from the position after the header
        bytes.rewind();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            while (bytes.hasRemaining()) {
                ch.write(bytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("dump: " + global.length + " points written to " + file);
    }

    /** {local starts, sizes} of the owned points extended by the global boundary layers this part touches. */
    private static int[][] ownedWithBoundary(Part part) {
        int[] starts = new int[3];
        int[] sizes = new int[3];
        for (int d = 0; d < 3; d++) {
            boolean low = part.g0[d] == 1;
            boolean high = part.g0[d] + part.n[d] == part.grid[d] - 1;
            starts[d] = low ? 0 : 1;
            sizes[d] = part.n[d] + (low ? 1 : 0) + (high ? 1 : 0);
        }
        return new int[][] {starts, sizes};
    }
}
