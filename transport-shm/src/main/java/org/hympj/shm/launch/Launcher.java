package org.hympj.shm.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.job.Cores;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a job: creates its directory in /dev/shm, starts one JVM per rank, watches them, and
 * ends the job. The first rank to fail (non-zero exit, crash, kill) raises the job's abort
 * flag, so peers blocked in a call fail naming it; whoever is still running after a grace
 * period is terminated, then killed. The job directory is removed in every case, also when
 * the launcher itself is interrupted or terminated (shutdown hook).
 */
public final class Launcher {
    private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);
    private static final String JVM_OPTIONS = "jvm.options";

    private Launcher() {
    }

    /** The JVM flags every rank needs (from the build's single source, the root pom). */
    /**
     * The start of the command of a helper JVM of ours (a host agent, a node's driver process):
     * {@code java} (a command name, or this JVM's), the library's flags, the serial collector
     * (a helper allocates little and must not start GC threads beside the ranks), this class path.
     */
    static List<String> helperJvm(String java) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmFlags());
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        return cmd;
    }

    public static List<String> jvmFlags() {
        try (InputStream in = Launcher.class.getResourceAsStream(JVM_OPTIONS)) {
            if (in == null) {
                throw new IllegalStateException("resource " + JVM_OPTIONS + " missing from the transport-shm jar");
            }
            String s = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            if (s.contains("${")) {
                throw new IllegalStateException(JVM_OPTIONS + " was not filtered by the build: " + s);
            }
            return s.isEmpty() ? List.of() : Arrays.asList(s.split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How long the warm-up may wait for the compilers under {@code steady} (ms; a rank's own -D wins). */
    static final long STEADY_WARM_UP_BUDGET_MS = 12_000;

    /**
     * The JIT flags for the ranks. With a core per rank (MPI's usual placement) the ranks keep
     * the JVM's tiered compilation: a user's kernels need C2, and once compiled the library's
     * paths are faster too (2-rank 8-byte ping-pong 0.38 against 0.50 µs with C1 only, session 7).
     * Oversubscribed (more ranks than cores), C2's compiler threads of N JVMs compete with the
     * ranks for seconds (8-rank 3D halo N=16 240 µs per iteration tiered against 42 µs with C1
     * only, session 7), so {@code auto} takes C1 only: a job starts in about 3 s and its own
     * loops run compiled at once.
     *
     * <p>{@code steady} is for long runs of ranks that share cores: tiered compilation without
     * speculative traps ({@code -XX:PerMethodTrapLimit=0 -XX:PerBytecodeTrapLimit=0}: C2 compiles
     * every branch instead of betting on the ones it saw, so a branch or type the warm-up never met
     * does not throw compiled code away mid-run), the warm-up given up to
     * {@link #STEADY_WARM_UP_BUDGET_MS} for the compilers to finish. 8 ranks on 2 cores: halo3d
     * 0.82 / 0.48 / 0.79 / 0.75× Open MPI at N = 16 / 32 / 64 / 128 against 1.14 / 0.59 / 1.01 /
     * 0.93× under C1 in the same mode of the machine, but start-up about 7 s against 3, and a
     * program's own code runs through C1's profiling tier first (Jacobi3D, 200 iterations: 600–630
     * against 430–480 µs each; 2,000: 274–287 against 305–318) — docs/PERFORMANCE.md, session 19.
     */
    static List<String> jitFlags(String jit, int ranks, int cores) {
        // the property tells the library's copies that they run on C1 (Packer.SMALL_COPY)
        List<String> c1 = List.of("-XX:TieredStopAtLevel=1", "-D" + Packer.C1_PROPERTY + "=true");
        switch (jit) {
            case "c1":
                return c1;
            case "tiered":
                return List.of();
            case "steady":
                return List.of("-XX:PerMethodTrapLimit=0", "-XX:PerBytecodeTrapLimit=0",
                    "-D" + ShmMpj.WARM_UP_BUDGET_PROPERTY + "=" + STEADY_WARM_UP_BUDGET_MS);
            case "auto":
                return ranks > cores ? c1 : List.of();
            default:
                throw new IllegalArgumentException("--jit must be auto, c1, tiered or steady, was '" + jit + "'");
        }
    }

    /**
     * With the warm-up on, its own code is never compiled. Why: C2 inlined the library's entry
     * points ({@code ShmComm.send}) into the warm-up's compiled loops, after which their own
     * invocation counters stood still below C2's threshold in some launches; a program's first
     * messages then drove them over it, and C2 compiled {@code ShmComm.send} and {@code
     * TwoSided.send} (8–18 ms) on the ranks' cores inside a benchmark's timed batches — the segment
     * 64 KB ping-pong's stray launches (2 of 10 with JFR: 1.85 and 2.34 µs against 0.67–0.77, exactly
     * the two whose rank had no C2 code of {@code send} before the program; with this, 12 JVMs of 12
     * had it; docs/PERFORMANCE.md, session 23). Interpreted, the warm-up calls every entry point as a
     * program does. The idle strategy's back-off is never inlined: its park, which the warm-up's long
     * waits reach, stays out of the compiled entry points ({@code SpinYieldParkIdleStrategy.backOff}
     * says why), and so does a piped receive's wait for its sender ({@code EagerProtocol.awaitPacker}).
     * {@code RendezvousProtocol.onFrag}, run once per streamed piece that spills into the packet ring,
     * reached C2's threshold only at the warm-up's end or in the program (in 2 of 6 JVMs under JFR, a
     * 12–26 ms compile inside the 1 MB ping-pong's timed batches, session 25): its thresholds are a
     * fifth. {@code quiet}: HotSpot would print the commands at every rank's start.
     */
    static final List<String> WARM_UP_JIT_FLAGS = List.of("-XX:CompileCommand=quiet",
        "-XX:CompileCommand=exclude,org/hympj/shm/pml/WarmUp*.*",
        "-XX:CompileCommand=dontinline,org/hympj/shm/pml/SpinYieldParkIdleStrategy.backOff",
        "-XX:CompileCommand=dontinline,org/hympj/shm/pml/EagerProtocol.awaitPacker",
        "-XX:CompileCommand=CompileThresholdScaling,org/hympj/shm/pml/RendezvousProtocol.onFrag,0.2");

    /** A rank's JIT flags: {@link #jitFlags}, the warm-up's switch (read by ShmMpj) and, with it on, {@link #WARM_UP_JIT_FLAGS}. */
    static List<String> rankJitFlags(String jit, String warmUp, int ranks, int cores) {
        List<String> f = new ArrayList<>(jitFlags(jit, ranks, cores));
        f.add("-Dhympj.warmup=" + warmUp); // a JIT matter, as --jit: not a job property
        if ("on".equals(warmUp)) {
            f.addAll(WARM_UP_JIT_FLAGS);
        }
        return f;
    }

    static String javaCommand() {
        return ProcessHandle.current().info().command()
            .orElse(System.getProperty("java.home") + "/bin/java");
    }

    /** Runs the job to its end and returns how it ended. */
    public static JobResult run(LaunchSpec spec) throws IOException {
        if (spec.mainClass == null || spec.mainClass.isEmpty()) {
            throw new IllegalArgumentException("no main class given");
        }
        // --idle was checked by LaunchSpec.idle
        jitFlags(spec.jit, spec.np, Runtime.getRuntime().availableProcessors()); // checks --jit first
        if (spec.multiHost()) {
            return MultiHostLauncher.run(spec);
        }
        int[] cpus = null;
        String taskset = null;
        if (spec.bindTo.equals("core")) {
            taskset = CpuBinding.taskset();      // both fail here, before any file or rank exists
            cpus = CpuBinding.allowedCpus();
        }
        JobConfig config = config(spec, newJobId());
        JobDirectory job = JobDirectory.create(config);
        Running running = new Running(spec, job, taskset, cpus);
        Thread hook = new Thread(running::emergencyStop, "hympj-launcher-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return running.run();
        } finally {
            running.stopAll();
            job.delete();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // the JVM is already shutting down: the hook runs anyway
            }
        }
    }

    /** A new job's id: the launcher's pid and a random part, in base 36. */
    static String newJobId() {
        return Long.toString(ProcessHandle.current().pid(), 36) + "-"
            + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    }

    /**
     * The job's settings from the spec, every option checked (a bad --model, --route-table or
     * --coll fails here, before any file or rank exists).
     */
    static JobConfig config(LaunchSpec spec, String jobId) throws IOException {
        int ring = spec.ringBytes > 0 ? spec.ringBytes : JobConfig.defaultRingBytes(spec.np);
        int bulk = spec.bulkBytes > 0 ? spec.bulkBytes : JobConfig.defaultBulkBytes(spec.np);
        int inline = spec.inlineLimit >= 0 ? spec.inlineLimit : JobConfig.defaultInlineLimit(ring);
        int eager = spec.eagerLimit >= 0 ? spec.eagerLimit : Math.max(inline, JobConfig.defaultEagerLimit(bulk));
        JobConfig config = JobConfig.defaults(jobId, spec.np)
            .with(spec.segmentBytes, ring, bulk, inline, eager, spec.model,
                spec.subcluster <= 0 ? spec.np : spec.subcluster, spec.idle, spec.coll)
            .withTiming(spec.route, spec.dilation)
            .withRouting(spec.routeTable, spec.stripe)
            .withRouteStats(spec.routeStats)
            .withP2p(spec.p2p)
            .withSched(spec.sched, spec.schedBarrier)
            .withClock(spec.clock, spec.computeScale);
        java.nio.file.Path traceDir = spec.traceDir();
        if (traceDir != null) {
            // the journals go straight to the trace directory, not to the job directory (which
            // is removed at the end): they outlive the job, a crashed rank and a killed launcher
            org.hympj.shm.trace.TraceDirectory.prepare(traceDir);
            config = config.withTrace(traceDir.toString());
        }
        if (config.hybrid()) {
            org.hympj.router.RouteTable.load(config.routeTableName()); // a bad --route-table fails here
        }
        if (!config.model.equals("none")) {
            org.hympj.model.JobFabric.modelFor(config.fabric); // a bad --model fails here, before any rank starts
        }
        org.hympj.shm.pml.CollectiveChoice.barrier(config); // a bad --coll fails here, before any rank starts
        org.hympj.shm.pml.CollectiveChoice.hierarchicalAllreduce(config);
        return config;
    }

    /**
     * Starts rank {@code rank} of the job in {@code jobDir}: its JVM with the library's flags, the
     * JIT of --jit, the spec's JVM arguments, class path, main class and arguments, environment
     * and output handling; bound to CPU {@code cpus[cpuSlot % cpus.length]} when {@code cpus} is given.
     * {@code sharing}: how many of the job's ranks share this machine's cores (what --jit auto and
     * the ranks' --idle auto go by: {@link Cores#RANKS_PROPERTY}).
     */
    static Process startRank(LaunchSpec spec, java.nio.file.Path jobDir, int rank, int cpuSlot, List<String> flags,
                             String taskset, int[] cpus, java.io.File workDir, int sharing) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (cpus != null) {
            cmd.add(taskset);
            cmd.add("-c");
            cmd.add(Integer.toString(cpus[cpuSlot % cpus.length]));
        }
        cmd.add(javaCommand());
        cmd.addAll(flags);
        cmd.addAll(rankJitFlags(spec.jit, spec.warmUp, sharing, Runtime.getRuntime().availableProcessors()));
        // the CPUs this host's ranks share: a rank bound to one CPU sees only that one
        cmd.add("-D" + Cores.PROPERTY + "=" + (cpus != null ? cpus.length : Runtime.getRuntime().availableProcessors()));
        cmd.add("-D" + Cores.RANKS_PROPERTY + "=" + sharing);
        // Agrona's bounds checks on every ring and buffer access were a third of an 8-byte
        // ping-pong (JFR, docs/PERFORMANCE.md); offsets come from the library, the user's
        // arguments are checked at the call. --jvm-arg -Dagrona.disable.bounds.checks=false
        // turns them back on (a later flag wins)
        cmd.add("-Dagrona.disable.bounds.checks=true");
        cmd.addAll(spec.jvmArgs); // after ours: a user's flag wins
        cmd.add("-cp");
        cmd.add(spec.classpath);
        cmd.add(spec.mainClass);
        cmd.addAll(spec.args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (workDir != null) {
            pb.directory(workDir);
        }
        pb.environment().putAll(spec.env);
        pb.environment().put(ShmMpj.ENV_JOB_DIR, jobDir.toString());
        pb.environment().put(ShmMpj.ENV_RANK, Integer.toString(rank));
        switch (spec.output) {
            case INHERIT:
                pb.inheritIO();
                break;
            default:
                pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
                pb.redirectErrorStream(spec.output != LaunchSpec.Output.TAG);
                break;
        }
        return pb.start();
    }

    /** One job while it runs. */
    private static final class Running {
        private final LaunchSpec spec;
        private final JobDirectory job;
        private final Process[] procs;
        private final StringBuilder[] outputs;
        private final List<Thread> pumps = new ArrayList<>();
        private volatile boolean stopping;
        /** --bind-to core: taskset's path and the CPUs rank r % n is bound to; null otherwise. */
        private final String taskset;
        private final int[] cpus;

        Running(LaunchSpec spec, JobDirectory job, String taskset, int[] cpus) {
            this.spec = spec;
            this.taskset = taskset;
            this.cpus = cpus;
            this.job = job;
            this.procs = new Process[spec.np];
            this.outputs = new StringBuilder[spec.np];
            for (int r = 0; r < spec.np; r++) {
                outputs[r] = new StringBuilder();
            }
        }

        JobResult run() throws IOException {
            long t0 = System.nanoTime();
            List<String> flags = jvmFlags();
            try (JobControl control = job.openControl()) {
                for (int r = 0; r < spec.np; r++) {
                    procs[r] = start(r, flags);
                }
                return watch(control, t0);
            }
        }

        private Process start(int rank, List<String> flags) throws IOException {
            Process p = startRank(spec, job.path(), rank, rank, flags, taskset, cpus, null, spec.np);
            if (spec.output != LaunchSpec.Output.INHERIT) {
                pump(rank, p.getInputStream(), System.out);
                if (spec.output == LaunchSpec.Output.TAG) {
                    pump(rank, p.getErrorStream(), System.err);
                }
            }
            return p;
        }

        private void pump(int rank, InputStream in, PrintStream echo) {
            boolean capture = spec.output == LaunchSpec.Output.CAPTURE
                || spec.output == LaunchSpec.Output.CAPTURE_AND_TAG;
            boolean print = spec.output != LaunchSpec.Output.CAPTURE;
            Thread t = new Thread(() -> {
                try (BufferedReader br = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = br.readLine()) != null) {
                        if (capture) {
                            synchronized (outputs[rank]) {
                                outputs[rank].append(line).append('\n');
                            }
                        }
                        if (print) {
                            echo.println("[" + rank + "] " + line);
                        }
                    }
                } catch (IOException ignored) {
                    // the process went away
                }
            }, "hympj-out-" + rank);
            t.setDaemon(true);
            t.start();
            pumps.add(t);
        }

        private JobResult watch(JobControl control, long t0) {
            RankWatch w = new RankWatch(spec, t0);
            while (w.running() > 0) {
                for (int r = 0; r < spec.np; r++) {
                    if (w.ended(r) || procs[r].isAlive()) {
                        continue;
                    }
                    Integer abort = w.exited(r, procs[r].exitValue(), control.state(r), "");
                    if (abort != null) {
                        control.abort(r, abort);
                        LOG.debug(w.message());
                    }
                }
                long now = System.nanoTime();
                if (w.timedOut(now)) {
                    control.abort(-1, JobResult.TIMEOUT_EXIT);
                }
                RankWatch.Signal sig = w.signal(now);
                for (Process p : procs) {
                    if (sig == RankWatch.Signal.TERM) {
                        p.destroy();
                    } else if (sig == RankWatch.Signal.KILL) {
                        p.destroyForcibly();
                    }
                }
                if (w.running() > 0) {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        stopAll();
                        throw new IllegalStateException("launcher interrupted; job stopped");
                    }
                }
            }
            for (Thread t : pumps) {
                try {
                    t.join(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            List<String> out = new ArrayList<>();
            for (StringBuilder b : outputs) {
                synchronized (b) {
                    out.add(b.toString());
                }
            }
            return w.result(out, List.of(job.path()));
        }

        /** Kills whatever still runs (normal end of run, or interruption). */
        void stopAll() {
            stop(procs);
        }

        /** Shutdown hook: SIGINT/SIGTERM to the launcher ends every rank and removes the files. */
        void emergencyStop() {
            if (stopping) {
                return;
            }
            stopping = true;
            stopAll();
            job.delete();
        }
    }

    /** Ends every process still running: TERM, a second's grace for all together, then KILL. Nulls are skipped. */
    static void stop(Process[] procs) {
        for (Process p : procs) {
            if (p != null && p.isAlive()) {
                p.destroy();
            }
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (Process p : procs) {
            if (p == null) {
                continue;
            }
            try {
                long left = until - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
    }

    static String describe(int code) {
        if (code > 128 && code < 160) {
            return "code " + code + " (killed by signal " + (code - 128) + ")";
        }
        return "code " + code;
    }
}
