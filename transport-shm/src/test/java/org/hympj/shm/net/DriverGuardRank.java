package org.hympj.shm.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.shm.ShmMpj;

/**
 * 4 ranks on 2 local hosts (0, 1 | 2, 3) with each host's media driver in its first rank: rank 2
 * runs host 1's driver and computes, calling nothing, for up to {@link #COMPUTE_NS}, while rank 3
 * (same host) ping-pongs with rank 0 over the network — 8-byte and 100 KB messages, every byte
 * checked. Rank 3 must finish while rank 2 still computes: only the driver's guard thread moves
 * host 1's traffic then. Rank 3 tells rank 2 by a file in their host's job directory (no library
 * call that could do the driver's work), and rank 2 reports whether it was still computing
 * ("PASS guard") or had given up ("FAIL guard ...").
 */
public final class DriverGuardRank {
    static final long COMPUTE_NS = 20_000_000_000L;
    static final int ROUND_TRIPS = 300;
    /** In the host's job directory (removed with it). */
    static final Path DONE = Paths.get(System.getenv(ShmMpj.ENV_JOB_DIR), "guard-test-done");

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm w = mpj.world();
            int rank = w.rank();
            w.barrier();
            if (rank == 2) {
                computeUntilTold();
            } else if (rank == 0 || rank == 3) {
                pingPong(w, rank == 0 ? 3 : 0, rank == 0);
                if (rank == 3) {
                    touch(DONE); // rank 2 may stop computing
                }
            }
            w.barrier();
        }
        System.out.println("PASS finalize");
    }

    /** Spins on arithmetic, looking between steps for rank 3's file: no library call at all. */
    private static void computeUntilTold() {
        long start = System.nanoTime();
        double x = 1;
        long steps = 0;
        while (System.nanoTime() - start < COMPUTE_NS) {
            for (int i = 0; i < 100_000; i++) {
                x = x * 1.0000001 + 1e-9;
            }
            steps++;
            if (Files.exists(DONE)) {
                System.out.println("PASS guard (rank 3 done after " + (System.nanoTime() - start) / 1_000_000
                    + " ms of compute, " + steps + " steps" + (x > 0 ? "" : ", x negative") + ")");
                return;
            }
        }
        System.out.println("FAIL guard: rank 3 not done after " + COMPUTE_NS / 1_000_000 + " ms of compute");
    }

    private static void touch(Path p) {
        try {
            Files.createFile(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void pingPong(Comm w, int peer, boolean first) {
        for (int n : new int[] {8, 100_000}) {
            byte[] out = new byte[n];
            byte[] in = new byte[n];
            for (int t = 0; t < ROUND_TRIPS; t++) {
                for (int i = 0; i < n; i++) {
                    out[i] = (byte) (t + i * 3 + (first ? 0 : 1));
                }
                if (first) {
                    w.send(out, 0, n, Datatype.BYTE, peer, t);
                    w.recv(in, 0, n, Datatype.BYTE, peer, t);
                } else {
                    w.recv(in, 0, n, Datatype.BYTE, peer, t);
                    w.send(out, 0, n, Datatype.BYTE, peer, t);
                }
                for (int i = 0; i < n; i++) {
                    if (in[i] != (byte) (t + i * 3 + (first ? 1 : 0))) {
                        throw new AssertionError("size " + n + " trip " + t + ": byte " + i + " wrong");
                    }
                }
            }
        }
        System.out.println("PASS pingpong");
    }
}
