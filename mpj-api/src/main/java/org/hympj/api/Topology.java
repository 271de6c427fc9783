package org.hympj.api;

import java.util.Arrays;

/** Pure Cartesian arithmetic shared by every provider. */
public final class Topology {
    private Topology() {
    }

    /** See {@link CartComm#dimsCreate}. */
    public static int[] dimsCreate(int nnodes, int[] dims) {
        if (nnodes < 1) {
            throw new IllegalArgumentException("nnodes must be >= 1, was " + nnodes);
        }
        if (dims == null || dims.length == 0) {
            throw new IllegalArgumentException("dims must have at least one entry");
        }
        int[] out = dims.clone();
        int fixed = 1;
        int free = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] < 0) {
                throw new IllegalArgumentException("dims[" + i + "] must be >= 0, was " + out[i]);
            }
            if (out[i] > 0) {
                fixed *= out[i];
            } else {
                free++;
            }
        }
        if (nnodes % fixed != 0) {
            throw new IllegalArgumentException("nnodes " + nnodes + " is not divisible by the fixed dims product " + fixed);
        }
        int rest = nnodes / fixed;
        if (free == 0) {
            if (rest != 1) {
                throw new IllegalArgumentException("dims " + Arrays.toString(dims) + " do not multiply to " + nnodes);
            }
            return out;
        }
        int[] f = new int[free];
        Arrays.fill(f, 1);
        // give each prime factor, largest first, to the currently smallest free dimension
        int[] primes = primeFactors(rest);
        for (int k = primes.length - 1; k >= 0; k--) {
            int smallest = 0;
            for (int i = 1; i < free; i++) {
                if (f[i] < f[smallest]) {
                    smallest = i;
                }
            }
            f[smallest] *= primes[k];
        }
        Arrays.sort(f);
        int j = free - 1;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                out[i] = f[j--];
            }
        }
        return out;
    }

    private static int[] primeFactors(int n) {
        int[] tmp = new int[32];
        int k = 0;
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                tmp[k++] = p;
                n /= p;
            }
        }
        if (n > 1) {
            tmp[k++] = n;
        }
        return Arrays.copyOf(tmp, k);
    }

    /** Row-major coordinates of {@code rank} in a grid of {@code dims}. */
    public static int[] coords(int[] dims, int rank) {
        int[] c = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = rank % dims[d];
            rank /= dims[d];
        }
        return c;
    }

    /** Row-major rank of {@code coords}; periodic dimensions wrap, or -1 if off the grid. */
    public static int rank(int[] dims, boolean[] periods, int[] coords) {
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            int c = coords[d];
            if (c < 0 || c >= dims[d]) {
                if (!periods[d]) {
                    return -1;
                }
                c = Math.floorMod(c, dims[d]);
            }
            r = r * dims[d] + c;
        }
        return r;
    }
}
