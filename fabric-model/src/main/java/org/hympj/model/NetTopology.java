package org.hympj.model;

/**
 * Where ranks sit on the emulated machine and which resources a transfer uses.
 * TCA: subclusters of {@code subcluster} consecutive ranks, each a ring (hops = the shorter
 * way round; two directed links per rank), or — for the tofu model — a 2D torus over all
 * ranks (four directed links per rank, dimension-order routing). IB: one fat tree; each
 * rank has an uplink and a downlink.
 *
 * <p>Resource ids, all in one {@link Timelines}: TCA send engines, TCA receive engines, TCA
 * links, IB host adapters, IB uplinks, IB downlinks.
 */
public final class NetTopology {
    private final int size;
    private final int subcluster;
    private final boolean torus;
    private final int tx;
    private final int ty;
    private final int engines;
    private final int recvEngines;
    private final int linksPerRank;
    private final int baseRecvEngines;
    private final int baseLinks;
    private final int baseIbHca;
    private final int baseIbUp;
    private final int baseIbDown;
    private final int resources;

    public NetTopology(int size, int subcluster, boolean torus, int[] torusDims, int engines, int recvEngines) {
        if (subcluster < 1) {
            throw new IllegalArgumentException("subcluster must be >= 1, was " + subcluster);
        }
        this.size = size;
        this.subcluster = subcluster;
        this.torus = torus;
        this.tx = torus ? torusDims[0] : 0;
        this.ty = torus ? torusDims[1] : 0;
        if (torus && tx * ty != size) {
            throw new IllegalArgumentException("torus " + tx + "x" + ty + " does not hold " + size + " ranks");
        }
        this.engines = engines;
        this.recvEngines = recvEngines;
        this.linksPerRank = torus ? 4 : 2;
        this.baseRecvEngines = size * engines;
        this.baseLinks = baseRecvEngines + size * recvEngines;
        this.baseIbHca = baseLinks + size * linksPerRank;
        this.baseIbUp = baseIbHca + size;
        this.baseIbDown = baseIbUp + size;
        this.resources = baseIbDown + size;
    }

    public int size() {
        return size;
    }

    public int resources() {
        return resources;
    }

    public int engines() {
        return engines;
    }

    public int recvEngines() {
        return recvEngines;
    }

    /** True when TCA reaches from a to b (same subcluster; the torus reaches everyone). */
    public boolean tcaReaches(int a, int b) {
        return torus || a / subcluster == b / subcluster;
    }

    public int subclusterOf(int rank) {
        return torus ? 0 : rank / subcluster;
    }

    public int engine(int rank, int i) {
        return rank * engines + i;
    }

    public int recvEngine(int rank, int i) {
        return baseRecvEngines + rank * recvEngines + i;
    }

    public int ibHca(int rank) {
        return baseIbHca + rank;
    }

    public int ibUp(int rank) {
        return baseIbUp + rank;
    }

    public int ibDown(int rank) {
        return baseIbDown + rank;
    }

    /**
     * A short name of link resource {@code id} for traces: {@code r5.x+} (torus: the link
     * leaving rank 5 in +x; x−, y+, y−), {@code r5.+} / {@code r5.-} (a subcluster ring),
     * {@code r5.ib-up} / {@code r5.ib-down}; {@code link<id>} for anything else.
     */
    public String linkName(int id) {
        if (id >= baseLinks && id < baseIbHca) {
            int rank = (id - baseLinks) / linksPerRank;
            int i = (id - baseLinks) % linksPerRank;
            String dir = torus ? LINK_DIRECTIONS[i] : (i == 0 ? "+" : "-");
            return "r" + rank + "." + dir;
        }
        if (id >= baseIbUp && id < baseIbDown) {
            return "r" + (id - baseIbUp) + ".ib-up";
        }
        if (id >= baseIbDown && id < resources) {
            return "r" + (id - baseIbDown) + ".ib-down";
        }
        return "link" + id;
    }

    private static final String[] LINK_DIRECTIONS = {"x+", "x-", "y+", "y-"};

    /** Link hops from a to b on the TCA network (0 to oneself). */
    public int hops(int a, int b) {
        if (a == b) {
            return 0;
        }
        if (torus) {
            return ringDistance(a / ty, b / ty, tx) + ringDistance(a % ty, b % ty, ty);
        }
        return ringDistance(a % subcluster, b % subcluster, subcluster);
    }

    private static int ringDistance(int a, int b, int n) {
        int d = Math.floorMod(b - a, n);
        return Math.min(d, n - d);
    }

    /**
     * Fills {@code out} with the directed TCA links from a to b, in order; returns how many.
     * {@code out} needs room for {@link #hops}.
     */
    public int path(int a, int b, int[] out) {
        int n = 0;
        if (torus) {
            int x = a / ty;
            int y = a % ty;
            int bx = b / ty;
            int by = b % ty;
            n = walk(x, bx, tx, true, x, y, out, n);
            x = bx;
            n = walk(y, by, ty, false, x, y, out, n);
            return n;
        }
        int base = a - a % subcluster;
        int pos = a % subcluster;
        int target = b % subcluster;
        int d = Math.floorMod(target - pos, subcluster);
        boolean plus = plusWay(d, subcluster, pos);
        int steps = Math.min(d, subcluster - d);
        for (int k = 0; k < steps; k++) {
            out[n++] = baseLinks + (base + pos) * linksPerRank + (plus ? 0 : 1);
            pos = Math.floorMod(pos + (plus ? 1 : -1), subcluster);
        }
        return n;
    }

    private int walk(int from, int to, int n, boolean xDim, int x, int y, int[] out, int k) {
        int d = Math.floorMod(to - from, n);
        boolean plus = d <= n - d;
        int steps = Math.min(d, n - d);
        int cx = x;
        int cy = y;
        for (int s = 0; s < steps; s++) {
            int rank = cx * ty + cy;
            out[k++] = baseLinks + rank * linksPerRank + (xDim ? 0 : 2) + (plus ? 0 : 1);
            if (xDim) {
                cx = Math.floorMod(cx + (plus ? 1 : -1), tx);
            } else {
                cy = Math.floorMod(cy + (plus ? 1 : -1), ty);
            }
        }
        return k;
    }

    /**
     * The links a transfer from a to b crosses, as RSched's puts name them (fills {@code out},
     * room for {@link #hops}; returns how many): each link of {@link #path} by its direction
     * leaving its node — on the torus 0 = x+ (E), 1 = x− (W), 2 = y+ (N), 3 = y− (S), the
     * numbers of {@link #direction}'s axis neighbours; on a ring 0 (+) and 1 (−). Every rank of a
     * translation-symmetric exchange runs the same schedule, so the link of direction d of the
     * node a route passes carries, at any instant, what the sender's own link d carries: the
     * direction stands for the link (a diagonal NE put, x first, crosses 0 then 2).
     */
    public int routeLinks(int a, int b, int[] out) {
        int n = path(a, b, out);
        for (int i = 0; i < n; i++) {
            out[i] = (out[i] - baseLinks) % linksPerRank;
        }
        return n;
    }

    /**
     * The direction of {@code b} seen from {@code a}, as RSched names them: on the torus 0..7
     * for the 8 neighbours E, W, N, S, NE, NW, SE, SW (x is the first coordinate, y the
     * second), else the direction of the first link (0..3); on a ring 0 (+) or 1 (−).
     */
    public int direction(int a, int b) {
        if (torus) {
            int dx = wrap(b / ty - a / ty, tx);
            int dy = wrap(b % ty - a % ty, ty);
            if (Math.abs(dx) <= 1 && Math.abs(dy) <= 1 && (dx != 0 || dy != 0)) {
                if (dy == 0) {
                    return dx > 0 ? 0 : 1;
                }
                if (dx == 0) {
                    return dy > 0 ? 2 : 3;
                }
                return dx > 0 ? (dy > 0 ? 4 : 6) : (dy > 0 ? 5 : 7);
            }
            return dx != 0 ? (dx > 0 ? 0 : 1) : (dy > 0 ? 2 : 3);
        }
        int d = Math.floorMod(b % subcluster - a % subcluster, subcluster);
        return plusWay(d, subcluster, a % subcluster) ? 0 : 1;
    }

    /**
     * True when a transfer d steps ahead on a ring of n goes the + way: the shorter way, and
     * at exactly half way round + from even positions and − from odd ones, so that the two
     * directions of the (double) ring share the antipodal traffic instead of + carrying all.
     */
    private static boolean plusWay(int d, int n, int pos) {
        return 2 * d < n || (2 * d == n && (pos & 1) == 0);
    }

    /** True when {@code b} is a diagonal neighbour of {@code a} on the torus. */
    public boolean diagonal(int a, int b) {
        return direction(a, b) >= 4 && torus;
    }

    /** The shortest signed offset from 0 to d on a ring of n. */
    private static int wrap(int d, int n) {
        int m = Math.floorMod(d, n);
        return m <= n / 2 ? m : m - n;
    }

    /** The longest path any transfer can take (for sizing scratch arrays). */
    public int maxHops() {
        return torus ? tx / 2 + ty / 2 : subcluster / 2;
    }
}
