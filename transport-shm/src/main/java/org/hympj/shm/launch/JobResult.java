package org.hympj.shm.launch;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** How a job ended: the launcher's exit code, each rank's, and (if captured) their output. */
public final class JobResult {
    /** Exit code used when the job hit its timeout. */
    public static final int TIMEOUT_EXIT = 124;
    /** Exit code used when a rank exited 0 after init without finalizing (no Mpj.close()). */
    public static final int NOT_FINALIZED_EXIT = 125;

    private final int exitCode;
    private final int failedRank;
    private final int[] rankExitCodes;
    private final List<String> outputs;
    private final String message;
    private final Path jobDir;
    private final List<Path> jobDirs;
    private final long elapsedMillis;

    JobResult(int exitCode, int failedRank, int[] rankExitCodes, List<String> outputs, String message, Path jobDir,
              long elapsedMillis) {
        this(exitCode, failedRank, rankExitCodes, outputs, message, List.of(jobDir), elapsedMillis);
    }

    JobResult(int exitCode, int failedRank, int[] rankExitCodes, List<String> outputs, String message,
              List<Path> jobDirs, long elapsedMillis) {
        this.jobDirs = List.copyOf(jobDirs);
        Path jobDir = jobDirs.get(0);
        this.exitCode = exitCode;
        this.failedRank = failedRank;
        this.rankExitCodes = rankExitCodes.clone();
        this.outputs = outputs;
        this.message = message;
        this.jobDir = jobDir;
        this.elapsedMillis = elapsedMillis;
    }

    /**
     * 0 when every rank exited 0 (after finalizing, if it initialized); else the first failing
     * rank's code ({@link #TIMEOUT_EXIT} on timeout, {@link #NOT_FINALIZED_EXIT} for a rank that
     * exited 0 without finalizing).
     */
    public int exitCode() {
        return exitCode;
    }

    /** The first rank that failed, or -1. */
    public int failedRank() {
        return failedRank;
    }

    public int rankExitCode(int rank) {
        return rankExitCodes[rank];
    }

    public int[] rankExitCodes() {
        return rankExitCodes.clone();
    }

    /** Captured stdout+stderr of a rank ("" when output was not captured). */
    public String output(int rank) {
        return outputs.get(rank);
    }

    /** All ranks' captured output, each line prefixed with "[rank] ". */
    public String allOutput() {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < outputs.size(); r++) {
            for (String line : outputs.get(r).split("\n", -1)) {
                if (!line.isEmpty()) {
                    b.append('[').append(r).append("] ").append(line).append('\n');
                }
            }
        }
        return b.toString();
    }

    /** What went wrong, in one sentence ("" on success). */
    public String message() {
        return message;
    }

    /** Every job directory the job used, one per host on this machine (already removed). */
    public List<Path> jobDirs() {
        return jobDirs;
    }

    /** The job directory the job used (already removed); the first host's for a job on several hosts. */
    public Path jobDir() {
        return jobDir;
    }

    public long elapsedMillis() {
        return elapsedMillis;
    }

    public boolean ok() {
        return exitCode == 0;
    }

    @Override
    public String toString() {
        return "JobResult[exit=" + exitCode + ", ranks=" + Arrays.toString(rankExitCodes)
            + (message.isEmpty() ? "" : ", " + message) + "]";
    }
}
