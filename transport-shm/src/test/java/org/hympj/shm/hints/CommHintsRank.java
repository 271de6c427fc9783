package org.hympj.shm.hints;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.expectThrows;
import static org.hympj.shm.testing.Ranks.pass;

import java.util.HashMap;
import java.util.Map;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.router.RouteStatistics;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.testing.MultiRank;
import org.hympj.spi.Layout;

/**
 * Rank program of {@link CommHintsTest}: communicators with hints ({@link Comm#dup(Map)}).
 *
 * <pre>usage: CommHintsRank modelled|native</pre>
 *
 * modelled (4 ranks, ha-pacs, one subcluster, the job's --sched none and --route auto):
 * defaults, bad hints refused with nothing changed, a route hint taking each message to its
 * fabric (counted by the engine, data checked), inheritance by derived communicators, a sched
 * hint normalised, hints that differ between ranks refused on every rank, a Startall mixing
 * two sched hints refused before anything starts. native (2 ranks): a route hint is refused
 * (one channel), a sched hint taken (it does nothing without a model).
 */
public final class CommHintsRank {
    static final String[] MODELLED = {"defaults", "bad-hints", "route-hint", "inherit", "sched-hint", "mismatch",
        "mixed-set"};
    static final String[] NATIVE = {"native-hints"};
    private static final int N = 1 << 12;

    private CommHintsRank() {
    }

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            if (args[0].equals("native")) {
                nativeHints(world);
            } else {
                modelled(world, ((ShmMpj) mpj).engine().routeStatistics());
            }
        }
        pass(MultiRank.FINALIZED);
    }

    private static void nativeHints(Comm world) {
        expectThrows(IllegalArgumentException.class, () -> world.dup(Map.of(Comm.HINT_ROUTE, "ib")), "route natively",
            "hympj.route", "emulated fabrics");
        Comm s = world.dup(Map.of(Comm.HINT_SCHED, "bl:4"));
        check(s.hint(Comm.HINT_SCHED).equals("bl:4"), "sched hint %s", s.hint(Comm.HINT_SCHED));
        check(s.hint(Comm.HINT_ROUTE).equals("auto"), "route %s", s.hint(Comm.HINT_ROUTE));
        exchange(s, 1);
        pass("native-hints");
    }

    private static void modelled(Comm world, RouteStatistics stats) {
        check(world.hint(Comm.HINT_SCHED).equals("none"), "default sched %s", world.hint(Comm.HINT_SCHED));
        check(world.hint(Comm.HINT_ROUTE).equals("auto"), "default route %s", world.hint(Comm.HINT_ROUTE));
        pass("defaults");

        expectThrows(IllegalArgumentException.class, () -> world.dup(null), "null map", "dup", "hints");
        expectThrows(IllegalArgumentException.class, () -> world.dup(Map.of("hympj.schedule", "bl:4")), "unknown key",
            "dup", "hympj.schedule", "hympj.sched", "hympj.route");
        expectThrows(IllegalArgumentException.class, () -> world.dup(Map.of(Comm.HINT_SCHED, "bl:3")), "bad sched",
            "dup", "hympj.sched", "'bl:3'", "bl:4", "rndv");
        expectThrows(IllegalArgumentException.class, () -> world.dup(Map.of(Comm.HINT_ROUTE, "fast")), "bad route",
            "dup", "hympj.route", "'fast'", "tca", "ib");
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put(Comm.HINT_ROUTE, null);
        expectThrows(IllegalArgumentException.class, () -> world.dup(nullValue), "null value", "hympj.route");
        expectThrows(IllegalArgumentException.class, () -> world.hint("hympj.colour"), "hint of an unknown key",
            "hympj.colour");
        exchange(world, 2); // nothing changed: the world still exchanges (no context was taken on any rank)
        pass("bad-hints");

        Comm ib = world.dup(Map.of(Comm.HINT_ROUTE, "ib"));
        Comm tca = world.dup(Map.of(Comm.HINT_ROUTE, "tca"));
        check(ib.hint(Comm.HINT_ROUTE).equals("ib") && ib.hint(Comm.HINT_SCHED).equals("none"), "ib hints");
        long ib0 = stats.messages(1, Layout.CONTIGUOUS);
        long tca0 = stats.messages(0, Layout.CONTIGUOUS);
        exchange(ib, 3);
        check(stats.messages(1, Layout.CONTIGUOUS) == ib0 + 1 && stats.messages(0, Layout.CONTIGUOUS) == tca0,
            "route ib: IB %d -> %d, TCA %d -> %d", ib0, stats.messages(1, Layout.CONTIGUOUS), tca0,
            stats.messages(0, Layout.CONTIGUOUS));
        exchange(tca, 4);
        check(stats.messages(0, Layout.CONTIGUOUS) == tca0 + 1 && stats.messages(1, Layout.CONTIGUOUS) == ib0 + 1,
            "route tca: TCA %d -> %d", tca0, stats.messages(0, Layout.CONTIGUOUS));
        pass("route-hint");

        Comm d = ib.dup();
        CartComm cart = ib.createCart(new int[] {2, 2}, new boolean[] {true, true}, false);
        CartComm cartDup = cart.dup();
        Comm half = ib.split(world.rank() % 2, world.rank());
        CartComm hinted = cart.dup(Map.of(Comm.HINT_SCHED, "rr:4"));
        for (Comm c : new Comm[] {d, cart, cartDup, half}) {
            check(c.hint(Comm.HINT_ROUTE).equals("ib"), "inherited route: %s", c.hint(Comm.HINT_ROUTE));
        }
        check(hinted.hint(Comm.HINT_ROUTE).equals("ib") && hinted.hint(Comm.HINT_SCHED).equals("rr:4"),
            "hints added to inherited ones: %s %s", hinted.hint(Comm.HINT_ROUTE), hinted.hint(Comm.HINT_SCHED));
        check(cartDup.ndims() == 2 && hinted.dims()[1] == 2, "a dup keeps the grid");
        long ibBefore = stats.messages(1, Layout.CONTIGUOUS);
        exchange(cartDup, 5);
        check(stats.messages(1, Layout.CONTIGUOUS) == ibBefore + 1, "the dup's message went over IB");
        pass("inherit");

        Comm s = world.dup(Map.of(Comm.HINT_SCHED, " BL:4 "));
        check(s.hint(Comm.HINT_SCHED).equals("bl:4"), "normalised sched %s", s.hint(Comm.HINT_SCHED));
        check(world.hint(Comm.HINT_SCHED).equals("none"), "the parent keeps its hints");
        exchange(s, 6);
        pass("sched-hint");

        String mine = world.rank() == 0 ? "bl:4" : "rr:4";
        expectThrows(IllegalArgumentException.class, () -> world.dup(Map.of(Comm.HINT_SCHED, mine)), "differing hints",
            "dup", "different hints");
        exchange(world, 7);
        pass("mismatch");

        Comm rr = world.dup(Map.of(Comm.HINT_SCHED, "rr:4"));
        int right = (world.rank() + 1) % world.size();
        int left = (world.rank() + world.size() - 1) % world.size();
        double[] a = new double[N];
        double[] b = new double[N];
        double[] inA = new double[N];
        double[] inB = new double[N];
        PersistentRequest[] set = {s.sendInit(a, 0, N, Datatype.DOUBLE, right, 8),
            rr.sendInit(b, 0, N, Datatype.DOUBLE, right, 8)};
        expectThrows(IllegalArgumentException.class, () -> Request.startAll(set), "mixed set", "startAll",
            "hympj.sched", "none was started");
        PersistentRequest[] recvs = {s.recvInit(inA, 0, N, Datatype.DOUBLE, left, 8),
            rr.recvInit(inB, 0, N, Datatype.DOUBLE, left, 8)};
        java.util.Arrays.fill(a, world.rank() + 0.5);
        java.util.Arrays.fill(b, world.rank() + 0.25);
        // each comm's set on its own: started and delivered
        Request.startAll(new PersistentRequest[] {recvs[0], set[0]});
        Request.startAll(new PersistentRequest[] {recvs[1], set[1]});
        Request.waitAll(new Request[] {recvs[0], set[0], recvs[1], set[1]});
        check(inA[N - 1] == left + 0.5 && inB[0] == left + 0.25, "mixed-set data %s %s", inA[N - 1], inB[0]);
        for (PersistentRequest q : set) {
            q.free();
        }
        for (PersistentRequest q : recvs) {
            q.free();
        }
        pass("mixed-set");
    }

    /** A ring exchange of N doubles on {@code c} (one message each way per rank), the data checked. */
    private static void exchange(Comm c, int tag) {
        int right = (c.rank() + 1) % c.size();
        int left = (c.rank() + c.size() - 1) % c.size();
        double[] out = new double[N];
        double[] in = new double[N];
        for (int i = 0; i < N; i++) {
            out[i] = c.rank() * 1e6 + i + tag;
        }
        c.sendrecv(out, 0, N, Datatype.DOUBLE, right, tag, in, 0, N, Datatype.DOUBLE, left, tag);
        for (int i = 0; i < N; i += 127) {
            check(in[i] == left * 1e6 + i + tag, "tag %d: element %d is %s", tag, i, in[i]);
        }
    }
}
