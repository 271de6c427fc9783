package org.hympj.shm.launch;

import java.util.Map;

/**
 * Who a rank is when a resource manager started it instead of HyMPJ's launcher: its rank, the
 * job's size, its index and count on its node, the node's index and the job's id, from the
 * variables Slurm's {@code srun} ({@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_LOCALID},
 * {@code SLURM_NODEID}, {@code SLURM_STEP_TASKS_PER_NODE}, {@code SLURM_JOB_ID}, {@code SLURM_STEP_ID})
 * or Open MPI's {@code mpirun} ({@code OMPI_COMM_WORLD_RANK}, {@code _SIZE}, {@code _LOCAL_RANK},
 * {@code _LOCAL_SIZE}, {@code _NODE_RANK}… and its job id) set. {@code HYMPJ_LOCAL_HOSTS=K} splits
 * the ranks into K blocks as if on K nodes (one machine standing for several, as {@code --local-hosts}).
 */
public final class RankEnvironment {
    public final String manager;
    public final int rank;
    public final int size;
    /** The rank's index among its node's ranks. */
    public final int localRank;
    public final int localSize;
    /** The node's index (ranks of one node are consecutive). */
    public final int node;
    /** The job's id, the same on every node: names the nodes' job directories. */
    public final String jobId;

    private RankEnvironment(String manager, int rank, int size, int localRank, int localSize, int node, String jobId) {
        if (size < 1 || rank < 0 || rank >= size || localRank < 0 || localRank >= localSize || localSize > size) {
            throw new IllegalArgumentException(manager + " gives rank " + rank + " of " + size + ", local rank "
                + localRank + " of " + localSize + ": inconsistent");
        }
        this.manager = manager;
        this.rank = rank;
        this.size = size;
        this.localRank = localRank;
        this.localSize = localSize;
        this.node = node;
        this.jobId = jobId.replaceAll("[^A-Za-z0-9.]", "_");
    }

    /** The rank's environment under srun or mpirun, or null when neither started it. */
    public static RankEnvironment of(Map<String, String> env) {
        RankEnvironment e;
        if (env.containsKey("SLURM_PROCID") && env.containsKey("SLURM_NTASKS")) {
            int node = num(env, "SLURM_NODEID");
            e = new RankEnvironment("srun", num(env, "SLURM_PROCID"), num(env, "SLURM_NTASKS"), num(env, "SLURM_LOCALID"),
                tasksOnNode(env.getOrDefault("SLURM_STEP_TASKS_PER_NODE", env.get("SLURM_TASKS_PER_NODE")), node), node,
                "slurm" + env.get("SLURM_JOB_ID") + "." + env.getOrDefault("SLURM_STEP_ID", "0"));
        } else if (env.containsKey("OMPI_COMM_WORLD_RANK") && env.containsKey("OMPI_COMM_WORLD_SIZE")) {
            int rank = num(env, "OMPI_COMM_WORLD_RANK");
            int localRank = num(env, "OMPI_COMM_WORLD_LOCAL_RANK");
            String job = env.getOrDefault("OMPI_MCA_ess_base_jobid", env.getOrDefault("OMPI_MCA_orte_ess_jobid",
                env.getOrDefault("PMIX_NAMESPACE", env.getOrDefault("HYMPJ_JOB_ID", ""))));
            if (job.isEmpty()) {
                throw new IllegalArgumentException("mpirun set no job id (OMPI_MCA_ess_base_jobid, PMIX_NAMESPACE); "
                    + "set HYMPJ_JOB_ID to one shared by every rank");
            }
            // the node's index: its first rank is the lowest of its ranks (Open MPI maps by slot: consecutive)
            e = new RankEnvironment("mpirun", rank, num(env, "OMPI_COMM_WORLD_SIZE"), localRank,
                num(env, "OMPI_COMM_WORLD_LOCAL_SIZE"), rank - localRank, "ompi" + job);
        } else {
            return null;
        }
        String split = env.get("HYMPJ_LOCAL_HOSTS");
        if (split != null && !split.isEmpty()) {
            int k = Integer.parseInt(split.trim());
            if (k < 1 || k > e.size) {
                throw new IllegalArgumentException("HYMPJ_LOCAL_HOSTS must be 1.." + e.size + ", was " + k);
            }
            int first = 0;
            for (int h = 0; h < k; h++) {
                int count = e.size / k + (h < e.size % k ? 1 : 0);
                if (e.rank < first + count) {
                    return new RankEnvironment(e.manager, e.rank, e.size, e.rank - first, count, h, e.jobId);
                }
                first += count;
            }
        }
        return e;
    }

    /** The first rank of this rank's node. */
    public int firstOnNode() {
        return rank - localRank;
    }

    /** True when every rank of the job runs on this node. */
    public boolean singleNode() {
        return localSize == size;
    }

    private static int num(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null) {
            throw new IllegalArgumentException(name + " is not set (a rank started by a resource manager needs it)");
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + v + " is not a number");
        }
    }

    /** Slurm's tasks per node, "2(x3),1": the count of node {@code node}. */
    static int tasksOnNode(String spec, int node) {
        if (spec == null) {
            throw new IllegalArgumentException("SLURM_STEP_TASKS_PER_NODE is not set");
        }
        int n = 0;
        for (String part : spec.split(",")) {
            int x = part.indexOf("(x");
            int count = Integer.parseInt(x < 0 ? part.trim() : part.substring(0, x).trim());
            int times = x < 0 ? 1 : Integer.parseInt(part.substring(x + 2, part.indexOf(')')));
            if (node < n + times) {
                return count;
            }
            n += times;
        }
        throw new IllegalArgumentException("SLURM_STEP_TASKS_PER_NODE=" + spec + " has no node " + node);
    }
}
