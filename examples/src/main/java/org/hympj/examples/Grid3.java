package org.hympj.examples;

/** A periodic 3D process grid (row-major: rank = (x * dy + y) * dz + z). */
public final class Grid3 {
    private final int[] dims;
    private final int[] coords;

    Grid3(int[] dims, int rank) {
        this.dims = dims.clone();
        this.coords = coordsOf(dims, rank);
    }

    /** A balanced factorisation of p into three factors, largest first (like MPI_Dims_create). */
    public static int[] dimsFor(int p) {
        int[] best = {p, 1, 1};
        int bestSpread = Integer.MAX_VALUE;
        for (int a = 1; a <= p; a++) {
            if (p % a != 0) {
                continue;
            }
            for (int b = 1; b <= p / a; b++) {
                if ((p / a) % b != 0) {
                    continue;
                }
                int c = p / a / b;
                if (a >= b && b >= c) {
                    int spread = a - c;
                    if (spread < bestSpread) {
                        bestSpread = spread;
                        best = new int[] {a, b, c};
                    }
                }
            }
        }
        return best;
    }

    static int[] coordsOf(int[] dims, int rank) {
        return new int[] {rank / (dims[1] * dims[2]), (rank / dims[2]) % dims[1], rank % dims[2]};
    }

    int[] dims() {
        return dims.clone();
    }

    int coord(int d) {
        return coords[d];
    }

    /** The periodic neighbour one step in dimension d (dir = -1 or +1). */
    int neighbour(int d, int dir) {
        int[] c = coords.clone();
        c[d] = Math.floorMod(c[d] + dir, dims[d]);
        return (c[0] * dims[1] + c[1]) * dims[2] + c[2];
    }
}
