package org.hympj.shm.pml;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;

/**
 * Runs a rank's hot paths on messages to itself until the JIT has compiled them, before the
 * program's first call (issue 18). A JVM runs new code in its interpreter and compiles it
 * while it runs: without this, a program's first thousands of messages go at interpreter
 * speed, and with C2 (a core per rank) its compiler threads compete with the ranks for the
 * cores during the program's first second — a benchmark's warm-up of a few thousand
 * iterations ends before the paths are compiled, and a launch whose compilation lands in a
 * timed batch measures 3–6 times slower (docs/PERFORMANCE.md).
 *
 * <p>What runs: an 8-byte sendrecv, a persistent set of a contiguous, a
 * block-strided and an element-strided face (2 KiB each, the eager path with packing and
 * unpacking), isend/irecv with waitAll, an empty probe, and now and then a 64 KiB and a 1 MiB
 * exchange (bulk eager, and rendezvous at the default limits) — every message to this rank
 * itself on the world communicator, tag {@link #TAG}, all of them received before the
 * program starts (nothing of it can match a program's receive). It runs in rounds until the
 * JVM's total compilation time has not moved for {@link #QUIET_ROUNDS} rounds (a short sleep
 * after each round gives the compiler threads the core), at most {@code budgetNanos}.
 */
public final class WarmUp {
    /** The tag of the warm-up's messages. */
    public static final int TAG = 32_767;
    /** Rounds without new compilation that end the warm-up. */
    static final int QUIET_ROUNDS = 3;
    private static final int PER_ROUND = 500;
    private static final int N = 16;
    /** A message the bulk region carries eagerly (the default eager limit is 256 KiB). */
    private static final int BULK = 64 * 1024;
    /** A message above the default eager limit: rendezvous. */
    private static final int LARGE = 1024 * 1024;

    private WarmUp() {
    }

    /** What a warm-up did: rounds run and nanoseconds spent. */
    public record Result(int rounds, long nanos, boolean quiet) {
    }

    /** Runs the warm-up on {@code world} (only this rank takes part); returns what it did. */
    public static Result run(Comm world, long budgetNanos) {
        long t0 = System.nanoTime();
        int me = world.rank();
        double[] block = new double[N * N * N];
        double[] ghosts = new double[3 * N * N];
        byte[] small = new byte[8];
        byte[] back = new byte[8];
        byte[] large = new byte[LARGE];
        byte[] largeBack = new byte[LARGE];
        PersistentRequest[] set = {
            world.recvInit(ghosts, 0, N * N, Datatype.DOUBLE, me, TAG),
            world.recvInit(ghosts, N * N, N * N, Datatype.DOUBLE, me, TAG),
            world.recvInit(ghosts, 2 * N * N, N * N, Datatype.DOUBLE, me, TAG),
            world.sendInit(block, 0, N * N, Datatype.DOUBLE, me, TAG),
            world.sendInit(block, 0, 1, Datatype.DOUBLE.vector(N, N, N * N), me, TAG),
            world.sendInit(block, 0, 1, Datatype.DOUBLE.vector(N * N, 1, N), me, TAG),
        };
        Request[] pair = new Request[2];
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long lastCompile = -1;
        int quiet = 0;
        int rounds = 0;
        try {
            while (System.nanoTime() - t0 < budgetNanos) {
                for (int i = 0; i < PER_ROUND; i++) {
                    // to itself a blocking send could wait for a receive that is never posted (rendezvous
                    // at a small --eager-limit): every exchange posts its receive first
                    world.sendrecv(small, 0, 8, Datatype.BYTE, me, TAG, back, 0, 8, Datatype.BYTE, me, TAG);
                    Request.startAll(set);
                    Request.waitAll(set);
                    pair[0] = world.irecv(back, 0, 8, Datatype.BYTE, me, TAG);
                    pair[1] = world.isend(small, 0, 8, Datatype.BYTE, me, TAG);
                    Request.waitAll(pair);
                    world.iprobe(me, TAG - 1);
                    if (i % 25 == 0) {
                        // the bulk eager path, and above the eager limit the rendezvous
                        world.sendrecv(large, 0, BULK, Datatype.BYTE, me, TAG, largeBack, 0, BULK, Datatype.BYTE, me,
                            TAG);
                        world.sendrecv(large, 0, LARGE, Datatype.BYTE, me, TAG, largeBack, 0, LARGE, Datatype.BYTE, me,
                            TAG);
                    }
                }
                rounds++;
                if (!timed) {
                    continue;
                }
                long compile = jit.getTotalCompilationTime();
                quiet = compile == lastCompile ? quiet + 1 : 0;
                lastCompile = compile;
                if (quiet >= QUIET_ROUNDS) {
                    break;
                }
                sleepBriefly();
            }
        } finally {
            for (PersistentRequest r : set) {
                r.free();
            }
        }
        return new Result(rounds, System.nanoTime() - t0, quiet >= QUIET_ROUNDS);
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
