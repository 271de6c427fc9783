package org.hympj.shm.pml;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import org.hympj.api.Datatype;
import org.hympj.api.Op;

/**
 * The rounds of a JIT warm-up ({@link WarmUp}): it ends after the round in which every JVM's
 * total compilation time has stood still for {@link WarmUp#QUIET_ROUNDS} rounds, or some rank has
 * spent the budget. The ranks agree after each round (an allreduce on the world communicator), so
 * all of them stop after the same one. A JVM that cannot tell its compilation time counts as
 * still compiling.
 */
final class QuietRounds {
    private final long start = System.nanoTime();
    private final long budgetNanos;
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
    private final long[] mine = new long[2];
    private final long[] all = new long[2];
    private long lastCompile = -1;
    private int quiet;
    private int rounds;

    QuietRounds(long budgetNanos) {
        this.budgetNanos = budgetNanos;
    }

    /** Ends a round (every rank of {@code world} calls it after each); true when all of them stop now. */
    boolean ended(ShmComm world) {
        rounds++;
        if (timed) {
            long compile = jit.getTotalCompilationTime();
            quiet = compile == lastCompile ? quiet + 1 : 0;
            lastCompile = compile;
        }
        mine[0] = quiet >= WarmUp.QUIET_ROUNDS ? 0 : 1;
        mine[1] = System.nanoTime() - start >= budgetNanos ? 1 : 0;
        world.allreduce(mine, 0, all, 0, 2, Datatype.LONG, Op.MAX);
        return all[0] == 0 || all[1] == 1;
    }

    int rounds() {
        return rounds;
    }

    /** True when this JVM's compilation stood still at the end. */
    boolean quiet() {
        return quiet >= WarmUp.QUIET_ROUNDS;
    }

    /** The JVM's total compilation time so far, or -1 when it cannot tell. */
    long compileMillis() {
        return timed ? jit.getTotalCompilationTime() : -1;
    }

    long nanos() {
        return System.nanoTime() - start;
    }
}
