package org.hympj.tools.sim;

import org.hympj.sim.Script;
import org.hympj.sim.Shape;
import org.hympj.sim.Sim;
import org.hympj.sim.SimConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/hympj-sim PATTERN --np P --model M [options] [sizes...]}: runs a built-in program
 * on the virtual-time {@link Sim} and prints the figure {@code bin/hympj-bench} would measure, as
 * the same CSV rows ({@code system,test,variant,size,rep,value,unit}, system {@code hympj-sim}),
 * plus remarks ({@code #}): events, events per second, per-engine and per-link utilisation.
 */
public final class SimMain {
    public static final String SYSTEM = "hympj-sim";

    static final String USAGE = String.join("\n",
        "usage: hympj-sim PATTERN [options] [sizes...]",
        "patterns:",
        "  halo        S1's halo (HaloRank): --dims 2|3 (3), sizes N (3D: 64 128 192 256), --route tca,ib,hybrid",
        "              (default; also hybrid-groups, tca+ib = TCA where it reaches, IB elsewhere), --np (4 / 8)",
        "  jacobi3d    the flagship's halo (Jacobi3D, ha-pacs, 8 ranks, subclusters of 4): sizes n (32), --iters (200)",
        "  scale-les3  S3's SCALE-LES3 halo (ScaleLes3Bench): sizes k (60 872), --sched none,rr:1,...,bl+oh, rndv",
        "              (default: the bench's list), --pattern ew,ns,nsew,diag,all, --buffers segment|heap, --np 8,",
        "              --model tofu",
        "  barrier     barrier latency (Collective): sizes = rank counts (2..8), --algo dissemination,rd,ring,",
        "              --impl twosided (the library's barrier, default) | put (S4's barriers on MGEN puts)",
        "  allreduce   allreduce of doubles (Collective): sizes in bytes (8 65536), --np 8",
        "  onesided    the isend/irecv ping-pong of hympj-bench onesided (OneSidedBench, 2 ranks): sizes in bytes",
        "              (8 4096 65536 1048576 4194304), --p2p onesided,twosided (both), --preposted K (0),",
        "              --buffers segment|heap (segment): the half round trip, us",
        "  replay DIR  a --trace journal: on the traced ranks, or --np P --replay-dims D (scaled, regular grids)",
        "options: --np P  --model M (ha-pacs; tofu for scale-les3)  --subcluster S  --route R  --route-table T",
        "         --p2p twosided|onesided (the user's point-to-point engine; collectives stay two-sided)",
        "         --stripe B  --sched P  --eager-limit B  --coll barrier=ALG  --warmup W  --iters I",
        "         --jitter US (mean exponential wake-up / packet-reading delay: emulated ranks' scheduling noise)",
        "         --issue ranks|interleaved (sends of ranks starting at one instant: rank by rank, or in turn)",
        "         --util (utilisation remarks)  --out FILE (append the CSV rows)  --quiet (rows only)");

    /** {@code --jitter US} (process-wide for one command): the mean wake-up / packet-reading noise. */
    static double JITTER_US;
    /** {@code --issue interleaved}: ranks starting a set at one instant interleave their sends. */
    static boolean INTERLEAVE;
    /** --print-plans: every planned transfer on stdout (debugging). */
    static boolean PRINT_PLANS;

    private SimMain() {
    }

    public static void main(String[] args) throws IOException {
        try {
            System.exit(run(args, System.out));
        } catch (IllegalArgumentException e) {
            System.err.println("hympj-sim: " + e.getMessage());
            System.exit(2);
        }
    }

    /** One simulated figure. */
    public record Result(String test, String variant, long size, double value, String unit, long events,
                         double wallSeconds, List<String> remarks) {
        public String row() {
            return String.format(Locale.ROOT, "%s,%s,%s,%d,1,%.3f,%s", SYSTEM, test, variant, size, value, unit);
        }
    }

    static int run(String[] args, PrintStream out) throws IOException {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            out.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String pattern = args[0];
        Map<String, String> o = new LinkedHashMap<>();
        List<String> sizes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--util") || a.equals("--quiet") || a.equals("--print-plans")) {
                o.put(a, "true");
            } else if (a.startsWith("--")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                o.put(a, args[++i]);
            } else {
                sizes.add(a);
            }
        }
        JITTER_US = Double.parseDouble(o.getOrDefault("--jitter", "0"));
        INTERLEAVE = o.getOrDefault("--issue", "ranks").equals("interleaved");
        PRINT_PLANS = o.containsKey("--print-plans");
        List<Result> results = new ArrayList<>();
        switch (pattern) {
            case "halo":
            case "halo2d":
            case "halo3d": {
                int dims = pattern.equals("halo2d") ? 2 : pattern.equals("halo3d") ? 3 : Integer.parseInt(
                    o.getOrDefault("--dims", "3"));
                List<String> ns = sizes.isEmpty() ? (dims == 3 ? List.of("64", "128", "192", "256")
                    : List.of("256", "1024", "4096")) : sizes;
                for (String route : list(o, "--route", "tca,ib,hybrid")) {
                    for (String n : ns) {
                        results.add(halo(o, dims, route, Integer.parseInt(n)));
                        emit(out, o, results.get(results.size() - 1));
                    }
                }
                break;
            }
            case "jacobi3d": {
                for (String n : sizes.isEmpty() ? List.of("32") : sizes) {
                    results.add(jacobi3d(o, Integer.parseInt(n)));
                    emit(out, o, results.get(results.size() - 1));
                }
                break;
            }
            case "scale-les3": {
                List<String> ks = sizes.isEmpty() ? List.of("60", "872") : sizes;
                for (String k : ks) {
                    for (String pat : list(o, "--pattern", "ew,ns,nsew,diag,all")) {
                        for (String pol : list(o, "--sched", "none,rr:1,rr:2,rr:4,bl:1,bl:2,bl:4,bl+")) {
                            results.add(scaleLes3(o, pat, pol, Integer.parseInt(k)));
                            emit(out, o, results.get(results.size() - 1));
                        }
                    }
                }
                break;
            }
            case "barrier": {
                List<String> nps = sizes.isEmpty() ? List.of(o.getOrDefault("--np", "8")) : sizes;
                for (String np : nps) {
                    for (String algo : list(o, "--algo", "dissemination,rd,ring")) {
                        results.add(barrier(o, Script.Barrier.parse(algo), Integer.parseInt(np)));
                        emit(out, o, results.get(results.size() - 1));
                    }
                }
                break;
            }
            case "allreduce": {
                List<String> bs = sizes.isEmpty() ? List.of("8", "65536") : sizes;
                for (String b : bs) {
                    results.add(allreduce(o, Long.parseLong(b)));
                    emit(out, o, results.get(results.size() - 1));
                }
                break;
            }
            case "onesided": {
                List<String> bs = sizes.isEmpty() ? List.of("8", "4096", "65536", "1048576", "4194304") : sizes;
                for (String engine : list(o, "--p2p", "onesided,twosided")) {
                    for (String b : bs) {
                        results.add(pingPong(o, engine, Long.parseLong(b)));
                        emit(out, o, results.get(results.size() - 1));
                    }
                }
                break;
            }
            case "replay": {
                if (sizes.size() != 1) {
                    throw new IllegalArgumentException("replay takes one trace directory");
                }
                if (!Object.class.getModule().isOpen("java.lang.reflect", SimMain.class.getModule())) {
                    return relaunch(args);   // Chronicle Queue needs HyMPJ's JVM flags
                }
                results.add(replay(o, Paths.get(sizes.get(0))));
                emit(out, o, results.get(results.size() - 1));
                break;
            }
            default:
                throw new IllegalArgumentException("unknown pattern '" + pattern + "'\n" + USAGE);
        }
        if (o.containsKey("--out")) {
            StringBuilder b = new StringBuilder();
            for (Result r : results) {
                b.append(r.row()).append('\n');
            }
            Files.writeString(Paths.get(o.get("--out")), b.toString(), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        }
        return 0;
    }

    private static void emit(PrintStream out, Map<String, String> o, Result r) {
        out.println(r.row());
        if (!o.containsKey("--quiet")) {
            out.printf(Locale.ROOT, "# %s %s %d: %d events in %.3f s (%.0f events/s)%n", r.test, r.variant, r.size,
                r.events, r.wallSeconds, r.events / Math.max(1e-9, r.wallSeconds));
            if (o.containsKey("--util")) {
                for (String line : r.remarks) {
                    out.println("#   " + line);
                }
            }
        }
        out.flush();
    }

    private static List<String> list(Map<String, String> o, String key, String def) {
        return Arrays.asList(o.getOrDefault(key, def).split(","));
    }

    /** The job options shared by every pattern. */
    static SimConfig config(Map<String, String> o, String defModel, int defNp) {
        SimConfig c = new SimConfig();
        c.np = Integer.parseInt(o.getOrDefault("--np", Integer.toString(defNp)));
        c.model = o.getOrDefault("--model", defModel);
        c.subcluster = Integer.parseInt(o.getOrDefault("--subcluster", "0"));
        c.route = o.getOrDefault("--route", "auto");
        c.routeTable = o.getOrDefault("--route-table", "");
        c.stripe = Long.parseLong(o.getOrDefault("--stripe", "-1"));
        c.sched = o.getOrDefault("--sched", "none");
        c.eagerLimit = Integer.parseInt(o.getOrDefault("--eager-limit", "-1"));
        c.p2p = o.getOrDefault("--p2p", "twosided");   // the onesided pattern takes a list (one run per engine)
        String coll = o.getOrDefault("--coll", "");
        if (coll.startsWith("barrier=")) {
            c.barrier = coll.substring("barrier=".length());
        }
        return c;
    }

    public static Result halo(Map<String, String> o, int dims, String route, int n) {
        SimConfig c = config(o, "ha-pacs", dims == 2 ? 4 : 8);
        if (!o.containsKey("--eager-limit")) {
            c.eagerLimit = 1024;   // as hympj-bench halo launches: rendezvous (segment to segment) from 1 KiB
        }
        boolean groups = route.equals("hybrid-groups");
        c.route = groups ? "hybrid" : route;
        if (groups && !o.containsKey("--subcluster")) {
            c.subcluster = dims == 2 ? 2 : 4;
        }
        int warm = Integer.parseInt(o.getOrDefault("--warmup", "3"));
        int iters = Integer.parseInt(o.getOrDefault("--iters", "20"));
        Sim sim = new Sim(c);
        Patterns.halo(sim, dims, n, warm, iters);
        return finish(sim, "halo-" + dims + "d", route, n, Patterns.Metric.SLOWEST, warm, iters, "us/iter");
    }

    /**
     * The flagship Jacobi3D's halo exchange (its README command: ha-pacs, 8 ranks, subclusters of
     * 4, heap arrays, the library's default eager limit), n³ points per rank, {@code --iters}
     * (default 200, Jacobi3D's) iterations back to back: µs per iteration, as Jacobi3D prints it
     * under {@code --compute-scale 0}.
     */
    public static Result jacobi3d(Map<String, String> o, int n) {
        Map<String, String> q = new LinkedHashMap<>(o);
        q.putIfAbsent("--subcluster", "4");
        SimConfig c = config(q, "ha-pacs", 8);
        int iters = Integer.parseInt(o.getOrDefault("--iters", "200"));
        if (iters < 2 || iters % 2 != 0) {
            throw new IllegalArgumentException("--iters: jacobi3d needs an even number >= 2 (its two arrays "
                + "alternate), was " + iters);
        }
        Sim sim = new Sim(c);
        Patterns.jacobi3d(sim, n, iters);
        return finish(sim, "jacobi3d", c.route, n, Patterns.Metric.SLOWEST_MEAN, 0, iters / 2, "us/iter");
    }

    public static Result scaleLes3(Map<String, String> o, String pattern, String policy, int k) {
        SimConfig c = config(o, "tofu", 8);
        c.sched = policy;
        int warm = Integer.parseInt(o.getOrDefault("--warmup", "10"));
        int iters = Integer.parseInt(o.getOrDefault("--iters", "100"));
        boolean segment = !o.getOrDefault("--buffers", "segment").equals("heap");
        Sim sim = new Sim(c);
        Patterns.scaleLes3(sim, pattern, k, segment, warm, iters);
        return finish(sim, "scale-les3-" + pattern, policy, k,
            Patterns.Metric.SPAN, warm, iters, "us");
    }

    public static Result barrier(Map<String, String> o, Script.Barrier algo, int np) {
        Map<String, String> q = new LinkedHashMap<>(o);
        q.put("--np", Integer.toString(np));
        SimConfig c = config(q, "ha-pacs", np);
        int warm = Integer.parseInt(o.getOrDefault("--warmup", "20"));
        int iters = Integer.parseInt(o.getOrDefault("--iters", "200"));
        Sim sim = new Sim(c);
        boolean put = o.getOrDefault("--impl", "twosided").equals("put");
        if (put) {
            Patterns.putBarrier(sim, algo, Long.parseLong(o.getOrDefault("--put-bytes", "8")), warm, iters);
        } else {
            Patterns.barrier(sim, algo, warm, iters);
        }
        return finish(sim, put ? "barrier-put" : "barrier", algo.key(), np, Patterns.Metric.RANK0, warm, iters, "us");
    }

    public static Result allreduce(Map<String, String> o, long bytes) {
        SimConfig c = config(o, "ha-pacs", 8);
        int warm = Integer.parseInt(o.getOrDefault("--warmup", "20"));
        int iters = Integer.parseInt(o.getOrDefault("--iters", "200"));
        Sim sim = new Sim(c);
        Patterns.allreduce(sim, bytes, warm, iters);
        return finish(sim, "allreduce", "heap", bytes, Patterns.Metric.RANK0, warm, iters, "us");
    }

    /**
     * The ping-pong of {@code hympj-bench onesided} on point-to-point engine {@code engine}
     * (onesided, twosided): the half round trip in µs, as its {@code onesided-lat} row (variant
     * ENGINE, or ENGINE-preK).
     */
    public static Result pingPong(Map<String, String> o, String engine, long bytes) {
        if (!engine.equals("onesided") && !engine.equals("twosided")) {
            throw new IllegalArgumentException("--p2p must be onesided or twosided, was " + engine);
        }
        SimConfig c = config(o, "ha-pacs", 2);
        c.p2p = engine;
        int pre = Integer.parseInt(o.getOrDefault("--preposted", "0"));
        int warm = Integer.parseInt(o.getOrDefault("--warmup", "20"));
        int iters = Integer.parseInt(o.getOrDefault("--iters", "100"));
        Sim sim = new Sim(c);
        Patterns.pingPong(sim, bytes, pre, !o.getOrDefault("--buffers", "segment").equals("heap"), warm, iters);
        Result r = finish(sim, "onesided-lat", engine + (pre > 0 ? "-pre" + pre : ""), bytes, Patterns.Metric.RANK0,
            warm, iters, "us");
        return new Result(r.test(), r.variant(), r.size(), r.value() / (2.0 * Math.max(1, pre)), r.unit(), r.events(),
            r.wallSeconds(), r.remarks());
    }

    /**
     * Replays a --trace journal: on the traced ranks (default) or, with {@code --np P --replay-dims D},
     * scaled to P ranks. Figure: the replay's modelled end, µs; remark: the traced job's span.
     */
    public static Result replay(Map<String, String> o, java.nio.file.Path dir) {
        List<org.hympj.shm.trace.TraceJournal.RankTrace> traces = org.hympj.shm.trace.TraceJournal.read(dir);
        if (traces.isEmpty()) {
            throw new IllegalArgumentException(dir + ": no rank journals");
        }
        org.hympj.shm.trace.TraceHeader h = traces.get(0).header;
        SimConfig c = config(o, h.model, traces.size());
        if (!o.containsKey("--subcluster") && c.np == traces.size()) {
            c.subcluster = h.subcluster;
        }
        Sim sim = new Sim(c);
        TraceReplay.build(sim, traces, Integer.parseInt(o.getOrDefault("--replay-dims", "0")));
        Result r = finish(sim, "replay", dir.getFileName().toString(), c.np, null, 0, 0, "us");
        double first = Double.MAX_VALUE;
        double last = 0;
        for (org.hympj.shm.trace.TraceJournal.RankTrace t : traces) {
            if (!t.events.isEmpty()) {
                first = Math.min(first, t.header.modelledOf(t.events.get(0).nanos));
                last = Math.max(last, t.header.modelledOf(t.events.get(t.events.size() - 1).nanos));
            }
        }
        r.remarks().add(0, String.format(Locale.ROOT, "traced: %d ranks, model %s, span %.3f us (first to last "
            + "event, modelled; includes the traced program's computation, which the replay leaves out)",
            traces.size(), h.model, (last - first) / 1000));
        return r;
    }

    private static int relaunch(String[] args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        cmd.addAll(org.hympj.shm.launch.Launcher.jvmFlags());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(SimMain.class.getName());
        cmd.addAll(List.of(args));
        try {
            return new ProcessBuilder(cmd).inheritIO().start().waitFor();
        } catch (IOException e) {
            System.err.println("hympj-sim: cannot start a JVM: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** Runs the simulation and reduces its iterations to the figure (µs). */
    static Result finish(Sim sim, String test, String variant, long size, Patterns.Metric metric, int warm, int iters,
                         String unit) {
        if (JITTER_US > 0) {
            sim.jitter(JITTER_US * 1000);
        }
        sim.interleave = INTERLEAVE;
        if (PRINT_PLANS) {
            sim.planLog = System.out;
        }
        long t0 = System.nanoTime();
        sim.run();
        double wall = (System.nanoTime() - t0) / 1e9;
        double v = metric == null ? sim.endTime() / 1000.0 : figure(sim, metric, warm, iters);
        List<String> remarks = new ArrayList<>();
        remarks.add(sim.config().toString() + "; " + sim.plans() + " transfers planned, modelled end "
            + String.format(Locale.ROOT, "%.3f us", sim.endTime() / 1000.0));
        remarks.addAll(sim.utilisation());
        return new Result(test, variant, size, v, unit, sim.events(), wall, remarks);
    }

    /** The figure of the timed iterations [warm, warm + iters), in µs. */
    public static double figure(Sim sim, Patterns.Metric metric, int warm, int iters) {
        double[] v = new double[iters];
        for (int i = 0; i < iters; i++) {
            int it = warm + i;
            switch (metric) {
                case SLOWEST:
                    v[i] = sim.iterMaxSpan()[it] / 1000.0;
                    break;
                case SPAN:
                    v[i] = (sim.iterMaxEnd()[it] - sim.iterMinStart()[it]) / 1000.0;
                    break;
                case SLOWEST_MEAN:
                    v[i] = sim.iterMaxSpan()[it] / 2000.0; // a loop turn is two iterations
                    break;
                default:
                    v[i] = sim.iterRank0()[it] / 1000.0;
            }
        }
        if (metric == Patterns.Metric.RANK0 || metric == Patterns.Metric.SLOWEST_MEAN) {
            double sum = 0;
            for (double x : v) {
                sum += x;
            }
            return sum / iters;
        }
        if (metric == Patterns.Metric.SPAN) {
            int per = Math.max(1, iters / 5);
            double[] batch = new double[Math.min(5, iters)];
            for (int b = 0; b < batch.length; b++) {
                double sum = 0;
                for (int i = b * per; i < (b + 1) * per; i++) {
                    sum += v[i];
                }
                batch[b] = sum / per;
            }
            return median(batch);
        }
        return median(v);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }
}
