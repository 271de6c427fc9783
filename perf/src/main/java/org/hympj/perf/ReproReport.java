package org.hympj.perf;

import java.awt.Color;
import java.awt.Point;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.hympj.tools.chart.LineChart;
import org.hympj.rsched.LowerBound;
import org.hympj.rsched.MachineModel;
import org.hympj.rsched.ScaleLes3;
import org.hympj.rsched.Schedulers;

/**
 * Writes the tables (and plots) of the S2 and S3 reproductions from the CSV rows that
 * {@code bin/hympj-bench scale-les3} and {@code bin/hympj-bench onesided} printed:
 *
 * <pre>
 * java -cp 'perf/target/lib/*' org.hympj.perf.ReproReport scale-les3 --rows A.csv[,B.csv] [--override D.csv]
 *      [--dcheck C.csv] [--img-dir docs/img] [--doc docs/PERFORMANCE.md] [--note TEXT] [--dims 3x3]
 * java -cp 'perf/target/lib/*' org.hympj.perf.ReproReport onesided --native N.csv[,P.csv] --model M.csv[,Q.csv]
 *      [--model2 D.csv --model2-label TEXT [--model3 ...]] [--doc ...]
 * </pre>
 *
 * Each figure is the median over the rows' repetitions (launches); {@code --override} rows replace
 * every row of the same test and variant from {@code --rows} (a policy launched again with a
 * newer build). With {@code --doc} the
 * Markdown replaces the section between {@code <!-- repro:NAME -->} and
 * {@code <!-- /repro:NAME -->} (appended when missing), else it goes to stdout. The simulated
 * figures are computed here: RSched's {@code Table} (S3's 3×3 neighbourhood,
 * {@link MachineModel#tofu()}), RSched on the job's own put set (--dims: its grid), and the replay of the
 * emulator's model ({@link ScaleLes3Model}).
 */
public final class ReproReport {
    static final List<String> POLICIES = Benchmarks.SCHED_POLICIES;
    /** The baseline beside the policies when its rows are there: S3's original eager/rendezvous (--sched rndv). */
    static final String RNDV = "rndv";

    /** The periodic grid of ranks the rows were measured on (--dims XxY; default 4x2, the 8-rank job). */
    record Grid(int[] dims) {
        static Grid parse(String s) {
            String[] xy = s.split("x");
            if (xy.length != 2) {
                throw new IllegalArgumentException("--dims must be XxY, e.g. 3x3, was " + s);
            }
            return new Grid(new int[] {Integer.parseInt(xy[0]), Integer.parseInt(xy[1])});
        }

        int ranks() {
            return dims[0] * dims[1];
        }

        String label() {
            return dims[0] + "×" + dims[1];
        }

        /** True where a dimension of extent 2 makes N and S (or E and W) one neighbour and one link. */
        boolean hasExtent2() {
            return dims[0] == 2 || dims[1] == 2;
        }
    }

    /** The columns: RSched's policies and none, then rndv when measured. */
    static List<String> policies(List<Row> rows) {
        List<String> p = new ArrayList<>(POLICIES);
        for (Row r : rows) {
            if (r.variant.equals(RNDV) && r.test.startsWith("scale-les3-")) {
                p.add(RNDV);
                break;
            }
        }
        return p;
    }

    /** No RSched schedule: the engine unscheduled (none) and the two-sided baseline (rndv). */
    static boolean unscheduled(String policy) {
        return policy.equals("none") || policy.equals(RNDV);
    }
    static final List<String> S3_SIX = List.of("rr:1", "rr:2", "rr:4", "bl:1", "bl:2", "bl:4");

    private ReproReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: ReproReport scale-les3|onesided [options]");
        }
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option VALUE, got " + args[i]);
            }
            o.put(args[i].substring(2), args[++i]);
        }
        String md;
        if (args[0].equals("scale-les3")) {
            List<Row> r = rows(o.get("rows"));
            if (o.containsKey("override")) {
                r = override(r, rows(o.get("override")));
            }
            md = scaleLes3(r, o.containsKey("dcheck") ? rows(o.get("dcheck")) : List.of(),
                o.containsKey("img-dir") ? Paths.get(o.get("img-dir")) : null, o.getOrDefault("note", ""),
                Grid.parse(o.getOrDefault("dims", "4x2")));
        } else if (args[0].equals("onesided")) {
            List<List<Row>> more = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (int k = 2; o.containsKey("model" + k); k++) {
                more.add(rows(o.get("model" + k)));
                labels.add(o.getOrDefault("model" + k + "-label", ""));
            }
            md = oneSided(rows(o.get("native")), rows(o.get("model")), more, labels, o.getOrDefault("note", ""));
        } else {
            throw new IllegalArgumentException("unknown report " + args[0]);
        }
        if (o.containsKey("doc")) {
            Path doc = Paths.get(o.get("doc"));
            String text = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : "";
            Files.writeString(doc, replaceSection(text, args[0], md), StandardCharsets.UTF_8);
        } else {
            System.out.print(md);
        }
    }

    // ------------------------------------------------------------------ rows

    /** One CSV row of a benchmark. */
    record Row(String test, String variant, long size, int rep, double value) {
    }

    static List<Row> rows(String files) throws IOException {
        if (files == null) {
            throw new IllegalArgumentException("missing rows file");
        }
        List<Row> out = new ArrayList<>();
        for (String f : files.split(",")) {
            for (String line : Files.readAllLines(Paths.get(f.trim()), StandardCharsets.UTF_8)) {
                String[] c = line.split(",");
                if (c.length == 7 && c[0].equals(Rows.SYSTEM)) {
                    out.add(new Row(c[1], c[2], Long.parseLong(c[3]), Integer.parseInt(c[4]), Double.parseDouble(c[5])));
                }
            }
        }
        return out;
    }

    /** {@code base} without the (test, variant) pairs that {@code newer} has, plus {@code newer}. */
    static List<Row> override(List<Row> base, List<Row> newer) {
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (Row r : newer) {
            keys.add(r.test + "|" + r.variant);
        }
        List<Row> out = new ArrayList<>();
        for (Row r : base) {
            if (!keys.contains(r.test + "|" + r.variant)) {
                out.add(r);
            }
        }
        out.addAll(newer);
        return out;
    }

    /** Median over the repetitions of (test, variant, size); NaN when absent. */
    static double med(List<Row> rows, String test, String variant, long size) {
        List<Double> v = new ArrayList<>();
        for (Row r : rows) {
            if (r.test.equals(test) && r.variant.equals(variant) && r.size == size) {
                v.add(r.value);
            }
        }
        return Rows.median(v);
    }

    static int count(List<Row> rows, String test, String variant, long size) {
        int n = 0;
        for (Row r : rows) {
            if (r.test.equals(test) && r.variant.equals(variant) && r.size == size) {
                n++;
            }
        }
        return n;
    }

    static String f(double v) {
        if (Double.isNaN(v)) {
            return "—";
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.1f" : "%.2f", v);
    }

    static String r2(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.2f", v);
    }

    // ------------------------------------------------------------------ scale-les3

    /** RSched's Table figure (µs): S3's 3×3 neighbourhood on MachineModel.tofu(); none = rr:1. */
    static double simS3(String policy, String pattern, int k) {
        return Schedulers.parse(policy.equals("none") ? "rr:1" : policy)
            .schedule(ScaleLes3.puts(k, pattern), MachineModel.tofu()).makespanNs() / 1000;
    }

    /** RSched's makespan (µs) on the job's own put set (rank 0), what the engine schedules; NaN unscheduled. */
    static double simJob(Grid g, String policy, String pattern, int k) {
        return unscheduled(policy) ? Double.NaN
            : ScaleLes3Model.schedule(g.dims(), policy, pattern, k).makespanNs() / 1000;
    }

    /** RSched's lower bound (µs) of the job's put set (rank 0). */
    static double boundJob(Grid g, String pattern, int k) {
        return ScaleLes3Model.schedule(g.dims(), "rr:1", pattern, k).lowerBoundNs() / 1000;
    }

    static String scaleLes3(List<Row> rows, List<Row> dcheck, Path imgDir, String note, Grid grid) throws IOException {
        List<String> cols = policies(rows);
        TreeSet<Long> ks = new TreeSet<>();
        for (Row r : rows) {
            if (r.test.startsWith("scale-les3-") && !r.test.endsWith("-sched") && !r.test.endsWith("-bound")) {
                ks.add(r.size);
            }
        }
        StringBuilder b = new StringBuilder();
        int reps = 0;
        for (Row r : rows) {
            reps = Math.max(reps, r.rep);
        }
        b.append(note.isEmpty() ? "" : note + "\n\n");
        b.append("Cells: **emulated** · simulated, µs per exchange. Emulated = `bin/hympj-bench scale-les3` (")
            .append(grid.ranks()).append(" ranks, ").append(grid.label()).append(" periodic, `--model tofu`, modelled "
            + "time, median over ").append(reps).append(" launch(es) of the cell's figure); simulated = RSched's "
            + "simulator on the job's own put set (rank 0's, what the engine schedules: `Engine#lastSchedule()`"
            + (grid.hasExtent2() ? ", N and S one neighbour and one link" : "") + "); `none` (the engine unscheduled: "
            + "request order, earliest free engine, free handshakes) and `rndv` (S3's original eager/rendezvous: "
            + "unscheduled, each rendezvous paying its RTS and CTS as puts on the engines) have no RSched figure. "
            + "**best** = the fastest emulated column; bl+ ÷ best is emulated; bound = RSched's lower bound of the "
            + "job's set; S3 = RSched's `Table` (S3's 3×3 neighbourhood, `MachineModel.tofu()`): bl+ makespan · "
            + "bound.\n");
        for (String pattern : ScaleLes3.PATTERNS) {
            String test = "scale-les3-" + pattern;
            b.append("\n**").append(pattern).append("**\n\n| k |");
            for (String p : cols) {
                b.append(' ').append(p).append(" |");
            }
            b.append(" best | bl+ ÷ best | bound | emulated bl+ ÷ bound | S3: bl+ · bound |\n|--:|");
            for (int i = 0; i < cols.size() + 5; i++) {
                b.append("--:|");
            }
            b.append('\n');
            for (long k : ks) {
                b.append("| ").append(k).append(" |");
                double best = Double.POSITIVE_INFINITY;
                String bestName = "";
                for (String p : cols) {
                    double e = med(rows, test, p, k);
                    if (e < best) {
                        best = e;
                        bestName = p;
                    }
                    b.append(" **").append(f(e)).append("** · ").append(f(simJob(grid, p, pattern, (int) k))).append(" |");
                }
                double blp = med(rows, test, "bl+", k);
                double lb = boundJob(grid, pattern, (int) k);
                b.append(' ').append(bestName).append(" | ").append(String.format(Locale.ROOT, "%.3f", blp / best))
                    .append(" | ").append(f(lb)).append(" | ").append(r2(blp / lb)).append(" | ")
                    .append(f(simS3("bl+", pattern, (int) k))).append(" · ")
                    .append(f(org.hympj.rsched.LowerBound.of(ScaleLes3.puts((int) k, pattern), MachineModel.tofu())
                        .valueNs() / 1000)).append(" |\n");
            }
        }
        b.append(targets(rows, ks, grid, cols));
        b.append(shapes(rows));
        b.append(replayTable(rows, grid));
        if (!dcheck.isEmpty()) {
            b.append(dilationCheck(rows, dcheck));
        }
        if (imgDir != null) {
            Files.createDirectories(imgDir);
            for (String pattern : List.of("nsew", "all", "ns")) {
                Path png = imgDir.resolve("scale-les3-" + pattern + ".png");
                plot(rows, pattern, ks, png, grid, cols);
                b.append("\n![time per exchange vs k, pattern ").append(pattern).append("](img/").append(png.getFileName())
                    .append(")\n");
            }
            b.append("\n*Solid: emulated (median over the launches); dashed: RSched's simulator on the ")
                .append(grid.label()).append(" job's put set, same colour per policy (`none` and `rndv` have none).*\n");
        }
        return b.toString();
    }

    /** The targets, cell by cell. */
    static String targets(List<Row> rows, TreeSet<Long> ks, Grid grid, List<String> cols) {
        StringBuilder b = new StringBuilder("\n**Targets**\n\n| target | figures | met? |\n|---|---|---|\n");
        long kmax = ks.isEmpty() ? 872 : ks.last();
        for (String pattern : List.of("nsew", "all")) {
            String test = "scale-les3-" + pattern;
            double bl4 = med(rows, test, "bl:4", kmax);
            double rndv = med(rows, test, RNDV, kmax);
            double none = med(rows, test, "none", kmax);
            double rr1 = med(rows, test, "rr:1", kmax);
            b.append(String.format(Locale.ROOT, "| BL(4) ≥ 1.8× faster than eager/rendezvous, %s, k=%d | vs `rndv` "
                    + "(S3's original protocol): %s ÷ %s = %.2f×; for reference vs `none` (unscheduled, free "
                    + "handshakes): %.2f×, vs rr:1 (one engine, request order): %.2f× | %s |%n", pattern, kmax, f(rndv),
                f(bl4), rndv / bl4, none / bl4, rr1 / bl4, Double.isNaN(rndv) ? "not measured"
                    : rndv / bl4 >= 1.8 ? "yes" : "**no**"));
        }
        int cells = 0;
        int within = 0;
        double worst = 0;
        String worstCell = "";
        List<String> misses = new ArrayList<>();
        int schedCells = 0;
        int schedOk = 0;
        double schedWorst = 0;
        String schedWorstCell = "";
        double emuWorst = 0;
        for (String pattern : ScaleLes3.PATTERNS) {
            String test = "scale-les3-" + pattern;
            for (long k : ks) {
                double best = Double.POSITIVE_INFINITY;
                String bestName = "";
                for (String p : cols) {
                    double e = med(rows, test, p, k);
                    if (e < best) {
                        best = e;
                        bestName = p;
                    }
                }
                double blp = med(rows, test, "bl+", k);
                if (Double.isNaN(blp)) {
                    continue;
                }
                cells++;
                double ratio = blp / best;
                if (ratio <= 1.02) {
                    within++;
                } else {
                    misses.add(String.format(Locale.ROOT, "%s k=%d %.2f (%s)", pattern, k, ratio, bestName));
                }
                if (ratio > worst) {
                    worst = ratio;
                    worstCell = pattern + " k=" + k;
                }
                double ms = med(rows, test + "-sched", "bl+", k);
                double lb = med(rows, test + "-bound", "bl+", k);
                if (!Double.isNaN(ms) && !Double.isNaN(lb)) {
                    schedCells++;
                    if (ms <= 1.25 * lb) {
                        schedOk++;
                    }
                    if (ms / lb > schedWorst) {
                        schedWorst = ms / lb;
                        schedWorstCell = pattern + " k=" + k;
                    }
                    emuWorst = Math.max(emuWorst, blp / lb);
                }
            }
        }
        b.append(String.format(Locale.ROOT, "| bl+ within 2%% of the best policy, every pattern and k (emulated) | %d of "
                + "%d cells; worst %.2f× (%s)%s | %s |%n", within, cells, worst, worstCell,
            misses.isEmpty() ? "" : "; over 2%: " + String.join(", ", misses.subList(0, Math.min(12, misses.size())))
                + (misses.size() > 12 ? ", …" : ""), within == cells ? "yes" : "**no**"));
        b.append(String.format(Locale.ROOT, "| bl+ makespan ≤ 1.25× the lower bound (the engine's schedule, "
                + "`Engine#lastSchedule()`: RSched's simulator on the %s job's put set) | %d of %d cells; worst %.3f "
                + "(%s). The emulated time over the same bound: up to %.2f× | %s (schedule); %s (emulated) |%n",
            grid.label(), schedOk, schedCells, schedWorst, schedWorstCell, emuWorst,
            schedOk == schedCells ? "yes" : "**no**", emuWorst <= 1.25 ? "yes" : "**no**"));
        return b.toString();
    }

    /** S3's qualitative results, checked on the emulated medians (k = 60 and the largest k). */
    static String shapes(List<Row> rows) {
        StringBuilder b = new StringBuilder("\n**S3's shapes on the emulated figures** (k = 60 / 872)\n\n"
            + "| S3 | emulated | simulated (Table) |\n|---|---|---|\n");
        long[] kk = {60, 872};
        StringBuilder e = new StringBuilder();
        StringBuilder s = new StringBuilder();
        for (long k : kk) {
            double rr1 = med(rows, "scale-les3-ew", "rr:1", k);
            double others = Double.POSITIVE_INFINITY;
            double othersMax = 0;
            for (String p : S3_SIX) {
                if (!p.equals("rr:1")) {
                    others = Math.min(others, med(rows, "scale-les3-ew", p, k));
                    othersMax = Math.max(othersMax, med(rows, "scale-les3-ew", p, k));
                }
            }
            e.append(String.format(Locale.ROOT, "k=%d: others %s–%s, rr:1 %s (%.2f×); ", k, f(others), f(othersMax), f(rr1),
                rr1 / others));
            s.append(String.format(Locale.ROOT, "k=%d: %.2f×; ", k, simS3("rr:1", "ew", (int) k) / simS3("rr:2", "ew", (int) k)));
        }
        b.append("| EW: all equal, RR(1) ≈ 2× slower | ").append(e).append(" | ").append(s).append(" |\n");
        e.setLength(0);
        s.setLength(0);
        for (long k : kk) {
            e.append(String.format(Locale.ROOT, "k=%d: fastest of six %s; RR(2) ÷ RR(4) %.2f; ", k,
                fastest(rows, "ns", k, S3_SIX), med(rows, "scale-les3-ns", "rr:2", k) / med(rows, "scale-les3-ns", "rr:4", k)));
            s.append(String.format(Locale.ROOT, "k=%d: %.2f; ", k, simS3("rr:2", "ns", (int) k) / simS3("rr:4", "ns", (int) k)));
        }
        b.append("| NS: RR(4) fastest of S3's six, RR(2) ≈ 2× RR(4) | ").append(e).append(" | RR(4) fastest; RR(2) ÷ RR(4) ")
            .append(s).append(" |\n");
        for (String pattern : List.of("nsew", "all")) {
            e.setLength(0);
            s.setLength(0);
            for (long k : kk) {
                e.append(String.format(Locale.ROOT, "k=%d: fastest of six %s (BL(4) %s); ", k, fastest(rows, pattern, k, S3_SIX),
                    f(med(rows, "scale-les3-" + pattern, "bl:4", k))));
                String best = "";
                double bv = Double.POSITIVE_INFINITY;
                for (String p : S3_SIX) {
                    double v = simS3(p, pattern, (int) k);
                    if (v < bv - 1e-9) {
                        bv = v;
                        best = p;
                    }
                }
                s.append(String.format(Locale.ROOT, "k=%d: %s; ", k, best));
            }
            b.append("| ").append(pattern.toUpperCase(Locale.ROOT)).append(": BL(4) fastest of S3's six | ").append(e)
                .append(" | ").append(s).append(" |\n");
        }
        return b.toString();
    }

    static String fastest(List<Row> rows, String pattern, long k, List<String> among) {
        String best = "";
        double bv = Double.POSITIVE_INFINITY;
        for (String p : among) {
            double v = med(rows, "scale-les3-" + pattern, p, k);
            if (v < bv) {
                bv = v;
                best = p;
            }
        }
        return best;
    }

    /** Emulated vs the replay of the emulator's model vs RSched on the job's own put set, k = 60 and 872. */
    static String replayTable(List<Row> rows, Grid grid) {
        String g = grid.label();
        StringBuilder b = new StringBuilder("\n**Why emulated and simulated differ** — µs per exchange at k = 60 / 872: "
            + "emulated; the emulator's own model replayed (`ScaleLes3Model`: `TimingModel` on `ArrayTimelines`, all "
            + grid.ranks() + " ranks issuing at t = 0, ranks one after the other / put by put in turn); RSched's simulator "
            + "on the " + g + " job's put set (what `Engine#lastSchedule()` holds); RSched's `Table` (3×3 neighbourhood)"
            + (grid.hasExtent2() ? "; RSched on the " + g + " set with each put's direction of travel (N and S on two "
                + "links, as if the ring of 2's two ways were apart)" : "") + ".\n\n| pattern | policy | emulated | replay, "
            + "ranks in turn | replay, puts in turn | RSched, " + g + " set | RSched, Table |"
            + (grid.hasExtent2() ? " RSched, " + g + " travel directions |\n|---|---|--:|--:|--:|--:|--:|--:|\n"
                : "\n|---|---|--:|--:|--:|--:|--:|\n"));
        for (String pattern : ScaleLes3.PATTERNS) {
            for (String p : List.of("rr:1", "rr:4", "bl:4", "bl+", "none")) {
                StringBuilder c = new StringBuilder("| " + pattern + " | " + p + " |");
                for (int col = 0; col < (grid.hasExtent2() ? 6 : 5); col++) {
                    c.append(' ');
                    for (int ki = 0; ki < 2; ki++) {
                        int k = ki == 0 ? 60 : 872;
                        double v;
                        switch (col) {
                            case 0:
                                v = med(rows, "scale-les3-" + pattern, p, k);
                                break;
                            case 1:
                                v = ScaleLes3Model.replay(grid.dims(), p, pattern, k, ScaleLes3Model.Order.RANKS) / 1000;
                                break;
                            case 2:
                                v = ScaleLes3Model.replay(grid.dims(), p, pattern, k, ScaleLes3Model.Order.INTERLEAVED)
                                    / 1000;
                                break;
                            case 3:
                                v = ScaleLes3Model.schedule(grid.dims(), p.equals("none") ? "rr:1" : p, pattern, k)
                                    .makespanNs() / 1000;
                                break;
                            case 4:
                                v = simS3(p, pattern, k);
                                break;
                            default:
                                v = ScaleLes3Model.scheduleTravelDirections(p.equals("none") ? "rr:1" : p, pattern, k)
                                    .makespanNs() / 1000;
                                break;
                        }
                        c.append(ki == 0 ? "" : " / ").append(f(v));
                    }
                    c.append(" |");
                }
                b.append(c).append('\n');
            }
        }
        return b.toString();
    }

    /** The time dilation check: the same cells at D and 2D. */
    static String dilationCheck(List<Row> rows, List<Row> dcheck) {
        StringBuilder b = new StringBuilder("\n**Time dilation check** — the same cells launched again at twice the "
            + "dilation (rows of `--dcheck`; variant suffixed `@D`): µs per exchange, median over launches.\n\n"
            + "| pattern | k | policy | at D | at 2D | 2D ÷ D |\n|---|--:|---|--:|--:|--:|\n");
        TreeMap<String, double[]> cells = new TreeMap<>();
        for (Row r : dcheck) {
            if (!r.test.startsWith("scale-les3-") || r.test.endsWith("-sched") || r.test.endsWith("-bound")) {
                continue;
            }
            String[] pv = r.variant.split("@");
            if (pv.length != 2) {
                continue;
            }
            String key = r.test.substring("scale-les3-".length()) + "|" + r.size + "|" + pv[0];
            cells.computeIfAbsent(key, x -> new double[] {Double.NaN, Double.NaN});
        }
        for (String key : cells.keySet()) {
            String[] p = key.split("\\|");
            String test = "scale-les3-" + p[0];
            long k = Long.parseLong(p[1]);
            TreeSet<Double> ds = new TreeSet<>();
            for (Row r : dcheck) {
                if (r.test.equals(test) && r.size == k && r.variant.startsWith(p[2] + "@")) {
                    ds.add(Double.parseDouble(r.variant.substring(r.variant.indexOf('@') + 1)));
                }
            }
            if (ds.size() < 2) {
                continue;
            }
            double d1 = ds.first();
            double d2 = ds.last();
            double v1 = med(dcheck, test, p[2] + "@" + fmtD(d1), k);
            double v2 = med(dcheck, test, p[2] + "@" + fmtD(d2), k);
            b.append(String.format(Locale.ROOT, "| %s | %d | %s | %s (D=%s) | %s (D=%s) | %.2f |%n", p[0], k, p[2], f(v1),
                fmtD(d1), f(v2), fmtD(d2), v2 / v1));
        }
        return b.toString();
    }

    static String fmtD(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    // ------------------------------------------------------------------ plot

    static final Color[] COLOURS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x222222), new Color(0x17becf)};

    /** Time per exchange vs k, one colour per policy: emulated solid with dots, RSched's Table dashed. */
    static void plot(List<Row> rows, String pattern, TreeSet<Long> ks, Path png, Grid grid, List<String> cols)
        throws IOException {
        List<List<double[]>> emulated = new ArrayList<>();
        List<List<double[]>> rsched = new ArrayList<>();
        double ymax = 0;
        for (String p : cols) {
            List<double[]> em = new ArrayList<>();
            List<double[]> rs = new ArrayList<>();
            for (long k : ks) {
                double e = med(rows, "scale-les3-" + pattern, p, k);
                if (!Double.isNaN(e)) {
                    em.add(new double[] {k, e});
                    ymax = Math.max(ymax, e);
                }
                double sv = simJob(grid, p, pattern, (int) k);
                if (!Double.isNaN(sv)) {
                    rs.add(new double[] {k, sv});
                    ymax = Math.max(ymax, sv);
                }
            }
            emulated.add(em);
            rsched.add(rs);
        }
        ymax = niceCeil(ymax);
        List<LineChart.Tick> yt = new ArrayList<>();
        for (int i = 0; i <= 5; i++) {
            yt.add(new LineChart.Tick(ymax * i / 5, String.format(Locale.ROOT, "%.0f", ymax * i / 5),
                new Color(0xe5e5e5)));
        }
        List<LineChart.Tick> xt = new ArrayList<>();
        for (long k : ks) {
            xt.add(new LineChart.Tick(k, k != 70 && k != 80 ? Long.toString(k) : null, null));
        }
        String dims = grid.dims()[0] + "x" + grid.dims()[1];
        LineChart.Layout at = new LineChart.Layout(960, 600, 80, 150, 50, 60, 12, 13, 30, 8, 4, false);
        String title = "SCALE-LES3 halo, pattern " + pattern + ": time per exchange vs k (tofu model, " + grid.ranks()
            + " ranks " + dims + ")";
        LineChart chart = new LineChart(at, title,
            new LineChart.Axis("k (vertical levels)", new Point(at.left() + at.plotWidth() / 2 - 50, at.height() - 18),
                LineChart.Scale.LINEAR, ks.first(), ks.last(), LineChart.Snap.FLOOR, xt, 4, Color.DARK_GRAY),
            new LineChart.Axis("modelled us per exchange", new Point(25, at.top() + at.plotHeight() / 2 + 80),
                LineChart.Scale.LINEAR, 0, ymax, LineChart.Snap.FLOOR, yt, 0, Color.DARK_GRAY),
            new LineChart.Legend(false, 10, 22, 30, 37, 5, true, 10));
        for (int pi = 0; pi < cols.size(); pi++) {
            Color c = COLOURS[pi % COLOURS.length];
            chart.add(new LineChart.Series(null, c, rsched.get(pi), 1.3f, true, 0, false),
                new LineChart.Series(cols.get(pi), c, emulated.get(pi), 2f, false, 7, false));
        }
        chart.note("RSched " + dims, Color.DARK_GRAY, 1.3f, true);
        chart.write(png);
    }

    static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    // ------------------------------------------------------------------ onesided

    /** S2's ideal in its own terms: 2 µs address notify + 2.3 µs data put (8 B). */
    static final double S2_IDEAL_US = 4.3;

    static String oneSided(List<Row> nat, List<Row> mod, String note) {
        return oneSided(nat, mod, List.of(), List.of(), note);
    }

    /** The variant of the rows whose name starts with {@code prefix + "-pre"} (null if none). */
    static String preVariant(List<Row> rows, String prefix) {
        for (Row r : rows) {
            if (r.test.equals("onesided-lat") && r.variant.startsWith(prefix + "-pre")) {
                return r.variant;
            }
        }
        return null;
    }

    static TreeSet<Long> sizesOf(List<Row> rows, String test) {
        TreeSet<Long> sizes = new TreeSet<>();
        for (Row r : rows) {
            if (r.test.equals(test)) {
                sizes.add(r.size);
            }
        }
        return sizes;
    }

    /** Smallest and largest number of launches behind the figures of {@code test} in {@code rows}. */
    static String launches(List<Row> rows, String test) {
        Map<String, Integer> n = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.test.equals(test)) {
                n.merge(r.variant + "/" + r.size, 1, Integer::sum);
            }
        }
        int lo = Integer.MAX_VALUE;
        int hi = 0;
        for (int c : n.values()) {
            lo = Math.min(lo, c);
            hi = Math.max(hi, c);
        }
        return hi == 0 ? "0" : lo == hi ? Integer.toString(lo) : lo + "–" + hi;
    }

    /**
     * The S2 tables: latency under the model against the ideal (and pre-posted against one put),
     * natively against the two-sided engine (and pre-posted against two-sided pre-posted), and
     * bandwidth; {@code more} are further model runs (e.g. other time dilations), each with its
     * label, given latency tables of their own.
     */
    static String oneSided(List<Row> nat, List<Row> mod, List<List<Row>> more, List<String> labels, String note) {
        StringBuilder b = new StringBuilder(note.isEmpty() ? "" : note + "\n\n");
        modelLatency(b, mod, "");
        for (int k = 0; k < more.size(); k++) {
            b.append('\n');
            modelLatency(b, more.get(k), labels.get(k));
        }
        String opre = preVariant(nat, "onesided");
        String tpre = preVariant(nat, "twosided");
        b.append("\n**Latency natively** (`--model none`, real µs, half round trip; median over ")
            .append(launches(nat, "onesided-lat")).append(" launches of the median of 5 batches)\n\n"
            + "| size | one-sided | two-sided | one-sided ÷ two-sided | target ≤ 2 |");
        if (opre != null) {
            b.append(' ').append(opre).append(" | ").append(tpre == null ? "two-sided pre-posted" : tpre)
                .append(" | ratio |");
        }
        b.append("\n|--:|--:|--:|--:|---|");
        if (opre != null) {
            b.append("--:|--:|--:|");
        }
        b.append('\n');
        for (long s : sizesOf(nat, "onesided-lat")) {
            double os = med(nat, "onesided-lat", "onesided", s);
            double ts = med(nat, "onesided-lat", "twosided", s);
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |", Compare.sizeLabel("pingpong", s), f(os), f(ts),
                r2(os / ts), s <= 8192 && !Double.isNaN(os / ts) ? (os / ts <= 2 ? "yes" : "**no**") : "—"));
            if (opre != null) {
                double op = med(nat, "onesided-lat", opre, s);
                double tp = tpre == null ? Double.NaN : med(nat, "onesided-lat", tpre, s);
                b.append(String.format(Locale.ROOT, " %s | %s | %s |", f(op), f(tp), r2(op / tp)));
            }
            b.append('\n');
        }
        TreeSet<Long> bsizes = sizesOf(nat, "onesided-bw");
        bsizes.addAll(sizesOf(mod, "onesided-bw"));
        b.append("\n**Bandwidth** (window of 64 isend/irecv + 4-byte ack, MB/s = 10^6 B/s, higher is better; modelled "
            + "under ha-pacs; median over ").append(launches(nat, "onesided-bw")).append(" / ")
            .append(launches(mod, "onesided-bw")).append(" launches)\n\n"
            + "| size | native one-sided | native two-sided | one-sided ÷ two-sided | ha-pacs one-sided | ha-pacs two-sided "
            + "| one-sided ÷ two-sided | ha-pacs model, one put alone | one-sided ÷ one put |\n"
            + "|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for (long s : bsizes) {
            double p = med(mod, "onesided-ideal", "put", s);
            double no = med(nat, "onesided-bw", "onesided", s);
            double nt = med(nat, "onesided-bw", "twosided", s);
            double mo = med(mod, "onesided-bw", "onesided", s);
            double mt = med(mod, "onesided-bw", "twosided", s);
            double put = Double.isNaN(p) ? Double.NaN : s / p;
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                Compare.sizeLabel("pingpong", s), f(no), f(nt), r2(no / nt), f(mo), f(mt), r2(mo / mt), f(put),
                r2(mo / put)));
        }
        return b.toString();
    }

    private static void modelLatency(StringBuilder b, List<Row> mod, String label) {
        String pre = preVariant(mod, "onesided");
        String tpre = preVariant(mod, "twosided");
        b.append("**Latency under `--model ha-pacs`").append(label.isEmpty() ? "" : ", " + label)
            .append("** (modelled µs, half round trip, median over ").append(launches(mod, "onesided-lat"))
            .append(" launches of the median of 5 batches). Ideal = S2's: one 32-byte TCA address notify + one N-byte "
            + "TCA put, each planned by the model alone (`TimingModel` on empty `ArrayTimelines`; the put's descriptor "
            + "already cached); S2's own ideal was 4.3 µs at 8 B.\n\n"
            + "| size | one-sided | two-sided | notify | put | ideal | one-sided ÷ ideal | target ≤ 1.5 | one-sided ÷ 4.3 µs (S2) |");
        if (pre != null) {
            b.append(' ').append(pre).append(" | pre-posted ÷ put | target ≤ 1.1 |");
            if (tpre != null) {
                b.append(' ').append(tpre).append(" |");
            }
        }
        b.append("\n|--:|--:|--:|--:|--:|--:|--:|---|--:|");
        if (pre != null) {
            b.append("--:|--:|---|");
            if (tpre != null) {
                b.append("--:|");
            }
        }
        b.append('\n');
        for (long s : sizesOf(mod, "onesided-lat")) {
            double os = med(mod, "onesided-lat", "onesided", s);
            double ts = med(mod, "onesided-lat", "twosided", s);
            double n = med(mod, "onesided-ideal", "notify", s);
            double p = med(mod, "onesided-ideal", "put", s);
            double id = med(mod, "onesided-ideal", "ideal", s);
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |",
                Compare.sizeLabel("pingpong", s), f(os), f(ts), f(n), f(p), f(id), r2(os / id),
                s == 8 && !Double.isNaN(os) ? (os / id <= 1.5 ? "yes" : "**no**") : "—",
                s == 8 ? r2(os / S2_IDEAL_US) : "—"));
            if (pre != null) {
                double pp = med(mod, "onesided-lat", pre, s);
                b.append(String.format(Locale.ROOT, " %s | %s | %s |", f(pp), r2(pp / p),
                    Double.isNaN(pp) ? "—" : pp / p <= 1.1 ? "yes" : "**no**"));
                if (tpre != null) {
                    b.append(' ').append(f(med(mod, "onesided-lat", tpre, s))).append(" |");
                }
            }
            b.append('\n');
        }
    }

    // ------------------------------------------------------------------ doc

    static String replaceSection(String text, String section, String body) {
        String open = "<!-- repro:" + section + " -->";
        String close = "<!-- /repro:" + section + " -->";
        String block = open + "\n" + body + (body.endsWith("\n") ? "" : "\n") + close;
        int a = text.indexOf(open);
        int z = text.indexOf(close);
        if (a < 0 && z < 0) {
            return text + (text.isEmpty() || text.endsWith("\n") ? "" : "\n") + "\n" + block + "\n";
        }
        if (a < 0 || z < a) {
            throw new IllegalStateException("unbalanced markers for section " + section);
        }
        return text.substring(0, a) + block + text.substring(z + close.length());
    }
}
