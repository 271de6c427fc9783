package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Puts that cross more than one link (Put#links): S3's SCALE-LES3 halo on a 2D torus routed x
 * first, as the emulator's model routes it (a diagonal NE put crosses the sender's E link, then
 * its east neighbour's N link, which in an exchange every rank runs alike carries what the
 * sender's own N link carries: links E=0, W=1, N=2, S=3). Tofu: 3.5 B/ns engines, 5 B/ns links,
 * 1000 ns per access.
 */
class RoutedPutsTest {
    private static final MachineModel TOFU = MachineModel.tofu();
    private static final double EPS = 1e-6;
    /** Per direction E W N S NE NW SE SW, the links of its route, x first. */
    private static final int[][] ROUTE = {{0}, {1}, {2}, {3}, {0, 2}, {1, 2}, {0, 3}, {1, 3}};

    /** S3's set for a rank of the 3×3 torus with its routes (ScaleLes3's puts, each with its links). */
    static List<Put> routed(int k, String pattern) {
        List<Put> out = new ArrayList<>();
        for (Put p : ScaleLes3.puts(k, pattern)) {
            out.add(new Put(p.id(), p.dest(), p.direction(), p.bytes(), p.diagonal(), ROUTE[p.direction()]));
        }
        return out;
    }

    private static double alone(long bytes) {
        return 1000 + bytes / 3.5;
    }

    @Test
    void aPutNamesAtLeastOneLinkAndNoNegativeOne() {
        assertThrows(IllegalArgumentException.class, () -> new Put(0, 1, 4, 8, true, new int[0]));
        assertThrows(IllegalArgumentException.class, () -> new Put(0, 1, 4, 8, true, null));
        assertThrows(IllegalArgumentException.class, () -> new Put(0, 1, 4, 8, true, new int[] {0, -2}));
        int[] links = {0, 2};
        Put p = new Put(0, 1, 4, 8, true, links);
        links[0] = 7;
        assertEquals(0, p.links()[0], "the put keeps its own copy");
        assertTrue(p.routed());
        assertTrue(!new Put(0, 1, 3, 8).routed(), "an axis put's one link is its direction");
        assertEquals(new Put(0, 1, 3, 8), new Put(0, 1, 3, 8, false, new int[] {3}));
    }

    @Test
    void aRoutedPutAloneTakesAsLongAsAnAxisPut() {
        // its later link carries the bytes at 5 B/ns while the engine pushes 3.5: the engine bounds it
        List<Put> puts = List.of(new Put(0, 1, 4, 7000, true, new int[] {0, 2}));
        Schedule s = Simulator.run("t", puts, TOFU, new Assignment(new int[][] {{0}, {}, {}, {}}, new int[] {0},
            Assignment.EXCLUSIVE, null, null));
        assertEquals(alone(7000), s.makespanNs(), EPS);
    }

    @Test
    void twoRoutesSharingTheirFirstLinkShareIt() {
        // NE and SE both start on link E: 2.5 B/ns each; their later links N and S are their own
        List<Put> puts = List.of(new Put(0, 1, 4, 7000, true, new int[] {0, 2}), new Put(1, 2, 6, 7000, true,
            new int[] {0, 3}));
        Schedule s = Simulator.run("t", puts, TOFU, new Assignment(new int[][] {{0}, {1}, {}, {}}, new int[] {0, 1},
            Assignment.SHARED, null, null));
        assertEquals(1000 + 7000 / 2.5, s.slotOf(0).endNs(), EPS);
        assertEquals(1000 + 7000 / 2.5, s.slotOf(1).endNs(), EPS);
    }

    @Test
    void aLaterLinkSharedByTwoRoutesDelaysTheDataButFreesTheEngines() {
        // NE and NW start on links E and W at the engines' 3.5 B/ns and both cross N: N carries
        // both at 2.5 B/ns each, so their data is through at 1000 + 7000/2.5 = 3800; the engines
        // are free at 1000 + 7000/3.5 = 3000, when the next put on engine 0 (link S) starts
        List<Put> puts = List.of(new Put(0, 1, 4, 7000, true, new int[] {0, 2}), new Put(1, 2, 5, 7000, true,
            new int[] {1, 2}), new Put(2, 3, 3, 3500));
        Schedule s = Simulator.run("t", puts, TOFU, new Assignment(new int[][] {{0, 2}, {1}, {}, {}},
            new int[] {0, 1, 2}, Assignment.SHARED, null, null));
        assertEquals(3800, s.slotOf(0).endNs(), EPS);
        assertEquals(3800, s.slotOf(1).endNs(), EPS);
        assertEquals(3000, s.slotOf(2).startNs(), EPS);
        assertEquals(3000 + alone(3500), s.slotOf(2).endNs(), EPS);
    }

    @Test
    void aLinkLoadedTwiceCountsTwice() {
        // two hops along x: the put's own copy and its neighbour's cross each x+ link: 2.5 B/ns
        List<Put> puts = List.of(new Put(0, 1, 0, 7000, false, new int[] {0, 0}));
        Schedule s = Simulator.run("t", puts, TOFU, new Assignment(new int[][] {{0}, {}, {}, {}}, new int[] {0},
            Assignment.EXCLUSIVE, null, null));
        assertEquals(1000 + 7000 / 2.5, s.makespanNs(), EPS);
        assertEquals(1000 + 14000 / 5.0, LowerBound.of(puts, TOFU).linkNs(), EPS);
    }

    @Test
    void anExclusivePutWaitsForEveryLinkOfItsRoute() {
        // BL's rule: N waits for NE, which holds N's link as its second
        List<Put> puts = List.of(new Put(0, 1, 4, 7000, true, new int[] {0, 2}), new Put(1, 2, 2, 7000));
        Schedule s = Simulator.run("t", puts, TOFU, new Assignment(new int[][] {{0}, {1}, {}, {}}, new int[] {0, 0},
            Assignment.EXCLUSIVE, null, null));
        assertEquals(alone(7000), s.slotOf(1).startNs(), EPS);
        assertEquals(2 * alone(7000), s.makespanNs(), EPS);
    }

    @Test
    void blKeepsEveryLinkOfARouteToOnePut() {
        for (int k : ScaleLes3.KS) {
            for (String pattern : List.of("diag", "all")) {
                List<Put> puts = routed(k, pattern);
                for (String policy : List.of("bl:1", "bl:2", "bl:4")) {
                    Checks.valid(Schedulers.parse(policy).schedule(puts, TOFU), puts, TOFU, true,
                        Integer.parseInt(policy.substring(3)));
                }
                Checks.valid(Schedulers.parse("bl+").schedule(puts, TOFU), puts, TOFU, false, TOFU.engines());
                Checks.valid(Schedulers.parse("rr:4").schedule(puts, TOFU), puts, TOFU, false, TOFU.engines());
            }
        }
    }

    @Test
    void onTheTorusTwoDiagonalsRunAtOnceAtMost() {
        // every diagonal crosses an E or W link and an N or S link: only NE+SW or NW+SE fit side by
        // side, so BL(2) and BL(4) place the eight diagonals in four rounds of two
        long d = ScaleLes3.bytes(872, 4);
        for (String policy : List.of("bl:2", "bl:4")) {
            assertEquals(4 * alone(d), Schedulers.parse(policy).schedule(routed(872, "diag"), TOFU).makespanNs(), EPS,
                policy);
        }
        // all: E and W hold their links for their whole put (65.07 us), N and S two puts each
        // (66.07 us); the diagonals follow in four rounds of two
        double axis = 2 * alone(ScaleLes3.bytes(872, 2));
        assertEquals(axis + 4 * alone(d), Schedulers.parse("bl:4").schedule(routed(872, "all"), TOFU).makespanNs(),
            EPS);
        // without routes (S3's machine: each diagonal its own link) BL(4) runs them four at once
        assertEquals(axis + 2 * alone(d), Schedulers.parse("bl:4").schedule(ScaleLes3.puts(872, "all"), TOFU)
            .makespanNs(), EPS);
    }

    @Test
    void blPlusSharesTheLinksWhereTheyAreFasterThanTheEngines() {
        for (int k : List.of(60, 872)) {
            List<Put> puts = routed(k, "all");
            Schedule bl = Schedulers.parse("bl:4").schedule(puts, TOFU);
            Schedule plus = Schedulers.parse("bl+").schedule(puts, TOFU);
            assertTrue(plus.makespanNs() < bl.makespanNs() - EPS, () -> "bl+ " + plus + " vs bl:4 " + bl);
            assertTrue(plus.makespanNs() <= 1.25 * plus.lowerBoundNs(), plus::toString);
        }
    }

    @Test
    void theBoundCountsEveryLinkOfARoute() {
        // diag at k=872: link E carries NE, NE, SE, SE (4 x 14016 B)
        long d = ScaleLes3.bytes(872, 4);
        LowerBound lb = LowerBound.of(routed(872, "diag"), TOFU);
        assertEquals(1000 + 4 * d / 5.0, lb.linkNs(), EPS);
        assertEquals("link", lb.binding());
        // unrouted, the busiest link carries two diagonal puts: the work bound binds
        assertEquals("work", LowerBound.of(ScaleLes3.puts(872, "diag"), TOFU).binding());
    }
}
