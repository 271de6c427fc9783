package org.hympj.shm.topology;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.testing.MultiRank;

/**
 * Rank program: Cartesian communicators, against arithmetic done here (row-major: the last
 * dimension varies fastest, as MPI).
 *
 * <pre>usage: CartesianRank dims=D0,D1,… periods=P0,P1,…   (0 in dims: filled by dimsCreate; periods 0/1)</pre>
 *
 * <ul>
 * <li>cart-create: the grid over all ranks (reorder false: ranks keep their numbers), dims,
 *     periods, ndims, returned arrays are copies; reorder true gives a consistent grid too;</li>
 * <li>coords-rankof: coords/rankOf round trips for every rank and grid point, periodic wrap,
 *     off-grid coordinates of non-periodic dimensions refused;</li>
 * <li>shift: every dimension, displacements -3 … 3, PROC_NULL off non-periodic edges;</li>
 * <li>shift-exchange: sendrecv along every dimension both ways with the shift's ranks: data
 *     from the right neighbour, PROC_NULL sides complete at once with an empty status and an
 *     untouched buffer;</li>
 * <li>proc-null: isend/irecv/send/recv with PROC_NULL complete at once;</li>
 * <li>sub: every subset of dimensions kept, membership and order against the coordinates,
 *     dims/periods/coords of the sub-grid, a collective on it;</li>
 * <li>fewer-ranks: a grid smaller than the communicator gives null on the others.</li>
 * </ul>
 */
public final class CartesianRank {
    static final String[] SCENARIOS = {"cart-create", "coords-rankof", "shift", "shift-exchange", "proc-null", "sub",
        "fewer-ranks"};

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
        check(dimsArg != null && periods != null && dimsArg.length == periods.length,
            "usage: CartesianRank dims=D0,D1,.. periods=P0,P1,..");
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            int[] dims = CartComm.dimsCreate(world.size(), dimsArg);
            print("GRID " + Arrays.toString(dims) + " periods " + Arrays.toString(periods));
            CartComm cart = world.createCart(dims, periods, false);
            create(world, cart, dims, periods);
            pass("cart-create");
            coordsRankOf(cart, dims, periods);
            pass("coords-rankof");
            shift(cart, dims, periods);
            pass("shift");
            shiftExchange(cart, dims);
            pass("shift-exchange");
            procNull(cart);
            pass("proc-null");
            sub(world, cart, dims, periods);
            pass("sub");
            fewerRanks(world);
            pass("fewer-ranks");
        }
        pass(MultiRank.FINALIZED);
    }

    /** Row-major coordinates, computed here. */
    static int[] coordsOf(int[] dims, int rank) {
        int[] c = new int[dims.length];
        int stride = 1;
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = rank / stride % dims[d];
            stride *= dims[d];
        }
        return c;
    }

    static int rankOf(int[] dims, int[] c) {
        int r = 0;
        int stride = 1;
        for (int d = dims.length - 1; d >= 0; d--) {
            r += c[d] * stride;
            stride *= dims[d];
        }
        return r;
    }

    static int product(int[] dims) {
        int n = 1;
        for (int x : dims) {
            n *= x;
        }
        return n;
    }

    static void create(Comm world, CartComm cart, int[] dims, boolean[] periods) {
        check(cart != null, "createCart over all %d ranks returned null", world.size());
        check(cart.size() == world.size() && cart.rank() == world.rank(), "cart: rank %d of %d, world %d of %d",
            cart.rank(), cart.size(), world.rank(), world.size());
        check(cart.ndims() == dims.length && Arrays.equals(cart.dims(), dims) && Arrays.equals(cart.periods(), periods),
            "cart: ndims %d dims %s periods %s", cart.ndims(), Arrays.toString(cart.dims()),
            Arrays.toString(cart.periods()));
        cart.dims()[0] = 99;
        cart.periods()[0] = !periods[0];
        cart.coords()[0] = 99;
        check(cart.dims()[0] == dims[0] && cart.periods()[0] == periods[0] && cart.coords()[0] != 99,
            "dims()/periods()/coords() return the communicator's own arrays");
        int[] m = new int[cart.size()];
        cart.allgather(new int[] {world.rank()}, 0, 1, Datatype.INT, m, 0, 1, Datatype.INT);
        for (int r = 0; r < m.length; r++) {
            check(m[r] == r, "reorder false: cart rank %d is world rank %d", r, m[r]);
        }
        CartComm re = world.createCart(dims, periods, true);
        check(re != null && re.size() == world.size(), "reorder true: %s", re);
        check(Arrays.equals(re.coords(), re.coords(re.rank())) && re.rankOf(re.coords()) == re.rank(),
            "reorder true: coords %s of rank %d inconsistent", Arrays.toString(re.coords()), re.rank());
        int[] rm = new int[re.size()];
        re.allgather(new int[] {world.rank()}, 0, 1, Datatype.INT, rm, 0, 1, Datatype.INT);
        int[] sorted = rm.clone();
        Arrays.sort(sorted);
        for (int r = 0; r < sorted.length; r++) {
            check(sorted[r] == r, "reorder true: members %s are not a permutation", Arrays.toString(rm));
        }
    }

    static void coordsRankOf(CartComm cart, int[] dims, boolean[] periods) {
        int n = product(dims);
        check(Arrays.equals(cart.coords(), coordsOf(dims, cart.rank())), "coords() %s, expected %s for rank %d",
            Arrays.toString(cart.coords()), Arrays.toString(coordsOf(dims, cart.rank())), cart.rank());
        for (int r = 0; r < n; r++) {
            int[] c = cart.coords(r);
            check(Arrays.equals(c, coordsOf(dims, r)), "coords(%d) = %s, expected %s", r, Arrays.toString(c),
                Arrays.toString(coordsOf(dims, r)));
            check(cart.rankOf(c) == r, "rankOf(coords(%d)) = %d", r, cart.rankOf(c));
            check(rankOf(dims, c) == r, "reference round trip");
            for (int d = 0; d < dims.length; d++) {
                for (int k : new int[] {-2, -1, 1, 2}) {
                    int[] w = c.clone();
                    w[d] += k * dims[d];
                    if (periods[d]) {
                        check(cart.rankOf(w) == r, "periodic dim %d: rankOf(%s) = %d, expected %d", d,
                            Arrays.toString(w), cart.rankOf(w), r);
                    } else {
                        expectThrows(IllegalArgumentException.class, () -> cart.rankOf(w),
                            "rankOf off the non-periodic dim " + d + " " + Arrays.toString(w), "rankOf");
                    }
                }
            }
        }
    }

    /** The rank at my coordinates moved by delta along d, or PROC_NULL off a non-periodic edge. */
    static int moved(int[] dims, boolean[] periods, int[] me, int d, int delta) {
        int[] c = me.clone();
        int x = c[d] + delta;
        if (x < 0 || x >= dims[d]) {
            if (!periods[d]) {
                return Comm.PROC_NULL;
            }
            x = ((x % dims[d]) + dims[d]) % dims[d];
        }
        c[d] = x;
        return rankOf(dims, c);
    }

    static void shift(CartComm cart, int[] dims, boolean[] periods) {
        int[] me = coordsOf(dims, cart.rank());
        int edges = 0;
        for (int d = 0; d < dims.length; d++) {
            for (int disp = -3; disp <= 3; disp++) {
                CartComm.Shift s = cart.shift(d, disp);
                int dest = moved(dims, periods, me, d, disp);
                int source = moved(dims, periods, me, d, -disp);
                check(s.dest() == dest && s.source() == source, "shift(%d, %d) at %s = %s, expected source %d dest %d", d,
                    disp, Arrays.toString(me), s, source, dest);
                if (dest == Comm.PROC_NULL || source == Comm.PROC_NULL) {
                    edges++;
                }
            }
        }
        print("SHIFT edges with PROC_NULL: " + edges);
    }

    static void shiftExchange(CartComm cart, int[] dims) {
        int me = cart.rank();
        for (int d = 0; d < dims.length; d++) {
            for (int disp : new int[] {1, -1}) {
                CartComm.Shift s = cart.shift(d, disp);
                int[] got = {-7};
                Status st = cart.sendrecv(new int[] {1000 + me}, 0, 1, Datatype.INT, s.dest(), 10 + d,
                    got, 0, 1, Datatype.INT, s.source(), 10 + d);
                if (s.source() == Comm.PROC_NULL) {
                    check(got[0] == -7, "dim %d disp %d: a receive from PROC_NULL wrote %d", d, disp, got[0]);
                    check(st.source() == Comm.PROC_NULL && st.tag() == Comm.ANY_TAG && st.count() == 0,
                        "dim %d disp %d: status of a receive from PROC_NULL: %s", d, disp, st);
                } else {
                    check(got[0] == 1000 + s.source() && st.source() == s.source(),
                        "dim %d disp %d: got %d from %d, expected %d from %d", d, disp, got[0], st.source(),
                        1000 + s.source(), s.source());
                }
            }
        }
    }

    static void procNull(CartComm cart) {
        int[] buf = {5};
        Request s = cart.isend(buf, 0, 1, Datatype.INT, Comm.PROC_NULL, 1);
        check(s.test(), "isend to PROC_NULL is not complete at once");
        Request r = cart.irecv(buf, 0, 1, Datatype.INT, Comm.PROC_NULL, Comm.ANY_TAG);
        check(r.test(), "irecv from PROC_NULL is not complete at once");
        check(r.status().source() == Comm.PROC_NULL && r.status().count() == 0 && buf[0] == 5,
            "irecv from PROC_NULL: %s, buffer %d", r.status(), buf[0]);
        long t0 = System.nanoTime();
        cart.send(buf, 0, 1, Datatype.INT, Comm.PROC_NULL, 2);
        Status st = cart.recv(buf, 0, 1, Datatype.INT, Comm.PROC_NULL, 2);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        check(st.source() == Comm.PROC_NULL && buf[0] == 5, "recv from PROC_NULL: %s, buffer %d", st, buf[0]);
        check(ms < 1000, "send/recv with PROC_NULL took %d ms", ms);
        Request[] all = {cart.isend(buf, 0, 1, Datatype.INT, Comm.PROC_NULL, 3),
            cart.irecv(buf, 0, 1, Datatype.INT, Comm.PROC_NULL, 3)};
        check(Request.testAll(all), "testAll over PROC_NULL requests is not complete at once");
    }

    static void sub(Comm world, CartComm cart, int[] dims, boolean[] periods) {
        int nd = dims.length;
        int[] me = cart.coords();
        for (int mask = 0; mask < (1 << nd); mask++) {
            boolean[] remain = new boolean[nd];
            List<Integer> kept = new ArrayList<>();
            for (int d = 0; d < nd; d++) {
                remain[d] = (mask & (1 << d)) != 0;
                if (remain[d]) {
                    kept.add(d);
                }
            }
            CartComm s = cart.sub(remain);
            String what = "sub" + Arrays.toString(remain);
            check(s != null, "%s returned null", what);
            int[] sd = kept.isEmpty() ? new int[] {1} : kept.stream().mapToInt(d -> dims[d]).toArray();
            boolean[] sp = new boolean[sd.length];
            for (int i = 0; i < kept.size(); i++) {
                sp[i] = periods[kept.get(i)];
            }
            int[] sc = kept.isEmpty() ? new int[] {0} : kept.stream().mapToInt(d -> me[d]).toArray();
            check(Arrays.equals(s.dims(), sd) && Arrays.equals(s.periods(), sp), "%s: dims %s periods %s, expected %s %s",
                what, Arrays.toString(s.dims()), Arrays.toString(s.periods()), Arrays.toString(sd), Arrays.toString(sp));
            check(s.size() == product(sd) && Arrays.equals(s.coords(), sc) && s.rank() == rankOf(sd, sc),
                "%s: rank %d of %d coords %s, expected rank %d of %d coords %s", what, s.rank(), s.size(),
                Arrays.toString(s.coords()), rankOf(sd, sc), product(sd), Arrays.toString(sc));
            // members: the grid points that share my coordinates in the dropped dimensions, in sub-grid order
            int[] m = new int[s.size()];
            s.allgather(new int[] {world.rank()}, 0, 1, Datatype.INT, m, 0, 1, Datatype.INT);
            for (int sr = 0; sr < s.size(); sr++) {
                int[] subc = coordsOf(sd, sr);
                int[] full = me.clone();
                for (int i = 0; i < kept.size(); i++) {
                    full[kept.get(i)] = subc[i];
                }
                check(m[sr] == rankOf(dims, full), "%s: sub rank %d is world rank %d, expected %d (coords %s)", what, sr,
                    m[sr], rankOf(dims, full), Arrays.toString(full));
            }
            long[] sum = new long[1];
            s.allreduce(new long[] {world.rank()}, 0, sum, 0, 1, Datatype.LONG, Op.SUM);
            long want = 0;
            for (int x : m) {
                want += x;
            }
            check(sum[0] == want, "%s: allreduce %d, expected %d", what, sum[0], want);
            // shifts inside the sub-grid follow its own periods
            if (!kept.isEmpty()) {
                CartComm.Shift sh = s.shift(0, 1);
                check(sh.dest() == moved(sd, sp, sc, 0, 1) && sh.source() == moved(sd, sp, sc, 0, -1),
                    "%s: shift(0,1) = %s", what, sh);
            }
        }
    }

    static void fewerRanks(Comm world) {
        int np = world.size();
        int n = Math.max(1, np - 2);
        CartComm c = world.createCart(new int[] {n, 1}, new boolean[] {true, false}, false);
        if (world.rank() >= n) {
            check(c == null, "rank %d is outside a grid of %d but got %s", world.rank(), n, c);
        } else {
            check(c != null && c.size() == n && c.rank() == world.rank(), "grid of %d: %s", n, c);
            CartComm.Shift s = c.shift(0, 1);
            check(s.dest() == (world.rank() + 1) % n && s.source() == (world.rank() - 1 + n) % n, "ring of %d: %s", n, s);
            int[] b = {c.rank() == 0 ? 77 : 0};
            c.bcast(b, 0, 1, Datatype.INT, 0);
            check(b[0] == 77, "bcast on the smaller grid: %d", b[0]);
        }
        world.barrier();
    }
}
