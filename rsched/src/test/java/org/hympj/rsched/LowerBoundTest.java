package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LowerBoundTest {
    private static final MachineModel TOFU = MachineModel.tofu();
    private static final double EPS = 1e-6;

    @Test
    void termsOfTheBound() {
        // 4 puts: 3 on link 0 to rank 1, 1 on link 1 to rank 2
        List<Put> puts = List.of(new Put(0, 1, 0, 35000), new Put(1, 1, 0, 35000), new Put(2, 1, 0, 35000), new Put(3, 2, 1, 70000));
        LowerBound lb = LowerBound.of(puts, TOFU);
        double d1 = 1000 + 10000;
        double d2 = 1000 + 20000;
        assertEquals((3 * d1 + d2) / 4, lb.workNs(), EPS);
        assertEquals(105000 / 5.0, lb.linkBytesNs(), EPS);
        assertEquals(1000 + 105000 / 5.0, lb.linkNs(), EPS);
        assertEquals(3 * d1 / 4, lb.receiveNs(), EPS);
        assertEquals(d2, lb.longestNs(), EPS);
        assertEquals(1000 + 21000, lb.valueNs(), EPS);
        assertEquals("link", lb.binding());
    }

    @Test
    void oneReceiveEngineMakesTheDestinationTheBound() {
        MachineModel m = new MachineModel(4, 3.5, 5.0, 1000, 1);
        List<Put> puts = List.of(new Put(0, 1, 0, 3500), new Put(1, 1, 1, 3500), new Put(2, 1, 2, 3500));
        LowerBound lb = LowerBound.of(puts, m);
        assertEquals(6000, lb.valueNs(), EPS);
        assertEquals("receive", lb.binding());
        assertEquals(6000, Schedulers.parse("bl+").schedule(puts, m).makespanNs(), EPS);
    }

    @Test
    void scaleLesAllAtK60() {
        List<Put> puts = ScaleLes3.puts(60, "all");
        LowerBound lb = LowerBound.of(puts, TOFU);
        double ew = 1000 + 16384 / 3.5;
        double ns = 1000 + 8192 / 3.5;
        double dg = 1000 + 1024 / 3.5;
        assertEquals((2 * ew + 4 * ns + 8 * dg) / 4, lb.valueNs(), EPS);
        assertEquals("work", lb.binding());
        assertEquals(lb.valueNs(), Schedulers.parse("bl:4").schedule(puts, TOFU).lowerBoundNs(), EPS);
    }
}
