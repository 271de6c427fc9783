package org.hympj.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.hympj.api.Comm;
import org.hympj.api.Mpj;
import org.hympj.api.MpjException;
import org.hympj.model.JobFabric;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.emu.SharedTimelines;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.pml.Engine;
import org.hympj.shm.pml.SegmentAllocator;
import org.hympj.shm.pml.ShmComm;

/**
 * One rank of a job. A rank started by srun or mpirun joins through the environment
 * ({@link org.hympj.shm.launch.EnvJob}). A rank started by the launcher joins the job named by
 * {@code HYMPJ_JOB_DIR} and {@code HYMPJ_RANK}; a program started alone creates a
 * one-rank job of its own and removes it at close (or at JVM exit).
 */
public final class ShmMpj extends Mpj {
    public static final String ENV_JOB_DIR = "HYMPJ_JOB_DIR";
    public static final String ENV_RANK = "HYMPJ_RANK";

    private final JobDirectory job;
    private final JobControl control;
    private final Engine engine;
    private final ShmComm world;
    private final org.hympj.shm.pml.OsEngine oneSided;
    private final boolean ownsJob;
    private final int rank;
    private final Thread cleanup;
    /** The --trace journal (Tracer.NONE when the job is not traced). */
    private final org.hympj.shm.trace.Tracer tracer;
    private final org.hympj.shm.pml.RankLifecycle life;
    /** The peers on other hosts (a job on several hosts), else null. */
    private final org.hympj.shm.fabric.NetPeers net;
    /** A rank started by srun or mpirun: how it joined (its node's leader removes the node's files); else null. */
    private final org.hympj.shm.launch.EnvJob envJob;
    private boolean closed;

    /**
     * This process's rank, from init until it closes (null before and after): MPI allows one
     * init per process, and a second instance would be the same rank stealing the first's messages.
     */
    private static ShmMpj open;
    /** Set once a launched rank has closed: its peers count it finalized, it cannot rejoin. */
    private static String finalizedAs;

    private ShmMpj(JobDirectory job, int rank, boolean ownsJob) throws IOException {
        this(job, rank, ownsJob, null);
    }

    private ShmMpj(JobDirectory job, int rank, boolean ownsJob, org.hympj.shm.launch.EnvJob envJob) throws IOException {
        this.envJob = envJob;
        this.job = job;
        this.rank = rank;
        this.ownsJob = ownsJob;
        this.control = job.openControl();
        // referenced only here: a job on one host never loads the network transport's classes
        this.net = job.hosts().multiHost() ? org.hympj.shm.fabric.NetPeers.open(job, rank, control) : null;
        ShmFabric fabric = new ShmFabric(job, rank, net);
        JobConfig c = job.config();
        JobFabric jobFabric = JobFabric.of(c.fabric);
        double dilation = c.effectiveDilation(org.hympj.shm.job.Cores.available());
        // virtual time: the rank's modelled clock; wall clock: real time stretched by the dilation
        org.hympj.shm.emu.VirtualClock clock = c.virtualTime() ? new org.hympj.shm.emu.VirtualClock(c.computeScale) : null;
        FabricTiming timing = jobFabric.model() == null ? null : new FabricTiming(jobFabric.model(),
            new SharedTimelines(fabric.timelines(), rank), c.epochNanos, dilation, rank, clock);
        this.engine = new Engine(fabric, c, jobFabric, control, !ownsJob, timing);
        if (net != null && envJob != null) {
            // no launcher of ours (srun, mpirun): a rank failed on this host, the other hosts hear it
            // from the ranks at once; under the launcher its host agents spread it, with the exit code
            engine.onFailure(net::relayFailure);
        }
        this.tracer = job.config().trace() ? openTrace(job.config(), rank, timing) : org.hympj.shm.trace.Tracer.NONE;
        if (clock != null) {
            tracer.clock(clock::now); // the journal records modelled time
        }
        engine.trace(tracer);
        SegmentAllocator segment = new SegmentAllocator(fabric);
        if (job.config().p2p.equals("onesided")) {
            // its own planner (a descriptor cache and plan of its own: on the wall clock its polling
            // thread plans beside the application's), on the rank's clock
            FabricTiming osTiming = timing == null ? null : new FabricTiming(timing.model(),
                new SharedTimelines(fabric.timelines(), rank), c.epochNanos, dilation, rank, clock);
            this.oneSided = org.hympj.shm.pml.OneSided.start(engine, job, segment, osTiming);
        } else {
            this.oneSided = null;
        }
        this.life = new org.hympj.shm.pml.RankLifecycle(rank, clock);
        this.world = new ShmComm(engine, segment, org.hympj.shm.pml.CollectiveChoice.barrier(job.config()), oneSided,
            life);
        engine.barrier(world::barrier);
        control.register(rank, ProcessHandle.current().pid());
        if (envJob != null) {
            envJob.cleanUpAtExit(control);
        }
        if (ownsJob) {
            cleanup = new Thread(job::delete, "hympj-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
        } else {
            cleanup = null;
        }
        boolean warms = warmsUp(c, timing);
        if (warms) {
            org.hympj.shm.pml.WarmUp.Result w = org.hympj.shm.pml.WarmUp.run(world, WARM_UP_BUDGET_NS);
            engine.openNetPackets();
            long s0 = System.nanoTime();
            int socketRounds = net != null ? org.hympj.shm.pml.WarmUp.socketPaths(world) : 0;
            long socketNanos = System.nanoTime() - s0;
            engine.routeStatistics().clear(); // its messages are not the program's
            if (net != null) {
                net.bulk().clearCounters();
            }
            if (Boolean.getBoolean("hympj.warmup.report")) {
                System.err.printf("# rank %d warm-up: %d rounds, %.0f ms, JIT %d ms since start%s%s%s%n",
                    rank, w.rounds(), w.nanos() / 1e6, w.compileMillis(),
                    w.parks() >= 0 ? ", parked " + w.parks() + " times" : "",
                    w.streamStalls() >= 0 ? ", streams stalled " + w.streamStalls() + " times" : "",
                    w.quiet() ? "" : " (the JIT was still compiling at the budget's end)");
                if (net != null) {
                    System.err.printf("# rank %d warm-up of the sockets between hosts: %d rounds, %.0f ms%n", rank,
                        socketRounds, socketNanos / 1e6);
                }
            }
        } else {
            engine.openNetPackets();
        }
    }

    /** The system property that sets the longest a rank's JIT warm-up may take, in ms (--jit steady sets it). */
    public static final String WARM_UP_BUDGET_PROPERTY = "hympj.warmup.budgetMs";

    /** The longest a rank's JIT warm-up may take (the launcher's --warm-up). */
    private static final long WARM_UP_BUDGET_NS = Long.getLong(WARM_UP_BUDGET_PROPERTY, 2_000L) * 1_000_000L;

    /**
     * Whether this rank warms its paths up before the program starts ({@link org.hympj.shm.pml.WarmUp}):
     * as the launcher's {@code --warm-up} says ({@code hympj.warmup} on the rank's command line),
     * natively on the two-sided engine only — under a model its messages would book the modelled
     * fabrics and move the virtual clock; traced they would show in the journal. (The route
     * statistics are cleared after it.)
     */
    private static boolean warmsUp(JobConfig c, FabricTiming timing) {
        return "on".equals(System.getProperty("hympj.warmup", "off")) && timing == null && !c.trace()
            && !c.p2p.equals("onesided");
    }

    /** Opens this rank's journal in the job's trace directory (slow: only for a traced job). */
    private static org.hympj.shm.trace.Tracer openTrace(JobConfig c, int rank, FabricTiming timing) {
        org.hympj.model.NetTopology topo = timing == null ? null : timing.model().topology();
        return org.hympj.shm.trace.ChronicleTracer.open(
            org.hympj.shm.trace.TraceDirectory.rankDir(Paths.get(c.traceDir), rank), rank, c.size, c.jobId, c.model,
            timing != null && timing.virtual() ? 0 : c.epochNanos,
            timing == null || timing.virtual() ? 1.0 : timing.dilation(), topo == null ? 0 : topo.engines(),
            topo == null ? -1 : topo.ibHca(0), c.subcluster);
    }

    /**
     * Initialises this process's rank.
     *
     * @throws IllegalStateException while another instance is open in this process, or after a
     *     launched rank has closed (a job's rank finalizes once)
     */
    static synchronized ShmMpj init() {
        if (open != null) {
            throw new IllegalStateException("Mpj.init: this process is already rank " + open.rank + " of job "
                + open.job.config().jobId + " and has not closed it; MPI allows one init per process: use the Mpj "
                + "you have (a second one would be the same rank and take its messages)");
        }
        if (finalizedAs != null) {
            throw new IllegalStateException("Mpj.init: this process was " + finalizedAs + " and has closed it "
                + "(MPI_Finalize); a rank of a launched job cannot initialise again");
        }
        ShmMpj mpj = create();
        open = mpj;
        return mpj;
    }

    private static ShmMpj create() {
        String dir = System.getenv(ENV_JOB_DIR);
        try {
            org.hympj.shm.launch.RankEnvironment rm = dir == null || dir.isEmpty()
                ? org.hympj.shm.launch.RankEnvironment.of(System.getenv()) : null;
            if (rm != null && rm.size > 1) {
                // started by srun or mpirun: no launcher of ours, meet the job's other ranks through the environment
                org.hympj.shm.launch.EnvJob j = org.hympj.shm.launch.EnvJob.join(rm, System.getenv());
                return new ShmMpj(j.job, j.rank, false, j);
            }
            if (dir == null || dir.isEmpty()) {
                String id = "single-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
                JobDirectory job = JobDirectory.create(JobConfig.defaults(id, 1));
                try {
                    return new ShmMpj(job, 0, true);
                } catch (IOException | RuntimeException e) {
                    job.delete();
                    throw e;
                }
            }
            String r = System.getenv(ENV_RANK);
            if (r == null) {
                throw new MpjException(ENV_JOB_DIR + " is set but " + ENV_RANK + " is not");
            }
            Path p = Paths.get(dir);
            JobDirectory job = JobDirectory.open(p);
            int rank = Integer.parseInt(r);
            if (rank < 0 || rank >= job.config().size) {
                throw new MpjException(ENV_RANK + "=" + rank + " is outside the job's 0.." + (job.config().size - 1));
            }
            return new ShmMpj(job, rank, false);
        } catch (IOException e) {
            throw new UncheckedIOException("HyMPJ init failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Comm world() {
        return world;
    }

    public JobConfig config() {
        return job.config();
    }

    public Engine engine() {
        return engine;
    }

    /**
     * Network connections this rank refused so far (a sender without the job's key, or not of this
     * job); 0 for a job on one host.
     */
    public int refusedConnections() {
        return net == null ? 0 : net.refused();
    }

    /**
     * The route statistics; on several hosts also how many packets went to and came from other
     * hosts on the ranks' own sockets instead of the media drivers' datagrams
     * ({@code net.socket.packets.sent}, {@code net.socket.packets.received}) and the payload bytes
     * written from and read into arrays by the kernel alone ({@code net.socket.array.bytes.sent},
     * {@code net.socket.array.bytes.received}; docs/USAGE.md).
     */
    @Override
    public java.util.Map<String, Long> statistics() {
        java.util.Map<String, Long> m = engine.routeStatistics().asMap();
        if (net != null) {
            m = new java.util.LinkedHashMap<>(m);
            m.put("net.socket.packets.sent", net.bulk().packetsWritten());
            m.put("net.socket.packets.received", net.bulk().packetsRead());
            m.put("net.socket.array.bytes.sent", net.bulk().arrayBytesWritten());
            m.put("net.socket.array.bytes.received", net.bulk().arrayBytesRead());
        }
        return m;
    }

    @Override
    public void close() {
        if (closed) {
            return; // a second close is a no-op, as AutoCloseable allows
        }
        closed = true;
        life.close();
        synchronized (ShmMpj.class) {
            open = null;
            if (!ownsJob) {
                finalizedAs = "rank " + rank + " of job " + job.config().jobId;
            }
        }
        try {
            if (oneSided != null) {
                oneSided.close();
            }
            engine.flush();
            if (net != null && (envJob != null && envJob.leader || net.runsDriver())) {
                // it runs (or started) its node's driver: the other nodes' ranks must be done with this node first
                net.closeAfterGoodbyes(org.hympj.shm.launch.EnvJob.goodbyeTimeoutNs());
            } else if (net != null) {
                net.close(); // goodbyes after everything written: peers on other hosts know this rank finalized
            }
            if (job.config().routeStats) {
                String summary = engine.routeStatistics().summary();
                System.out.print(summary.isEmpty() ? "route statistics, rank " + rank + ": no message routed\n"
                    : "route statistics, rank " + rank + ":\n" + summary);
            }
        } finally {
            engine.trace(null);
            tracer.close();
            control.setState(rank, JobControl.STATE_FINALIZED);
            if (envJob != null) {
                envJob.finish(control);
            }
            if (ownsJob) {
                job.delete();
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException ignored) {
                    // already shutting down
                }
            }
        }
    }
}
