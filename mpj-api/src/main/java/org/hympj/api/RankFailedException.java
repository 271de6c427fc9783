package org.hympj.api;

/**
 * A rank of the job died (crashed, was killed, or exited with an error) while this rank
 * was communicating: the job cannot go on. Names the rank that failed.
 */
public class RankFailedException extends MpjException {
    private static final long serialVersionUID = 1L;
    private final int failedRank;

    public RankFailedException(int failedRank, String detail) {
        super("rank " + failedRank + " failed: " + detail);
        this.failedRank = failedRank;
    }

    /** The rank that died (in the world communicator). */
    public int failedRank() {
        return failedRank;
    }
}
