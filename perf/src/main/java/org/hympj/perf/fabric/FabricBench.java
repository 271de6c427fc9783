package org.hympj.perf.fabric;

import org.hympj.examples.Face;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.hympj.router.RouteTable;
import org.hympj.model.Fabric;
import org.hympj.model.ModelParams;
import org.hympj.model.Transfer;
import org.hympj.spi.Layout;

/**
 * The fabric-emulation and hybrid-router benchmarks of {@code bin/hympj-bench}:
 * {@code fabric-pingpong}, {@code crossover}, {@code calibrate}, {@code halo} and
 * {@code fabric-report}. Each is a driver: it launches its rank programs ({@link FabricPingRank},
 * {@link CrossoverRank}, {@link HaloRank}) as often as it needs, each launch holding the
 * machine-wide benchmark lock, and prints CSV rows ({@code hympj,test,variant,size,rep,value,unit})
 * and {@code #} remarks (conditions, summary tables) on stdout; progress goes to stderr.
 */
public final class FabricBench {
    /** Name → one-line description, for {@code hympj-bench --list}. */
    public static final Map<String, String> DRIVERS = new LinkedHashMap<>();

    static {
        DRIVERS.put("fabric-pingpong", "ping-pong over one emulated fabric (--route tca|ib), modelled us and GB/s, "
            + "vs S5's base figures; driver, 2 ranks");
        DRIVERS.put("crossover", "S1's crossover table: 2D/3D faces ping-ponged over TCA and IB, emulated and "
            + "analytic; driver, 2 ranks");
        DRIVERS.put("calibrate", "measures the TCA/IB crossover per layout on the model and writes a route table "
            + "(--out FILE); driver, 2 ranks");
        DRIVERS.put("halo", "S1's halo exchange (--dims 2|3) over tca, ib, hybrid (one subcluster) and hybrid "
            + "(groups as subclusters); driver, 4 or 8 ranks");
        DRIVERS.put("fabric-report", "tables and plots of the fabric benchmarks' results into docs/PERFORMANCE.md "
            + "and docs/img (no launches)");
    }

    private FabricBench() {
    }

    /** Runs the driver named by argv[0]; null when argv[0] is not one of them. */
    public static Integer run(String[] argv) {
        if (argv.length == 0 || !DRIVERS.containsKey(argv[0])) {
            return null;
        }
        String[] rest = Arrays.copyOfRange(argv, 1, argv.length);
        try {
            switch (argv[0]) {
                case "fabric-pingpong":
                    return fabricPingpong(rest, System.out, System.err);
                case "crossover":
                    return crossover(rest, System.out, System.err);
                case "calibrate":
                    return calibrate(rest, System.out, System.err);
                case "halo":
                    return halo(rest, System.out, System.err);
                default:
                    return FabricReport.main(rest);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("hympj-bench " + argv[0] + ": " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println("hympj-bench " + argv[0] + ": " + e.getMessage());
            return 1;
        }
    }

    public static void main(String[] argv) {
        Integer code = run(argv);
        System.exit(code == null ? 2 : code);
    }

    static final Set<String> COMMON = Set.of("--model", "--time-dilation", "--clock", "--compute-scale", "--timeout", "--reps", "--eager-limit",
        "--idle");

    static Set<String> with(Set<String> a, String... more) {
        Set<String> s = new TreeSet<>(a);
        s.addAll(Arrays.asList(more));
        return s;
    }

    static Launch base(Opts o, String main, int np) {
        Launch l = new Launch();
        l.np = np;
        l.main = main;
        l.model = o.get("--model", "ha-pacs");
        l.dilation = o.dbl("--time-dilation", 0);
        l.clock = o.get("--clock", null);
        // the fabric benchmarks time communication: their own loop's CPU time does not count on
        // virtual time (as in the simulator) unless --compute-scale says so
        l.computeScale = o.dbl("--compute-scale", 0);
        l.timeout = java.time.Duration.ofSeconds(o.integer("--timeout", 1800));
        // rendezvous into registered memory from 1 KiB: the model then sees segment-to-segment (MtoM)
        // transfers, S1's zero-copy DMA; smaller messages are eager (a bounce at the receiver, <= 0.1 us)
        int eager = (int) Opts.bytes(o.get("--eager-limit", "1024"));
        l.eagerLimit = eager;
        l.inlineLimit = Math.min(eager, 8192);
        l.verbose = o.has("--verbose");
        l.idle = o.get("--idle", null);
        return l;
    }

    // ------------------------------------------------------------------ fabric-pingpong

    static final List<Long> PINGPONG_SIZES = List.of(8L, 64L, 1024L, 65536L, 1048576L, 4194304L, 16777216L);

    static int fabricPingpong(String[] argv, PrintStream out, PrintStream err) throws IOException {
        Opts o = Opts.parse(argv, with(COMMON, "--route", "--layout"), Set.of("--verbose"));
        String route = o.get("--route", "both");
        String layout = o.get("--layout", "block");
        List<Long> sizes = o.positional.isEmpty() ? PINGPONG_SIZES : o.sizes();
        int reps = o.integer("--reps", 1);
        long max = 16;
        for (long s : sizes) {
            max = Math.max(max, s);
        }
        List<String> routes = route.equals("both") ? List.of("tca", "ib") : List.of(route);
        String model = o.get("--model", "ha-pacs");
        out.println(Launch.conditions("fabric-pingpong start"));
        List<String> rows = new ArrayList<>();
        for (int rep = 1; rep <= reps; rep++) {
            for (String r : routes) {
                if (!r.equals("tca") && !r.equals("ib")) {
                    throw new IllegalArgumentException("--route must be tca, ib or both, was " + r);
                }
                List<Launch> launches = new ArrayList<>();
                Launch l = base(o, FabricPingRank.class.getName(), 2);
                l.route = r;
                l.segmentBytes = Math.max(64L << 20, 3 * max + (8L << 20));
                l.args = new ArrayList<>(List.of("fabric-pingpong-" + r, layout, Integer.toString(rep),
                    "blocking,persistent"));
                launches.add(l);
                if (r.equals("tca") && layout.equals("block")) {
                    // S5's DMA figures are for DMA: PIO off, every descriptor mode
                    Launch d = base(o, FabricPingRank.class.getName(), 2);
                    d.route = "tca";
                    d.segmentBytes = l.segmentBytes;
                    d.model = Launch.derivedModel(model, "dma", "tca.pio.limit", "0");
                    d.args = new ArrayList<>(List.of("fabric-pingpong-tca-dma", layout, Integer.toString(rep),
                        "isend,blocking,persistent,persistent-internal,persistent-host"));
                    launches.add(d);
                    // the descriptor cache without promotion: host descriptors for non-persistent traffic
                    Launch h = base(o, FabricPingRank.class.getName(), 2);
                    h.route = "tca";
                    h.segmentBytes = l.segmentBytes;
                    h.model = Launch.derivedModel(model, "dma-nopromote", "tca.pio.limit", "0",
                        "tca.cache.promote.after", "1000000000");
                    h.args = new ArrayList<>(List.of("fabric-pingpong-tca-dma-nopromote", layout,
                        Integer.toString(rep), "isend"));
                    for (long s : sizes) {
                        if (s <= 65536) {
                            h.args.add(Long.toString(s));
                        }
                    }
                    if (h.args.size() > 4) {
                        launches.add(h);
                    }
                }
                for (Launch x : launches) {
                    if (x.args.size() == 4) {
                        for (long s : sizes) {
                            x.args.add(Long.toString(s));
                        }
                    }
                    if (x.model.startsWith("/")) {
                        out.println("# model file " + x.model + ": " + Files.readString(Paths.get(x.model))
                            .replace('\n', ';'));
                    }
                    for (Launch y : byDilation(x, o.has("--time-dilation"))) {
                        rows.addAll(y.run(out, err));
                    }
                }
            }
        }
        out.println(Launch.conditions("fabric-pingpong end"));
        for (String line : pingpongSummary(rows, layout, ModelParams.load(model), o.dbl("--time-dilation", 0))) {
            out.println("# " + line);
            err.println(line);
        }
        return 0;
    }

    /**
     * Ping-pongs face {@code f} at every N of {@code ns} (ascending) over TCA, then over IB, one
     * launch of {@link CrossoverRank} each; returns fabric → N → modelled µs one way.
     */
    static Map<String, Map<Integer, Double>> faceOverBothFabrics(Opts o, String test, Face f, List<Integer> ns,
                                                                 double dil, PrintStream out, PrintStream err)
        throws IOException {
        Map<String, Map<Integer, Double>> byFabric = new TreeMap<>();
        for (String fabric : List.of("tca", "ib")) {
            Launch l = base(o, CrossoverRank.class.getName(), 2);
            l.route = fabric;
            l.dilation = dil;
            l.segmentBytes = segmentFor(f, ns.get(ns.size() - 1));
            l.args = new ArrayList<>(List.of(test + fabric, "1", f.key));
            for (int n : ns) {
                l.args.add(Integer.toString(n));
            }
            Map<Integer, Double> v = new TreeMap<>();
            for (String row : l.run(out, err)) {
                if (!row.startsWith("#")) {
                    String[] c = row.split(",");
                    v.put(Integer.parseInt(c[3]), Double.parseDouble(c[5]));
                }
            }
            byFabric.put(fabric, v);
        }
        return byFabric;
    }

    /** Messages up to this size are timed at {@link #LATENCY_DILATION} unless --time-dilation is given. */
    static final long LATENCY_SIZE_MAX = 1024;
    /**
     * Dilation for latencies: the emulation's own real cost (a few µs per message on this machine)
     * appears divided by the dilation; at 1000 it is below 1% of S5's 0.9–2.2 µs figures. Large
     * messages keep the default, at which bandwidths are already exact and runs stay short.
     */
    static final double LATENCY_DILATION = 1000;

    /** Splits a ping-pong launch (args: 4 fixed, then sizes) into a latency launch and a bandwidth launch. */
    static List<Launch> byDilation(Launch x, boolean dilationGiven) {
        if (dilationGiven) {
            return List.of(x);
        }
        Launch small = x.copy();
        Launch large = x.copy();
        small.args = new ArrayList<>(x.args.subList(0, 4));
        large.args = new ArrayList<>(x.args.subList(0, 4));
        for (String s : x.args.subList(4, x.args.size())) {
            (Long.parseLong(s) <= LATENCY_SIZE_MAX ? small : large).args.add(s);
        }
        small.dilation = LATENCY_DILATION;
        List<Launch> r = new ArrayList<>();
        for (Launch l : List.of(small, large)) {
            if (l.args.size() > 4) {
                r.add(l);
            }
        }
        return r;
    }

    /** Medians over reps of the rows: key test|variant|size|unit. */
    static Map<String, Double> medians(List<String> rows) {
        Map<String, List<Double>> all = new TreeMap<>();
        for (String line : rows) {
            if (line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",");
            all.computeIfAbsent(f[1] + "|" + f[2] + "|" + f[3] + "|" + f[6], k -> new ArrayList<>())
                .add(Double.parseDouble(f[5]));
        }
        Map<String, Double> m = new TreeMap<>();
        for (Map.Entry<String, List<Double>> e : all.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            m.put(e.getKey(), org.hympj.perf.Rows.median(v));
        }
        return m;
    }

    /** The comparison with S5's base figures (±10%), next to what the model says for the message alone. */
    static List<String> pingpongSummary(List<String> rows, String layout, ModelParams p, double dilation) {
        Map<String, Double> m = medians(rows);
        Analytic an = new Analytic(p);
        ModelParams noPio = p.with("tca.pio.limit", "0");
        Analytic dma = new Analytic(noPio);
        List<String> t = new ArrayList<>();
        t.add("| figure | S5/S1 | model alone | measured | within 10%? |");
        t.add("|---|---:|---:|---:|---|");
        String l = "-" + layout;
        Layout lay = Layout.CONTIGUOUS;
        Transfer.Mode eager = Transfer.Mode.MTOB;
        target(t, m, "TCA PIO 8 B (us)", 0.9, an.oneWay(Fabric.TCA, 8, lay, 1, 1, true, 1, eager, 4, 10),
            "fabric-pingpong-tca|persistent" + l + "|8|us");
        target(t, m, "TCA DMA 8 B, persistent, register descriptors (us)", Double.NaN,
            dma.oneWay(Fabric.TCA, 8, lay, 1, 1, true, 1, eager, 4, 10), "fabric-pingpong-tca-dma|persistent" + l
                + "|8|us");
        target(t, m, "TCA DMA 8 B, persistent, internal descriptors (us)", 2.0,
            dma.oneWay(Fabric.TCA, 8, lay, 1, 1, true, 100, eager, 4, 10),
            "fabric-pingpong-tca-dma|persistent-internal" + l + "|8|us");
        target(t, m, "TCA DMA 8 B, persistent, host descriptors (us)", 2.2,
            dma.oneWay(Fabric.TCA, 8, lay, 1, 1, true, 2000, eager, 4, 10),
            "fabric-pingpong-tca-dma|persistent-host" + l + "|8|us");
        target(t, m, "TCA DMA 8 B, isend/irecv, descriptor cache (promoted to internal) (us)", 2.0,
            dma.oneWay(Fabric.TCA, 8, lay, 1, 1, false, 1, eager, 4, 10),
            "fabric-pingpong-tca-dma|isend" + l + "|8|us");
        target(t, m, "TCA DMA 8 B, isend/irecv, descriptor cache (no promotion: host) (us)", 2.2,
            dma.oneWay(Fabric.TCA, 8, lay, 1, 1, false, 1, eager, 1000000000, 10),
            "fabric-pingpong-tca-dma-nopromote|isend" + l + "|8|us");
        target(t, m, "TCA DMA 8 B, blocking send/recv, descriptor cache (promoted to internal) (us)", 2.0,
            dma.oneWay(Fabric.TCA, 8, lay, 1, 1, false, 1, eager, 4, 10),
            "fabric-pingpong-tca-dma|blocking" + l + "|8|us");
        target(t, m, "IB 8 B (us)", 2.1, an.oneWay(Fabric.IB, 8, lay, 1, 1, false, 1, eager, 4, 10),
            "fabric-pingpong-ib|blocking" + l + "|8|us");
        peak(t, m, "TCA DMA peak (GB/s)", 3.5, an, Fabric.TCA, "fabric-pingpong-tca|persistent" + l);
        peak(t, m, "IB peak (GB/s)", 3.8, an, Fabric.IB, "fabric-pingpong-ib|persistent" + l);
        t.add("(measured: median over reps of the median of 5 batches; model alone: the timing model for one message "
            + "on idle fabrics; dilation " + (dilation > 0 ? Launch.fmt(dilation) : Launch.fmt(LATENCY_DILATION)
            + " up to " + LATENCY_SIZE_MAX + " B, default (10 for 2 ranks) above") + ")");
        return t;
    }

    private static void target(List<String> t, Map<String, Double> m, String what, double target, double model,
                               String key) {
        Double v = m.get(key);
        if (v == null) {
            return;
        }
        String ok = Double.isNaN(target) ? "—" : Math.abs(v - target) <= 0.1 * target ? "yes" : "no";
        t.add(String.format(Locale.ROOT, "| %s | %s | %.3f | %.3f | %s |", what,
            Double.isNaN(target) ? "—" : Launch.fmt(target), model, v, ok));
    }

    private static void peak(List<String> t, Map<String, Double> m, String what, double target, Analytic an, Fabric f,
                             String prefix) {
        double best = 0;
        long at = 0;
        for (Map.Entry<String, Double> e : m.entrySet()) {
            if (e.getKey().startsWith(prefix + "|") && e.getKey().endsWith("|GB/s") && e.getValue() > best) {
                best = e.getValue();
                at = Long.parseLong(e.getKey().split("\\|")[2]);
            }
        }
        if (at == 0) {
            return;
        }
        double model = at / an.oneWay(f, at, Layout.CONTIGUOUS, 1, at / 8, true, 1, Transfer.Mode.MTOM, 4, 10) / 1000;
        t.add(String.format(Locale.ROOT, "| %s, at %s | %s | %.3f | %.3f | %s |", what, size(at), Launch.fmt(target),
            model, best, Math.abs(best - target) <= 0.1 * target ? "yes" : "no"));
    }

    static String size(long b) {
        if (b >= 1 << 20 && b % (1 << 20) == 0) {
            return (b >> 20) + " MiB";
        }
        if (b >= 1024 && b % 1024 == 0) {
            return (b >> 10) + " KiB";
        }
        return b + " B";
    }

    // ------------------------------------------------------------------ crossover

    /** The N grid the emulated crossover measures for a face: around the analytic crossover and S1's range. */
    static List<Integer> grid(Face f, double analytic) {
        TreeSet<Integer> g = new TreeSet<>();
        if (f.dims == 2) {
            // 16000, not 16384: an N x N array of doubles must fit one 2 GiB segment
            g.addAll(List.of(1024, 2048, 4096, 8192, 12288, 16000));
            if (!Double.isNaN(analytic) && analytic <= 16000) {
                int a = (int) Math.round(analytic / 256) * 256;
                g.add(Math.max(256, a - 1024));
                g.add(a + 1024);
            }
            return new ArrayList<>(g);
        }
        if (f.s1Lo > 0) {
            g.add(f.s1Lo);
            g.add(f.s1Hi);
        }
        if (!Double.isNaN(analytic)) {
            int a = (int) Math.round(analytic / 8) * 8;
            for (int d : new int[] {-48, -16, 16, 48}) {
                if (a + d >= 32) {
                    g.add(a + d);
                }
            }
        } else {
            g.addAll(List.of(128, 256, 384, 512, 640));
        }
        return new ArrayList<>(g);
    }

    /** The largest segment a rank can map (one MappedByteBuffer). */
    static final long SEGMENT_MAX = Integer.MAX_VALUE;

    /** Segment bytes for a ping-pong of a face: what it spans, a ghost, and room for the allocator. */
    static long segmentFor(Face f, int n) {
        long need = 8 * (f.span(n) + f.elements(n)) + (1L << 20);
        if (need > SEGMENT_MAX) {
            throw new IllegalArgumentException(f.title + " at N=" + n + " needs a " + need + "-byte segment; a segment "
                + "holds at most 2 GiB");
        }
        return Math.max(need, 64L << 20);
    }

    /** Where TCA−IB first turns positive on a measured grid (linear interpolation); NaN: TCA throughout. */
    static double crossing(List<Integer> ns, Map<Integer, Double> tca, Map<Integer, Double> ib) {
        double pn = Double.NaN;
        double pd = Double.NaN;
        for (int n : ns) {
            Double a = tca.get(n);
            Double b = ib.get(n);
            if (a == null || b == null) {
                continue;
            }
            double d = a - b;
            if (d > 0) {
                return Double.isNaN(pd) ? -n : pn + (n - pn) * (-pd) / (d - pd); // negative: IB already faster at n
            }
            pn = n;
            pd = d;
        }
        return Double.NaN;
    }

    static String crossText(double x, List<Integer> ns) {
        if (Double.isNaN(x)) {
            return "none up to " + ns.get(ns.size() - 1);
        }
        if (x < 0) {
            return "below " + (int) -x;
        }
        return String.format(Locale.ROOT, "%.0f", x);
    }

    static int crossover(String[] argv, PrintStream out, PrintStream err) throws IOException {
        Opts o = Opts.parse(argv, with(COMMON, "--faces", "--grid"), Set.of("--verbose", "--analytic-only"));
        String model = o.get("--model", "ha-pacs");
        ModelParams p = ModelParams.load(model);
        Analytic an = new Analytic(p);
        List<Face> faces = new ArrayList<>();
        for (String k : o.get("--faces", "2d-block,2d-stride,3d-block,3d-blockstride,3d-stride").split(",")) {
            faces.add(Face.of(k.trim()));
        }
        out.println(Launch.conditions("crossover start") + "; model " + model);
        Map<Face, Double> analytic = new LinkedHashMap<>();
        for (Face f : faces) {
            analytic.put(f, an.crossover(f));
        }
        for (String line : conflict(p)) {
            out.println("# " + line);
        }
        Map<Face, Double> emulated = new LinkedHashMap<>();
        Map<Face, List<Integer>> grids = new LinkedHashMap<>();
        if (!o.has("--analytic-only")) {
            double dil = o.dbl("--time-dilation", 100);
            for (Face f : faces) {
                List<Integer> ns = grid(f, analytic.get(f));
                grids.put(f, ns);
                Map<String, Map<Integer, Double>> byFabric = faceOverBothFabrics(o, "crossover-", f, ns, dil, out, err);
                for (int n : ns) {
                    out.println(org.hympj.perf.Rows.row("crossover-model-tca", f.key, n, 1, an.face(Fabric.TCA, f, n), 3,
                        "us"));
                    out.println(org.hympj.perf.Rows.row("crossover-model-ib", f.key, n, 1, an.face(Fabric.IB, f, n), 3,
                        "us"));
                }
                double x = crossing(ns, byFabric.get("tca"), byFabric.get("ib"));
                emulated.put(f, x);
                out.println(org.hympj.perf.Rows.row("crossover-n", f.key + "-emulated", 0, 1, x, 1, "N"));
                err.println("# " + f.title + ": emulated crossover " + crossText(x, ns) + ", analytic "
                    + crossText(analytic.get(f), List.of(f.dims == 2 ? 65536 : 2048)) + ", S1 " + f.s1Text());
            }
        }
        for (Face f : faces) {
            out.println(org.hympj.perf.Rows.row("crossover-n", f.key + "-analytic", 0, 1, analytic.get(f), 1, "N"));
        }
        out.println(Launch.conditions("crossover end"));
        List<String> table = new ArrayList<>();
        table.add("| face | S1: TCA wins up to N | analytic (model) | emulated | analytic in S1? | emulated in S1? |");
        table.add("|---|---|---:|---:|---|---|");
        for (Face f : faces) {
            double a = analytic.get(f);
            Double e = emulated.get(f);
            table.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |", f.title, f.s1Text(),
                crossText(a, List.of(f.dims == 2 ? 65536 : 2048)),
                e == null ? "—" : crossText(e, grids.get(f)), f.agrees(a) ? "yes" : "no",
                e == null ? "—" : (e >= 0 || Double.isNaN(e)) && f.agrees(e) ? "yes" : "no"));
        }
        for (String line : table) {
            out.println("# " + line);
            err.println(line);
        }
        return 0;
    }

    /**
     * Why S1's 2D-stride row cannot be met with the 3D rows: the values of TCA's per-element pack
     * cost and IB's fixed pack cost that would put both stride crossovers in the middle of S1's
     * ranges at once.
     */
    static List<String> conflict(ModelParams p) {
        List<String> t = new ArrayList<>();
        double[] s = Analytic.solve(p, "tca.pack.element.cost", "ib.pack.fixed.cost", Face.D2_STRIDE, 12288,
            Face.D3_STRIDE, 544);
        t.add(String.format(Locale.ROOT, "2D stride at N=12288 and 3D stride at N=544 together need "
            + "tca.pack.element.cost = %.6f us and ib.pack.fixed.cost = %.3f us (now %s and %s)", s[0], s[1],
            p.raw().getProperty("tca.pack.element.cost").trim(), p.raw().getProperty("ib.pack.fixed.cost").trim()));
        double[] s2 = Analytic.solve(p, "ib.pack.element.cost", "ib.pack.fixed.cost", Face.D2_STRIDE, 12288,
            Face.D3_STRIDE, 544);
        t.add(String.format(Locale.ROOT, "or ib.pack.element.cost = %.6f us and ib.pack.fixed.cost = %.3f us",
            s2[0], s2[1]));
        return t;
    }

    // ------------------------------------------------------------------ calibrate

    /**
     * {@code calibrate --pattern halo --dims 2|3 [--route-table BASE] [N...]}: a route table
     * calibrated on S1's halo exchange itself ({@link HaloCalibration}), analytic on the model.
     */
    static int calibrateOnPattern(Opts o, String model, ModelParams p, PrintStream out, PrintStream err)
        throws IOException {
        if (!o.get("--pattern", "").equals("halo")) {
            throw new IllegalArgumentException("--pattern must be halo, was " + o.get("--pattern", ""));
        }
        int dims = o.integer("--dims", 3);
        if (dims != 2 && dims != 3) {
            throw new IllegalArgumentException("--dims must be 2 or 3, was " + dims);
        }
        List<Long> ns = o.positional.isEmpty() ? (dims == 2 ? HALO_2D : HALO_3D) : o.sizes();
        RouteTable base = RouteTable.load(o.get("--route-table", "ha-pacs"));
        out.println(Launch.conditions("calibrate start") + "; model " + model + "; pattern halo " + dims + "D");
        HaloCalibration.Result r = HaloCalibration.calibrate(p, dims, ns, base);
        for (String line : r.lines) {
            out.println("# " + line);
            err.println(line);
        }
        Path file = Paths.get(o.get("--out", Launch.home().resolve("perf/results/" + Launch.today() + "-halo" + dims
            + "d-calibrated-" + Paths.get(model).getFileName().toString().replace(".properties", "") + ".route")
            .toString()));
        Files.createDirectories(file.toAbsolutePath().getParent());
        r.table.store(file, "HyMPJ route table calibrated on S1's " + dims + "D halo exchange by bin/hympj-bench "
            + "calibrate --pattern halo --dims " + dims + " --model " + model + " (analytic, the timing model; base "
            + base.source() + ")\n" + String.join("\n", r.lines));
        out.println("# route table written to " + file);
        err.println("route table written to " + file + ":");
        err.print(r.table.describe());
        return 0;
    }

    static final Face[] CALIBRATION = {Face.D3_BLOCK, Face.D3_BLOCKSTRIDE, Face.D3_STRIDE};

    static int calibrate(String[] argv, PrintStream out, PrintStream err) throws IOException {
        Opts o = Opts.parse(argv, with(COMMON, "--out", "--pattern", "--dims", "--route-table"),
            Set.of("--verbose", "--analytic-only"));
        String model = o.get("--model", "ha-pacs");
        ModelParams p = ModelParams.load(model);
        if (o.has("--pattern")) {
            return calibrateOnPattern(o, model, p, out, err);
        }
        Analytic an = new Analytic(p);
        double dil = o.dbl("--time-dilation", 100);
        out.println(Launch.conditions("calibrate start") + "; model " + model);
        long[] upTo = new long[3];
        StringBuilder how = new StringBuilder();
        for (int i = 0; i < CALIBRATION.length; i++) {
            Face f = CALIBRATION[i];
            double a = an.crossover(f);
            double x = a;
            if (!o.has("--analytic-only") && !Double.isNaN(a)) {
                List<Integer> ns = new ArrayList<>();
                int c = (int) Math.round(a / 8) * 8;
                for (int d : new int[] {-32, -8, 8, 32}) {
                    ns.add(c + d);
                }
                Map<String, Map<Integer, Double>> v = faceOverBothFabrics(o, "calibrate-", f, ns, dil, out, err);
                x = crossing(ns, v.get("tca"), v.get("ib"));
                if (x < 0) {
                    x = -x; // IB already faster at the smallest N measured: that N bounds it
                } else if (Double.isNaN(x)) {
                    x = ns.get(3); // TCA throughout: at least the largest N measured
                }
            }
            upTo[i] = Double.isNaN(x) ? RouteTable.ALWAYS : (long) Math.floor(f.bytes(1) * x * x);
            String line = String.format(Locale.ROOT, "%s (%s): IB overtakes TCA at N = %s (analytic %s) -> TCA up to %s bytes",
                f.layout.key(), f.title, Double.isNaN(x) ? "never" : String.format(Locale.ROOT, "%.1f", x),
                Double.isNaN(a) ? "never" : String.format(Locale.ROOT, "%.1f", a),
                upTo[i] == RouteTable.ALWAYS ? "always" : Long.toString(upTo[i]));
            how.append(line).append('\n');
            out.println("# " + line);
            err.println(line);
            out.println(org.hympj.perf.Rows.row("calibrate-n", f.layout.key(), 0, 1, x, 1, "N"));
        }
        RouteTable table = new RouteTable(upTo[0], upTo[1], upTo[2], 0, "calibrated");
        Path file = Paths.get(o.get("--out", Launch.home().resolve("perf/results/" + Launch.today() + "-calibrated-"
            + Paths.get(model).getFileName().toString().replace(".properties", "") + ".route").toString()));
        Files.createDirectories(file.toAbsolutePath().getParent());
        table.store(file, "HyMPJ route table calibrated by bin/hympj-bench calibrate --model " + model
            + (o.has("--analytic-only") ? " --analytic-only" : " (emulated ping-pong, 2 ranks, --time-dilation "
            + Launch.fmt(dil) + ")") + "\n" + Launch.conditions("calibrated").substring(2) + "\n"
            + "per layout, S1's 3D face of that layout ping-ponged over TCA and IB; the largest message that takes TCA:\n"
            + how.toString().trim());
        out.println(Launch.conditions("calibrate end"));
        out.println("# route table written to " + file);
        err.println("route table written to " + file + ":");
        err.print(table.describe());
        return 0;
    }

    // ------------------------------------------------------------------ halo

    /** 2D sizes: powers of two, and 16000 for 16384 (an N x N array of doubles must fit one 2 GiB segment). */
    static final List<Long> HALO_2D = List.of(64L, 128L, 256L, 512L, 1024L, 2048L, 4096L, 8192L, 16000L);
    static final List<Long> HALO_3D = List.of(64L, 128L, 192L, 256L, 320L, 384L, 448L, 512L);

    static int halo(String[] argv, PrintStream out, PrintStream err) throws IOException {
        Opts o = Opts.parse(argv, with(COMMON, "--dims", "--route", "--subcluster", "--route-table", "--label",
            "--warmup", "--iters"), Set.of("--verbose", "--launch-per-cell"));
        int dims = o.integer("--dims", 3);
        if (dims != 2 && dims != 3) {
            throw new IllegalArgumentException("--dims must be 2 or 3");
        }
        int np = HaloModel.ranks(dims);
        String model = o.get("--model", "ha-pacs");
        boolean nativeRun = model.equals("none");
        List<Long> ns = o.positional.isEmpty() ? (dims == 2 ? HALO_2D : HALO_3D) : o.sizes();
        String r = o.get("--route", "all");
        List<String> routes = r.equals("all") ? (nativeRun ? List.of("tca", "ib", "hybrid")
            : List.of("tca", "ib", "hybrid", "hybrid-groups")) : Arrays.asList(r.split(","));
        int reps = o.integer("--reps", 1);
        String test = "halo-" + dims + "d" + (nativeRun ? "-native" : "");
        // on virtual time one job runs every N and route (each route a communicator with the
        // hympj.route hint); on the wall clock each N has its own dilation, so a job each
        boolean oneJob = !nativeRun && !"wall".equals(o.get("--clock", null)) && !o.has("--launch-per-cell");
        out.println(Launch.conditions("halo start") + "; model " + model + "; " + np + " ranks"
            + (oneJob ? "; one job per subcluster layout, routes by hint" : "; one job per N and route"));
        List<String> rows = new ArrayList<>();
        for (int rep = 1; rep <= reps; rep++) {
            if (oneJob) {
                // hybrid-groups is a job of its own: its subclusters are the halo's groups
                List<String> hinted = new ArrayList<>(routes);
                hinted.remove("hybrid-groups");
                if (!hinted.isEmpty()) {
                    rows.addAll(haloLaunch(o, dims, np, test, rep, ns, hinted, false, routes.size() > 1).run(out, err));
                }
                if (routes.contains("hybrid-groups")) {
                    rows.addAll(haloLaunch(o, dims, np, test, rep, ns, List.of("hybrid-groups"), false, routes.size() > 1)
                        .run(out, err));
                }
                continue;
            }
            for (long n : ns) {
                for (String route : routes) {
                    rows.addAll(haloLaunch(o, dims, np, test, rep, List.of(n), List.of(route), nativeRun, routes.size() > 1)
                        .run(out, err));
                }
            }
        }
        out.println(Launch.conditions("halo end"));
        for (String line : haloSummary(rows, test)) {
            out.println("# " + line);
            err.println(line);
        }
        return 0;
    }

    /**
     * One job of the halo benchmark over sizes {@code ns} and {@code routes}: one route (or
     * hybrid-groups) as the job's --route, or several, each on a communicator with the route hint
     * (the job's --route then auto). The segment holds the largest N.
     */
    private static Launch haloLaunch(Opts o, int dims, int np, String test, int rep, List<Long> ns, List<String> routes,
                                     boolean nativeRun, boolean labelSuffix) {
        Launch l = base(o, HaloRank.class.getName(), np);
        boolean groups = routes.equals(List.of("hybrid-groups"));
        boolean byHint = routes.size() > 1;
        l.route = groups ? "hybrid" : byHint ? "auto" : routes.get(0);
        l.subcluster = o.integer("--subcluster", groups ? HaloModel.groupSize(dims) : np);
        if (o.has("--route-table")) {
            l.routeTable = o.get("--route-table", null);
        }
        List<String> labels = new ArrayList<>();
        for (String route : routes) {
            labels.add(o.has("--label") ? o.get("--label", route) + (labelSuffix ? "-" + route : "") : route);
        }
        if (byHint) {
            l.jvmArgs.add("-Dhympj.halo.routes=" + String.join(",", routes));
            l.jvmArgs.add("-Dhympj.halo.labels=" + String.join(",", labels));
        } else {
            l.jvmArgs.add("-Dhympj.halo.variant=" + labels.get(0));
        }
        long nmax = 0;
        List<String> iters = new ArrayList<>();
        for (long n : ns) {
            nmax = Math.max(nmax, n);
            iters.add(Integer.toString(o.integer("--iters", defaultIters(dims, n, nativeRun))));
        }
        long array = dims == 2 ? nmax * nmax : nmax * nmax * nmax;
        long face = dims == 2 ? nmax : nmax * nmax;
        l.segmentBytes = 8 * (array + 2L * dims * face) + (16L << 20);
        if (l.segmentBytes > SEGMENT_MAX) {
            throw new IllegalArgumentException("N=" + nmax + " needs a " + l.segmentBytes + "-byte segment; "
                + "a segment holds at most 2 GiB (largest 2D N: 16000)");
        }
        int warm = o.integer("--warmup", 3);
        if (!nativeRun && !o.has("--time-dilation") && ns.size() == 1) {
            l.dilation = defaultDilation(dims, ns.get(0));
        }
        l.args = new ArrayList<>(List.of(test, Integer.toString(rep), Integer.toString(dims), Integer.toString(warm),
            String.join(",", iters)));
        for (long n : ns) {
            l.args.add(Long.toString(n));
        }
        return l;
    }

    /** Timed iterations by default: enough for a median, few where the emulation is slow. */
    static int defaultIters(int dims, long n, boolean nativeRun) {
        if (nativeRun) {
            return dims == 2 ? (n <= 4096 ? 200 : 50) : (n <= 128 ? 100 : 20);
        }
        if (dims == 2) {
            return n <= 1024 ? 100 : n <= 4096 ? 40 : 20;
        }
        return n <= 128 ? 20 : n <= 256 ? 10 : 6;
    }

    /**
     * Time dilation by default: large enough that the real cost of 4 or 8 ranks on 2 cores
     * (scheduling, rendezvous handshakes, copies: up to a few ms per iteration on a busy machine)
     * stays small against the modelled iteration, and small enough that large N finish.
     */
    static double defaultDilation(int dims, long n) {
        if (dims == 2) {
            return n <= 1024 ? 2000 : n <= 4096 ? 1000 : 400;
        }
        return n <= 128 ? 1000 : 200;
    }

    /** Per N: the routes' µs per iteration, TCA/hybrid, IB/hybrid and hybrid ÷ the better single route. */
    static List<String> haloSummary(List<String> rows, String test) {
        Map<String, Double> m = medians(rows);
        TreeSet<Long> ns = new TreeSet<>();
        TreeSet<String> variants = new TreeSet<>();
        for (String k : m.keySet()) {
            String[] f = k.split("\\|");
            if (f[0].equals(test)) {
                ns.add(Long.parseLong(f[2]));
                variants.add(f[1]);
            }
        }
        List<String> t = new ArrayList<>();
        List<String> order = new ArrayList<>();
        for (String v : List.of("tca", "ib", "hybrid", "hybrid-groups")) {
            if (variants.remove(v)) {
                order.add(v);
            }
        }
        order.addAll(variants);
        StringBuilder h = new StringBuilder("| N |");
        StringBuilder s = new StringBuilder("|---:|");
        for (String v : order) {
            h.append(' ').append(v).append(" |");
            s.append("---:|");
        }
        boolean ratios = order.contains("tca") && order.contains("ib") && order.contains("hybrid");
        if (ratios) {
            h.append(" TCA/hybrid | IB/hybrid | hybrid ÷ better single |");
            s.append("---:|---:|---:|");
        }
        t.add("µs per iteration (" + test + ", median over iterations of the slowest rank; median over reps)");
        t.add(h.toString());
        t.add(s.toString());
        for (long n : ns) {
            StringBuilder b = new StringBuilder("| " + n + " |");
            for (String v : order) {
                Double x = m.get(test + "|" + v + "|" + n + "|us/iter");
                b.append(x == null ? " — |" : String.format(Locale.ROOT, " %.1f |", x));
            }
            if (ratios) {
                Double tc = m.get(test + "|tca|" + n + "|us/iter");
                Double ib = m.get(test + "|ib|" + n + "|us/iter");
                Double hy = m.get(test + "|hybrid|" + n + "|us/iter");
                if (tc != null && ib != null && hy != null) {
                    b.append(String.format(Locale.ROOT, " %.2f | %.2f | %.2f |", tc / hy, ib / hy, hy / Math.min(tc, ib)));
                } else {
                    b.append(" — | — | — |");
                }
            }
            t.add(b.toString());
        }
        return t;
    }
}
