package org.hympj.shm.launch;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.job.JobControl;

/**
 * The rules a launcher watches a job by, wherever its ranks run (its own children, or the host
 * agents' on several hosts): each rank's exit code, the first failure (a non-zero exit, an exit 0
 * without finalize, a failure reported otherwise) and its message, the timeout, and after an
 * abort the grace period, then TERM, then a second later KILL. The launcher raises its aborts and
 * sends its signals; this class only decides.
 */
final class RankWatch {
    /** What the launcher should do to the ranks still running. */
    enum Signal { NONE, TERM, KILL }

    private final LaunchSpec spec;
    private final long t0;
    private final long deadline;
    private final int[] codes;
    private int running;
    private int failedRank = -1;
    private int failedCode;
    private String message = "";
    private long abortedAt;
    private boolean timedOut;
    private boolean termSent;
    private boolean killSent;

    RankWatch(LaunchSpec spec, long t0) {
        this.spec = spec;
        this.t0 = t0;
        this.deadline = spec.timeout.isZero() ? Long.MAX_VALUE : t0 + spec.timeout.toNanos();
        this.codes = new int[spec.np];
        Arrays.fill(codes, Integer.MIN_VALUE);
        this.running = spec.np;
    }

    int running() {
        return running;
    }

    /** True once rank {@code r}'s end is known. */
    boolean ended(int r) {
        return codes[r] != Integer.MIN_VALUE;
    }

    /**
     * Rank {@code r} exited with {@code code}, its last state {@code state} (JobControl's); {@code where}
     * names its host in the message ("" on one host). Returns the code to raise the job's abort flag
     * with when this exit fails the job, else null.
     */
    Integer exited(int r, int code, int state, String where) {
        codes[r] = code;
        running--;
        boolean finalized = state == JobControl.STATE_FINALIZED;
        // exit 0 after init without close(): peers would wait for it forever (MPI: erroneous)
        boolean unfinalized = code == 0 && state == JobControl.STATE_RUNNING;
        if ((code == 0 && !unfinalized) || !first()) {
            return null;
        }
        fail(r, unfinalized ? JobResult.NOT_FINALIZED_EXIT : code, unfinalized
            ? "rank " + r + where + " exited with code 0 without finalizing (Mpj.close() was not called); job aborted"
            : "rank " + r + where + " exited with " + Launcher.describe(code) + (finalized ? "" : " before finalize")
                + "; job aborted");
        return unfinalized ? JobControl.CODE_NOT_FINALIZED : code;
    }

    /** Rank {@code r} is gone without an exit code (its host died). */
    void lost(int r) {
        codes[r] = -1;
        running--;
    }

    /** A failure seen otherwise (a dead host, a lost connection): true when it is the job's first. */
    boolean failed(int rank, int exitCode, String why) {
        if (!first()) {
            return false;
        }
        fail(rank, exitCode, why);
        return true;
    }

    private boolean first() {
        return failedRank < 0 && !timedOut;
    }

    private void fail(int rank, int exitCode, String why) {
        failedRank = rank;
        failedCode = exitCode;
        message = why;
        abortedAt = System.nanoTime();
    }

    /** True when the job has just timed out (the launcher raises the abort flag with no rank). */
    boolean timedOut(long now) {
        if (timedOut || failedRank >= 0 || now - deadline <= 0) {
            return false;
        }
        timedOut = true;
        message = "job timed out after " + spec.timeout.toSeconds() + " s; ranks still running were killed";
        abortedAt = now - spec.abortGrace.toNanos() + TimeUnit.MILLISECONDS.toNanos(500);
        return true;
    }

    /**
     * True when the job was aborted and {@code KILL} went out {@link #UNANSWERED_NS} ago with ranks
     * still unaccounted for: their hosts do not answer (a cut link, a hung host); the launcher
     * stops waiting for them.
     */
    boolean unanswered(long now) {
        return killSent && running > 0 && now - abortedAt - spec.abortGrace.toNanos() - TimeUnit.SECONDS.toNanos(1)
            > UNANSWERED_NS;
    }

    /** How long after KILL a host may take to report its ranks' ends before it counts as unreachable. */
    static final long UNANSWERED_NS = TimeUnit.SECONDS.toNanos(5);

    /** Adds to the job's message (what the launcher could not do). */
    void note(String more) {
        message = message + more;
    }

    /** After an abort: TERM once the grace period is over, KILL a second later (each once). */
    Signal signal(long now) {
        if (abortedAt == 0 || running == 0) {
            return Signal.NONE;
        }
        long since = now - abortedAt;
        if (!termSent && since > spec.abortGrace.toNanos()) {
            termSent = true;
            return Signal.TERM;
        }
        if (termSent && !killSent && since > spec.abortGrace.toNanos() + TimeUnit.SECONDS.toNanos(1)) {
            killSent = true;
            return Signal.KILL;
        }
        return Signal.NONE;
    }

    String message() {
        return message;
    }

    /** How the job ended. */
    JobResult result(List<String> outputs, List<Path> jobDirs) {
        int exit = timedOut ? JobResult.TIMEOUT_EXIT : failedRank >= 0 ? failedCode : 0;
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        return new JobResult(exit, failedRank, codes, outputs, message, jobDirs, ms);
    }
}
