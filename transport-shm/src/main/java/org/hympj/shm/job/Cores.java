package org.hympj.shm.job;

/**
 * The CPUs a job's ranks on this host share, as the library's choices need it (spin or yield,
 * pull or pack, the JIT, the time dilation). Not {@code availableProcessors()} of the rank itself:
 * a rank bound to one CPU ({@code mpjrun --bind-to core}) sees 1 and would think 2 ranks share
 * a core. The launcher passes what it may use ({@link #PROPERTY}); without it (a rank started by
 * hand, by srun or mpirun) the rank's own count.
 */
public final class Cores {
    /** System property the launcher sets on every rank: the CPUs its ranks on this host may use. */
    public static final String PROPERTY = "hympj.cores";
    /**
     * System property the launcher sets on every rank: how many of the job's ranks share those
     * CPUs — the ranks of this host, or every rank when {@code --local-hosts} puts all the groups
     * on this one machine.
     */
    public static final String RANKS_PROPERTY = "hympj.cores.ranks";

    private Cores() {
    }

    /**
     * How many ranks share this host's CPUs: what the launcher said ({@link #RANKS_PROPERTY}), else
     * {@code hostRanks}, the job's ranks on this host (a rank started by srun or mpirun). Not the
     * job's size: on a cluster, 4 hosts of 8 ranks with 8 cores each do not share a core.
     */
    public static int sharing(int hostRanks) {
        Integer given = Integer.getInteger(RANKS_PROPERTY);
        return given != null && given > 0 ? given : hostRanks;
    }

    /** The CPUs the ranks of this host share. */
    public static int available() {
        int own = Runtime.getRuntime().availableProcessors();
        Integer given = Integer.getInteger(PROPERTY);
        return given != null && given > 0 ? given : own;
    }
}
