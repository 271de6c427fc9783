package org.hympj.examples;

import org.hympj.api.Datatype;
import org.hympj.spi.Layout;

/**
 * S1's halo faces of N×N (2D) and N×N×N (3D) arrays of doubles, row-major (the last index
 * varies fastest), as the crossover ping-pong and the halo exchange send them:
 * <ul>
 * <li>{@link #D2_BLOCK}: one row, N contiguous doubles;</li>
 * <li>{@link #D2_STRIDE}: one column, N single doubles with stride N;</li>
 * <li>{@link #D3_BLOCK}: the jk-plane, N×N contiguous doubles;</li>
 * <li>{@link #D3_BLOCKSTRIDE}: the ik-plane, N blocks of N doubles with stride N×N;</li>
 * <li>{@link #D3_STRIDE}: the ij-plane, N×N single doubles with stride N.</li>
 * </ul>
 * Each face knows S1's crossover range (TCA wins up to N in [lo, hi]; {@code lo = hi = 0}:
 * TCA wins at every N S1 measured, up to {@link #s1Max}).
 */
public enum Face {
    D2_BLOCK("2d-block", "2D block (row)", 2, Layout.CONTIGUOUS, 0, 0, 16384),
    D2_STRIDE("2d-stride", "2D stride (column)", 2, Layout.ELEMENT_STRIDE, 8192, 16384, 16384),
    D3_BLOCK("3d-block", "3D block (jk-plane)", 3, Layout.CONTIGUOUS, 256, 320, 512),
    D3_BLOCKSTRIDE("3d-blockstride", "3D block-stride (ik-plane)", 3, Layout.BLOCK_STRIDE, 512, 576, 576),
    D3_STRIDE("3d-stride", "3D stride (ij-plane)", 3, Layout.ELEMENT_STRIDE, 512, 576, 576);

    public final String key;
    public final String title;
    public final int dims;
    public final Layout layout;
    /** S1: TCA wins up to an N in [s1Lo, s1Hi]; both 0: TCA always (up to s1Max). */
    public final int s1Lo;
    public final int s1Hi;
    /** The largest N of S1's measurement of this face. */
    public final int s1Max;

    Face(String key, String title, int dims, Layout layout, int s1Lo, int s1Hi, int s1Max) {
        this.key = key;
        this.title = title;
        this.dims = dims;
        this.layout = layout;
        this.s1Lo = s1Lo;
        this.s1Hi = s1Hi;
        this.s1Max = s1Max;
    }

    public static Face of(String key) {
        for (Face f : values()) {
            if (f.key.equals(key)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown face '" + key + "'; known: 2d-block, 2d-stride, 3d-block, "
            + "3d-blockstride, 3d-stride");
    }

    /** S1's crossover as text: "always TCA (to 16384)" or "256 ~ 320". */
    public String s1Text() {
        return s1Lo == 0 ? "always TCA (to " + s1Max + ")" : s1Lo + " ~ " + s1Hi;
    }

    /** Doubles in the face. */
    public long elements(long n) {
        return dims == 2 ? n : n * n;
    }

    public long bytes(long n) {
        return 8 * elements(n);
    }

    /** Contiguous runs in the face (as the timing model counts them). */
    public long blocks(long n) {
        switch (layout) {
            case CONTIGUOUS:
                return 1;
            case BLOCK_STRIDE:
                return n;
            default:
                return elements(n);
        }
    }

    /** Doubles the array holding the face must have (N^2 or N^3). */
    public long arrayElements(long n) {
        return dims == 2 ? n * n : n * n * n;
    }

    /** Doubles the low face spans from the start of the array (what a ping-pong of the face needs). */
    public long span(int n) {
        return type(n).span(count(n));
    }

    /** The datatype of one face ({@link #count} items of it), as S1 describes the face. */
    public Datatype type(int n) {
        switch (this) {
            case D2_BLOCK:
            case D3_BLOCK:
                return Datatype.DOUBLE;
            case D2_STRIDE:
                return Datatype.DOUBLE.vector(n, 1, n);
            case D3_BLOCKSTRIDE:
                return Datatype.DOUBLE.vector(n, n, n * n);
            default:
                return Datatype.DOUBLE.vector(n * n, 1, n);
        }
    }

    /** How many items of {@link #type} make the face. */
    public int count(int n) {
        return this == D2_BLOCK ? n : this == D3_BLOCK ? n * n : 1;
    }

    /** Is N inside S1's range (or, for an always-TCA face, is there no crossover up to s1Max)? */
    public boolean agrees(double crossoverN) {
        if (s1Lo == 0) {
            return Double.isNaN(crossoverN) || crossoverN > s1Max;
        }
        return crossoverN >= s1Lo && crossoverN <= s1Hi;
    }
}
