package org.hympj.shm.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hympj.net.Bootstrap;
import org.hympj.net.HostDriver;
import org.hympj.net.JobKey;
import org.hympj.net.NetSettings;
import org.hympj.shm.job.HostLayout;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;

/**
 * A rank joining a job that a resource manager started ({@link RankEnvironment}: srun, mpirun),
 * with no launcher of HyMPJ's and no shared file system. The first rank of each node (its
 * leader) creates the node's job directory ({@code hympj-<job>-n<node>}); in a job on several
 * nodes it also starts the node's media driver ({@link NodeDriver}, a process of its own that
 * outlives any rank of the node and removes the node's files after the last) and takes part in the
 * {@link Bootstrap}: rank 0 serves it on {@code HYMPJ_BOOTSTRAP} ({@code host:port}, an address
 * of rank 0's node), each leader announces its node and endpoint with the job's key
 * ({@code HYMPJ_JOB_KEY}, 64 hex digits, the same on every node) and publishes the table in its
 * directory. The other ranks of the node wait for the directory to be complete and join it.
 *
 * <p>On one node the leader owns the node's files: at its close it waits for the node's other
 * ranks to finalize, then removes the directory. On several nodes the leader's close waits for
 * every rank of the other nodes to say goodbye, and the node's driver process removes the files
 * once every rank of the node is gone.
 */
public final class EnvJob {
    public static final String ENV_BOOTSTRAP = "HYMPJ_BOOTSTRAP";
    public static final String ENV_KEY = "HYMPJ_JOB_KEY";
    public static final String ENV_IFACE = "HYMPJ_IFACE";
    public static final String ENV_NET_TIMEOUT = "HYMPJ_NET_TIMEOUT";
    /**
     * {@link #ENV_NET_TIMEOUT}'s default, seconds: without a launcher of ours nobody is left to
     * report a whole node that dies, and its connections' silence is how the others learn it:
     * this, then a second of Aeron's draining, within 5 s (issue 17); mpjrun keeps 10 s, its
     * agents' heartbeat reporting a silent host after 4 s. A machine so loaded that a driver goes
     * unscheduled for seconds needs a longer one.
     */
    static final double DEFAULT_NET_TIMEOUT_S = 3;
    /**
     * {@code rank}: each node's first rank runs the node's media driver (as {@code mpjrun
     * --net-driver rank}); unset or {@code process}: a driver process of its own, which outlives
     * the node's ranks — then a dead first rank is still reported to the other nodes at once,
     * where with the driver in it they learn it only after {@link #ENV_NET_TIMEOUT}.
     */
    public static final String ENV_NET_DRIVER = "HYMPJ_NET_DRIVER";
    /**
     * The liveness of connections between nodes from {@link #ENV_NET_TIMEOUT} (seconds, may have a
     * fraction; unset: {@link #DEFAULT_NET_TIMEOUT_S}).
     *
     * @throws IllegalArgumentException naming the variable unless it is a number of seconds in 0.5..3600
     */
    static long netTimeoutNs(String text) {
        if (text == null) {
            return (long) (DEFAULT_NET_TIMEOUT_S * 1e9);
        }
        double s;
        try {
            s = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            s = Double.NaN;
        }
        if (!(s >= 0.5 && s <= 3600)) {
            throw new IllegalArgumentException(ENV_NET_TIMEOUT + " must be a number of seconds in 0.5..3600, was '" + text
                + "'");
        }
        return (long) (s * 1e9);
    }

    /** The UDP payload of one network frame, as --net-mtu (bytes, 1408..65504, a multiple of 32). */
    public static final String ENV_NET_MTU = "HYMPJ_NET_MTU";
    private static final long JOIN_TIMEOUT_MS = 60_000;
    /** A leader waits this long at most for the goodbyes of the other nodes' ranks. */
    private static final long GOODBYE_TIMEOUT_NS = 10_000_000_000L;

    public final JobDirectory job;
    public final int rank;
    /** This rank created the node's directory (and started its driver). */
    public final boolean leader;
    /** The node's driver process (the leader of a node of a job on several nodes), else null. */
    private final NodeDriver.Started driver;
    /** {@link #finish} ran: the normal end looks after the files. */
    private volatile boolean finished;
    /** How long a rank leaving after a failure waits for the node's other ranks to be gone. */
    private static final long LAST_OUT_WAIT_NS = 2_000_000_000L;

    private EnvJob(JobDirectory job, int rank, boolean leader, NodeDriver.Started driver) {
        this.job = job;
        this.rank = rank;
        this.leader = leader;
        this.driver = driver;
    }

    /** Joins the job {@code e} describes; {@code env} gives the HyMPJ variables. */
    public static EnvJob join(RankEnvironment e, Map<String, String> env) throws IOException {
        String name = JobDirectory.PREFIX + e.jobId + "-n" + e.node;
        Path dir = JobDirectory.root().resolve(name);
        if (e.localRank != 0) {
            return new EnvJob(awaitDirectory(dir, e), e.rank, false, null);
        }
        // the leader: the node's resource-manager daemon (slurmstepd, orted) is the ranks' launcher
        JobConfig config = JobConfig.defaults(e.jobId, e.size)
            .withLauncher(ProcessHandle.current().parent().orElse(ProcessHandle.current()));
        if (e.singleNode()) {
            return new EnvJob(JobDirectory.create(config, HostLayout.single(e.size), name), e.rank, true, null);
        }
        String hex = env.get(ENV_KEY);
        String boot = env.get(ENV_BOOTSTRAP);
        if (hex == null || hex.isBlank()) {
            throw new IllegalArgumentException(ENV_KEY + " is not set: a job on several nodes started by " + e.manager
                + " needs the same random key on every node (64 hex digits, e.g. from 'openssl rand -hex 32')");
        }
        if (boot == null || boot.lastIndexOf(':') < 0) {
            throw new IllegalArgumentException(ENV_BOOTSTRAP + " is not set to HOST:PORT: a job on several nodes started"
                + " by " + e.manager + " meets at rank 0's node on that address");
        }
        JobKey key = JobKey.ofHex(hex);
        String bootHost = boot.substring(0, boot.lastIndexOf(':'));
        int bootPort = Integer.parseInt(boot.substring(boot.lastIndexOf(':') + 1));
        long liveness = netTimeoutNs(env.get(ENV_NET_TIMEOUT));
        boolean driverInRank = driverInRank(env.get(ENV_NET_DRIVER));
        String mtuText = env.get(ENV_NET_MTU);
        int mtu = mtuText == null ? NetSettings.mtuFor(config.inlineLimit + 64)
            : NetSettings.checkMtu(ENV_NET_MTU, parseMtu(mtuText));
        NetSettings net = new NetSettings(mtu, 1 << 20, 2 << 20, liveness)
            .withDriverInRank(driverInRank);
        Bootstrap.Server server = e.rank == 0 ? new Bootstrap.Server(bootHost, bootPort, key, e.size) : null;
        JobDirectory job = JobDirectory.create(config, provisional(e).withNet(net), name);
        NodeDriver.Started[] driver = new NodeDriver.Started[1];
        try {
            job.writeKey(key.hex());
            String table = Bootstrap.exchange(bootHost, bootPort, key, JOIN_TIMEOUT_MS, local -> {
                String iface = env.getOrDefault(ENV_IFACE, local.getHostAddress());
                String endpoint;
                if (driverInRank) {
                    endpoint = HostDriver.reserve(iface, 0); // this rank binds it when it starts the driver
                } else {
                    try {
                        driver[0] = NodeDriver.start(job.path(), iface, e.firstOnNode(), e.localSize);
                    } catch (IOException x) {
                        throw new java.io.UncheckedIOException(x);
                    }
                    endpoint = driver[0].endpoint;
                }
                return e.firstOnNode() + " " + e.localSize + " " + hostName() + " " + endpoint;
            });
            JobDirectory published = job.publishHosts(layout(table, e).withNet(net));
            return new EnvJob(published, e.rank, true, driver[0]);
        } catch (IOException | RuntimeException x) {
            if (driver[0] != null) {
                driver[0].process.destroy(); // its exit step removes what it made
            }
            job.delete();
            throw x;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private static boolean driverInRank(String v) {
        if (v == null || v.equals("process")) {
            return false;
        }
        if (v.equals("rank")) {
            return true;
        }
        throw new IllegalArgumentException(ENV_NET_DRIVER + " must be rank or process, was '" + v + "'");
    }

    /** This node's block with stand-ins for the ranks before and after it (the table replaces it). */
    private static HostLayout provisional(RankEnvironment e) {
        List<String> names = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        int host = 0;
        if (e.firstOnNode() > 0) {
            names.add("before");
            counts.add(e.firstOnNode());
            host = 1;
        }
        names.add("this");
        counts.add(e.localSize);
        int after = e.size - e.firstOnNode() - e.localSize;
        if (after > 0) {
            names.add("after");
            counts.add(after);
        }
        return HostLayout.blocks(names, counts.stream().mapToInt(Integer::intValue).toArray()).on(host);
    }

    /** The bootstrap's table as the job's hosts, seen from this rank's node. */
    private static HostLayout layout(String table, RankEnvironment e) {
        String[] lines = table.split("\n");
        List<String> names = new ArrayList<>();
        int[] counts = new int[lines.length];
        String[] endpoints = new String[lines.length];
        int mine = -1;
        for (int h = 0; h < lines.length; h++) {
            String[] f = lines[h].split(" ");
            names.add(f[2]);
            counts[h] = Integer.parseInt(f[1]);
            endpoints[h] = f[3];
            if (Integer.parseInt(f[0]) == e.firstOnNode()) {
                mine = h;
            }
        }
        return HostLayout.blocks(names, counts).withEndpoints(endpoints).on(mine);
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName().replace(' ', '_');
        } catch (IOException e) {
            return "node";
        }
    }

    /** A rank that is not its node's leader: the directory once complete (with every node's endpoint). */
    private static JobDirectory awaitDirectory(Path dir, RankEnvironment e) throws IOException {
        long until = System.nanoTime() + JOIN_TIMEOUT_MS * 1_000_000L;
        while (System.nanoTime() - until < 0) {
            if (Files.exists(dir.resolve("job.properties"))
                && (e.singleNode() || hostsPublished(dir))) {
                return JobDirectory.open(dir);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while joining " + dir);
            }
        }
        throw new IOException("rank " + e.rank + ": the job directory " + dir + " of its node was not made within "
            + JOIN_TIMEOUT_MS / 1000 + " s (its first rank, local rank 0, makes it)");
    }

    private static boolean hostsPublished(Path dir) {
        Path f = dir.resolve(HostLayout.FILE);
        try {
            return Files.exists(f) && HostLayout.load(f).endpoint(0) != null;
        } catch (IOException | RuntimeException x) {
            return false;
        }
    }

    /**
     * The leader's end, after its own finalize: on one node, waits for the node's other ranks to
     * finalize (or die: the job is then aborted anyway) and removes the directory; on several
     * nodes the node's driver process does that once every rank of the node is gone (with the
     * driver in this rank, this rank does, as on one node).
     */
    public void finish(JobControl control) {
        finished = true;
        if (!leader || driver != null) {
            return;
        }
        HostLayout hosts = job.hosts();
        long unregisteredUntil = System.nanoTime() + JOIN_TIMEOUT_MS * 1_000_000L;
        while (!control.aborted()) {
            boolean done = true;
            for (int i = 0; i < hosts.localCount(); i++) {
                int r = hosts.localRank(i);
                if (r != rank && control.state(r) != JobControl.STATE_FINALIZED
                    && (control.pid(r) == 0 ? System.nanoTime() - unregisteredUntil < 0 : control.rankAlive(r))) {
                    done = false; // still running (or not started yet, for at most a minute)
                }
            }
            if (done) {
                break;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        job.delete();
    }

    /**
     * Installs this rank's exit step: when the rank's process ends without its normal end (an
     * exception, a failure of another rank, System.exit), the node's last rank alive removes the
     * node's files (on several nodes the node's driver process does, after the last). No launcher
     * of ours runs here to clean up after a failure; the resource manager only ends the processes.
     */
    public void cleanUpAtExit(JobControl control) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> lastOneOut(control), "hympj-node-cleanup"));
    }

    private void lastOneOut(JobControl control) {
        if (finished) {
            return;
        }
        // leaving without finalize is a failure, as under the launcher: the others fail fast naming this rank
        control.abort(rank, -1);
        control.setState(rank, JobControl.STATE_FAILED); // leaving: the others do not wait for it here
        HostLayout hosts = job.hosts();
        if (hosts.multiHost() && !hosts.net().driverInRank) {
            return; // the node's driver process removes the files after the last rank
        }
        long until = System.nanoTime() + LAST_OUT_WAIT_NS;
        while (true) {
            boolean othersGone = true;
            for (int i = 0; i < hosts.localCount() && othersGone; i++) {
                int r = hosts.localRank(i);
                othersGone = r == rank || control.state(r) == JobControl.STATE_FAILED || !control.rankAlive(r);
            }
            if (othersGone) {
                job.delete();
                return;
            }
            if (System.nanoTime() - until > 0) {
                return; // the last of them cleans up when it goes
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException x) {
                return;
            }
        }
    }

    /** How long a leader waits for the goodbyes of the other nodes' ranks. */
    public static long goodbyeTimeoutNs() {
        return GOODBYE_TIMEOUT_NS;
    }

    private static int parseMtu(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ENV_NET_MTU + " must be a number of bytes (1408..65504, a multiple of 32), was '"
                + text + "'");
        }
    }
}
