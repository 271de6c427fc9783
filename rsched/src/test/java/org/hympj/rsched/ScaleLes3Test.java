package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScaleLes3Test {

    private static long bytesOf(List<Put> puts, int direction) {
        return puts.stream().filter(p -> p.direction() == direction).findFirst().orElseThrow().bytes();
    }

    @Test
    void s3Sizes() {
        // S3: k=60 → 16384 / 8192 / 1024 B; k=872 → 224256 / 112128 / 14016 B
        List<Put> k60 = ScaleLes3.puts(60, "all");
        assertEquals(16384, bytesOf(k60, 0));
        assertEquals(8192, bytesOf(k60, 2));
        assertEquals(1024, bytesOf(k60, 4));
        List<Put> k872 = ScaleLes3.puts(872, "all");
        assertEquals(224256, bytesOf(k872, 1));
        assertEquals(112128, bytesOf(k872, 3));
        assertEquals(14016, bytesOf(k872, 7));
        // the formulas
        for (int k : ScaleLes3.KS) {
            assertEquals((2 + k + 2) * 2 * 16 * 8, ScaleLes3.bytes(k, 0));
            assertEquals((2 + k + 2) * 16 * 8, ScaleLes3.bytes(k, 2));
            assertEquals((2 + k + 2) * 2 * 8, ScaleLes3.bytes(k, 5));
        }
    }

    @Test
    void fourteenPutsToEightDistinctNeighbours() {
        List<Put> all = ScaleLes3.puts(60, "all");
        assertEquals(14, all.size());
        // request order: E W N N S S NE NE NW NW SE SE SW SW
        int[] dirs = {0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7};
        Set<Integer> dests = new HashSet<>();
        for (int i = 0; i < 14; i++) {
            Put p = all.get(i);
            assertEquals(i, p.id());
            assertEquals(dirs[i], p.direction());
            assertEquals(dirs[i] >= 4, p.diagonal());
            dests.add(p.dest());
        }
        assertEquals(8, dests.size());
        for (int i = 0; i < 14; i++) {
            for (int j = 0; j < 14; j++) {
                assertEquals(all.get(i).direction() == all.get(j).direction(), all.get(i).dest() == all.get(j).dest());
            }
        }
        assertTrue(!dests.contains(4), "the rank itself (1,1) = 4 is not a neighbour");
        assertEquals(2, ScaleLes3.puts(60, "ew").size());
        assertEquals(4, ScaleLes3.puts(60, "ns").size());
        assertEquals(6, ScaleLes3.puts(60, "nsew").size());
        assertEquals(8, ScaleLes3.puts(60, "diag").size());
        assertEquals(List.of("E", "W", "N", "S", "NE", "NW", "SE", "SW"), ScaleLes3.DIRECTIONS);
    }

    @Test
    void periodicNeighboursOnAnotherGrid() {
        // rank (0,0) of a 6x8 grid: W is x=5, S is y=7
        List<Put> puts = ScaleLes3.puts(60, "all", new int[] {6, 8}, new int[] {0, 0});
        assertEquals(1 * 8 + 0, puts.get(0).dest());   // E
        assertEquals(5 * 8 + 0, puts.get(1).dest());   // W
        assertEquals(0 * 8 + 1, puts.get(2).dest());   // N
        assertEquals(0 * 8 + 7, puts.get(4).dest());   // S
        assertEquals(5 * 8 + 7, puts.get(12).dest());  // SW
        assertThrows(IllegalArgumentException.class, () -> ScaleLes3.puts(60, "up"));
    }
}
