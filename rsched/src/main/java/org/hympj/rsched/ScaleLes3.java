package org.hympj.rsched;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * S3's SCALE-LES3 halo pattern as a put set: horizontal block i = j = 16, halo width 2,
 * {@code k} vertical levels, 2D periodic process grid. Directions (the link leaving the sender)
 * are numbered E=0, W=1, N=2, S=3, NE=4, NW=5, SE=6, SW=7; the last four are diagonal. Puts
 * are listed in the order the example {@code org.hympj.examples.ScaleLesHalo} starts its send
 * requests (direction by direction, E W N S NE NW SE SW, each direction's puts together):
 * <ul>
 *   <li>E, W: 1 put each of {@code (2+k+2)·2·i·8} bytes;</li>
 *   <li>N, S: 2 puts each of {@code (2+k+2)·j·8} bytes;</li>
 *   <li>NE, NW, SE, SW: 2 puts each of {@code (2+k+2)·2·8} bytes.</li>
 * </ul>
 * 14 puts in all for pattern {@code all}; k = 60 gives 16384 / 8192 / 1024 B.
 */
public final class ScaleLes3 {
    public static final int I = 16;
    public static final int J = 16;
    public static final int HALO = 2;
    /** Direction names by number. */
    public static final List<String> DIRECTIONS = List.of("E", "W", "N", "S", "NE", "NW", "SE", "SW");
    /** Which directions are diagonal, by number. */
    private static final boolean[] DIAGONAL = {false, false, false, false, true, true, true, true};
    private static final int[] DX = {1, -1, 0, 0, 1, -1, 1, -1};
    private static final int[] DY = {0, 0, 1, -1, 1, 1, -1, -1};
    /** The patterns: ew, ns, nsew, diag, all. */
    public static final List<String> PATTERNS = List.of("ew", "ns", "nsew", "diag", "all");
    /** The vertical level counts S3 measured, from 60 to 872. */
    public static final List<Integer> KS = List.of(60, 70, 80, 109, 218, 327, 436, 545, 654, 763, 872);

    private ScaleLes3() {
    }

    /** A copy of the diagonal flags by direction number. */
    public static boolean[] diagonal() {
        return DIAGONAL.clone();
    }

    /** Bytes of one put in direction {@code d} with {@code k} levels (S3's formulas). */
    public static long bytes(int k, int d) {
        long ka = k + 2L * HALO;
        if (DY[d] == 0) {
            return ka * HALO * I * 8;
        }
        return DX[d] == 0 ? ka * J * 8 : ka * HALO * 8;
    }

    /** Puts per exchange in direction {@code d}: 1 for E/W, 2 (one per halo row) otherwise. */
    public static int putsPerDirection(int d) {
        return DY[d] == 0 ? 1 : HALO;
    }

    /**
     * The puts of pattern {@code ew|ns|nsew|diag|all} for the rank at (1, 1) of a 3×3 periodic
     * grid: its 8 neighbours are 8 distinct ranks (rank = x·3 + y).
     */
    public static List<Put> puts(int k, String pattern) {
        return puts(k, pattern, new int[] {3, 3}, new int[] {1, 1});
    }

    /**
     * The puts of a pattern for the rank at {@code coords} of a periodic grid of {@code dims}
     * (x east, y north; rank = x·dims[1] + y, row-major as MPI's Cartesian ranks).
     */
    public static List<Put> puts(int k, String pattern, int[] dims, int[] coords) {
        if (k < 0) {
            throw new IllegalArgumentException("k must be >= 0, was " + k);
        }
        List<Put> out = new ArrayList<>();
        for (int d : directionsOf(pattern)) {
            int x = Math.floorMod(coords[0] + DX[d], dims[0]);
            int y = Math.floorMod(coords[1] + DY[d], dims[1]);
            int dest = x * dims[1] + y;
            for (int q = 0; q < putsPerDirection(d); q++) {
                out.add(new Put(out.size(), dest, d, bytes(k, d), DIAGONAL[d]));
            }
        }
        return out;
    }

    private static int[] directionsOf(String pattern) {
        switch (pattern == null ? "" : pattern.trim().toLowerCase(Locale.ROOT)) {
            case "ew":
                return new int[] {0, 1};
            case "ns":
                return new int[] {2, 3};
            case "nsew":
                return new int[] {0, 1, 2, 3};
            case "diag":
                return new int[] {4, 5, 6, 7};
            case "all":
                return new int[] {0, 1, 2, 3, 4, 5, 6, 7};
            default:
                throw new IllegalArgumentException("unknown pattern '" + pattern + "'; valid: " + String.join(", ", PATTERNS));
        }
    }
}
