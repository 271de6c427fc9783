package org.hympj.shm.p2p;

/** {@link TransferRank}'s "segments" scenario, for tests in other packages (MpjRun's options). */
public final class TransferRankForOptions {
    private TransferRankForOptions() {
    }

    public static void main(String[] args) {
        TransferRank.main(new String[] {"segments"});
    }
}
