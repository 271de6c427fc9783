package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Invariants of every policy on a few thousand random put sets (seeded). */
class PropertyTest {
    private static final MachineModel TOFU = MachineModel.tofu();
    private static final int SETS = 2500;

    @Test
    void everyPolicyProducesAValidSchedule() {
        Random rnd = new Random(20130801);
        everyPolicyValid(() -> Checks.randomSet(rnd, 40), SETS);
    }

    @Test
    void everyPolicyProducesAValidScheduleForRoutedPuts() {
        // diagonals over two links, some puts two hops along an axis: BL keeps every link of a
        // route to one put, bl+ is never worse than bl:4, every link within its bandwidth
        Random rnd = new Random(20131118);
        everyPolicyValid(() -> Checks.randomRoutedSet(rnd, 40), SETS / 2);
    }

    private static void everyPolicyValid(java.util.function.Supplier<List<Put>> sets, int count) {
        Scheduler[] rr = {new RoundRobin(1), new RoundRobin(2), new RoundRobin(4), Schedulers.parse("none")};
        Scheduler[] bl = {Schedulers.parse("bl:1"), Schedulers.parse("bl:2"), Schedulers.parse("bl:4")};
        int[] blK = {1, 2, 4};
        Scheduler blPlus = Schedulers.parse("bl+");
        Scheduler blPlusOh = Schedulers.parse("bl+oh");
        for (int set = 0; set < count; set++) {
            List<Put> puts = sets.get();
            double rr1 = 0;
            for (Scheduler s : rr) {
                Schedule sc = s.schedule(puts, TOFU);
                Checks.valid(sc, puts, TOFU, false, TOFU.engines());
                if (s.name().equals("rr:1")) {
                    rr1 = sc.makespanNs();
                }
            }
            double bl4 = 0;
            for (int i = 0; i < bl.length; i++) {
                Schedule sc = bl[i].schedule(puts, TOFU);
                Checks.valid(sc, puts, TOFU, true, blK[i]);
                double ms = sc.makespanNs();
                double r1 = rr1;
                String nm = bl[i].name();
                assertTrue(ms <= rr1 + Checks.TOL, () -> nm + " worse than rr:1 (" + ms + " > " + r1 + ") on " + puts);
                bl4 = ms;
            }
            Schedule plus = blPlus.schedule(puts, TOFU);
            Checks.valid(plus, puts, TOFU, false, TOFU.engines());
            double b4 = bl4;
            assertTrue(plus.makespanNs() <= bl4 + Checks.TOL, () -> "bl+ " + plus.makespanNs() + " worse than bl:4 " + b4 + " on " + puts);
            Schedule oh = blPlusOh.schedule(puts, TOFU);
            Checks.valid(oh, puts, TOFU, false, TOFU.engines());
            assertTrue(oh.makespanNs() <= plus.makespanNs() + Checks.TOL, () -> "bl+oh worse than bl+ on " + puts);
        }
    }

    @Test
    void otherMachinesToo() {
        // links slower than engines (no sharing), links twice an engine, one receive engine, 3 engines
        MachineModel[] ms = {
            new MachineModel(4, 5.0, 3.5, 1000, 4),
            new MachineModel(4, 2.0, 4.0, 500, 4),
            new MachineModel(4, 3.5, 5.0, 1000, 1),
            new MachineModel(3, 3.5, 12.0, 0, 2),
        };
        Random rnd = new Random(7);
        for (MachineModel m : ms) {
            for (int set = 0; set < 300; set++) {
                List<Put> puts = Checks.randomSet(rnd, 30);
                double rr1 = new RoundRobin(1).schedule(puts, m).makespanNs();
                Checks.valid(new RoundRobin(4).schedule(puts, m), puts, m, false, m.engines());
                Schedule b = Schedulers.parse("bl:4").schedule(puts, m);
                Checks.valid(b, puts, m, true, m.engines());
                assertTrue(b.makespanNs() <= rr1 + Checks.TOL);
                Schedule bk = Schedulers.parse("bl:2").schedule(puts, m);
                Checks.valid(bk, puts, m, true, 2);
                Schedule p = Schedulers.parse("bl+").schedule(puts, m);
                Checks.valid(p, puts, m, false, m.engines());
                assertTrue(p.makespanNs() <= b.makespanNs() + Checks.TOL, () -> m + " " + puts);
                Checks.valid(Schedulers.parse("bl+oh").schedule(puts, m), puts, m, false, m.engines());
            }
        }
    }

    @Test
    void manyPutsAndEdgeCases() {
        Random rnd = new Random(3);
        for (String name : Schedulers.NAMES) {
            Scheduler s = Schedulers.parse(name);
            boolean exclusive = name.startsWith("bl:");
            int k = exclusive ? Integer.parseInt(name.substring(3)) : 4;
            // empty set
            Schedule empty = s.schedule(List.of(), TOFU);
            assertTrue(empty.makespanNs() == 0 && empty.lowerBoundNs() == 0);
            // zero-byte puts, one destination, one direction
            List<Put> zeros = List.of(new Put(0, 1, 0, 0), new Put(1, 1, 0, 0), new Put(2, 1, 0, 0), new Put(3, 1, 0, 0), new Put(4, 1, 0, 0));
            Checks.valid(s.schedule(zeros, TOFU), zeros, TOFU, exclusive, k);
            // a large set
            List<Put> big = new java.util.ArrayList<>();
            for (int i = 0; i < 400; i++) {
                int d = rnd.nextInt(8);
                big.add(new Put(i, rnd.nextInt(48), d, 1 + rnd.nextInt(1 << 20), d >= 4));
            }
            Checks.valid(s.schedule(big, TOFU), big, TOFU, exclusive, k);
        }
    }
}
