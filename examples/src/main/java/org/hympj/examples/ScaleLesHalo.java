package org.hympj.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.Topology;

/**
 * The halo exchange of the SCALE-LES3 weather code as measured by RSched (SEEDS.md, S3):
 * every rank owns a horizontal 16×16 column block (i = j = 16) of {@code k} vertical levels,
 * with a halo 2 wide on every side, in a 2D periodic process grid ({@code dimsCreate(size, 2)};
 * Cartesian dimension 0 is x / i / east-west, dimension 1 is y / j / north-south). The array is
 * {@code (KA, IA, JA) = (2+k+2, 2+16+2, 2+16+2)} doubles, k fastest, as SCALE's Fortran arrays.
 * One exchange sends 14 messages to the 8 neighbours and receives 14:
 *
 * <table>
 *   <caption>messages per exchange (k = 60: 16384 / 8192 / 1024 B)</caption>
 *   <tr><th>directions</th><th>puts each</th><th>bytes each</th><th>datatype</th></tr>
 *   <tr><td>E, W</td><td>1</td><td>(2+k+2)·2·i·8</td><td>block-stride vector: 16 rows of KA·2</td></tr>
 *   <tr><td>N, S</td><td>2</td><td>(2+k+2)·j·8</td><td>contiguous: one halo row, KA·16</td></tr>
 *   <tr><td>NE, NW, SE, SW</td><td>2</td><td>(2+k+2)·2·8</td><td>contiguous: KA·2 of one row</td></tr>
 * </table>
 *
 * All of them are persistent requests made once (sendInit/recvInit straight on the array, no
 * packing by hand); an exchange is {@code Request.startAll} + {@code Request.waitAll}, and
 * {@code --sync} adds S3's barriers at the start and at the end of each exchange
 * (pseudo-collective mode).
 *
 * <pre>bin/mpjrun -np 8 org.hympj.examples.ScaleLesHalo [--k 60] [--pattern ew|ns|nsew|diag|all[,…]]
 *     [--iters 1000] [--warmup 200] [--sync] [--segment]</pre>
 *
 * Each pattern first runs {@code --warmup} untimed exchanges (JIT compilation, first touches
 * of the shared rings), then {@code --iters} timed ones.
 *
 * <p><b>Verification.</b> Every owned cell holds a value encoding its rank, a round number, and
 * its (k, i, j) index; halo cells start as a sentinel. After the timed exchanges each rank checks
 * every cell of its array: an owned cell must be unchanged; a halo cell of a direction in the
 * pattern must hold exactly the value of the cell the neighbour in that direction sent, i.e. the
 * neighbour's rank and the sender-side index (i + dx·16, j + dy·16) — which also proves it came
 * through the right direction and put; a halo cell of a direction outside the pattern must still
 * be the sentinel. Then the owned cells are re-stamped with a new round, the halo reset to the
 * sentinel, and one more exchange is checked the same way (so stale data cannot pass).
 *
 * <p>Prints, per pattern, the messages and bytes per rank and the time per exchange in µs
 * (slowest rank). {@code --segment} puts the array in the rank's shared segment
 * ({@link Comm#allocDoubles}). {@link #messages} gives the message list (destination, direction,
 * put, bytes, tag) without running anything — the input of the RSched scheduler.
 */
public final class ScaleLesHalo {
    /** Horizontal points per rank in i (east-west). */
    public static final int IMAX = 16;
    /** Horizontal points per rank in j (north-south). */
    public static final int JMAX = 16;
    /** Halo width, horizontal and vertical. */
    public static final int HALO = 2;
    private static final int IA = IMAX + 2 * HALO;
    private static final int JA = JMAX + 2 * HALO;
    private static final double SENTINEL = -1.0;

    private ScaleLesHalo() {
    }

    /** The 8 neighbour directions; (dx, dy) is the step in process coordinates (x east, y north). */
    public enum Direction {
        E(1, 0), W(-1, 0), N(0, 1), S(0, -1), NE(1, 1), NW(-1, 1), SE(1, -1), SW(-1, -1);

        private final int dx;
        private final int dy;

        Direction(int dx, int dy) {
            this.dx = dx;
            this.dy = dy;
        }

        public int dx() {
            return dx;
        }

        public int dy() {
            return dy;
        }

        /** The direction travelling (dx, dy), each of -1, 0, 1 and not both 0. */
        public static Direction of(int dx, int dy) {
            for (Direction d : values()) {
                if (d.dx == dx && d.dy == dy) {
                    return d;
                }
            }
            throw new IllegalArgumentException(dx + "," + dy);
        }

        /** Puts per exchange in this direction: 1 for E/W (one block-stride message), else one per halo row. */
        public int puts() {
            return dy == 0 ? 1 : HALO;
        }

        /** Bytes of one put with {@code k} vertical levels (S3's formulas). */
        public int bytes(int k) {
            int ka = k + 2 * HALO;
            if (dy == 0) {
                return ka * HALO * IMAX * 8;      // (2+k+2)·2·i·8
            }
            return dx == 0 ? ka * JMAX * 8         // (2+k+2)·j·8
                : ka * HALO * 8;                   // (2+k+2)·2·8
        }
    }

    /** The patterns of S3. */
    public enum Pattern {
        EW(Direction.E, Direction.W),
        NS(Direction.N, Direction.S),
        NSEW(Direction.E, Direction.W, Direction.N, Direction.S),
        DIAG(Direction.NE, Direction.NW, Direction.SE, Direction.SW),
        ALL(Direction.values());

        private final Direction[] directions;

        Pattern(Direction... directions) {
            this.directions = directions;
        }

        public List<Direction> directions() {
            return List.of(directions);
        }

        public boolean includes(Direction d) {
            for (Direction x : directions) {
                if (x == d) {
                    return true;
                }
            }
            return false;
        }

        public static Pattern parse(String s) {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        }
    }

    /**
     * One message of an exchange: sent to {@code dest} in {@code direction} (its {@code put}-th
     * put in that direction, 0-based), {@code bytes} long, with {@code tag} (the receiver matches
     * source and tag).
     */
    public record Message(int dest, Direction direction, int put, int bytes, int tag) {
    }

    /**
     * The messages one rank sends per exchange, in the order its send requests are started:
     * for the rank at {@code coords} of a periodic grid of {@code dims} (x, y), with {@code k}
     * vertical levels. Pure arithmetic: usable without a job (e.g. by a scheduler).
     */
    public static List<Message> messages(int[] dims, int[] coords, Pattern pattern, int k) {
        List<Message> out = new ArrayList<>();
        boolean[] periods = {true, true};
        for (Direction d : pattern.directions()) {
            int dest = Topology.rank(dims, periods, new int[] {coords[0] + d.dx, coords[1] + d.dy});
            for (int q = 0; q < d.puts(); q++) {
                out.add(new Message(dest, d, q, d.bytes(k), tag(d, q)));
            }
        }
        return out;
    }

    /** The tag of put {@code put} in direction {@code d} (the same at the sender and the receiver). */
    public static int tag(Direction d, int put) {
        return 100 + d.ordinal() * HALO + put;
    }

    public static void main(String[] args) {
        int k = 60;
        int iters = 1000;
        int warmup = 200;
        boolean sync = false;
        boolean segment = false;
        List<Pattern> patterns = List.of(Pattern.ALL);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--k":
                    k = Integer.parseInt(args[++i]);
                    break;
                case "--iters":
                    iters = Integer.parseInt(args[++i]);
                    break;
                case "--warmup":
                    warmup = Integer.parseInt(args[++i]);
                    break;
                case "--pattern": {
                    List<Pattern> ps = new ArrayList<>();
                    for (String s : args[++i].split(",")) {
                        ps.add(Pattern.parse(s));
                    }
                    patterns = ps;
                    break;
                }
                case "--sync":
                    sync = true;
                    break;
                case "--segment":
                    segment = true;
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument " + args[i] + " (expected --k K, "
                        + "--pattern ew|ns|nsew|diag|all[,...], --iters N, --warmup N, --sync, --segment)");
            }
        }
        if (k < 1 || (k + 2 * HALO) >= 4096) {
            throw new IllegalArgumentException("--k must be 1..4091, was " + k);
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            CartComm cart = world.createCart(CartComm.dimsCreate(world.size(), new int[2]), new boolean[] {true, true},
                false);
            int ka = k + 2 * HALO;
            Object buf = segment ? cart.allocDoubles(cells(ka)) : new double[cells(ka)];
            for (Pattern p : patterns) {
                run(cart, buf, p, k, iters, warmup, sync);
            }
        }
    }

    /**
     * Runs {@code warmup} untimed and {@code iters} timed exchanges of one pattern, then verifies;
     * throws if any rank saw a wrong value.
     */
    static void run(CartComm cart, Object buf, Pattern pattern, int k, int iters, int warmup, boolean sync) {
        int ka = k + 2 * HALO;
        int[] dims = cart.dims();
        List<Message> sends = messages(dims, cart.coords(), pattern, k);
        PersistentRequest[] reqs = requests(cart, buf, pattern, sends, ka);

        fill(buf, cart.rank(), 0, ka);
        exchanges(cart, reqs, warmup, sync);
        cart.barrier();
        double t0 = cart.wtime();
        exchanges(cart, reqs, iters, sync);
        double[] elapsed = {cart.wtime() - t0};
        long[] checked = {0, 0};             // values checked, wrong values
        if (iters + warmup > 0) {
            check(cart, buf, pattern, 0, ka, checked);
        }
        fill(buf, cart.rank(), 1, ka);       // a new round: only a fresh exchange can deliver these values
        cart.barrier();
        Request.startAll(reqs);
        Request.waitAll(reqs);
        check(cart, buf, pattern, 1, ka, checked);
        for (PersistentRequest r : reqs) {
            r.free();
        }

        long bytes = 0;
        for (Message m : sends) {
            bytes += m.bytes();
        }
        cart.allreduce(Comm.IN_PLACE, 0, elapsed, 0, 1, Datatype.DOUBLE, Op.MAX);
        cart.allreduce(Comm.IN_PLACE, 0, checked, 0, 2, Datatype.LONG, Op.SUM);
        if (cart.rank() == 0) {
            System.out.printf("ScaleLesHalo %s: %d ranks as %s (periodic), i=j=%d, halo %d, k=%d: %d messages and %d"
                    + " bytes per rank per exchange%n", pattern.name().toLowerCase(Locale.ROOT), cart.size(),
                Blocks.format(dims), IMAX, HALO, k, sends.size(), bytes);
            System.out.printf("ScaleLesHalo %s: %.2f us per exchange (%d exchanges after %d untimed%s)%n",
                pattern.name().toLowerCase(Locale.ROOT), elapsed[0] * 1e6 / Math.max(1, iters), iters, warmup,
                sync ? ", barrier before and after each" : "");
        }
        if (checked[1] != 0) {
            throw new IllegalStateException("verify FAILED for pattern " + pattern + ": " + checked[1] + " of "
                + checked[0] + " values wrong");
        }
        if (cart.rank() == 0) {
            System.out.printf("verify %s: OK (%d values checked on %d ranks)%n",
                pattern.name().toLowerCase(Locale.ROOT), checked[0], cart.size());
        }
    }

    private static void exchanges(CartComm cart, PersistentRequest[] reqs, int n, boolean sync) {
        for (int it = 0; it < n; it++) {
            if (sync) {
                cart.barrier();
            }
            Request.startAll(reqs);
            Request.waitAll(reqs);
            if (sync) {
                cart.barrier();
            }
        }
    }

    /** Doubles in one rank's array of KA = k + 2·HALO levels: KA·IA·JA. */
    public static int cells(int ka) {
        return ka * IA * JA;
    }

    /**
     * The persistent requests of one exchange on an array of KA·IA·JA doubles ({@link #cells}):
     * receives first (each from the neighbour opposite to the direction of travel), then the
     * sends of {@code sends} in their order.
     */
    public static PersistentRequest[] requests(CartComm cart, Object buf, Pattern pattern, List<Message> sends,
                                                int ka) {
        int[] c = cart.coords();
        List<PersistentRequest> rs = new ArrayList<>();
        for (Direction d : pattern.directions()) {
            int source = cart.rankOf(c[0] - d.dx, c[1] - d.dy);
            for (int q = 0; q < d.puts(); q++) {
                rs.add(cart.recvInit(buf, offset(ka, recvI(d), recvJ(d, q)), 1, type(d, ka), source, tag(d, q)));
            }
        }
        for (Message m : sends) {
            Direction d = m.direction();
            rs.add(cart.sendInit(buf, offset(ka, sendI(d), sendJ(d, m.put())), 1, type(d, ka), m.dest(), m.tag()));
        }
        return rs.toArray(new PersistentRequest[0]);
    }

    /** E/W: 16 rows of KA·2 (block-stride); N/S: one row of KA·16; diagonals: KA·2 of one row. */
    public static Datatype type(Direction d, int ka) {
        if (d.dy == 0) {
            return Datatype.DOUBLE.vector(JMAX, ka * HALO, ka * IA);
        }
        return Datatype.DOUBLE.contiguous(ka * (d.dx == 0 ? IMAX : HALO));
    }

    private static int offset(int ka, int i, int j) {
        return ka * (i + IA * j);
    }

    /** First i sent in direction d: the last two owned columns going east, the first two going west. */
    private static int sendI(Direction d) {
        return d.dx > 0 ? HALO + IMAX - HALO : HALO;
    }

    /** First i received from direction d's travel: the west halo for data going east, the east halo going west. */
    private static int recvI(Direction d) {
        return d.dx > 0 ? 0 : d.dx < 0 ? HALO + IMAX : HALO;
    }

    /** The j row of put q (N/S/diagonals; E/W sends rows from JS on, one vector). */
    private static int sendJ(Direction d, int q) {
        return d.dy > 0 ? HALO + JMAX - HALO + q : HALO + q;
    }

    private static int recvJ(Direction d, int q) {
        return d.dy > 0 ? q : d.dy < 0 ? HALO + JMAX + q : HALO;
    }

    /** The value of owned cell (kk, i, j) of {@code rank} in {@code round}: exact in a double (38 bits). */
    static double encode(int rank, int round, int kk, int i, int j) {
        return ((((long) rank * 16 + round) * 4096 + kk) * 32 + i) * 32 + j;
    }

    /** Owned cells take their round's values ({@link #encode}), halo cells the sentinel. */
    public static void fill(Object buf, int rank, int round, int ka) {
        for (int j = 0; j < JA; j++) {
            for (int i = 0; i < IA; i++) {
                boolean owned = i >= HALO && i < HALO + IMAX && j >= HALO && j < HALO + JMAX;
                for (int kk = 0; kk < ka; kk++) {
                    set(buf, offset(ka, i, j) + kk, owned ? encode(rank, round, kk, i, j) : SENTINEL);
                }
            }
        }
    }

    /** Checks every cell of this rank's array; adds to checked[0] (cells) and checked[1] (wrong ones). */
    public static void check(CartComm cart, Object buf, Pattern pattern, int round, int ka, long[] checked) {
        int[] c = cart.coords();
        int rank = cart.rank();
        int reported = 0;
        for (int j = 0; j < JA; j++) {
            // a halo cell of column i / row j received data travelling (dx, dy)
            int dy = j < HALO ? 1 : j >= HALO + JMAX ? -1 : 0;
            for (int i = 0; i < IA; i++) {
                int dx = i < HALO ? 1 : i >= HALO + IMAX ? -1 : 0;
                Direction d = dx == 0 && dy == 0 ? null : Direction.of(dx, dy);
                int from = d == null ? rank : cart.rankOf(c[0] - dx, c[1] - dy);
                for (int kk = 0; kk < ka; kk++) {
                    double want;
                    if (d == null) {
                        want = encode(rank, round, kk, i, j);
                    } else if (pattern.includes(d)) {
                        want = encode(from, round, kk, i + dx * IMAX, j + dy * JMAX);
                    } else {
                        want = SENTINEL;
                    }
                    double got = get(buf, offset(ka, i, j) + kk);
                    checked[0]++;
                    if (Double.doubleToRawLongBits(got) != Double.doubleToRawLongBits(want)) {
                        checked[1]++;
                        if (reported++ < 5) {
                            System.out.printf("rank %d pattern %s round %d: cell (k=%d, i=%d, j=%d) holds %.1f, expected"
                                + " %.1f (%s)%n", rank, pattern, round, kk, i, j, got, want,
                                d == null ? "owned" : "halo from " + d + " travel");
                        }
                    }
                }
            }
        }
    }

    private static void set(Object buf, int x, double v) {
        if (buf instanceof SegmentBuffer) {
            ((SegmentBuffer) buf).putDouble(x, v);
        } else {
            ((double[]) buf)[x] = v;
        }
    }

    private static double get(Object buf, int x) {
        return buf instanceof SegmentBuffer ? ((SegmentBuffer) buf).getDouble(x) : ((double[]) buf)[x];
    }
}
