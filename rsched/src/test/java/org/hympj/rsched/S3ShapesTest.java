package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * S3's results on the SCALE-LES3 halo, with {@link MachineModel#tofu()}: the shapes of its
 * figures (who wins, by about how much), and bl+ against every policy and the lower bound.
 */
class S3ShapesTest {
    private static final MachineModel TOFU = MachineModel.tofu();
    private static final List<String> S3_SIX = List.of("rr:1", "rr:2", "rr:4", "bl:1", "bl:2", "bl:4");

    private static Map<String, Double> makespans(int k, String pattern) {
        List<Put> puts = ScaleLes3.puts(k, pattern);
        Map<String, Double> out = new LinkedHashMap<>();
        for (String name : Schedulers.NAMES) {
            Schedule s = Schedulers.parse(name).schedule(puts, TOFU);
            Checks.valid(s, puts, TOFU, name.startsWith("bl:"), name.startsWith("bl:") ? Integer.parseInt(name.substring(3)) : 4);
            out.put(name, s.makespanNs());
        }
        return out;
    }

    private static void near(double expected, double actual, double rel, String what) {
        assertTrue(Math.abs(actual - expected) <= rel * expected, what + ": expected ~" + expected + ", was " + actual);
    }

    @ParameterizedTest
    @ValueSource(ints = {60, 872})
    void eastWestAllEqualButRr1TwiceAsSlow(int k) {
        Map<String, Double> m = makespans(k, "ew");
        double ref = m.get("bl:4");
        for (String p : List.of("rr:2", "rr:4", "bl:1", "bl:2", "bl:4", "bl+", "bl+oh")) {
            near(ref, m.get(p), 0.005, "EW k=" + k + " " + p + " " + m);
        }
        near(2 * ref, m.get("rr:1"), 0.05, "EW k=" + k + " rr:1 ≈ 2x " + m);
    }

    @ParameterizedTest
    @ValueSource(ints = {60, 872})
    void northSouthRr4BeatsBl4AndRr2IsTwiceRr4(int k) {
        Map<String, Double> m = makespans(k, "ns");
        assertTrue(m.get("rr:4") < 0.95 * m.get("bl:4"), "NS k=" + k + ": RR(4) beats BL(4) " + m);
        near(2 * m.get("rr:4"), m.get("rr:2"), 0.05, "NS k=" + k + " RR(2) ≈ 2x RR(4) " + m);
        assertTrue(m.get("rr:4") <= min(m, S3_SIX) + 1e-6, "NS k=" + k + ": RR(4) best of S3's six " + m);
    }

    @ParameterizedTest
    @ValueSource(ints = {60, 872})
    void fourAndEightDirectionsBl4IsBestOfS3Six(int k) {
        for (String pattern : List.of("nsew", "all")) {
            Map<String, Double> m = makespans(k, pattern);
            assertTrue(m.get("bl:4") <= min(m, S3_SIX) + 1e-6, pattern + " k=" + k + ": BL(4) best of S3's six " + m);
            for (String rr : List.of("rr:1", "rr:2", "rr:4")) {
                assertTrue(m.get("bl:4") < m.get(rr), pattern + " k=" + k + ": BLbased beats " + rr + " " + m);
            }
        }
        // 8 directions: the diagonal limit matters, BL(4) strictly better than BL(2) and BL(1)
        Map<String, Double> all = makespans(k, "all");
        assertTrue(all.get("bl:4") < all.get("bl:2") && all.get("bl:2") < all.get("bl:1"), "all k=" + k + " " + all);
    }

    @ParameterizedTest
    @ValueSource(ints = {60, 70, 80, 109, 218, 327, 436, 545, 654, 763, 872})
    void blPlusWithin2PercentOfTheBestAndWithin125OfTheBound(int k) {
        for (String pattern : ScaleLes3.PATTERNS) {
            Map<String, Double> m = makespans(k, pattern);
            double best = min(m, Schedulers.NAMES);
            assertTrue(m.get("bl+") <= 1.02 * best, pattern + " k=" + k + ": bl+ within 2% of the best " + m);
            double lb = LowerBound.of(ScaleLes3.puts(k, pattern), TOFU).valueNs();
            assertTrue(m.get("bl+") <= 1.25 * lb, pattern + " k=" + k + ": bl+ " + m.get("bl+") + " within 1.25x of the bound " + lb);
        }
    }

    private static double min(Map<String, Double> m, List<String> names) {
        double best = Double.POSITIVE_INFINITY;
        for (String n : names) {
            best = Math.min(best, m.get(n));
        }
        return best;
    }
}
