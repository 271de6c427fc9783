package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator's rules on cases worked out by hand (tofu: 3.5 B/ns engines, 5 B/ns links, 1000 ns per access). */
class SimulatorTest {
    private static final MachineModel TOFU = MachineModel.tofu();
    private static final double EPS = 1e-6;

    private static Schedule run(List<Put> puts, int[][] queues, int[] recv, int[] groups, int[] prio, double[] notBefore) {
        return Simulator.run("test", puts, TOFU, new Assignment(queues, recv, groups, prio, notBefore));
    }

    @Test
    void aPutAloneTakesTheAccessOverheadPlusItsBytesAtTheEngineBandwidth() {
        List<Put> puts = List.of(new Put(0, 1, 0, 3500));
        Schedule s = run(puts, new int[][] {{0}, {}, {}, {}}, new int[] {0}, Assignment.SHARED, null, null);
        assertEquals(0, s.slotOf(0).startNs(), EPS);
        assertEquals(2000, s.slotOf(0).endNs(), EPS);
        assertEquals(2000, TOFU.durationNs(puts.get(0)), EPS);
        assertEquals(2000, s.makespanNs(), EPS);
    }

    @Test
    void twoPutsOnOneLinkShareIt() {
        // both push at 5/2 = 2.5 B/ns after the access: 1000 + 7000/2.5
        List<Put> puts = List.of(new Put(0, 1, 0, 7000), new Put(1, 1, 0, 7000));
        Schedule s = run(puts, new int[][] {{0}, {1}, {}, {}}, new int[] {0, 1}, Assignment.SHARED, null, null);
        assertEquals(3800, s.slotOf(0).endNs(), EPS);
        assertEquals(3800, s.slotOf(1).endNs(), EPS);
    }

    @Test
    void whenOneSharerEndsTheOtherSpeedsUp() {
        // 3500 B and 7000 B: both at 2.5 from 1000 until the small one is done at 2400 (3500 B each
        // sent), then the large one alone at 3.5 B/ns for its last 3500 B: 3400
        List<Put> puts = List.of(new Put(0, 1, 0, 3500), new Put(1, 2, 0, 7000));
        Schedule s = run(puts, new int[][] {{0}, {1}, {}, {}}, new int[] {0, 0}, Assignment.SHARED, null, null);
        assertEquals(2400, s.slotOf(0).endNs(), EPS);
        assertEquals(3400, s.slotOf(1).endNs(), EPS);
    }

    @Test
    void threeSharersSplitTheLinkThreeWays() {
        List<Put> puts = List.of(new Put(0, 1, 0, 5000), new Put(1, 2, 0, 5000), new Put(2, 3, 0, 5000));
        Schedule s = run(puts, new int[][] {{0}, {1}, {2}, {}}, new int[] {0, 0, 0}, Assignment.SHARED, null, null);
        for (int p = 0; p < 3; p++) {
            assertEquals(1000 + 5000 / (5.0 / 3), s.slotOf(p).endNs(), EPS);
        }
    }

    @Test
    void aLateSharerJoinsHalfway() {
        // e1 first runs 1000 B on link 1 (1000 + 1000/3.5 = 1285.714), then 7000 B on link 0,
        // whose bytes start at 2285.714; e0's 7000 B on link 0 pushes alone at 3.5 from 1000
        // (4500 B by 2285.714), then both at 2.5: e0's last 2500 B end at 3285.714, by when the
        // late put has 2500 B through; its last 4500 B alone at 3.5: 1285.714 more
        List<Put> puts = List.of(new Put(0, 1, 0, 7000), new Put(1, 2, 1, 1000), new Put(2, 3, 0, 7000));
        Schedule s = run(puts, new int[][] {{0}, {1, 2}, {}, {}}, new int[] {0, 0, 0}, Assignment.SHARED, null, null);
        double c = 1000 + 1000 / 3.5;
        assertEquals(c, s.slotOf(1).endNs(), EPS);
        assertEquals(c, s.slotOf(2).startNs(), EPS);
        assertEquals(c + 1000 + 2500 / 2.5, s.slotOf(0).endNs(), EPS);
        assertEquals(c + 1000 + 2500 / 2.5 + 4500 / 3.5, s.slotOf(2).endNs(), EPS);
    }

    @Test
    void exclusiveLinksMakeTheSecondPutWaitInPriorityOrder() {
        List<Put> puts = List.of(new Put(0, 1, 0, 7000), new Put(1, 1, 0, 7000));
        Schedule s = run(puts, new int[][] {{0}, {1}, {}, {}}, new int[] {0, 1}, Assignment.EXCLUSIVE, new int[] {1, 0}, null);
        // put 1 has the better priority: it goes first, put 0 waits for the link
        assertEquals(0, s.slotOf(1).startNs(), EPS);
        assertEquals(3000, s.slotOf(1).endNs(), EPS);
        assertEquals(3000, s.slotOf(0).startNs(), EPS);
        assertEquals(6000, s.slotOf(0).endNs(), EPS);
    }

    @Test
    void linkGroupsShareWithinAndWaitAcross() {
        // puts 0 and 1 in group 7 share; put 2 (group 9) waits until both are off the link
        List<Put> puts = List.of(new Put(0, 1, 0, 7000), new Put(1, 2, 0, 7000), new Put(2, 3, 0, 3500));
        Schedule s = run(puts, new int[][] {{0}, {1}, {2}, {}}, new int[] {0, 0, 0}, new int[] {7, 7, 9}, null, null);
        assertEquals(3800, s.slotOf(0).endNs(), EPS);
        assertEquals(3800, s.slotOf(1).endNs(), EPS);
        assertEquals(3800, s.slotOf(2).startNs(), EPS);
        assertEquals(5800, s.slotOf(2).endNs(), EPS);
    }

    @Test
    void aReceiveEngineServesOnePutAtATime() {
        // different links and engines, same destination and receive engine: one after the other
        List<Put> puts = List.of(new Put(0, 5, 0, 3500), new Put(1, 5, 1, 3500));
        Schedule s = run(puts, new int[][] {{0}, {1}, {}, {}}, new int[] {2, 2}, Assignment.SHARED, null, null);
        assertEquals(2000, s.slotOf(0).endNs(), EPS);
        assertEquals(2000, s.slotOf(1).startNs(), EPS);
        assertEquals(4000, s.slotOf(1).endNs(), EPS);
        // other receive engines: at once
        s = run(puts, new int[][] {{0}, {1}, {}, {}}, new int[] {2, 3}, Assignment.SHARED, null, null);
        assertEquals(2000, s.makespanNs(), EPS);
    }

    @Test
    void anEngineRunsItsListInOrderAndNotBeforeDelays() {
        List<Put> puts = List.of(new Put(0, 1, 0, 3500), new Put(1, 2, 1, 7000));
        Schedule s = run(puts, new int[][] {{1, 0}, {}, {}, {}}, new int[] {0, 0}, Assignment.SHARED, null, null);
        assertEquals(0, s.slotOf(1).startNs(), EPS);
        assertEquals(3000, s.slotOf(0).startNs(), EPS);
        assertEquals(5000, s.makespanNs(), EPS);
        assertEquals(List.of(1, 0), s.engine(0).stream().map(Slot::putId).toList());
        s = run(puts, new int[][] {{1, 0}, {}, {}, {}}, new int[] {0, 0}, Assignment.SHARED, null, new double[] {4000, 500});
        assertEquals(500, s.slotOf(1).startNs(), EPS);
        assertEquals(4000, s.slotOf(0).startNs(), EPS);
        assertEquals(6000, s.makespanNs(), EPS);
    }

    @Test
    void aPutAloneIsLimitedByTheSlowerOfEngineAndLink() {
        MachineModel slowLink = new MachineModel(4, 5.0, 2.0, 100, 4);
        List<Put> puts = List.of(new Put(0, 1, 0, 2000), new Put(1, 2, 0, 2000));
        Schedule s = Simulator.run("t", puts, slowLink, new Assignment(new int[][] {{0}, {1}, {}, {}}, new int[] {0, 0},
            Assignment.SHARED, null, null));
        assertEquals(1100, slowLink.durationNs(puts.get(0)), EPS);
        assertEquals(100 + 4000 / 2.0, s.makespanNs(), EPS);
        assertEquals(1, slowLink.linkShare());
        assertEquals(2, TOFU.linkShare());
    }

    @Test
    void zeroBytesAndZeroOverhead() {
        MachineModel free = new MachineModel(2, 1, 1, 0, 1);
        List<Put> puts = List.of(new Put(0, 1, 0, 0), new Put(1, 1, 0, 10), new Put(2, 1, 0, 0));
        Schedule s = Simulator.run("t", puts, free, new Assignment(new int[][] {{0, 1, 2}, {}}, new int[] {0, 0, 0},
            Assignment.EXCLUSIVE, null, null));
        assertEquals(10, s.makespanNs(), EPS);
        assertEquals(0, s.slotOf(0).endNs(), EPS);
        assertEquals(10, s.slotOf(2).startNs(), EPS);
    }

    @Test
    void badAssignmentsAreRefused() {
        List<Put> puts = List.of(new Put(0, 1, 0, 10), new Put(1, 1, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> run(puts, new int[][] {{0, 0}, {1}, {}, {}}, new int[] {0, 0},
            Assignment.SHARED, null, null));
        assertThrows(IllegalArgumentException.class, () -> run(puts, new int[][] {{0}, {}, {}, {}}, new int[] {0, 0},
            Assignment.SHARED, null, null));
        assertThrows(IllegalArgumentException.class, () -> run(puts, new int[][] {{0}, {1}, {}}, new int[] {0, 0},
            Assignment.SHARED, null, null));
        assertThrows(IllegalArgumentException.class, () -> run(puts, new int[][] {{0}, {1}, {}, {}}, new int[] {0, 4},
            Assignment.SHARED, null, null));
        assertThrows(IllegalArgumentException.class, () -> run(puts, new int[][] {{0}, {2}, {}, {}}, new int[] {0, 0},
            Assignment.SHARED, null, null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> run(List.of(new Put(1, 1, 0, 10)), new int[][] {{0}, {}, {}, {}}, new int[] {0}, Assignment.SHARED, null, null));
        assertTrue(e.getMessage().contains("ids must be 0..n-1"), e.getMessage());
    }
}
