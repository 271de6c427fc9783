package org.hympj.shm.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.hympj.model.FabricOptions;

/**
 * The settings every rank of a job shares, written once by whoever creates the job
 * (job.properties in the job directory) and read by each rank at init.
 *
 * <p>Message paths by size: up to {@code inlineLimit} a message is copied into the packet
 * ring itself; up to {@code eagerLimit} into the pair's bulk region (announced by a notice,
 * no handshake); beyond, by rendezvous. Data in a segment buffer (contiguous, or strided in a
 * layout an RTS carries), to a rank of the same host, is pulled by the receiver above
 * {@link #PULL_ABOVE} bytes when every rank has a core of its own, and above the eager limit when
 * ranks share cores (a pull waits for its receiver to be scheduled, an eager send does not).
 */
public final class JobConfig {
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
    /**
     * Contiguous data in the sender's segment above this size is pulled by the receiver (one
     * copy) instead of going eager (two copies), even below the inline limit: a 2-rank segment
     * ping-pong measured both ways (issue 18) — eager 0.40 / 0.50 / 0.75 / 1.4 µs at 64 B /
     * 256 B / 1 KB / 4 KB, pulled 0.52 / 0.50 / 0.53 / 0.55 µs: the pull's ACK costs what two
     * copies of ~512 B do. Only when every rank has a core: with ranks sharing cores the
     * pull's wait for the receiver to be scheduled costs more than the copy it saves.
     */
    public static final int PULL_ABOVE = 512;
    /**
     * Eager messages through the bulk region from this size on are piped, natively and when every
     * rank has a core: the notice goes first, then the payload in 16 KiB pieces, so the receiver
     * copies piece k out while the sender packs piece k+1 instead of waiting for the whole message
     * (heap ping-pong, session 9: 64 KB 9.3 → 7.6 µs, 256 KB 30.4 → 19.9 µs).
     */
    public static final int PIPE_FROM = 32 << 10;

    public final String jobId;
    public final int size;
    public final long launcherPid;
    /** Launcher start time in ms since the epoch (guards against pid reuse), 0 if unknown. */
    public final long launcherStartMillis;
    public final long segmentBytes;
    /** Packet ring per ordered pair (power of two); records are capped at a 1/8 of it. */
    public final int ringBytes;
    /** Bulk region per ordered pair (power of two). */
    public final int bulkBytes;
    public final int inlineLimit;
    public final int eagerLimit;
    public final String model;
    public final int subcluster;
    /** Idle policy: "auto", "spin", "yield" or "backoff". */
    public final String idle;
    /** Collective algorithm choices, e.g. "barrier=ring" ("" = defaults). */
    public final String coll;
    /** Route policy: "auto" (native shm without a model; with one, TCA where it reaches, else IB), "tca", "ib". */
    public final String route;
    /** Time dilation of the model: modelled durations last this many times longer in real time (0 = default). */
    public final double dilation;
    /** The job's time origin (System.nanoTime, one clock for all processes of the machine). */
    public final long epochNanos;
    /** Route table: a preset name or a file ("" = the model's preset, else ha-pacs). */
    public final String routeTable;
    /** Striping threshold override: -1 = the table's, 0 = off, else bytes. */
    public final long stripe;
    /** Print each rank's route statistics at finalize. */
    public final boolean routeStats;
    /** Point-to-point engine: "twosided" (default) or "onesided" (S2's isend/irecv from one-sided writes). */
    public final String p2p;
    /**
     * RDMA put scheduler for persistent TCA sets (rsched policy name; "none" = issue order,
     * earliest engine; "rndv" = as none, with the rendezvous handshake planned as control puts).
     */
    public final String sched;
    /** S3's pseudo-collective mode: a barrier at the start of Startall and at the end of Waitall. */
    public final boolean schedBarrier;
    /** --clock virtual (the default): under a model each rank keeps a modelled clock; nothing waits in real time. */
    public static final String CLOCK_VIRTUAL = "virtual";
    /** --clock wall: modelled durations are waited out in real time, stretched by the time dilation. */
    public static final String CLOCK_WALL = "wall";
    /** Under a model: virtual or wall (see {@link #virtualTime()}). */
    public final String clock;
    /** Virtual time: a rank's CPU time between library calls counts this many times (0 = communication only). */
    public final double computeScale;
    /** The options that decide how messages use the emulated fabrics (validated there). */
    public final FabricOptions fabric;
    /** Directory of the --trace journal (each rank writes {@code rank-<r>/} in it), "" = no trace. */
    public final String traceDir;

    public JobConfig(String jobId, int size, long launcherPid, long launcherStartMillis, long segmentBytes,
                     int ringBytes, int bulkBytes, int inlineLimit, int eagerLimit, String model, int subcluster,
                     String idle) {
        this(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes, inlineLimit,
            eagerLimit, model, subcluster, idle, "");
    }

    public JobConfig(String jobId, int size, long launcherPid, long launcherStartMillis, long segmentBytes,
                     int ringBytes, int bulkBytes, int inlineLimit, int eagerLimit, String model, int subcluster,
                     String idle, String coll) {
        this(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes, inlineLimit,
            eagerLimit, model, subcluster, idle, coll, "auto", 0, System.nanoTime(), "", -1, false, "twosided", "", "none", false, CLOCK_VIRTUAL, 1.0);
    }

    private JobConfig(String jobId, int size, long launcherPid, long launcherStartMillis, long segmentBytes,
                      int ringBytes, int bulkBytes, int inlineLimit, int eagerLimit, String model, int subcluster,
                      String idle, String coll, String route, double dilation, long epochNanos, String routeTable,
                      long stripe, boolean routeStats, String p2p, String traceDir, String sched,
                      boolean schedBarrier, String clock, double computeScale) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1, was " + size);
        }
        if (Integer.bitCount(ringBytes) != 1 || ringBytes < 64 << 10) {
            throw new IllegalArgumentException("ring size must be a power of two of at least 64 KiB, was " + ringBytes);
        }
        if (Integer.bitCount(bulkBytes) != 1 || bulkBytes < 64 << 10) {
            throw new IllegalArgumentException("bulk size must be a power of two of at least 64 KiB, was " + bulkBytes);
        }
        if (inlineLimit < 0 || inlineLimit > maxInline(ringBytes)) {
            throw new IllegalArgumentException("inline limit must be 0.." + maxInline(ringBytes)
                + " (ring size/8 - 64), was " + inlineLimit);
        }
        if (eagerLimit < inlineLimit || eagerLimit > bulkBytes / 2) {
            throw new IllegalArgumentException("eager limit must be " + inlineLimit + ".." + (bulkBytes / 2)
                + " (inline limit .. bulk size/2), was " + eagerLimit);
        }
        if (segmentBytes < 4096) {
            throw new IllegalArgumentException("segment size must be at least 4 KiB, was " + segmentBytes);
        }
        this.jobId = jobId;
        this.size = size;
        this.launcherPid = launcherPid;
        this.launcherStartMillis = launcherStartMillis;
        this.segmentBytes = segmentBytes;
        this.ringBytes = ringBytes;
        this.bulkBytes = bulkBytes;
        this.inlineLimit = inlineLimit;
        this.eagerLimit = eagerLimit;
        this.model = model;
        this.subcluster = subcluster <= 0 ? size : subcluster;
        this.idle = idle;
        this.coll = coll == null ? "" : coll;
        if (dilation < 0) {
            throw new IllegalArgumentException("time dilation must be >= 1 (or 0 for the default), was " + dilation);
        }
        this.route = route;
        this.dilation = dilation;
        this.epochNanos = epochNanos;
        this.routeTable = routeTable == null ? "" : routeTable;
        this.stripe = stripe;
        this.routeStats = routeStats;
        if (!p2p.equals("twosided") && !p2p.equals("onesided")) {
            throw new IllegalArgumentException("--p2p must be twosided or onesided, was " + p2p);
        }
        this.p2p = p2p;
        this.traceDir = traceDir == null ? "" : traceDir;
        this.sched = sched;
        this.schedBarrier = schedBarrier;
        this.fabric = new FabricOptions(model, size, subcluster, route, routeTable, stripe, sched, schedBarrier);
        if (!clock.equals(CLOCK_VIRTUAL) && !clock.equals(CLOCK_WALL)) {
            throw new IllegalArgumentException("--clock must be virtual or wall, was '" + clock + "'");
        }
        if (!(computeScale >= 0) || Double.isInfinite(computeScale)) {
            throw new IllegalArgumentException("--compute-scale must be a finite number >= 0, was " + computeScale);
        }
        this.clock = clock;
        this.computeScale = computeScale;
    }

    /** True when the job runs on virtual time: a timing model and --clock virtual (either point-to-point engine). */
    public boolean virtualTime() {
        return !model.equals("none") && clock.equals(CLOCK_VIRTUAL);
    }

    /** A copy with the clock (virtual, wall) and the compute scale of virtual time. */
    public JobConfig withClock(String clockKind, double scale) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe,
            routeStats, p2p, traceDir, sched, schedBarrier, clockKind, scale);
    }

    /** --sched value of the unscheduled eager/rendezvous baseline whose handshake is paid for on the model. */
    public static final String SCHED_RNDV = FabricOptions.SCHED_RNDV;

    /** True when --sched names an RSched policy (not none, not rndv): the engine schedules persistent TCA sets. */
    public boolean rsched() {
        return fabric.rsched();
    }

    /**
     * True for --sched rndv: no scheduler (as none), and under a model a rendezvous's RTS and
     * CTS are planned as control puts (S3's original protocol), not free as with none.
     */
    public boolean rendezvousHandshakePuts() {
        return fabric.rendezvousHandshakePuts();
    }

    /** A copy with the fabric settings: route policy and time dilation (0 = default). */
    public JobConfig withTiming(String route, double dilation) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe, routeStats, p2p,
            traceDir, sched, schedBarrier, clock, computeScale);
    }

    /** A copy with the hybrid router's table ("" = default) and striping override (-1 = the table's, 0 = off). */
    public JobConfig withRouting(String table, long stripeThreshold) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, table,
            stripeThreshold, routeStats, p2p, traceDir, sched, schedBarrier, clock, computeScale);
    }

    /** A copy that prints (or not) the route statistics of every rank at finalize. */
    public JobConfig withRouteStats(boolean on) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe,
            on, p2p, traceDir, sched, schedBarrier, clock, computeScale);
    }

    /** A copy with an RSched policy for persistent TCA sets and the pseudo-collective mode. */
    public JobConfig withSched(String policy, boolean barrier) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe,
            routeStats, p2p, traceDir, policy, barrier, clock, computeScale);
    }

    /** A copy with another idle policy (as --idle). */
    public JobConfig withIdle(String policy) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, policy, coll, route, dilation, epochNanos, routeTable, stripe,
            routeStats, p2p, traceDir, sched, schedBarrier, clock, computeScale);
    }

    /** A copy with another point-to-point engine (twosided, onesided). */
    public JobConfig withP2p(String engine) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe,
            routeStats, engine, traceDir, sched, schedBarrier, clock, computeScale);
    }

    /**
     * A copy that journals (or not) every rank's events: {@code dir} is the trace directory
     * (rank r writes {@code dir/rank-<r>/}), null or "" = no trace.
     */
    public JobConfig withTrace(String dir) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe,
            routeStats, p2p, dir, sched, schedBarrier, clock, computeScale);
    }

    /** True when the job is traced (--trace). */
    public boolean trace() {
        return !traceDir.isEmpty();
    }

    /** True when the hybrid router picks the fabric per message (--route hybrid, or auto under a model). */
    public boolean hybrid() {
        return fabric.hybrid();
    }

    /** The route table to load: as given, else the model's preset when there is one, else ha-pacs. */
    public String routeTableName() {
        return fabric.routeTableName();
    }

    /** True when messages take emulated fabrics (a model, or a forced route), with one ring set per fabric. */
    public boolean emulatesFabrics() {
        return fabric.emulatesFabrics();
    }

    /** Ring (and bulk) sets per ordered pair: 1 natively, 2 (TCA, IB) when fabrics are emulated. */
    public int channels() {
        return fabric.channels();
    }

    /** The dilation in force: as set, or by default 10 with no more ranks than cores and 50 per rank/core ratio beyond. */
    public double effectiveDilation(int cores) {
        if (dilation > 0) {
            return dilation;
        }
        return size <= cores ? 10 : 50.0 * Math.ceil((double) size / cores);
    }

    static int maxInline(int ringBytes) {
        return ringBytes / 8 - 64;
    }

    /** Packet ring default: 256 KiB (it carries only small messages and notices). */
    public static int defaultRingBytes(int ranks) {
        return 256 << 10;
    }

    /** Bulk region default: 2 MiB per pair up to 16 ranks, then 512 KiB (there are size² of them). */
    public static int defaultBulkBytes(int ranks) {
        return FabricOptions.defaultBulkBytes(ranks);
    }

    /** Messages up to 8 KiB are copied into the packet ring itself. */
    public static int defaultInlineLimit(int ringBytes) {
        return Math.min(8 << 10, maxInline(ringBytes));
    }

    /** Eager up to 1/8 of the bulk region (256 KiB by default): a halo face of 128² doubles goes without handshake. */
    public static int defaultEagerLimit(int bulkBytes) {
        return FabricOptions.defaultEagerLimit(bulkBytes);
    }

    public static JobConfig defaults(String jobId, int size) {
        ProcessHandle me = ProcessHandle.current();
        int ring = defaultRingBytes(size);
        int bulk = defaultBulkBytes(size);
        return new JobConfig(jobId, size, me.pid(), startMillis(me), DEFAULT_SEGMENT_BYTES, ring, bulk,
            defaultInlineLimit(ring), defaultEagerLimit(bulk), "none", size, "auto");
    }

    public JobConfig with(long segment, int ring, int bulk, int inline, int eager, String model, int subcluster,
                          String idle, String coll) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segment, ring, bulk, inline, eager,
            model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe, routeStats, p2p, traceDir, sched, schedBarrier, clock, computeScale);
    }

    /**
     * The value of one collective choice in {@link #coll} ("barrier=ring,allreduce=…"), or
     * {@code fallback}.
     */
    public String collChoice(String key, String fallback) {
        for (String part : coll.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).trim().equals(key)) {
                return part.substring(eq + 1).trim();
            }
        }
        return fallback;
    }

    static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
    }

    private Properties properties() {
        Properties p = new Properties();
        p.setProperty("job", jobId);
        p.setProperty("size", Integer.toString(size));
        p.setProperty("launcher.pid", Long.toString(launcherPid));
        p.setProperty("launcher.start", Long.toString(launcherStartMillis));
        p.setProperty("segment.bytes", Long.toString(segmentBytes));
        p.setProperty("ring.bytes", Integer.toString(ringBytes));
        p.setProperty("bulk.bytes", Integer.toString(bulkBytes));
        p.setProperty("inline.limit", Integer.toString(inlineLimit));
        p.setProperty("eager.limit", Integer.toString(eagerLimit));
        p.setProperty("model", model);
        p.setProperty("subcluster", Integer.toString(subcluster));
        p.setProperty("idle", idle);
        p.setProperty("coll", coll);
        p.setProperty("route", route);
        p.setProperty("dilation", Double.toString(dilation));
        p.setProperty("epoch.nanos", Long.toString(epochNanos));
        p.setProperty("route.table", routeTable);
        p.setProperty("stripe", Long.toString(stripe));
        p.setProperty("route.stats", Boolean.toString(routeStats));
        p.setProperty("p2p", p2p);
        p.setProperty("sched", sched);
        p.setProperty("sched.barrier", Boolean.toString(schedBarrier));
        p.setProperty("trace.dir", traceDir);
        p.setProperty("clock", clock);
        p.setProperty("compute.scale", Double.toString(computeScale));
        return p;
    }

    private static JobConfig of(Properties p) {
        return new JobConfig(p.getProperty("job"), Integer.parseInt(p.getProperty("size")),
            Long.parseLong(p.getProperty("launcher.pid")), Long.parseLong(p.getProperty("launcher.start", "0")),
            Long.parseLong(p.getProperty("segment.bytes")), Integer.parseInt(p.getProperty("ring.bytes")),
            Integer.parseInt(p.getProperty("bulk.bytes")), Integer.parseInt(p.getProperty("inline.limit")),
            Integer.parseInt(p.getProperty("eager.limit")), p.getProperty("model", "none"),
            Integer.parseInt(p.getProperty("subcluster", p.getProperty("size"))), p.getProperty("idle", "auto"),
            p.getProperty("coll", ""), p.getProperty("route", "auto"),
            Double.parseDouble(p.getProperty("dilation", "0")), Long.parseLong(p.getProperty("epoch.nanos", "0")),
            p.getProperty("route.table", ""), Long.parseLong(p.getProperty("stripe", "-1")),
            Boolean.parseBoolean(p.getProperty("route.stats", "false")), p.getProperty("p2p", "twosided"),
            p.getProperty("trace.dir", ""), p.getProperty("sched", "none"),
            Boolean.parseBoolean(p.getProperty("sched.barrier", "false")), p.getProperty("clock", CLOCK_VIRTUAL),
            Double.parseDouble(p.getProperty("compute.scale", "1")));
    }

    void store(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            properties().store(out, "HyMPJ job");
        }
    }

    static JobConfig load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return of(p);
    }

    /** The settings as one line of text (base64 of their properties), as the launcher sends them to a host. */
    public String text() {
        java.io.StringWriter w = new java.io.StringWriter();
        try {
            properties().store(w, null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return java.util.Base64.getEncoder().encodeToString(w.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The settings {@link #text()} wrote. */
    public static JobConfig parse(String text) {
        Properties p = new Properties();
        try {
            p.load(new java.io.StringReader(new String(java.util.Base64.getDecoder().decode(text.trim()),
                java.nio.charset.StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return of(p);
    }

    /** A copy whose launcher (the process the ranks watch, and that removes the files) is {@code p}. */
    public JobConfig withLauncher(ProcessHandle p) {
        return new JobConfig(jobId, size, p.pid(), startMillis(p), segmentBytes, ringBytes, bulkBytes,
            inlineLimit, eagerLimit, model, subcluster, idle, coll, route, dilation, epochNanos, routeTable, stripe,
            routeStats, p2p, traceDir, sched, schedBarrier, clock, computeScale);
    }

    /** True while the process that created the job is alive (same pid and start time). */
    public boolean launcherAlive() {
        return ProcessHandle.of(launcherPid)
            .filter(ProcessHandle::isAlive)
            .filter(h -> launcherStartMillis == 0 || startMillis(h) == launcherStartMillis)
            .isPresent();
    }
}
