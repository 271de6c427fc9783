package org.hympj.perf.fabric;

import java.awt.Color;
import java.awt.Point;
import java.io.IOException;
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
import org.hympj.tools.chart.LineChart;

/**
 * {@code hympj-bench fabric-report}: turns the result files of the fabric drivers (their stdout:
 * CSV rows and {@code #} remarks, kept in {@code perf/results/}) into the sections of
 * {@code docs/PERFORMANCE.md} between {@code <!-- fabric:NAME -->} and
 * {@code <!-- /fabric:NAME -->} (the rest of the file kept; a missing section is appended) and
 * the halo plots in {@code docs/img/}. No launches: every number comes from the files given.
 *
 * <pre>
 * fabric-report [--doc FILE] [--img DIR] [--pingpong F,F...] [--crossover F] [--calibrate F]
 *               [--halo2d F,F...] [--halo3d F,F...] [--native F,F...]
 * </pre>
 */
final class FabricReport {
    private FabricReport() {
    }

    /** One result file: its rows and remarks. */
    static final class Result {
        final Path file;
        final List<String[]> rows = new ArrayList<>();
        final List<String> remarks = new ArrayList<>();

        Result(Path file) throws IOException {
            this.file = file;
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("# ")) {
                    remarks.add(line.substring(2));
                } else if (line.startsWith("hympj,")) {
                    rows.add(line.split(","));
                }
            }
        }

        String remark(String prefix) {
            for (String r : remarks) {
                if (r.startsWith(prefix)) {
                    return r;
                }
            }
            return null;
        }

        /** "date UTC; load average a / b / c" of the start and end remarks. */
        String when() {
            String s = remark(kind() + " start");
            String e = remark(kind() + " end");
            return (s == null ? "?" : s.substring(s.indexOf(':') + 2)) + " → " + (e == null ? "?"
                : e.substring(e.indexOf(':') + 2, e.indexOf("; load")) + ", load average at end "
                + e.substring(e.indexOf("load average") + 13).split(";")[0]);
        }

        String kind() {
            for (String r : remarks) {
                int i = r.indexOf(" start: ");
                if (i > 0) {
                    return r.substring(0, i);
                }
            }
            return "?";
        }

        /** The distinct time dilations of its launches. */
        Set<String> dilations() {
            Set<String> d = new TreeSet<>();
            for (String r : remarks) {
                int i = r.indexOf("--time-dilation ");
                if (r.startsWith("launch: ") && i > 0) {
                    d.add(r.substring(i + 16).split(" ")[0]);
                }
            }
            return d;
        }

        String name() {
            return file.getFileName().toString();
        }
    }

    static int main(String[] argv) {
        try {
            Opts o = Opts.parse(argv, Set.of("--doc", "--img", "--pingpong", "--crossover", "--calibrate", "--halo2d",
                "--halo3d", "--native", "--calibrated-table", "--halo-table2d", "--halo-table3d"), Set.of());
            Path home = Launch.home();
            Path doc = Paths.get(o.get("--doc", home.resolve("docs/PERFORMANCE.md").toString()));
            Path img = Paths.get(o.get("--img", home.resolve("docs/img").toString()));
            Map<String, String> sections = new LinkedHashMap<>();
            if (o.has("--pingpong")) {
                sections.put("fabric-pingpong", pingpong(load(o.get("--pingpong", ""))));
            }
            if (o.has("--crossover")) {
                sections.put("fabric-crossover", crossover(load(o.get("--crossover", "")).get(0)));
            }
            if (o.has("--calibrate")) {
                sections.put("fabric-calibrate", calibrate(load(o.get("--calibrate", "")).get(0),
                    o.get("--calibrated-table", null)));
            }
            for (String dims : List.of("2", "3")) {
                String key = "--halo" + dims + "d";
                if (o.has(key)) {
                    List<Result> rs = load(o.get(key, ""));
                    Path png = img.resolve("halo-" + dims + "d.png");
                    plot(rs, "halo-" + dims + "d", png, dims + "D halo exchange (S1), ha-pacs model, "
                        + (dims.equals("2") ? "4" : "8") + " ranks");
                    String cal = o.get("--halo-table" + dims + "d", null);
                    sections.put("fabric-halo-" + dims + "d", halo(rs, "halo-" + dims + "d", dims,
                        home.relativize(png.toAbsolutePath()).toString(),
                        cal == null ? null : org.hympj.router.RouteTable.load(cal)));
                }
            }
            if (o.has("--native")) {
                sections.put("fabric-halo-native", nativeHalo(load(o.get("--native", ""))));
            }
            String text = Files.exists(doc) ? Files.readString(doc) : "";
            for (Map.Entry<String, String> e : sections.entrySet()) {
                text = replaceSection(text, e.getKey(), e.getValue());
            }
            Files.writeString(doc, text);
            System.err.println("fabric-report: wrote " + sections.keySet() + " into " + doc);
            return 0;
        } catch (IOException | RuntimeException e) {
            System.err.println("fabric-report: " + e);
            return 1;
        }
    }

    static List<Result> load(String files) throws IOException {
        List<Result> r = new ArrayList<>();
        for (String f : files.split(",")) {
            if (!f.isBlank()) {
                r.add(new Result(Paths.get(f.trim())));
            }
        }
        return r;
    }

    static String replaceSection(String text, String name, String body) {
        String open = "<!-- fabric:" + name + " -->";
        String close = "<!-- /fabric:" + name + " -->";
        String block = open + "\n" + body.trim() + "\n" + close;
        int a = text.indexOf(open);
        int b = text.indexOf(close);
        if (a >= 0 && b > a) {
            return text.substring(0, a) + block + text.substring(b + close.length());
        }
        return text + (text.endsWith("\n") || text.isEmpty() ? "" : "\n") + "\n" + block + "\n";
    }

    static String sources(List<Result> rs) {
        StringBuilder b = new StringBuilder();
        for (Result r : rs) {
            b.append("- `perf/results/").append(r.name()).append("`: ").append(r.when()).append("; time dilation ")
                .append(String.join(", ", r.dilations())).append('\n');
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ fabric-pingpong

    static String pingpong(List<Result> rs) {
        StringBuilder b = new StringBuilder("### Fabric ping-pong vs S5's base figures (modelled µs, GB/s)\n\n");
        b.append("`bin/hympj-bench fabric-pingpong --model ha-pacs --route both` (messages up to 1 KiB at time "
            + "dilation 1000, larger ones at the default, unless `--time-dilation` is given); 2 ranks, buffers in the registered segment, half round trip, median of 5 batches, timed with "
            + "`Comm.wtime()` (modelled µs). *model alone*: the timing model's figure for one message on idle "
            + "fabrics (what a perfect emulation would measure). Target: S5's figure ±10%.\n\n");
        b.append(sources(rs)).append('\n');
        // one column per result file, keyed by the summary table it printed
        List<String> figures = new ArrayList<>();
        Map<String, String[]> first = new LinkedHashMap<>();
        List<Map<String, String>> measured = new ArrayList<>();
        List<String> heads = new ArrayList<>();
        for (Result r : rs) {
            Map<String, String> m = new LinkedHashMap<>();
            for (String line : r.remarks) {
                if (line.startsWith("| ") && !line.startsWith("| figure")) {
                    String[] c = line.substring(2, line.length() - 2).split(" \\| ");
                    if (c.length == 5) {
                        if (!first.containsKey(c[0])) {
                            first.put(c[0], c);
                            figures.add(c[0]);
                        }
                        m.put(c[0], c[3] + (c[4].equals("yes") ? " ✓" : c[4].equals("no") ? " ✗" : ""));
                    }
                }
            }
            measured.add(m);
            heads.add("D = " + String.join(",", r.dilations()));
        }
        b.append("| figure | S5/S1 | model alone |");
        for (String h : heads) {
            b.append(' ').append(h).append(" |");
        }
        b.append("\n|---|---:|---:|");
        for (int i = 0; i < heads.size(); i++) {
            b.append("---:|");
        }
        b.append('\n');
        for (String f : figures) {
            String[] c = first.get(f);
            b.append("| ").append(f).append(" | ").append(c[1]).append(" | ").append(c[2]).append(" |");
            for (Map<String, String> m : measured) {
                b.append(' ').append(m.getOrDefault(f, "—")).append(" |");
            }
            b.append('\n');
        }
        b.append("\n✓ / ✗: within / outside S5's figure ±10%.\n");
        return b.toString();
    }

    // ------------------------------------------------------------------ crossover

    static String crossover(Result r) {
        StringBuilder b = new StringBuilder("### Crossover: where IB overtakes TCA (S1's table)\n\n");
        b.append("`bin/hympj-bench crossover --model ha-pacs` (emulated: 2 ranks through the launcher, one launch per "
            + "face and fabric, persistent requests, face sent with its derived datatype from the N×N / N×N×N array "
            + "in the registered segment, received contiguous; analytic: the same TimingModel, one message alone, "
            + "N in steps of 1 (3D) or 16 (2D)). The crossover is interpolated linearly in N between the grid "
            + "points where the sign of TCA − IB changes.\n\n");
        b.append(sources(List.of(r))).append('\n');
        for (String line : r.remarks) {
            if (line.startsWith("|")) {
                b.append(line).append('\n');
            }
        }
        b.append("\nMeasured points (modelled µs, one-way = half round trip; model alone in brackets):\n\n");
        Map<String, Map<Long, double[]>> faces = new LinkedHashMap<>();
        for (String[] c : r.rows) {
            int idx = c[1].equals("crossover-tca") ? 0 : c[1].equals("crossover-ib") ? 1
                : c[1].equals("crossover-model-tca") ? 2 : c[1].equals("crossover-model-ib") ? 3 : -1;
            if (idx >= 0) {
                double[] v = faces.computeIfAbsent(c[2], k -> new TreeMap<>()).computeIfAbsent(Long.parseLong(c[3]),
                    k -> new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
                v[idx] = Double.parseDouble(c[5]);
            }
        }
        b.append("| face | N | TCA | IB | faster |\n|---|---:|---:|---:|---|\n");
        for (Map.Entry<String, Map<Long, double[]>> f : faces.entrySet()) {
            for (Map.Entry<Long, double[]> e : f.getValue().entrySet()) {
                double[] v = e.getValue();
                b.append(String.format(Locale.ROOT, "| %s | %d | %.1f (%.1f) | %.1f (%.1f) | %s |%n", f.getKey(),
                    e.getKey(), v[0], v[2], v[1], v[3], v[0] <= v[1] ? "TCA" : "IB"));
            }
        }
        for (String line : r.remarks) {
            if (line.contains("together need") || line.startsWith("or ib.")) {
                b.append("\n").append(line).append('\n');
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ calibrate

    static String calibrate(Result r, String table) throws IOException {
        StringBuilder b = new StringBuilder("### Calibrated route table\n\n");
        b.append("`bin/hympj-bench calibrate --model ha-pacs --out FILE`: per layout, S1's 3D face of that layout "
            + "ping-ponged over TCA and IB (emulated, 2 ranks) at four N around the analytic crossover; the "
            + "crossover N interpolated, the table holds 8·N² bytes (the largest message that takes TCA).\n\n");
        b.append(sources(List.of(r))).append('\n');
        for (String line : r.remarks) {
            if (line.contains("IB overtakes TCA at N")) {
                b.append("- ").append(line).append('\n');
            }
        }
        if (table != null) {
            b.append("\nThe file (`").append(table).append("`):\n\n```properties\n");
            for (String line : Files.readAllLines(Launch.home().resolve(table))) {
                if (!line.startsWith("#")) {
                    b.append(line).append('\n');
                }
            }
            b.append("```\n");
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ halo

    /** test|variant → N → median over the files' rows. */
    static Map<String, TreeMap<Long, Double>> series(List<Result> rs, String test) {
        Map<String, TreeMap<Long, List<Double>>> all = new LinkedHashMap<>();
        for (Result r : rs) {
            for (String[] c : r.rows) {
                if (c[1].equals(test)) {
                    all.computeIfAbsent(c[2], k -> new TreeMap<>()).computeIfAbsent(Long.parseLong(c[3]),
                        k -> new ArrayList<>()).add(Double.parseDouble(c[5]));
                }
            }
        }
        Map<String, TreeMap<Long, Double>> out = new LinkedHashMap<>();
        for (String v : order(all.keySet())) {
            TreeMap<Long, Double> m = new TreeMap<>();
            for (Map.Entry<Long, List<Double>> e : all.get(v).entrySet()) {
                m.put(e.getKey(), org.hympj.perf.Rows.median(e.getValue().stream().mapToDouble(Double::doubleValue)
                    .toArray()));
            }
            out.put(v, m);
        }
        return out;
    }

    static List<String> order(Set<String> vs) {
        List<String> o = new ArrayList<>();
        for (String v : List.of("tca", "ib", "hybrid", "hybrid-groups")) {
            if (vs.contains(v)) {
                o.add(v);
            }
        }
        for (String v : vs) {
            if (!o.contains(v)) {
                o.add(v);
            }
        }
        return o;
    }

    static String halo(List<Result> rs, String test, String dims, String png, org.hympj.router.RouteTable halocal) {
        StringBuilder b = new StringBuilder("### " + dims + "D halo exchange (S1): TCA-only, IB-only, hybrid\n\n");
        b.append("`bin/hympj-bench halo --dims ").append(dims).append(" --model ha-pacs N…` (one launch per route and "
            + "N): *tca*, *ib*, *hybrid*: one subcluster holding all ranks (`--subcluster " + (dims.equals("2") ? 4 : 8)
            + "`), hybrid by the route table; *hybrid-groups*: the groups as real subclusters (`--subcluster "
            + (dims.equals("2") ? 2 : 4) + "`), so reachability forces IB across them; *hybrid-halocal*, where present: "
            + "hybrid with the table calibrated on the halo itself (`calibrate --pattern halo`, ROUTER.md). µs per "
            + "iteration (modelled): the loop's period (startAll, waitAll, barrier; from leaving one barrier to "
            + "leaving the next), median over the timed iterations of the slowest rank.\n\n");
        b.append(sources(rs)).append('\n');
        Map<String, TreeMap<Long, Double>> s = series(rs, test);
        TreeSet<Long> ns = new TreeSet<>();
        for (TreeMap<Long, Double> m : s.values()) {
            ns.addAll(m.keySet());
        }
        b.append("| N |");
        for (String v : s.keySet()) {
            b.append(' ').append(v).append(" |");
        }
        boolean ratios = s.containsKey("tca") && s.containsKey("ib") && s.containsKey("hybrid");
        if (ratios) {
            b.append(" TCA/hybrid | IB/hybrid | hybrid ÷ better single | ≤ 1.05? |");
        }
        b.append("\n|---:|");
        for (int i = 0; i < s.size(); i++) {
            b.append("---:|");
        }
        if (ratios) {
            b.append("---:|---:|---:|---|");
        }
        b.append('\n');
        for (long n : ns) {
            b.append("| ").append(n).append(" |");
            for (TreeMap<Long, Double> m : s.values()) {
                Double x = m.get(n);
                b.append(x == null ? " — |" : String.format(Locale.ROOT, " %.1f |", x));
            }
            if (ratios) {
                Double t = s.get("tca").get(n);
                Double i = s.get("ib").get(n);
                Double h = s.get("hybrid").get(n);
                if (t != null && i != null && h != null) {
                    double r = h / Math.min(t, i);
                    b.append(String.format(Locale.ROOT, " %.2f | %.2f | %.2f | %s |", t / h, i / h, r,
                        r <= 1.05 ? "yes" : "no"));
                } else {
                    b.append(" — | — | — | — |");
                }
            }
            b.append('\n');
        }
        if (s.containsKey("hybrid-halocal") && s.containsKey("tca") && s.containsKey("ib")) {
            b.append("\nWith the halo-calibrated table (hybrid-halocal):\n\n| N | hybrid-halocal | TCA/halocal | "
                + "IB/halocal | halocal ÷ better single | ≤ 1.05? |\n|---:|---:|---:|---:|---:|---|\n");
            for (long n : ns) {
                Double t = s.get("tca").get(n);
                Double i = s.get("ib").get(n);
                Double h = s.get("hybrid-halocal").get(n);
                if (t != null && i != null && h != null) {
                    double r = h / Math.min(t, i);
                    b.append(String.format(Locale.ROOT, "| %d | %.1f | %.2f | %.2f | %.2f | %s |%n", n, h, t / h, i / h,
                        r, r <= 1.05 ? "yes" : "no"));
                }
            }
        }
        b.append("\nThe timing model alone (`HaloModel`: every face of one iteration planned at once, round-robin "
            + "over the ranks, on the same TimingModel and timelines; no protocol, barrier or real cost), µs:\n\n"
            + "| N | tca | ib | hybrid | hybrid-groups |" + (halocal != null ? " hybrid-halocal |" : "")
            + "\n|---:|---:|---:|---:|---:|" + (halocal != null ? "---:|" : "") + "\n");
        org.hympj.model.ModelParams p = org.hympj.model.ModelParams.load("ha-pacs");
        org.hympj.router.RouteTable preset = org.hympj.router.RouteTable.load("ha-pacs");
        int d = Integer.parseInt(dims);
        int np = HaloModel.ranks(d);
        for (long n : ns) {
            int ni = (int) n;
            b.append(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.1f | %.1f |", n,
                HaloModel.iteration(p, d, ni, "tca", np, null), HaloModel.iteration(p, d, ni, "ib", np, null),
                HaloModel.iteration(p, d, ni, "hybrid", np, preset),
                HaloModel.iteration(p, d, ni, "hybrid", HaloModel.groupSize(d), preset)));
            if (halocal != null) {
                b.append(String.format(Locale.ROOT, " %.1f |", HaloModel.iteration(p, d, ni, "hybrid", np, halocal)));
            }
            b.append('\n');
        }
        b.append("\n![").append(dims).append("D halo](").append(png.startsWith("docs/") ? png.substring(5) : png)
            .append(")\n");
        return b.toString();
    }

    static String nativeHalo(List<Result> rs) {
        StringBuilder b = new StringBuilder("### Halo exchange natively (`--model none`): what routing costs\n\n");
        b.append("`bin/hympj-bench halo --dims 2|3 --model none --route tca,ib,hybrid N…`: real µs per iteration "
            + "(no model: the two fabrics' channels differ only in protocol; hybrid runs the router's per-request "
            + "decision). Target: hybrid ≤ 1.05 × the faster forced route.\n\n");
        b.append(sources(rs)).append('\n');
        for (String test : List.of("halo-2d-native", "halo-3d-native")) {
            Map<String, TreeMap<Long, Double>> s = series(rs, test);
            if (s.isEmpty()) {
                continue;
            }
            b.append("| ").append(test).append(" N | tca | ib | hybrid | hybrid ÷ faster forced | ≤ 1.05? |\n");
            b.append("|---:|---:|---:|---:|---:|---|\n");
            for (long n : s.getOrDefault("hybrid", new TreeMap<>()).keySet()) {
                Double t = s.getOrDefault("tca", new TreeMap<>()).get(n);
                Double i = s.getOrDefault("ib", new TreeMap<>()).get(n);
                Double h = s.get("hybrid").get(n);
                if (t == null || i == null) {
                    continue;
                }
                double r = h / Math.min(t, i);
                b.append(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.1f | %.2f | %s |%n", n, t, i, h, r,
                    r <= 1.05 ? "yes" : "no"));
            }
            b.append('\n');
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ plot

    static final Color[] COLORS = {new Color(0xd62728), new Color(0x1f77b4), new Color(0x2ca02c), new Color(0x9467bd),
        new Color(0xff7f0e), new Color(0x8c564b)};

    /** µs per iteration against N, log-log, one line per route, headless. */
    static void plot(List<Result> rs, String test, Path png, String title) throws IOException {
        Map<String, TreeMap<Long, Double>> s = series(rs, test);
        if (s.isEmpty()) {
            return;
        }
        int w = 900;
        int h = 600;
        int l = 90;
        int t = 50;
        int bo = 70;
        double xmin = Double.MAX_VALUE;
        double xmax = 0;
        double ymin = Double.MAX_VALUE;
        double ymax = 0;
        TreeSet<Long> ns = new TreeSet<>();
        for (TreeMap<Long, Double> m : s.values()) {
            ns.addAll(m.keySet());
            for (Map.Entry<Long, Double> e : m.entrySet()) {
                xmin = Math.min(xmin, e.getKey());
                xmax = Math.max(xmax, e.getKey());
                ymin = Math.min(ymin, e.getValue());
                ymax = Math.max(ymax, e.getValue());
            }
        }
        double ly0 = Math.floor(Math.log10(ymin));
        double ly1 = Math.ceil(Math.log10(ymax));
        List<LineChart.Tick> yt = new ArrayList<>();
        for (double d = ly0; d <= ly1 + 1e-9; d += 1) {
            for (int k = 1; k < 10 && d + Math.log10(k) <= ly1 + 1e-9; k++) {
                yt.add(k == 1 ? new LineChart.Tick(d, fmtAxis(Math.pow(10, d)), new Color(0xbbbbbb))
                    : new LineChart.Tick(d + Math.log10(k), null, new Color(0xeeeeee)));
            }
        }
        List<LineChart.Tick> xt = new ArrayList<>();
        for (long n : ns) {
            xt.add(new LineChart.Tick(Math.log10(n), Long.toString(n), new Color(0xeeeeee)));
        }
        LineChart chart = new LineChart(new LineChart.Layout(w, h, l, 30, t, bo, 13, 13, t - 20, 10, 5, false), title,
            new LineChart.Axis("N", new Point((w + l) / 2, h - bo + 40), LineChart.Scale.LOG10,
                Math.log10(xmin) - 0.05, Math.log10(xmax) + 0.05, LineChart.Snap.FLOOR, xt, 0, Color.BLACK),
            new LineChart.Axis("µs per iteration (modelled)", new Point(25, (h + t) / 2 + 80), LineChart.Scale.LOG10,
                ly0, ly1, LineChart.Snap.CEIL, yt, 0, Color.BLACK),
            new LineChart.Legend(true, 20, 20, 30, 37, 5, false, 0));
        int ci = 0;
        for (Map.Entry<String, TreeMap<Long, Double>> e : s.entrySet()) {
            List<double[]> points = new ArrayList<>();
            e.getValue().forEach((n, us) -> points.add(new double[] {n, us}));
            chart.add(new LineChart.Series(e.getKey(), COLORS[ci++ % COLORS.length], points, 2.2f, false, 8, true));
        }
        chart.write(png);
    }

    static String fmtAxis(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%s", v);
    }

    static List<String> split(String s) {
        return Arrays.asList(s.split(","));
    }
}
