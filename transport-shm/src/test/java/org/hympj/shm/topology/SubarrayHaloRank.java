package org.hympj.shm.topology;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.Arrays;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Pattern;

/**
 * Rank program: a 3D halo exchange with subarray datatypes. Each rank owns an
 * {@code NX x NY x NZ} interior (3 x 4 x 5, so no two dimensions can be confused) inside an
 * array with {@link #G} ghost layers on every side (C order). For each dimension it sends its
 * two interior faces ({@code G} layers thick) to the Cartesian neighbours and receives their
 * faces into its ghost faces, all six described by
 * {@code Datatype.subarray(sizes, subsizes, starts)}. Afterwards the whole array is compared
 * with what is computed here: the interior unchanged, each ghost face equal to the neighbour's
 * matching interior face, and every other element (edges and corners of the ghost region, ghost
 * faces towards PROC_NULL) still a sentinel.
 *
 * <pre>usage: SubarrayHaloRank dims=D0,D1,D2 periods=P0,P1,P2   (0 in dims: dimsCreate)</pre>
 *
 * Three variants: DOUBLE heap arrays with irecv/isend/waitAll; INT segment buffers with
 * sendrecv; LONG heap arrays with persistent requests over three iterations (new data each
 * time, so stale data is caught).
 */
public final class SubarrayHaloRank {
    static final String[] SCENARIOS = {"halo-heap-isend", "halo-segment-sendrecv", "halo-persistent"};
    static final int G = 2;
    static final int[] N = {3, 4, 5};
    static final int[] SIZES = {N[0] + 2 * G, N[1] + 2 * G, N[2] + 2 * G};
    static final int TOTAL = SIZES[0] * SIZES[1] * SIZES[2];

    public static void main(String[] args) {
        int[] dimsArg = null;
        boolean[] periods = null;
        for (String a : args) {
            if (a.startsWith("dims=")) {
                dimsArg = Arrays.stream(a.substring(5).split(",")).mapToInt(Integer::parseInt).toArray();
            } else if (a.startsWith("periods=")) {
                String[] p = a.substring(8).split(",");
                periods = new boolean[p.length];
                for (int i = 0; i < p.length; i++) {
                    periods[i] = p[i].equals("1");
                }
            }
        }
        check(dimsArg != null && dimsArg.length == 3 && periods != null && periods.length == 3,
            "usage: SubarrayHaloRank dims=D0,D1,D2 periods=P0,P1,P2");
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            int[] dims = CartComm.dimsCreate(world.size(), dimsArg);
            CartComm cart = world.createCart(dims, periods, false);
            print("GRID " + Arrays.toString(dims) + " periods " + Arrays.toString(periods) + " coords "
                + Arrays.toString(cart.coords()));
            exchange(cart, Mode.ISEND, Mem.array(Primitive.DOUBLE, TOTAL), 1);
            pass("halo-heap-isend");
            exchange(cart, Mode.SENDRECV, Mem.segment(cart, Primitive.INT, TOTAL), 2);
            pass("halo-segment-sendrecv");
            persistent(cart);
            pass("halo-persistent");
        }
        pass(MultiRank.FINALIZED);
    }

    enum Mode { ISEND, SENDRECV }

    static int index(int x, int y, int z) {
        return (x * SIZES[1] + y) * SIZES[2] + z;
    }

    static boolean interior(int x, int y, int z) {
        return x >= G && x < G + N[0] && y >= G && y < G + N[1] && z >= G && z < G + N[2];
    }

    /** The subarray of one face: along d, {@code G} layers from {@code start}; the interior range elsewhere. */
    static Datatype face(Primitive p, int d, int start) {
        int[] sub = N.clone();
        int[] starts = {G, G, G};
        sub[d] = G;
        starts[d] = start;
        return Datatype.of(p).subarray(SIZES, sub, starts);
    }

    /** Interior values of {@code rank}, sentinels elsewhere. */
    static void fill(Mem m, int rank, int salt) {
        for (int x = 0; x < SIZES[0]; x++) {
            for (int y = 0; y < SIZES[1]; y++) {
                for (int z = 0; z < SIZES[2]; z++) {
                    int i = index(x, y, z);
                    m.put(i, interior(x, y, z) ? Pattern.value(rank, salt, i) : Pattern.sentinel(salt, i));
                }
            }
        }
    }

    /** What the array must hold after the exchange, in canonical form. */
    static long[] expected(CartComm cart, Primitive p, int salt) {
        long[] img = new long[TOTAL];
        int me = cart.rank();
        int[] lo = new int[3];
        int[] hi = new int[3];
        for (int d = 0; d < 3; d++) {
            CartComm.Shift s = cart.shift(d, 1);
            lo[d] = s.source();
            hi[d] = s.dest();
        }
        for (int x = 0; x < SIZES[0]; x++) {
            for (int y = 0; y < SIZES[1]; y++) {
                for (int z = 0; z < SIZES[2]; z++) {
                    int i = index(x, y, z);
                    int[] c = {x, y, z};
                    long v = Pattern.sentinel(salt, i);
                    if (interior(x, y, z)) {
                        v = Pattern.value(me, salt, i);
                    } else {
                        // a ghost face: outside the interior in exactly one dimension
                        int out = -1;
                        int outside = 0;
                        for (int d = 0; d < 3; d++) {
                            if (c[d] < G || c[d] >= G + N[d]) {
                                out = d;
                                outside++;
                            }
                        }
                        if (outside == 1) {
                            boolean low = c[out] < G;
                            int from = low ? lo[out] : hi[out];
                            if (from != Comm.PROC_NULL) {
                                int[] src = c.clone();
                                src[out] = low ? c[out] + N[out] : c[out] - N[out];
                                v = Pattern.value(from, salt, index(src[0], src[1], src[2]));
                            }
                        }
                    }
                    img[i] = Pattern.canon(p, v);
                }
            }
        }
        return img;
    }

    static void checkArray(Mem m, long[] img, String what) {
        for (int i = 0; i < TOTAL; i++) {
            long got = m.get(i);
            if (got != img[i]) {
                int x = i / (SIZES[1] * SIZES[2]);
                int y = i / SIZES[2] % SIZES[1];
                int z = i % SIZES[2];
                throw new AssertionError(what + ": element (" + x + "," + y + "," + z + ") "
                    + (interior(x, y, z) ? "interior" : "ghost region") + ": expected " + img[i] + ", found " + got);
            }
        }
    }

    static void exchange(CartComm cart, Mode mode, Mem m, int salt) {
        Primitive p = m.primitive;
        fill(m, cart.rank(), salt);
        Object b = m.buffer();
        Request[] reqs = new Request[12];
        int k = 0;
        for (int d = 0; d < 3; d++) {
            CartComm.Shift s = cart.shift(d, 1);
            Datatype sendLow = face(p, d, G);
            Datatype sendHigh = face(p, d, N[d]);
            Datatype ghostLow = face(p, d, 0);
            Datatype ghostHigh = face(p, d, G + N[d]);
            if (mode == Mode.ISEND) {
                reqs[k++] = cart.irecv(b, 0, 1, ghostLow, s.source(), 2 * d);
                reqs[k++] = cart.irecv(b, 0, 1, ghostHigh, s.dest(), 2 * d + 1);
                reqs[k++] = cart.isend(b, 0, 1, sendHigh, s.dest(), 2 * d);
                reqs[k++] = cart.isend(b, 0, 1, sendLow, s.source(), 2 * d + 1);
            } else {
                cart.sendrecv(b, 0, 1, sendHigh, s.dest(), 2 * d, b, 0, 1, ghostLow, s.source(), 2 * d);
                cart.sendrecv(b, 0, 1, sendLow, s.source(), 2 * d + 1, b, 0, 1, ghostHigh, s.dest(), 2 * d + 1);
            }
        }
        if (mode == Mode.ISEND) {
            Request.waitAll(reqs);
        }
        checkArray(m, expected(cart, p, salt), "halo " + mode + " " + m);
    }

    static void persistent(CartComm cart) {
        Mem m = Mem.array(Primitive.LONG, TOTAL);
        Object b = m.buffer();
        PersistentRequest[] reqs = new PersistentRequest[12];
        int k = 0;
        for (int d = 0; d < 3; d++) {
            CartComm.Shift s = cart.shift(d, 1);
            reqs[k++] = cart.recvInit(b, 0, 1, face(Primitive.LONG, d, 0), s.source(), 2 * d);
            reqs[k++] = cart.recvInit(b, 0, 1, face(Primitive.LONG, d, G + N[d]), s.dest(), 2 * d + 1);
            reqs[k++] = cart.sendInit(b, 0, 1, face(Primitive.LONG, d, N[d]), s.dest(), 2 * d);
            reqs[k++] = cart.sendInit(b, 0, 1, face(Primitive.LONG, d, G), s.source(), 2 * d + 1);
        }
        for (int iter = 0; iter < 3; iter++) {
            int salt = 10 + iter;
            fill(m, cart.rank(), salt);
            cart.barrier();      // nobody overwrites a face a neighbour is still receiving into
            Request.startAll(reqs);
            Request.waitAll(reqs);
            checkArray(m, expected(cart, Primitive.LONG, salt), "halo persistent iteration " + iter);
            cart.barrier();
        }
        for (PersistentRequest r : reqs) {
            r.free();
        }
    }
}
