package org.hympj.perf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Options of one benchmark launch; shared by {@link Bench} and {@link Compare}. */
public final class BenchOptions {
    public String name;
    public int np;
    public int reps = 1;
    public int firstRep = 1;
    public String buffers;
    public Duration timeout;
    public String idle;
    /** mpjrun --jit (null: the launcher's default, auto). */
    public String jit;
    /**
     * {@code --loop-compile warm-up|lazy}: whether the rank program's timed loops
     * ({@link BenchDef#timedLoops}) are compiled during their warm-up batch (null: warm-up) or when
     * HotSpot would by itself.
     */
    public String loopCompile;
    /** mpjrun --warm-up (null: the launcher's default, on). */
    public String warmUp;
    /** mpjrun --bind-to (null: the launcher's default, none). */
    public String bindTo;
    public Integer eagerLimit;
    public Integer inlineLimit;
    public Integer bulkSize;
    public Long segmentSize;
    public Integer ringSize;
    public Integer subcluster;
    public String model;
    public List<String> jvmArgs = new ArrayList<>();
    public List<Long> sizes = new ArrayList<>();
    public boolean verbose;
    /** barrier: the algorithm (dissemination, rd, ring, default = the job's barrier(), all); null = all. */
    public String algo;
    /** Wait before each launch until the CPUs are this idle (0..1; 0 = do not wait); null = the tool's default. */
    public Double quiet;
    /** How long to wait for that at most (then launch anyway, and say so). */
    public Duration quietWait = Duration.ofSeconds(60);
    /** How long to wait at most for another launch holding {@link Quiet#LOCK}. */
    public Duration lockWait = Duration.ofSeconds(1800);
    /** If set, every launch adds what {@link Quiet#waitForIdle} found (shared by copies). */
    public List<Quiet.Idle> idles;
    /** {@code --time-dilation D} for the launcher (null: its default). */
    public Double dilation;
    /** {@code --clock virtual|wall} for the launcher (null: its default, virtual). */
    public String clock;
    /** {@code --compute-scale F} for the launcher (null: its default, 1). */
    public Double computeScale;
    /** {@code --sched-barrier}: the engine's pseudo-collective barriers (scale-les3 then times them too). */
    public boolean schedBarrier;
    /** {@code --local-hosts K}: the ranks on K local hosts, the network transport between them (null: one host). */
    public Integer localHosts;
    /** {@code --coll C}: the launcher's collective choices, e.g. allreduce=flat (null: its defaults). */
    public String coll;
    /** {@code --net-driver-idle P}: how each local host's media driver idles (null: the launcher's default). */
    public String driverIdle;
    /** {@code --net-driver agent|rank}: where each local host's media driver runs (null: the launcher's default). */
    public String netDriver;
    /**
     * {@code --launch-per-policy}: scale-les3 launches a job per policy with the job-wide {@code --sched}
     * (the cross-check); by default one job runs every policy, each on a communicator with the
     * {@code hympj.sched} hint.
     */
    public boolean launchPerPolicy;
    /** scale-les3: the patterns (ew,ns,nsew,diag,all); null: all five. */
    public String pattern;
    /** onesided: receives kept posted ahead (null: 0). */
    public Integer preposted;
    /** Timed iterations / warm-up iterations per size, for the benchmarks that take them (null: theirs). */
    public Integer iters;
    public Integer warmup;

    /** The help text of the options parsed by {@link #option}. */
    static final String OPTIONS_HELP = String.join("\n",
        "  --np N                ranks (default: what the benchmark needs)",
        "  --buffers KIND        heap | segment | both (default: both)",
        "  --timeout SEC         kill a launch after SEC seconds (default: per benchmark, 300)",
        "  --verbose             also echo every rank's other output lines to stderr",
        "  --algo ALGO           barrier: dissemination | rd | ring | shm | default (barrier()) | all (default: all);",
        "                        a comma list runs each (one launch each)",
        "  --sched P[,P...]      scale-les3: the RSched policies (none, rr:1|2|4, bl:1|2|4, bl+, bl+oh, or rndv:",
        "                        S3's eager/rendezvous baseline, RTS and CTS paid as control puts; default: rr:1",
        "                        rr:2 rr:4 bl:1 bl:2 bl:4 bl+ none), all in one launch, each on a communicator",
        "                        with the hympj.sched hint; --launch-per-policy: one launch each, with the",
        "                        launcher's --sched (the cross-check); --sched-barrier: the",
        "                        engine's pseudo-collective barriers, inside the timed window (default: the",
        "                        program's own barriers, outside it)",
        "  --pattern P[,P...]    scale-les3: ew | ns | nsew | diag | all (default: all five); sizes are k",
        "  --p2p E[,E...]        onesided: onesided | twosided (default: both, one launch each)",
        "  --preposted K         onesided: the receiver keeps K receives posted ahead (default 0)",
        "  --iters N  --warmup N timed / untimed iterations per size (scale-les3, onesided)",
        "  --clock virtual|wall  the launcher's clock under a model (default: virtual)",
        "  --compute-scale F     virtual clock: CPU time between library calls counts F times (default 0 here:",
        "                        the benchmarks time communication, as the simulator does; mpjrun's default is 1)",
        "  --time-dilation D     the launcher's time dilation under a model (--clock wall; default: its own)",
        "  --loop-compile warm-up|lazy  warm-up (default): the rank program's own timed loop (pingpong, persistent)",
        "                        is compiled by HotSpot during the warm-up batch before the timed ones; lazy: after",
        "                        60,000 back-edges, as HotSpot would (an 8-byte size's loop then runs interpreted)",
        "  --quiet F             before each launch wait until the CPUs are F idle (0..1, over 1 s; 0: do not",
        "                        wait; hympj-bench default 0, hympj-compare default 0.9), at most --quiet-wait SEC",
        "                        (default 60). Every launch holds the lock /tmp/hympj-bench.lock (waits for it at",
        "                        most --lock-wait SEC, default 1800), so benchmark launches never overlap.",
        "  mpjrun options, passed to the launcher:",
        "  --idle POLICY         auto | spin | yield | backoff",
        "  --jit auto|c1|tiered|steady  the ranks' JIT (mpjrun --jit)",
        "  --warm-up on|off      the ranks' JIT warm-up before the program (mpjrun --warm-up)",
        "  --bind-to none|core   one CPU per rank (mpjrun --bind-to)",
        "  --eager-limit BYTES   --inline-limit BYTES   --bulk-size BYTES   --segment-size BYTES   --ring-size BYTES",
        "                        (k/m/g suffixes)",
        "  --subcluster S        --model M              --jvm-arg ARG (repeatable)",
        "  --local-hosts K       the ranks on K local hosts (mpjrun --local-hosts: each its own job directory and",
        "                        media driver, the network transport on loopback between them)",
        "  --coll C              collective choices (mpjrun --coll), e.g. allreduce=flat or allreduce=hier",
        "  --net-driver-idle P   how each local host's media driver idles (mpjrun --net-driver-idle)",
        "  --net-driver WHERE    agent | rank: where each local host's media driver runs (mpjrun --net-driver)");

    /**
     * Parses the option at {@code argv[i]} if it is one of the shared ones; returns the index of
     * the last argument consumed, or -1 if {@code argv[i]} is not a shared option.
     */
    int option(String[] argv, int i) {
        String a = argv[i];
        switch (a) {
            case "--np":
            case "-np":
                np = parseInt(a, value(argv, i + 1, a));
                return i + 1;
            case "--buffers":
                buffers = value(argv, i + 1, a);
                BufferKind.parse(buffers);
                return i + 1;
            case "--timeout":
                timeout = Duration.ofSeconds(parseInt(a, value(argv, i + 1, a)));
                return i + 1;
            case "--verbose":
                verbose = true;
                return i;
            case "--algo":
            case "--sched":
            case "--p2p":
                algo = value(argv, i + 1, a);
                return i + 1;
            case "--sched-barrier":
                schedBarrier = true;
                return i;
            case "--launch-per-policy":
                launchPerPolicy = true;
                return i;
            case "--pattern":
                pattern = value(argv, i + 1, a);
                return i + 1;
            case "--preposted":
                preposted = parseInt(a, value(argv, i + 1, a));
                if (preposted < 0) {
                    throw new IllegalArgumentException("--preposted must be >= 0");
                }
                return i + 1;
            case "--iters":
                iters = parseInt(a, value(argv, i + 1, a));
                return i + 1;
            case "--warmup":
                warmup = parseInt(a, value(argv, i + 1, a));
                return i + 1;
            case "--time-dilation":
                try {
                    dilation = Double.parseDouble(value(argv, i + 1, a));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--time-dilation expects a number, got " + argv[i + 1]);
                }
                if (dilation < 1) {
                    throw new IllegalArgumentException("--time-dilation must be >= 1");
                }
                return i + 1;
            case "--clock":
                clock = value(argv, i + 1, a);
                return i + 1;
            case "--compute-scale":
                try {
                    computeScale = Double.parseDouble(value(argv, i + 1, a));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--compute-scale expects a number, got " + argv[i + 1]);
                }
                return i + 1;
            case "--quiet":
                quiet = Double.parseDouble(value(argv, i + 1, a));
                if (quiet < 0 || quiet > 1) {
                    throw new IllegalArgumentException("--quiet expects a fraction 0..1, got " + quiet);
                }
                return i + 1;
            case "--loop-compile":
                loopCompile = value(argv, i + 1, a);
                if (!loopCompile.equals("warm-up") && !loopCompile.equals("lazy")) {
                    throw new IllegalArgumentException("--loop-compile expects warm-up or lazy, got " + loopCompile);
                }
                return i + 1;
            case "--quiet-wait":
                quietWait = Duration.ofSeconds(parseInt(a, value(argv, i + 1, a)));
                return i + 1;
            case "--lock-wait":
                lockWait = Duration.ofSeconds(parseInt(a, value(argv, i + 1, a)));
                return i + 1;
            case "--idle":
                idle = value(argv, i + 1, a);
                return i + 1;
            case "--jit":
                jit = value(argv, i + 1, a);
                return i + 1;
            case "--warm-up":
                warmUp = value(argv, i + 1, a);
                return i + 1;
            case "--bind-to":
                bindTo = value(argv, i + 1, a);
                return i + 1;
            case "--eager-limit":
                eagerLimit = Math.toIntExact(parseBytes(a, value(argv, i + 1, a)));
                return i + 1;
            case "--inline-limit":
                inlineLimit = Math.toIntExact(parseBytes(a, value(argv, i + 1, a)));
                return i + 1;
            case "--bulk-size":
                bulkSize = Math.toIntExact(parseBytes(a, value(argv, i + 1, a)));
                return i + 1;
            case "--segment-size":
                segmentSize = parseBytes(a, value(argv, i + 1, a));
                return i + 1;
            case "--ring-size":
                ringSize = Math.toIntExact(parseBytes(a, value(argv, i + 1, a)));
                return i + 1;
            case "--subcluster":
                subcluster = parseInt(a, value(argv, i + 1, a));
                return i + 1;
            case "--model":
                model = value(argv, i + 1, a);
                return i + 1;
            case "--jvm-arg":
                jvmArgs.add(value(argv, i + 1, a));
                return i + 1;
            case "--local-hosts":
                localHosts = parseInt(a, value(argv, i + 1, a));
                return i + 1;
            case "--coll":
                coll = value(argv, i + 1, a);
                return i + 1;
            case "--net-driver-idle":
                driverIdle = value(argv, i + 1, a);
                return i + 1;
            case "--net-driver":
                netDriver = value(argv, i + 1, a);
                return i + 1;
            default:
                return -1;
        }
    }

    /** The launcher options that differ from the defaults, as mpjrun would take them (for reports). */
    public List<String> launcherOptions() {
        List<String> o = new ArrayList<>();
        if (idle != null) {
            o.add("--idle " + idle);
        }
        if (jit != null) {
            o.add("--jit " + jit);
        }
        if (warmUp != null) {
            o.add("--warm-up " + warmUp);
        }
        if (bindTo != null) {
            o.add("--bind-to " + bindTo);
        }
        if (eagerLimit != null) {
            o.add("--eager-limit " + eagerLimit);
        }
        if (inlineLimit != null) {
            o.add("--inline-limit " + inlineLimit);
        }
        if (bulkSize != null) {
            o.add("--bulk-size " + bulkSize);
        }
        if (segmentSize != null) {
            o.add("--segment-size " + segmentSize);
        }
        if (ringSize != null) {
            o.add("--ring-size " + ringSize);
        }
        if (subcluster != null) {
            o.add("--subcluster " + subcluster);
        }
        if (model != null) {
            o.add("--model " + model);
        }
        if (clock != null) {
            o.add("--clock " + clock);
        }
        if (computeScale != null) {
            o.add("--compute-scale " + computeScale);
        }
        if (dilation != null) {
            o.add("--time-dilation " + dilation);
        }
        if (schedBarrier) {
            o.add("--sched-barrier");
        }
        if (localHosts != null) {
            o.add("--local-hosts " + localHosts);
        }
        if (coll != null) {
            o.add("--coll " + coll);
        }
        if (driverIdle != null) {
            o.add("--net-driver-idle " + driverIdle);
        }
        if (netDriver != null) {
            o.add("--net-driver " + netDriver);
        }
        for (String j : jvmArgs) {
            o.add("--jvm-arg " + j);
        }
        return o;
    }

    /** A copy (lists copied too), for one launch of a sweep. */
    public BenchOptions copy() {
        BenchOptions o = new BenchOptions();
        o.name = name;
        o.np = np;
        o.reps = reps;
        o.firstRep = firstRep;
        o.buffers = buffers;
        o.timeout = timeout;
        o.idle = idle;
        o.jit = jit;
        o.warmUp = warmUp;
        o.bindTo = bindTo;
        o.eagerLimit = eagerLimit;
        o.inlineLimit = inlineLimit;
        o.bulkSize = bulkSize;
        o.segmentSize = segmentSize;
        o.ringSize = ringSize;
        o.subcluster = subcluster;
        o.model = model;
        o.jvmArgs = new ArrayList<>(jvmArgs);
        o.sizes = new ArrayList<>(sizes);
        o.verbose = verbose;
        o.algo = algo;
        o.quiet = quiet;
        o.quietWait = quietWait;
        o.lockWait = lockWait;
        o.idles = idles;
        o.dilation = dilation;
        o.clock = clock;
        o.computeScale = computeScale;
        o.schedBarrier = schedBarrier;
        o.localHosts = localHosts;
        o.coll = coll;
        o.driverIdle = driverIdle;
        o.netDriver = netDriver;
        o.loopCompile = loopCompile;
        o.launchPerPolicy = launchPerPolicy;
        o.pattern = pattern;
        o.preposted = preposted;
        o.iters = iters;
        o.warmup = warmup;
        return o;
    }

    /** A positional argument: a size. */
    void size(String s) {
        sizes.add(parseBytes("size", s));
    }

    static String value(String[] argv, int i, String opt) {
        if (i >= argv.length) {
            throw new IllegalArgumentException(opt + " needs a value");
        }
        return argv[i];
    }

    static int parseInt(String opt, String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " expects a whole number, got '" + v + "'");
        }
    }

    /** 65536, 64k, 4m, 1g (binary multiples), as mpjrun. */
    static long parseBytes(String opt, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        long mul = 1;
        if (s.endsWith("k")) {
            mul = 1L << 10;
        } else if (s.endsWith("m")) {
            mul = 1L << 20;
        } else if (s.endsWith("g")) {
            mul = 1L << 30;
        }
        if (mul != 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s) * mul;
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " expects a size like 65536, 64k or 4m, got '" + v + "'");
        }
    }
}
