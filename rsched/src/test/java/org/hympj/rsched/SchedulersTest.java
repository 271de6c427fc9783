package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulersTest {
    private static final MachineModel TOFU = MachineModel.tofu();

    @Test
    void everyNameParses() {
        for (String name : List.of("rr:1", "rr:2", "rr:4", "bl:1", "bl:2", "bl:4", "bl+", "bl+oh", "none")) {
            Scheduler s = Schedulers.parse(name);
            assertEquals(name, s.name());
            assertEquals(name, s.schedule(ScaleLes3.puts(60, "all"), TOFU).policy());
        }
        assertEquals("bl+", Schedulers.parse(" BL+ ").name());
        assertEquals(Schedulers.NAMES.size(), 9);
    }

    @Test
    void unknownNamesListTheValidOnes() {
        for (String bad : new String[] {"rr:3", "bl", "", "fifo", null}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Schedulers.parse(bad));
            for (String name : Schedulers.NAMES) {
                assertTrue(e.getMessage().contains(name), e.getMessage());
            }
        }
    }

    @Test
    void noneIsRoundRobinOnOneEngineInRequestOrder() {
        List<Put> puts = ScaleLes3.puts(60, "all");
        Schedule none = Schedulers.parse("none").schedule(puts, TOFU);
        Schedule rr1 = Schedulers.parse("rr:1").schedule(puts, TOFU);
        assertEquals(rr1.makespanNs(), none.makespanNs());
        assertEquals(14, none.engine(0).size());
        for (int i = 0; i < 14; i++) {
            assertEquals(i, none.engine(0).get(i).putId());
        }
        double sum = 0;
        for (Put p : puts) {
            sum += TOFU.durationNs(p);
        }
        assertEquals(sum, none.makespanNs(), 1e-6);
    }

    @Test
    void roundRobinDealsPutsAndReceiveEngines() {
        List<Put> puts = ScaleLes3.puts(60, "all");
        Schedule rr2 = new RoundRobin(2).schedule(puts, TOFU);
        for (int i = 0; i < puts.size(); i++) {
            assertEquals(i % 2, rr2.slotOf(i).engine());
            assertEquals(i % 2, rr2.slotOf(i).receiveEngine());
        }
        assertTrue(rr2.engine(2).isEmpty() && rr2.engine(3).isEmpty());
        MachineModel eight = new MachineModel(8, 3.5, 5, 1000, 4);
        Schedule rr8 = new RoundRobin(8).schedule(puts, eight);
        assertEquals(5 % 4, rr8.slotOf(5).receiveEngine());
        assertEquals(5, rr8.slotOf(5).engine());
    }

    @Test
    void bottomLeftIsLowestThenLeftmost() {
        // three equal puts on three links start at once on engines 0, 1, 2; a fourth on link 0 waits for it
        List<Put> puts = List.of(new Put(0, 1, 0, 3500), new Put(1, 2, 1, 3500), new Put(2, 3, 2, 3500), new Put(3, 1, 0, 3500));
        Schedule s = Schedulers.parse("bl:4").schedule(puts, TOFU);
        assertEquals(0, s.slotOf(0).engine());
        assertEquals(1, s.slotOf(1).engine());
        assertEquals(2, s.slotOf(2).engine());
        assertEquals(0, s.slotOf(3).engine());
        assertEquals(2000, s.slotOf(3).startNs(), 1e-6);
        // longer first: the long put takes engine 0 at time 0
        List<Put> two = List.of(new Put(0, 1, 0, 100), new Put(1, 2, 1, 10000));
        Schedule t = Schedulers.parse("bl:4").schedule(two, TOFU);
        assertEquals(0, t.slotOf(1).engine());
        assertEquals(1, t.slotOf(0).engine());
    }

    @Test
    void blKKeepsDiagonalsOnTheFirstKEngines() {
        List<Put> puts = ScaleLes3.puts(60, "diag");
        for (int k : new int[] {1, 2, 4}) {
            Schedule s = Schedulers.parse("bl:" + k).schedule(puts, TOFU);
            for (int i = 0; i < puts.size(); i++) {
                assertTrue(s.slotOf(i).engine() < k);
            }
            assertEquals(8.0 / k * (1000 + 1024 / 3.5), s.makespanNs(), 1e-6);
        }
    }

    @Test
    void blPlusSharesTheNorthSouthLinks() {
        // S3's NS case: two 8192 B puts per link; side by side they take 1000 + 2*8192/5
        List<Put> puts = ScaleLes3.puts(60, "ns");
        Schedule s = Schedulers.parse("bl+").schedule(puts, TOFU);
        for (int i = 0; i < 4; i++) {
            assertEquals(0, s.slotOf(i).startNs(), 1e-6);
            assertEquals(1000 + 2 * 8192 / 5.0, s.slotOf(i).endNs(), 1e-6);
        }
        assertEquals(s.lowerBoundNs(), s.makespanNs(), 1e-6);
    }

    @Test
    void blPlusRunsFourPutsOfOneLinkTogether() {
        // the 4x2 torus's NS case: N and S are one neighbour and one link, four 8192 B puts on it.
        // In pairs they take 2 * (1000 + 2*8192/5); all four at once overlap their access overheads
        // (1000 + 4*8192/5, what rr:4 does), which is the bound
        List<Put> puts = List.of(new Put(0, 1, 2, 8192), new Put(1, 1, 2, 8192), new Put(2, 1, 2, 8192),
            new Put(3, 1, 2, 8192));
        Schedule s = Schedulers.parse("bl+").schedule(puts, TOFU);
        assertEquals(1000 + 4 * 8192 / 5.0, s.makespanNs(), 1e-6);
        assertEquals(s.lowerBoundNs(), s.makespanNs(), 1e-6);
        assertEquals(Schedulers.parse("rr:4").schedule(puts, TOFU).makespanNs(), s.makespanNs(), 1e-6);
        assertTrue(Schedulers.parse("bl+oh").schedule(puts, TOFU).makespanNs() <= s.makespanNs() + 1e-6);
    }
}
