package org.hympj.shm.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hympj.shm.job.JobConfig;

/** What to launch: N ranks of a main class, with the job's options. Mutable builder style. */
public final class LaunchSpec {
    /** How rank output is handled. */
    public enum Output {
        /** Ranks write straight to the launcher's stdout/stderr. */
        INHERIT,
        /** Each line is prefixed with "[rank] " and written to the launcher's stdout/stderr. */
        TAG,
        /** Kept in the {@link JobResult} (stdout and stderr merged per rank); nothing printed. */
        CAPTURE,
        /** Kept in the result and also printed with "[rank] " prefixes. */
        CAPTURE_AND_TAG
    }

    int np = 1;
    String mainClass;
    List<String> args = new ArrayList<>();
    String classpath = System.getProperty("java.class.path");
    Duration timeout = Duration.ZERO;
    Output output = Output.INHERIT;
    long segmentBytes = JobConfig.DEFAULT_SEGMENT_BYTES;
    /** 0 = the default for the job's size ({@link JobConfig#defaultRingBytes}). */
    int ringBytes = 0;
    /** 0 = the default for the job's size ({@link JobConfig#defaultBulkBytes}). */
    int bulkBytes = 0;
    /** -1 = the default for the ring size ({@link JobConfig#defaultInlineLimit}). */
    int inlineLimit = -1;
    /** -1 = the default for the bulk size ({@link JobConfig#defaultEagerLimit}). */
    int eagerLimit = -1;
    String model = "none";
    int subcluster = 0;
    String idle = "auto";
    String jit = "auto";
    String warmUp = "on";
    String bindTo = "none";
    /**
     * A host agent's ranks bind to CPU (job rank mod CPUs) rather than (rank on the host mod CPUs):
     * true for --local-hosts, whose groups share one machine (else every group's first rank took CPU 0).
     */
    boolean bindByJobRank;

    /**
     * True in a host agent of {@code --local-hosts}: every group's ranks run on this one machine
     * (the launcher says so by {@link #bindByJobRank}, set exactly then).
     */
    boolean groupsOnOneMachine() {
        return bindByJobRank;
    }
    String coll = "";
    String route = "auto";
    String routeTable = "";
    long stripe = -1;
    boolean routeStats;
    String p2p = "twosided";
    String sched = "none";
    boolean schedBarrier;
    double dilation = 0;
    /** virtual (default) or wall. */
    String clock = "virtual";
    /** Virtual time: the weight of the CPU time a rank uses between library calls. */
    double computeScale = 1.0;
    boolean trace;
    /** Where the --trace journal goes; null = {@link #DEFAULT_TRACE_DIR} in the working directory. */
    java.nio.file.Path traceDir;
    List<String> jvmArgs = new ArrayList<>();
    Map<String, String> env = new LinkedHashMap<>();
    Duration abortGrace = Duration.ofSeconds(2);
    /** --local-hosts K: the ranks split into K groups on this machine, as if on K hosts (0 = off). */
    int localHosts;
    /** --hostfile: one host per line, {@code HOST slots=N} (null = this machine only). */
    java.nio.file.Path hostfile;
    /** --launch-agent: the command that runs a host's agent on that host (ssh by default). */
    String launchAgent = "ssh";
    /** --iface: the address every host's network endpoint binds (local hosts: 127.0.0.1; hostfile: the host's name). */
    String iface;
    /** --net-port: the UDP port of every host's endpoint (0 = a free one). */
    int netPort;
    /** --net-mtu: the UDP payload of one network frame; 0: the default (inline limit's frame, 64 KiB over loopback). */
    int netMtu;
    /** --net-term-size: Aeron term length of each connection between hosts. */
    int netTermBytes = 1 << 20;
    /** Socket buffers of the network endpoints. */
    int netSocketBytes = 2 << 20;
    /** --net-timeout: a peer silent this long is lost (ms). */
    long netLivenessMillis = 10_000;
    /**
     * --net-driver-idle: how each host's media driver idles (as --idle). By default it yields at once
     * and for a long while before it parks: a parked driver adds its wake-up to every hop (8-byte
     * ping-pong between 2 local hosts on the loaded 2-core machine: 463 µs parking after 1,000
     * yields, 26.9 µs yielding), a spinning one keeps the core from the rank or driver that has the
     * next step (quiet machine: 114 µs with 100 spins first, 10.9 µs without), and it parks only when
     * the job has been quiet for tens of milliseconds.
     */
    public static final String DEFAULT_DRIVER_IDLE = "backoff:0:100000:10000:1000000";
    String driverIdle = DEFAULT_DRIVER_IDLE;
    /**
     * --net-driver rank: each host's media driver runs in the host's first rank, which does its
     * work in its progress loop (a guard thread does it while the rank is away), instead of in a
     * thread of the host agent.
     */
    boolean driverInRank = true;
    /** Environment variables (names) the ranks of every host get from the launcher (-x, as Open MPI's). */
    List<String> exported = new ArrayList<>();

    /** The trace directory of {@code trace(true)} without a directory, relative to the working directory. */
    public static final String DEFAULT_TRACE_DIR = "hympj-trace";

    public static LaunchSpec of(int np, Class<?> main, String... args) {
        return new LaunchSpec().np(np).main(main.getName()).args(args);
    }

    public LaunchSpec np(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("np must be >= 1, was " + n);
        }
        this.np = n;
        return this;
    }

    public LaunchSpec main(String className) {
        this.mainClass = className;
        return this;
    }

    public LaunchSpec args(String... a) {
        this.args = new ArrayList<>(Arrays.asList(a));
        return this;
    }

    public LaunchSpec args(List<String> a) {
        this.args = new ArrayList<>(a);
        return this;
    }

    public LaunchSpec classpath(String cp) {
        this.classpath = cp;
        return this;
    }

    /** Kills the job after {@code t}; {@link Duration#ZERO} = no timeout. */
    public LaunchSpec timeout(Duration t) {
        if (t == null || t.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive (or Duration.ZERO for none), was " + t);
        }
        this.timeout = t;
        return this;
    }

    public LaunchSpec output(Output o) {
        this.output = o;
        return this;
    }

    public LaunchSpec segmentBytes(long b) {
        this.segmentBytes = b;
        return this;
    }

    public LaunchSpec ringBytes(int b) {
        this.ringBytes = b;
        return this;
    }

    public LaunchSpec bulkBytes(int b) {
        this.bulkBytes = b;
        return this;
    }

    public LaunchSpec inlineLimit(int b) {
        this.inlineLimit = b;
        return this;
    }

    public LaunchSpec eagerLimit(int b) {
        this.eagerLimit = b;
        return this;
    }

    public LaunchSpec model(String m) {
        this.model = m;
        return this;
    }

    public LaunchSpec subcluster(int s) {
        this.subcluster = s;
        return this;
    }

    public LaunchSpec idle(String i) {
        Idle.check("--idle", i);
        this.idle = i;
        return this;
    }

    /** The idle policies of --idle and --net-driver-idle. */
    static final class Idle {
        private Idle() {
        }

        static void check(String option, String i) {
            if (i.startsWith("backoff:") || i.startsWith("plain:")) {
                org.hympj.shm.pml.Idler.backoffParameters(i); // refused here, before any rank starts
            } else if (!java.util.List.of("auto", "spin", "yield", "backoff").contains(i)) {
                throw new IllegalArgumentException(option + " must be auto, spin, yield, backoff, "
                    + "backoff:SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS or plain:SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS, was '"
                    + i + "'");
            }
        }
    }

    /**
     * The ranks' JIT: "c1" (client compiler only), "tiered" (the JVM's default, C1 then C2),
     * "steady" (tiered without speculative traps, the warm-up waiting longer for the compilers: for
     * long runs of ranks that share cores) or "auto" (c1 when the ranks leave no core free for
     * compiler threads, else tiered: {@code Launcher.jitFlags}).
     */
    public LaunchSpec jit(String j) {
        this.jit = j;
        return this;
    }

    /**
     * Whether the ranks run their hot paths with their ring neighbours until the JIT has compiled them,
     * before the program starts (org.hympj.shm.pml.WarmUp): "on" (the default; native jobs on the
     * two-sided engine, untraced, only) or "off".
     *
     * @throws IllegalArgumentException for another value (nothing changed)
     */
    public LaunchSpec warmUp(String w) {
        if (!"on".equals(w) && !"off".equals(w)) {
            throw new IllegalArgumentException("--warm-up must be on or off, was '" + w + "'");
        }
        this.warmUp = w;
        return this;
    }

    /**
     * Where the ranks may run: "none" (anywhere, the default) or "core" (rank r on the r-th CPU
     * this launcher may use, modulo their number, as Open MPI's --bind-to core; by util-linux's
     * taskset).
     */
    public LaunchSpec bindTo(String b) {
        if (!b.equals("none") && !b.equals("core")) {
            throw new IllegalArgumentException("--bind-to must be none or core, was '" + b + "'");
        }
        this.bindTo = b;
        return this;
    }

    /** Collective algorithm choices, e.g. "barrier=ring" (rd = recursive doubling, dissemination). */
    public LaunchSpec coll(String c) {
        this.coll = c;
        return this;
    }

    /** Route policy: auto, tca or ib. */
    public LaunchSpec route(String r) {
        this.route = r;
        return this;
    }

    /** Route table preset or file for the hybrid router ("" = default). */
    public LaunchSpec routeTable(String t) {
        this.routeTable = t;
        return this;
    }

    /** Striping threshold in bytes (0 = off, -1 = the table's). */
    public LaunchSpec stripe(long bytes) {
        this.stripe = bytes;
        return this;
    }

    /** RSched policy for persistent TCA sets (none, rr:1|2|4, bl:1|2|4, bl+, bl+oh). */
    public LaunchSpec sched(String policy) {
        this.sched = policy;
        return this;
    }

    /** S3's pseudo-collective mode: a barrier at the start of Startall and at the end of Waitall. */
    public LaunchSpec schedBarrier(boolean on) {
        this.schedBarrier = on;
        return this;
    }

    /** Point-to-point engine: twosided (default) or onesided (S2). */
    public LaunchSpec p2p(String engine) {
        this.p2p = engine;
        return this;
    }

    /** Print every rank's route statistics at finalize. */
    public LaunchSpec routeStats(boolean on) {
        this.routeStats = on;
        return this;
    }

    /**
     * The clock under a model: {@code virtual} (default: each rank keeps modelled time, computed
     * from the model and its own CPU time, never waiting in real time) or {@code wall} (modelled
     * durations waited out in real time, stretched by the time dilation).
     */
    public LaunchSpec clock(String c) {
        this.clock = c;
        return this;
    }

    /** Virtual time: CPU time between library calls counts {@code f} times (0: communication only). */
    public LaunchSpec computeScale(double f) {
        this.computeScale = f;
        return this;
    }

    /** Time dilation of the model (0 = default from ranks and cores). */
    public LaunchSpec timeDilation(double d) {
        this.dilation = d;
        return this;
    }

    /**
     * Journal every rank's events (--trace): rank r appends to a Chronicle Queue in
     * {@code <trace dir>/rank-<r>/}, by default {@value #DEFAULT_TRACE_DIR} in the working
     * directory (see {@link #trace(java.nio.file.Path)}). Costs about a second at each rank's start.
     */
    public LaunchSpec trace(boolean on) {
        this.trace = on;
        return this;
    }

    /**
     * Journal every rank's events into {@code dir} (created if missing): {@code dir/rank-<r>/}
     * per rank. The journals are written there directly, so they outlive the job (whose
     * directory in /dev/shm is removed) and a crash; the {@code rank-*} journals of an earlier
     * job in {@code dir} are replaced.
     */
    public LaunchSpec trace(java.nio.file.Path dir) {
        this.trace = dir != null;
        this.traceDir = dir;
        return this;
    }

    /** The trace directory a job of this spec writes (absolute), or null when not tracing. */
    public java.nio.file.Path traceDir() {
        if (!trace) {
            return null;
        }
        return (traceDir != null ? traceDir : java.nio.file.Paths.get(DEFAULT_TRACE_DIR)).toAbsolutePath().normalize();
    }

    public LaunchSpec jvmArg(String a) {
        this.jvmArgs.add(a);
        return this;
    }

    /** The extra JVM arguments every rank gets, in order (a read-only view). */
    public List<String> jvmArgs() {
        return java.util.Collections.unmodifiableList(jvmArgs);
    }

    public LaunchSpec env(String k, String v) {
        this.env.put(k, v);
        return this;
    }

    public LaunchSpec abortGrace(Duration d) {
        this.abortGrace = d;
        return this;
    }

    public int np() {
        return np;
    }

    /**
     * Splits the ranks into {@code k} groups on this machine, as if on {@code k} hosts: each group
     * its own job directory and media driver; messages between groups only over the network
     * transport on the loopback interface (for tests and demos). 0 or 1: one host.
     */
    public LaunchSpec localHosts(int k) {
        if (k < 0) {
            throw new IllegalArgumentException("--local-hosts must be >= 1, was " + k);
        }
        this.localHosts = k;
        return this;
    }

    /** Runs the ranks on the hosts of {@code file} (lines {@code HOST slots=N}), through the launch agent. */
    public LaunchSpec hostfile(java.nio.file.Path file) {
        this.hostfile = file;
        return this;
    }

    /** The command that starts a host's agent on that host: {@code CMD HOST java …} (default ssh). */
    public LaunchSpec launchAgent(String cmd) {
        if (cmd == null || cmd.isBlank()) {
            throw new IllegalArgumentException("--launch-agent needs a command");
        }
        this.launchAgent = cmd;
        return this;
    }

    /** The address every host's network endpoint binds (never every interface). */
    public LaunchSpec iface(String address) {
        this.iface = address;
        return this;
    }

    /** The UDP port of every host's network endpoint (0 = a free one). */
    public LaunchSpec netPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--net-port must be 0..65535, was " + port);
        }
        this.netPort = port;
        return this;
    }

    /**
     * The UDP payload of one network frame between hosts (Aeron's MTU): a multiple of 32 in
     * 1408..65504. A message that does not fit one frame goes by rendezvous in frames of this size.
     *
     * @throws IllegalArgumentException naming the range when {@code b} is outside it (nothing changed)
     */
    public LaunchSpec netMtu(int b) {
        org.hympj.net.NetSettings.checkMtu("--net-mtu", b);
        this.netMtu = b;
        return this;
    }

    /** Aeron term length of each connection between hosts (a power of two, 64 KiB..1 GiB). */
    public LaunchSpec netTermBytes(int b) {
        this.netTermBytes = b;
        return this;
    }

    /** How long a silent peer on another host stays connected (its ranks then fail, naming it). */
    public LaunchSpec netTimeout(Duration d) {
        this.netLivenessMillis = d.toMillis();
        return this;
    }

    /** How each host's media driver idles: as --idle (spin, yield, backoff, backoff:…). */
    public LaunchSpec driverIdle(String i) {
        Idle.check("--net-driver-idle", i);
        this.driverIdle = i;
        return this;
    }

    /** Where each host's media driver runs: {@code agent} (a thread of the host agent) or {@code rank} (the host's first rank). */
    public LaunchSpec netDriver(String where) {
        switch (where) {
            case "agent":
                driverInRank = false;
                break;
            case "rank":
                driverInRank = true;
                break;
            default:
                throw new IllegalArgumentException("--net-driver must be agent or rank, was '" + where + "'");
        }
        return this;
    }

    /** Passes the launcher's value of environment variable {@code name} to the ranks on every host. */
    public LaunchSpec export(String name) {
        this.exported.add(name);
        return this;
    }

    /** True when the job runs on several hosts (--local-hosts above 1, or --hostfile). */
    boolean multiHost() {
        return localHosts > 1 || hostfile != null;
    }

    /**
     * What a host agent needs of this spec to start its ranks (class path, main class and
     * arguments, JVM arguments, environment, JIT), as one line of text.
     */
    String rankText() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("np", Integer.toString(np));
        p.setProperty("main", mainClass);
        p.setProperty("classpath", classpath);
        p.setProperty("jit", jit);
        p.setProperty("bind", bindTo);
        // --local-hosts: every group's agent shares this machine's CPUs, so ranks bind by their job rank
        p.setProperty("bindByJobRank", Boolean.toString(hostfile == null && localHosts > 1));
        p.setProperty("output", output.name());
        p.setProperty("warmup", warmUp);
        list(p, "arg", args);
        list(p, "jvm", jvmArgs);
        Map<String, String> e = new LinkedHashMap<>();
        for (String name : exported) {
            String v = System.getenv(name);
            if (v != null) {
                e.put(name, v);
            }
        }
        e.putAll(env);
        list(p, "env", new ArrayList<>(e.keySet()));
        list(p, "val", new ArrayList<>(e.values()));
        java.io.StringWriter w = new java.io.StringWriter();
        try {
            p.store(w, null);
        } catch (java.io.IOException x) {
            throw new IllegalStateException(x);
        }
        return java.util.Base64.getEncoder().encodeToString(w.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The spec {@link #rankText()} wrote. */
    static LaunchSpec ofRankText(String text) {
        java.util.Properties p = new java.util.Properties();
        try {
            p.load(new java.io.StringReader(new String(java.util.Base64.getDecoder().decode(text.trim()),
                java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.io.IOException x) {
            throw new IllegalStateException(x);
        }
        LaunchSpec s = new LaunchSpec().np(Integer.parseInt(p.getProperty("np"))).main(p.getProperty("main"))
            .classpath(p.getProperty("classpath")).jit(p.getProperty("jit")).bindTo(p.getProperty("bind"))
            .output(Output.valueOf(p.getProperty("output"))).args(list(p, "arg"))
            .warmUp(p.getProperty("warmup", "on"));
        s.bindByJobRank = Boolean.parseBoolean(p.getProperty("bindByJobRank", "false"));
        s.jvmArgs = list(p, "jvm");
        List<String> names = list(p, "env");
        List<String> values = list(p, "val");
        for (int i = 0; i < names.size(); i++) {
            s.env.put(names.get(i), values.get(i));
        }
        return s;
    }

    private static void list(java.util.Properties p, String key, List<String> values) {
        p.setProperty(key + ".n", Integer.toString(values.size()));
        for (int i = 0; i < values.size(); i++) {
            p.setProperty(key + "." + i, values.get(i));
        }
    }

    private static List<String> list(java.util.Properties p, String key) {
        List<String> out = new ArrayList<>();
        int n = Integer.parseInt(p.getProperty(key + ".n", "0"));
        for (int i = 0; i < n; i++) {
            out.add(p.getProperty(key + "." + i));
        }
        return out;
    }
}
