package org.hympj.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;

/**
 * {@code bin/hympj-bench NAME [options] [sizes...]}: launches a registered benchmark
 * ({@link Benchmarks}) through {@link Launcher#run}, output captured, with a timeout, and
 * prints its CSV rows ({@code hympj,test,variant,size,rep,value,unit}) on stdout. Other
 * output goes to stderr. Exit code 0, or non-zero when a launch failed or printed no rows.
 */
public final class Bench {
    static final String USAGE = String.join("\n",
        "usage: hympj-bench NAME [options] [sizes...]      (barrier: sizes are rank counts, one launch each)",
        "       hympj-bench --list",
        "       " + AeronPingPong.USAGE.substring("usage: ".length()),
        "       " + RingPingPong.USAGE.substring("usage: ".length()),
        "       " + AeronLoopPingPong.USAGE.substring("usage: ".length()),
        "       " + TcpLoopBandwidth.USAGE.substring("usage: ".length()),
        "       hympj-bench soak --minutes M [--np N] [--iterations I] [--kill-fraction F] [--seed S] [--local-hosts K [--net-driver W]]",
        "                 (reliability soak: jobs with random sizes, some with a rank killed; docs/PERFORMANCE.md)",
        "options:",
        "  --reps R              run R times (rep column 1..R); default 1. Each run is one launch",
        "                        per buffer kind (fresh JVMs for each variant)",
        "  --first-rep K         number the first launch's rows K (default 1)",
        BenchOptions.OPTIONS_HELP,
        "  --jvm-arg -Dhympj.perf.prepass=true   untimed JIT pre-pass of the first size (off by default)",
        "prints CSV rows: system,test,variant,size,rep,value,unit (from rank 0)");

    /** A launch that failed: its message says why, with the ranks' output. */
    public static final class BenchFailure extends Exception {
        private static final long serialVersionUID = 1L;
        private final int exitCode;

        BenchFailure(String message, int exitCode) {
            super(message);
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    private Bench() {
    }

    public static void main(String[] argv) {
        int code;
        try {
            code = cli(argv);
        } catch (IllegalArgumentException e) {
            System.err.println("hympj-bench: " + e.getMessage());
            System.err.println(USAGE);
            code = 2;
        }
        System.exit(code);
    }

    static int cli(String[] argv) {
        if (argv.length > 0 && argv[0].equals("soak")) {
            try {
                return org.hympj.perf.soak.Soak.run(java.util.Arrays.copyOfRange(argv, 1, argv.length), System.out);
            } catch (IOException e) {
                System.err.println("hympj-bench soak: " + e.getMessage());
                return 1;
            }
        }
        if (argv.length > 0 && argv[0].equals("ring-pingpong")) {
            // two JVMs and an Agrona ring each way: the floor of a two-copy protocol
            return RingPingPong.run(java.util.Arrays.copyOfRange(argv, 1, argv.length), System.out);
        }
        if (argv.length > 0 && argv[0].equals("aeron-loop")) {
            // a UDP ping-pong written on Aeron directly: the network transport's floor here
            return AeronLoopPingPong.run(java.util.Arrays.copyOfRange(argv, 1, argv.length), System.out);
        }
        if (argv.length > 0 && argv[0].equals("tcp-loop-bw")) {
            // one Java TCP stream on loopback: what a socket transport could carry here
            return TcpLoopBandwidth.run(java.util.Arrays.copyOfRange(argv, 1, argv.length), System.out);
        }
        if (argv.length > 0 && argv[0].equals("aeron-pingpong")) {
            // Aeron's own UDP ping-pong samples: the network transport's reference
            return AeronPingPong.run(java.util.Arrays.copyOfRange(argv, 1, argv.length), System.out);
        }
        Integer driver = org.hympj.perf.fabric.FabricBench.run(argv); // fabric drivers: their own options
        if (driver != null) {
            return driver;
        }
        BenchOptions o = new BenchOptions();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println(USAGE);
                list(System.out);
                return 0;
            }
            if (a.equals("--list")) {
                list(System.out);
                return 0;
            }
            if (a.equals("--reps")) {
                o.reps = BenchOptions.parseInt(a, BenchOptions.value(argv, ++i, a));
                continue;
            }
            if (a.equals("--first-rep")) {
                o.firstRep = BenchOptions.parseInt(a, BenchOptions.value(argv, ++i, a));
                continue;
            }
            if (a.startsWith("-")) {
                int last = o.option(argv, i);
                if (last < 0) {
                    throw new IllegalArgumentException("unknown option " + a);
                }
                i = last;
                continue;
            }
            if (o.name == null) {
                o.name = a;
            } else {
                o.size(a);
            }
        }
        if (o.name == null) {
            throw new IllegalArgumentException("no benchmark name given");
        }
        if (o.reps < 1) {
            throw new IllegalArgumentException("--reps must be >= 1");
        }
        def(o);
        algorithms(o); // fails early on a bad --algo
        try {
            for (int r = 0; r < o.reps; r++) {
                run(o, o.firstRep + r, System.out, System.err);
            }
            return 0;
        } catch (BenchFailure e) {
            System.err.println("hympj-bench: " + e.getMessage());
            return e.exitCode() == 0 ? 1 : e.exitCode();
        }
    }

    static void list(PrintStream out) {
        out.println("benchmarks:");
        for (Map.Entry<String, BenchDef> e : Benchmarks.all().entrySet()) {
            BenchDef d = e.getValue();
            out.printf("  %-12s %s; np %d; default sizes %s%n", d.name(), d.description(), d.np(), d.defaultSizes());
        }
        org.hympj.perf.fabric.FabricBench.DRIVERS.forEach((n, d) -> out.printf("  %-12s %s%n", n, d));
    }

    /** The benchmark named by the options, or an IllegalArgumentException listing the known ones. */
    public static BenchDef def(BenchOptions o) {
        BenchDef def = Benchmarks.get(o.name);
        if (def == null) {
            throw new IllegalArgumentException("unknown benchmark '" + o.name + "'; known: " + Benchmarks.all().keySet());
        }
        return def;
    }

    /**
     * The sizes a launch uses: the options' or the benchmark's defaults. For a benchmark whose
     * sizes are rank counts (barrier), {@code --np N} without sizes means the one size N.
     */
    public static List<Long> sizes(BenchOptions o) {
        if (o.sizes.isEmpty() && def(o).sizeIsRanks() && o.np > 0) {
            return List.of((long) o.np);
        }
        return o.sizes.isEmpty() ? def(o).defaultSizes() : o.sizes;
    }

    /**
     * The {@code --algo} values a run covers: none (a list of one null) for benchmarks without
     * algorithms, all of them for no --algo or "all", else the one given.
     */
    public static List<String> algorithms(BenchOptions o) {
        BenchDef def = def(o);
        List<String> out = new ArrayList<>();
        if (def.algorithms().isEmpty()) {
            if (o.algo != null) {
                throw new IllegalArgumentException("--algo applies only to " + withAlgorithms());
            }
            out.add(null);
        } else if (o.algo == null || o.algo.equals("all")) {
            out.addAll(def.algorithms());
        } else {
            for (String a : o.algo.split(",")) {
                String one = a.trim();
                if (!def.algorithms().contains(one) && !one.equals("default") && !extraAlgorithm(def, one)) {
                    throw new IllegalArgumentException("--algo must be one of " + def.algorithms()
                        + ", default or all (or a comma list); was " + o.algo);
                }
                out.add(one);
            }
        }
        return out;
    }

    /**
     * scale-les3 also takes bl+oh (a policy beyond the default columns) and rndv (S3's
     * eager/rendezvous baseline: no scheduler, the rendezvous handshake paid on the model).
     */
    private static boolean extraAlgorithm(BenchDef def, String algo) {
        return "sched".equals(def.algorithmOption()) && (algo.equals("bl+oh") || algo.equals("rndv"));
    }

    private static List<String> withAlgorithms() {
        List<String> n = new ArrayList<>();
        for (BenchDef d : Benchmarks.all().values()) {
            if (!d.algorithms().isEmpty()) {
                n.add(d.name());
            }
        }
        return n;
    }

    /**
     * True when one launch runs every RSched policy of the options, each on a communicator with
     * the {@code hympj.sched} hint (scale-les3, unless {@code --launch-per-policy}).
     */
    static boolean policiesByHint(BenchOptions o) {
        return "sched".equals(def(o).algorithmOption()) && !o.launchPerPolicy;
    }

    /** The buffer kinds a run covers: the options' or the benchmark's default. */
    public static List<BufferKind> kinds(BenchOptions o) {
        return BufferKind.parse(o.buffers == null ? def(o).defaultBuffers() : o.buffers);
    }

    /** The launch spec of one launch (rep number {@code rep}) covering buffer kinds {@code kinds}. */
    public static LaunchSpec spec(BenchOptions o, int rep, List<BufferKind> kinds) {
        BenchDef def = def(o);
        List<Long> sizes = sizes(o);
        Duration timeout = o.timeout != null ? o.timeout : def.defaultTimeout();
        LaunchSpec spec = new LaunchSpec()
            .np(o.np > 0 ? o.np : def.np())
            .main(def.rankClass())
            .args(def.rankArgs(rep, kinds, sizes, o.algo))
            .timeout(timeout)
            .output(LaunchSpec.Output.CAPTURE);
        if (o.segmentSize != null) {
            spec.segmentBytes(o.segmentSize);
        } else {
            long need = def.segmentBytes(sizes, kinds);
            if (need + (1 << 20) > JobConfig.DEFAULT_SEGMENT_BYTES) {
                spec.segmentBytes(((need >> 20) + 4) << 20);
            }
        }
        if (o.bindTo != null) {
            spec.bindTo(o.bindTo);
        }
        if (o.jit != null) {
            spec.jit(o.jit);
        }
        if (o.warmUp != null) {
            spec.warmUp(o.warmUp);
        }
        if (o.idle != null) {
            spec.idle(o.idle);
        }
        if (o.eagerLimit != null) {
            spec.eagerLimit(o.eagerLimit);
        }
        if (o.inlineLimit != null) {
            spec.inlineLimit(o.inlineLimit);
        }
        if (o.bulkSize != null) {
            spec.bulkBytes(o.bulkSize);
        }
        if (o.ringSize != null) {
            spec.ringBytes(o.ringSize);
        }
        if (o.subcluster != null) {
            spec.subcluster(o.subcluster);
        }
        if (o.model != null) {
            spec.model(o.model);
        } else if (def.defaultModel() != null) {
            spec.model(def.defaultModel());
        }
        if (policiesByHint(o)) {
            // every policy in this one job, each on a communicator with the hympj.sched hint
            spec.jvmArg("-Dhympj.bench.policies=" + String.join(",", algorithms(o)));
        } else if (o.algo != null && !o.algo.equals("default") && def.algorithmOption() != null) {
            if (def.algorithmOption().equals("sched")) {
                spec.sched(o.algo);
            } else {
                spec.p2p(o.algo);
            }
        }
        if (o.dilation != null) {
            spec.timeDilation(o.dilation);
        }
        if (o.clock != null) {
            spec.clock(o.clock);
        }
        // the benchmarks time communication: on virtual time their own loop's CPU time does not
        // count (as in the simulator) unless --compute-scale says so
        spec.computeScale(o.computeScale != null ? o.computeScale : 0);
        if (o.schedBarrier) {
            spec.schedBarrier(true);
            spec.jvmArg("-Dhympj.bench.sync=engine");
        }
        if (o.pattern != null) {
            spec.jvmArg("-Dhympj.bench.patterns=" + o.pattern);
        }
        if (o.preposted != null) {
            spec.jvmArg("-Dhympj.bench.preposted=" + o.preposted);
        }
        if (o.iters != null) {
            spec.jvmArg("-Dhympj.bench.iters=" + o.iters);
        }
        if (o.warmup != null) {
            spec.jvmArg("-Dhympj.bench.warmup=" + o.warmup);
        }
        if (o.localHosts != null) {
            spec.localHosts(o.localHosts);
        }
        if (o.coll != null) {
            spec.coll(o.coll);
        }
        if (o.netDriver != null) {
            spec.netDriver(o.netDriver);
        }
        if (o.driverIdle != null) {
            spec.driverIdle(o.driverIdle);
        }
        if (!"lazy".equals(o.loopCompile)) {
            for (String j : timedLoopFlags(def.timedLoops())) {
                spec.jvmArg(j);
            }
        }
        for (String j : o.jvmArgs) {
            spec.jvmArg(j);
        }
        return spec;
    }

    /**
     * HotSpot flags that compile {@code methods} (patterns {@code package/Class.method}) within a
     * benchmark's warm-up batch ({@link BenchDef#withTimedLoops}): compile thresholds scaled to 1 %
     * (an on-stack compile after 600 back-edges, C2's after 400 more: about 1,000 of the 8-byte
     * size's 5,000 warm-up iterations) and the compile awaited by the thread that asked for it, so
     * that it ends in the warm-up batch instead of landing in a timed one (a background C2 compile
     * takes 10–30 ms on two busy cores, longer than a 2–6 ms batch; docs/PERFORMANCE.md).
     */
    static List<String> timedLoopFlags(List<String> methods) {
        List<String> flags = new ArrayList<>();
        if (methods.isEmpty()) {
            return flags;
        }
        flags.add("-XX:CompileCommand=quiet");
        for (String m : methods) {
            flags.add("-XX:CompileCommand=CompileThresholdScaling," + m + ",0.01");
            flags.add("-XX:CompileCommand=BackgroundCompilation," + m + ",false");
        }
        return flags;
    }

    /**
     * One repetition: one launch per buffer kind, so that each variant starts in fresh JVMs
     * (as each anchor run starts fresh processes) and no variant inherits another's JIT
     * warm-up. Returns the rows of all launches.
     */
    public static List<String> run(BenchOptions o, int rep, PrintStream rows, PrintStream diag) throws BenchFailure {
        List<String> out = new ArrayList<>();
        for (BufferKind k : kinds(o)) {
            out.addAll(run(o, rep, k, rows, diag));
        }
        return out;
    }

    /**
     * One launch for one buffer kind: prints its rows on {@code rows} as they are parsed, other
     * output lines on {@code diag} (all of it when the launch failed or with --verbose), and
     * returns the rows.
     */
    public static List<String> run(BenchOptions o, int rep, BufferKind kind, PrintStream rows, PrintStream diag)
            throws BenchFailure {
        BenchDef def = def(o);
        List<String> algos = algorithms(o);
        if (def.sizeIsRanks() || algos.size() > 1 && !policiesByHint(o)) {
            // a sweep: one launch per algorithm and, where sizes are rank counts, per rank count
            List<String> out = new ArrayList<>();
            for (String algo : algos) {
                for (long n : def.sizeIsRanks() ? sizes(o) : List.of(-1L)) {
                    BenchOptions one = o.copy();
                    one.algo = algo;
                    if (n > 0) {
                        one.np = Math.toIntExact(n);
                        one.sizes = new ArrayList<>(List.of(n));
                    }
                    out.addAll(launch(one, rep, kind, rows, diag));
                }
            }
            return out;
        }
        return launch(o, rep, kind, rows, diag);
    }

    private static List<String> launch(BenchOptions o, int rep, BufferKind kind, PrintStream rows, PrintStream diag)
            throws BenchFailure {
        LaunchSpec spec = spec(o, rep, List.of(kind));
        JobResult r;
        try (Quiet lock = Quiet.lock(o.lockWait, diag)) {
            if ((o.quiet != null && o.quiet > 0) || o.idles != null) {
                Quiet.Idle idle = Quiet.waitForIdle(o.quiet == null ? 0 : o.quiet, o.quietWait, diag);
                if (o.idles != null) {
                    o.idles.add(idle);
                }
            }
            long t0 = System.nanoTime();
            r = Launcher.run(spec);
            long wall = System.nanoTime() - t0;
            if (o.idles != null && !o.idles.isEmpty()) { // the mode may have changed during the launch
                int last = o.idles.size() - 1;
                o.idles.set(last, o.idles.get(last).after(CoreToCore.oneWayNanos()));
            }
            diag.println(Quiet.wallTime(wall, lock.waitedSeconds(), Quiet.loadAverage()));
        } catch (IOException e) {
            throw new BenchFailure(o.name + ": launch failed: " + e.getMessage(), 1);
        }
        List<String> out = new ArrayList<>();
        String prefix = Rows.SYSTEM + ",";
        for (String line : r.output(0).split("\n")) {
            if (line.startsWith(prefix)) {
                out.add(line);
                rows.println(line);
            }
        }
        rows.flush();
        if (!r.ok()) {
            diag.print(r.allOutput());
            throw new BenchFailure(o.name + " (" + kind.label() + (o.algo != null ? ", " + o.algo : "") + ", np "
                + spec.np() + ", rep " + rep + "): " + r.message(), r.exitCode());
        }
        if (o.verbose) {
            diag.print(r.allOutput());
        } else {
            // rank 0's remarks (lines starting with '#') and anything any rank printed besides rows
            for (String line : r.allOutput().split("\n")) {
                if (!line.isEmpty() && !line.startsWith("[0] " + prefix)) {
                    diag.println(line);
                }
            }
        }
        if (out.isEmpty()) {
            throw new BenchFailure(o.name + " (" + kind.label() + ", rep " + rep + "): the job succeeded but printed no rows", 1);
        }
        return out;
    }
}
