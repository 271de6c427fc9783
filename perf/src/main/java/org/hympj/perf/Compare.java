package org.hympj.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/hympj-compare TEST [--rounds R] [options] [sizes...]}: runs the Open MPI anchor
 * ({@code run-openmpi.sh TEST sizes…}, REP=round) and the HyMPJ benchmark of the same name
 * (one launch per buffer kind) interleaved in one session, R rounds, the order alternating
 * (round 1: Open MPI then HyMPJ, round 2: HyMPJ then Open MPI, …). Takes the median per
 * (system, test, variant, size) over the rounds and prints a Markdown table with the ratios
 * HyMPJ ÷ Open MPI and the {@link Targets}. Writes every raw row to
 * {@code perf/results/<date>-<test>.csv} and the table into {@code docs/PERFORMANCE.md}
 * (between {@code <!-- compare:TEST -->} and {@code <!-- /compare:TEST -->}, the rest kept).
 */
public final class Compare {
    /** The anchors beside the checkout, as the team keeps them ({@code ../shared/anchors}). */
    static final String DEFAULT_ANCHOR = "../shared/anchors/run-openmpi.sh";
    static final String ANCHOR_SYSTEM = "openmpi-c";
    /** Default of --quiet for the driver: wait for 90% idle CPUs before each launch. */
    static final double DEFAULT_QUIET = 0.9;

    static final String USAGE = String.join("\n",
        "usage: hympj-compare TEST [options] [sizes...]        TEST: pingpong | persistent | bw | halo3d | allreduce | barrier | jface | kface",
        "       barrier: sizes are rank counts (e.g. 2 3 4 5 6 7 8), each measured with every --algo (default all)",
        "       allreduce, barrier, jface and kface use their own anchor script, perf/anchors/run-openmpi-extra.sh (env NP = --np)",
        "options:",
        "  --rounds R            rounds of (Open MPI, HyMPJ), order alternating; default 5",
        "  --anchor PATH         the anchor script (default $HYMPJ_HOME/" + DEFAULT_ANCHOR + ", env HYMPJ_ANCHOR)",
        "  --doc FILE            Markdown file to update (default $HYMPJ_HOME/docs/PERFORMANCE.md)",
        "  --no-doc              print the table only",
        "  --results DIR         where the raw CSV goes (default $HYMPJ_HOME/perf/results)",
        "  --section NAME        marker name of the section and CSV file (default: TEST; a CSV of the\n"
            + "                        same day and name is kept, this one numbered -2, -3 …)",
        "  --give-up X           stop after a round in which a HyMPJ figure is more than X times worse",
        "                        than Open MPI's (for every buffer kind); the table says so",
        BenchOptions.OPTIONS_HELP,
        "sizes: as hympj-bench (default: the benchmark's default sizes); the anchor gets the same.");

    /** One CSV row of either system. */
    static final class Row {
        final String system;
        final String test;
        final String variant;
        final long size;
        final int rep;
        final double value;
        final String unit;
        final String line;

        Row(String line) {
            String[] f = line.trim().split(",");
            if (f.length != 7) {
                throw new IllegalArgumentException("not a CSV row of 7 fields: " + line);
            }
            this.system = f[0];
            this.test = f[1];
            this.variant = f[2];
            this.size = Long.parseLong(f[3]);
            this.rep = Integer.parseInt(f[4]);
            this.value = Double.parseDouble(f[5]);
            this.unit = f[6];
            this.line = line.trim();
        }
    }

    private final BenchOptions bench;
    private int rounds = 5;
    private String anchor = System.getenv().getOrDefault("HYMPJ_ANCHOR", home().resolve(DEFAULT_ANCHOR).normalize().toString());
    /** True when --anchor or HYMPJ_ANCHOR chose the script; else a benchmark may name its own. */
    private boolean anchorExplicit = System.getenv("HYMPJ_ANCHOR") != null;
    private Path doc;
    private boolean noDoc;
    private Path resultsDir;
    private String section;
    private double giveUp;
    private final List<Row> rows = new ArrayList<>();
    private volatile Process anchorProcess;
    /** Per launch: round, what was launched, and how idle the CPUs were just before. */
    private final List<String> conditions = new ArrayList<>();
    /** The machine's mode during each launch, by "round|launch" (NEAR, FAR or CHANGED). */
    private final Map<String, Integer> modes = new java.util.HashMap<>();

    private Compare() {
        this(new BenchOptions());
    }

    /** A driver for the given options, without running anything (tests feed it rows). */
    Compare(BenchOptions options) {
        this.bench = options;
    }

    /** Adds one CSV row as if a run had printed it (tests). */
    void addRow(String line) {
        rows.add(new Row(line));
    }

    public static void main(String[] argv) {
        int code;
        try {
            code = new Compare().cli(argv);
        } catch (IllegalArgumentException e) {
            System.err.println("hympj-compare: " + e.getMessage());
            System.err.println(USAGE);
            code = 2;
        } catch (IOException | UncheckedIOException e) {
            System.err.println("hympj-compare: " + e.getMessage());
            code = 1;
        }
        System.exit(code);
    }

    static Path home() {
        String h = System.getenv("HYMPJ_HOME");
        return Paths.get(h == null || h.isEmpty() ? "." : h).toAbsolutePath().normalize();
    }

    int cli(String[] argv) throws IOException {
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            switch (a) {
                case "-h":
                case "--help":
                    System.out.println(USAGE);
                    return 0;
                case "--rounds":
                    rounds = BenchOptions.parseInt(a, BenchOptions.value(argv, ++i, a));
                    continue;
                case "--anchor":
                    anchor = BenchOptions.value(argv, ++i, a);
                    anchorExplicit = true;
                    continue;
                case "--doc":
                    doc = Paths.get(BenchOptions.value(argv, ++i, a));
                    continue;
                case "--no-doc":
                    noDoc = true;
                    continue;
                case "--results":
                    resultsDir = Paths.get(BenchOptions.value(argv, ++i, a));
                    continue;
                case "--section":
                    section = BenchOptions.value(argv, ++i, a);
                    continue;
                case "--give-up":
                    giveUp = Double.parseDouble(BenchOptions.value(argv, ++i, a));
                    continue;
                default:
                    break;
            }
            if (a.startsWith("-")) {
                int last = bench.option(argv, i);
                if (last < 0) {
                    throw new IllegalArgumentException("unknown option " + a);
                }
                i = last;
            } else if (bench.name == null) {
                bench.name = a;
            } else {
                bench.size(a);
            }
        }
        if (bench.name == null) {
            throw new IllegalArgumentException("no test given");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be >= 1");
        }
        BenchDef def = Bench.def(bench); // fails early on an unknown name
        Bench.algorithms(bench); // and on a bad --algo
        if (!anchorExplicit && def.anchorScript() != null) {
            anchor = home().resolve(def.anchorScript()).toString();
        }
        if (section == null) {
            section = bench.name;
        }
        if (bench.quiet == null) {
            bench.quiet = DEFAULT_QUIET;
        }
        bench.idles = new ArrayList<>();
        if (doc == null) {
            doc = home().resolve("docs/PERFORMANCE.md");
        }
        if (resultsDir == null) {
            resultsDir = home().resolve("perf/results");
        }
        return run();
    }

    int run() throws IOException {
        BenchDef def = Bench.def(bench);
        List<Long> sizes = Bench.sizes(bench);
        List<BufferKind> kinds = Bench.kinds(bench);
        Duration timeout = bench.timeout != null ? bench.timeout : def.defaultTimeout();
        ZonedDateTime start = ZonedDateTime.now(ZoneOffset.UTC);
        String loadStart = loadAverage();
        Path csv = freshCsv(resultsDir, start.format(DateTimeFormatter.ISO_LOCAL_DATE) + "-" + section);
        Files.createDirectories(resultsDir);
        Thread hook = new Thread(this::killAnchor, "hympj-compare-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        String stopped = null;
        int completed = 0;
        try {
            for (int round = 1; round <= rounds && stopped == null; round++) {
                // one lock for the whole round: both systems of a round run with no other benchmark in between
                try (Quiet roundLock = Quiet.lock(bench.lockWait, System.err)) {
                    boolean anchorFirst = round % 2 == 1;
                    List<BufferKind> order = new ArrayList<>(kinds);
                    if (!anchorFirst) {
                        Collections.reverse(order);
                    }
                    for (int step = 0; step < 2; step++) {
                        long t0 = System.nanoTime();
                        if ((step == 0) == anchorFirst) {
                            try (Quiet lock = Quiet.lock(bench.lockWait, System.err)) {
                                Quiet.Idle idle = Quiet.waitForIdle(bench.quiet, bench.quietWait, System.err);
                                runAnchor(sizes, round, timeout);
                                idle = idle.after(CoreToCore.oneWayNanos());
                                bench.idles.add(idle);
                                condition(round, "openmpi", idle);
                            }
                            log("round %d/%d: Open MPI done in %.1f s", round, rounds, secs(t0));
                        } else {
                            List<String> algos = new ArrayList<>(Bench.algorithms(bench));
                            if (!anchorFirst) {
                                Collections.reverse(algos);
                            }
                            for (BufferKind k : order) {
                                for (String algo : algos) {
                                    long t1 = System.nanoTime();
                                    BenchOptions one = bench.copy();
                                    one.algo = algo;
                                    int before = bench.idles.size();
                                    try {
                                        for (String line : Bench.run(one, round, k, nullStream(), System.err)) {
                                            add(new Row(line), System.err);
                                        }
                                        for (int q = before; q < bench.idles.size(); q++) {
                                            condition(round, "hympj " + k.label() + (algo == null ? "" : " " + algo),
                                                bench.idles.get(q));
                                        }
                                    } catch (Bench.BenchFailure e) {
                                        writeCsv(csv);
                                        System.err.println("hympj-compare: HyMPJ run failed: " + e.getMessage());
                                        System.err.println("hympj-compare: rows so far in " + csv + "; documentation untouched");
                                        return e.exitCode() == 0 ? 1 : e.exitCode();
                                    }
                                    log("round %d/%d: HyMPJ %s%s done in %.1f s", round, rounds, k.label(),
                                        algo == null ? "" : " " + algo, secs(t1));
                                }
                            }
                        }
                        writeCsv(csv);
                    }
                    completed = round;
                    if (giveUp > 0) {
                        stopped = tooSlow(def, sizes, kinds);
                    }
                }
                pauseForOthers();
            }
        } catch (AnchorFailure e) {
            writeCsv(csv);
            System.err.println("hympj-compare: Open MPI run failed: " + e.getMessage());
            System.err.println("hympj-compare: rows so far in " + csv + "; documentation untouched");
            return 1;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down
            }
        }
        ZonedDateTime end = ZonedDateTime.now(ZoneOffset.UTC);
        String table = table(def, sizes, kinds);
        String body = section(def, sizes, kinds, start, end, loadStart, loadAverage(), completed, stopped, csv, table);
        System.out.println(body);
        if (!noDoc) {
            updateDoc(doc, section, body);
            log("wrote %s (section %s) and %s", doc, section, csv);
        }
        return stopped == null ? 0 : 3;
    }

    /** After a round's lock is released: gives drivers waiting for it a chance to take it. */
    private static void pauseForOthers() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void add(Row r, PrintStream echo) {
        rows.add(r);
        echo.println(r.line);
    }

    private static double secs(long t0) {
        return (System.nanoTime() - t0) * 1e-9;
    }

    private static void log(String fmt, Object... args) {
        System.err.println("hympj-compare: " + String.format(Locale.ROOT, fmt, args));
    }

    private static PrintStream nullStream() {
        return new PrintStream(java.io.OutputStream.nullOutputStream());
    }

    // ------------------------------------------------------------------ the anchor

    static final class AnchorFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AnchorFailure(String m) {
            super(m);
        }
    }

    private void runAnchor(List<Long> sizes, int round, Duration timeout) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(anchor);
        cmd.add(bench.name);
        for (long s : sizes) {
            cmd.add(Long.toString(s));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("REP", Integer.toString(round));
        pb.environment().put("NP", Integer.toString(np()));
        Process p = pb.start();
        anchorProcess = p;
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        Thread o = pump(p.getInputStream(), line -> out.add(line));
        Thread e = pump(p.getErrorStream(), line -> System.err.println("[openmpi] " + line));
        try {
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                killAnchor();
                throw new AnchorFailure(String.join(" ", cmd) + " timed out after " + timeout.toSeconds() + " s");
            }
            o.join(5000);
            e.join(5000);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            killAnchor();
            throw new AnchorFailure("interrupted");
        } finally {
            anchorProcess = null;
        }
        if (p.exitValue() != 0) {
            throw new AnchorFailure(String.join(" ", cmd) + " exited with " + p.exitValue() + "; output: " + out);
        }
        int n = 0;
        synchronized (out) {
            for (String line : out) {
                if (line.startsWith(ANCHOR_SYSTEM + ",")) {
                    add(new Row(line), System.err);
                    n++;
                } else if (!line.isBlank()) {
                    System.err.println("[openmpi] " + line);
                }
            }
        }
        if (n == 0) {
            throw new AnchorFailure(String.join(" ", cmd) + " printed no rows");
        }
    }

    private void killAnchor() {
        Process p = anchorProcess;
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private static Thread pump(InputStream in, java.util.function.Consumer<String> sink) {
        Thread t = new Thread(() -> {
            try (BufferedReader br = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = br.readLine()) != null) {
                    sink.accept(line);
                }
            } catch (IOException ignored) {
                // process gone
            }
        }, "hympj-compare-pump");
        t.setDaemon(true);
        t.start();
        return t;
    }

    // ------------------------------------------------------------------ figures

    private void writeCsv(Path csv) throws IOException {
        StringBuilder b = new StringBuilder("system,test,variant,size,rep,value,unit\n");
        for (Row r : rows) {
            b.append(r.line).append('\n');
        }
        Files.writeString(csv, b.toString(), StandardCharsets.UTF_8);
        StringBuilder c = new StringBuilder("round,launch,cpu_idle_before,waited_s,quiet,core_to_core_ns,"
            + "core_to_core_after_ns\n");
        for (String line : conditions) {
            c.append(line).append('\n');
        }
        Files.writeString(conditionsFile(csv), c.toString(), StandardCharsets.UTF_8);
    }

    /**
     * The raw rows' file of this compare: {@code <base>.csv}, or {@code <base>-2.csv}, {@code -3} … when an
     * earlier compare of the day used the same section name, so its rows (which its table cites) stay.
     */
    static Path freshCsv(Path dir, String base) {
        Path csv = dir.resolve(base + ".csv");
        for (int n = 2; Files.exists(csv); n++) {
            csv = dir.resolve(base + "-" + n + ".csv");
        }
        return csv;
    }

    static Path conditionsFile(Path csv) {
        String n = csv.getFileName().toString();
        return csv.resolveSibling(n.substring(0, n.length() - ".csv".length()) + ".conditions.csv");
    }

    private void condition(int round, String what, Quiet.Idle idle) {
        trip(round, what, idle);
        conditions.add(String.format(Locale.ROOT, "%d,%s,%.3f,%.1f,%s,%.1f,%.1f", round, what, idle.fraction,
            idle.waitedSeconds, idle.quiet ? "yes" : "no", idle.coreToCoreNs, idle.coreToCoreAfterNs));
    }

    /** One sentence on how quiet the machine was before the launches. */
    String quietSummary() {
        List<Quiet.Idle> all = bench.idles;
        if (all == null || all.isEmpty()) {
            return "not measured";
        }
        double[] f = new double[all.size()];
        int busy = 0;
        double waited = 0;
        for (int i = 0; i < f.length; i++) {
            f[i] = all.get(i).fraction;
            busy += all.get(i).quiet ? 0 : 1;
            waited += all.get(i).waitedSeconds;
        }
        double min = Double.MAX_VALUE;
        for (double x : f) {
            min = Math.min(min, x);
        }
        return String.format(Locale.ROOT, "CPU idle in the second before each launch: median %.0f%%, lowest %.0f%%; "
            + "%d of %d launches started below the %.0f%% threshold after waiting up to %d s (%.0f s waited in all); %s",
            100 * Rows.median(f), 100 * min, busy, f.length, 100 * bench.quiet, bench.quietWait.toSeconds(), waited,
            coreToCoreSummary(all));
    }

    /**
     * The core-to-core trips before the launches: their range, and how many launches ran with the
     * CPUs far apart (above {@link #FAR_NS}: on the 2-vCPU machine of docs/PERFORMANCE.md's session 18,
     * about 200 ns against 25–60, the two modes every shared-memory figure moves with), judged by the
     * trips before and after each launch; a launch whose two trips disagree changed mode while it ran.
     */
    static String coreToCoreSummary(List<Quiet.Idle> all) {
        List<Double> ns = new ArrayList<>();
        int far = 0;
        int changed = 0;
        for (Quiet.Idle i : all) {
            if (!Double.isNaN(i.coreToCoreNs)) {
                ns.add(i.coreToCoreNs);
                Boolean f = i.far(FAR_NS);
                far += Boolean.TRUE.equals(f) ? 1 : 0;
                changed += f == null ? 1 : 0;
            }
        }
        if (ns.isEmpty()) {
            return "core-to-core trip not measured";
        }
        double[] v = new double[ns.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = ns.get(i);
        }
        Arrays.sort(v);
        return String.format(Locale.ROOT, "core-to-core one-way trip (two threads of the tool, just before each "
            + "launch, and again after it): %.0f–%.0f ns before, median %.0f; %d of %d launches with the CPUs far apart "
            + "(above %.0f ns) before and after%s",
            v[0], v[v.length - 1], Rows.median(v), far, v.length, FAR_NS,
            changed == 0 ? "" : String.format(Locale.ROOT, ", %d changing mode between the two trips", changed));
    }

    /** Notes the mode of the launch {@code what} ("openmpi", "hympj heap" …) of round {@code round}. */
    void trip(int round, String what, Quiet.Idle idle) {
        modes.put(round + "|" + what, mode(idle.far(FAR_NS)));
    }

    private static int mode(Boolean far) {
        return far == null ? CHANGED : far ? FAR : NEAR;
    }

    /** The mode the launch that gave {@code r} ran in: {@link #NEAR}, {@link #FAR} or {@link #CHANGED} (also: not known). */
    int modeOf(Row r) {
        if (r.system.equals(ANCHOR_SYSTEM)) {
            return modes.getOrDefault(r.rep + "|openmpi", CHANGED);
        }
        Integer m = modes.get(r.rep + "|hympj " + r.variant);
        if (m != null) {
            return m;
        }
        for (Map.Entry<String, Integer> e : modes.entrySet()) { // an algorithm's launch: "hympj heap rd"
            if (e.getKey().startsWith(r.rep + "|hympj ") && e.getKey().endsWith(" " + r.variant)) {
                return e.getValue();
            }
        }
        return CHANGED;
    }

    /**
     * The launches split by the machine's mode (the trip before each: near up to {@link #FAR_NS}, far
     * above): per size and column the median near and far with their launches, and HyMPJ ÷ Open
     * MPI in each mode. Empty unless both modes occurred: a ratio of one compare can otherwise mix a
     * near launch of one system with a far launch of the other (docs/PERFORMANCE.md, session 18).
     */
    String modeTable(List<Long> sizes, Map<String, String[]> columns, int dec) {
        if (!bothModes()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        b.append("By the machine's mode (the core-to-core trip before and after each launch: near ≤ ").append(fmtNum(FAR_NS))
            .append(" ns both times, far above both times, a launch that changed mode left out; median near / far, ")
            .append("launches in brackets; ratio HyMPJ ÷ Open MPI in each mode):\n\n| size");
        String[] anchor = null;
        List<String> hympj = new ArrayList<>();
        for (Map.Entry<String, String[]> c : columns.entrySet()) {
            b.append(" | ").append(c.getKey());
            if (c.getValue()[0].equals(ANCHOR_SYSTEM)) {
                anchor = c.getValue();
            } else {
                hympj.add(c.getKey());
            }
        }
        for (String h : hympj) {
            b.append(" | ratio ").append(h.replaceFirst("^HyMPJ ", "")).append(" near / far");
        }
        b.append(" |\n|---");
        for (int i = 0; i < columns.size() + hympj.size(); i++) {
            b.append("|---:");
        }
        b.append("|\n");
        for (long s : sizes) {
            b.append("| ").append(sizeLabel(bench.name, s));
            for (String[] k : columns.values()) {
                b.append(" | ").append(modeCell(k, s, false, dec)).append(" / ").append(modeCell(k, s, true, dec));
            }
            for (String h : hympj) {
                String[] k = columns.get(h);
                b.append(" | ").append(fmtRatio(anchor == null ? Double.NaN : modeMedian(k, s, false) / modeMedian(anchor, s, false)))
                    .append(" / ").append(fmtRatio(anchor == null ? Double.NaN : modeMedian(k, s, true) / modeMedian(anchor, s, true)));
            }
            b.append(" |\n");
        }
        return b.toString();
    }

    /**
     * The spread over launches within each mode of the machine: per size and column slowest ÷
     * median over the near launches and over the far ones (— where a mode has fewer than two),
     * against {@link #STABLE_SPREAD}. Empty unless both modes occurred. Where launches fall in both
     * modes the spread over all of them is the machine's own (Open MPI's 8 B: 0.10 near against
     * 0.36 far); this one is what is left of the program's.
     */
    String modeSpreadTable(List<Long> sizes, Map<String, String[]> columns, boolean lowerIsBetter) {
        if (!bothModes()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        b.append("Spread within each mode (slowest ÷ median over the launches of one mode, near / far; — where a mode ")
            .append("had fewer than two; stable: ≤ ").append(fmtRatio(STABLE_SPREAD)).append("):\n\n");
        stabilityHeader(b, columns.keySet(), "stable in each mode?");
        for (long s : sizes) {
            b.append("| ").append(sizeLabel(bench.name, s));
            List<String> unstable = new ArrayList<>();
            for (Map.Entry<String, String[]> c : columns.entrySet()) {
                String[] k = c.getValue();
                double n = modeSpread(k, s, NEAR, lowerIsBetter);
                double f = modeSpread(k, s, FAR, lowerIsBetter);
                b.append(" | ").append(fmtRatio(n)).append(" / ").append(fmtRatio(f));
                if ((n > STABLE_SPREAD || f > STABLE_SPREAD) && !k[0].equals(ANCHOR_SYSTEM)) {
                    unstable.add(c.getKey());
                }
            }
            b.append(" | ").append(unstable.isEmpty() ? "yes" : "no (" + String.join(", ", unstable) + ")").append(" |\n");
        }
        return b.toString();
    }

    /** The head of a table of spreads: size, one column per label, then the verdict column {@code last}. */
    private static void stabilityHeader(StringBuilder b, java.util.Collection<String> labels, String last) {
        b.append("| size");
        for (String label : labels) {
            b.append(" | ").append(label);
        }
        b.append(" | ").append(last).append(" |\n|---");
        for (int i = 0; i < labels.size(); i++) {
            b.append("|---:");
        }
        b.append("|---|\n");
    }

    /** Slowest ÷ median over one column's launches of one mode at {@code size}; NaN with fewer than two. */
    private double modeSpread(String[] k, long size, int mode, boolean lowerIsBetter) {
        List<Double> v = values(k[0], k[1], k[2], size, mode);
        if (v.size() < 2) {
            return Double.NaN;
        }
        double w = lowerIsBetter ? java.util.Collections.max(v) : java.util.Collections.min(v);
        return spread(Rows.median(v), w, lowerIsBetter);
    }

    /** True when some launch ran near and some far apart (a launch that changed mode counts for neither). */
    private boolean bothModes() {
        boolean near = false;
        boolean far = false;
        for (Row r : rows) {
            int m = modeOf(r);
            near |= m == NEAR;
            far |= m == FAR;
        }
        return near && far;
    }

    private String modeCell(String[] k, long size, boolean far, int dec) {
        double m = modeMedian(k, size, far);
        return Double.isNaN(m) ? "—" : fmt(m, dec) + " (" + modeCount(k, size, far) + ")";
    }

    /** Median of one column's figures at {@code size} over the launches of one mode; NaN if none. */
    double modeMedian(String[] k, long size, boolean far) {
        return Rows.median(values(k[0], k[1], k[2], size, far ? FAR : NEAR));
    }

    private int modeCount(String[] k, long size, boolean far) {
        return values(k[0], k[1], k[2], size, far ? FAR : NEAR).size();
    }

    private static final int ANY_MODE = 0;
    static final int NEAR = 1;
    static final int FAR = 2;
    /** A launch whose trips before and after disagree (the mode changed while it ran), or whose trip is not known. */
    static final int CHANGED = 3;

    /** The figures of one (system, test, variant, size), of the launches of one mode or of any. */
    private List<Double> values(String system, String test, String variant, long size, int mode) {
        List<Double> v = new ArrayList<>();
        for (Row r : rows) {
            if (r.system.equals(system) && r.test.equals(test) && r.variant.equals(variant) && r.size == size) {
                if (mode == ANY_MODE || modeOf(r) == mode) {
                    v.add(r.value);
                }
            }
        }
        return v;
    }

    /** A core-to-core trip above this (ns): the two CPUs are far apart. */
    static final double FAR_NS = 120;

    /** Median over the rounds of one (system, variant, size) of this test, or NaN. */
    double median(String system, String test, String variant, long size) {
        return Rows.median(values(system, test, variant, size, ANY_MODE));
    }

    /**
     * The slowest launch of one (system, variant, size) of this test: the largest figure when
     * lower is better (latency), the smallest when higher is (bandwidth); NaN if none.
     */
    double slowest(String system, String test, String variant, long size, boolean lowerIsBetter) {
        double w = Double.NaN;
        for (Row r : rows) {
            if (r.system.equals(system) && r.test.equals(test) && r.variant.equals(variant) && r.size == size) {
                w = Double.isNaN(w) ? r.value : lowerIsBetter ? Math.max(w, r.value) : Math.min(w, r.value);
            }
        }
        return w;
    }

    /** How much slower than the median the slowest launch was (≥ 1; 1.5 = the slowest took 1.5× as long). */
    static double spread(double median, double slowest, boolean lowerIsBetter) {
        return lowerIsBetter ? slowest / median : median / slowest;
    }

    /** Issue 18's stability target: over the launches, the slowest at most this many times the median. */
    static final double STABLE_SPREAD = 1.5;

    /**
     * The spread over launches (each round is one launch of each system): per size and column
     * the median and the slowest launch, and slowest ÷ median, against {@link #STABLE_SPREAD}.
     *
     * @param columns label → {system, test, variant}
     */
    String spreadTable(List<Long> sizes, Map<String, String[]> columns, boolean lowerIsBetter, int dec) {
        StringBuilder b = new StringBuilder();
        b.append("Spread over launches (median / slowest launch, slowest ÷ median; stable: ≤ ")
            .append(fmtRatio(STABLE_SPREAD)).append("):\n\n");
        stabilityHeader(b, columns.keySet(), "stable?");
        for (long s : sizes) {
            b.append("| ").append(sizeLabel(bench.name, s));
            List<String> unstable = new ArrayList<>();
            boolean any = false;
            for (Map.Entry<String, String[]> c : columns.entrySet()) {
                String[] k = c.getValue();
                double m = median(k[0], k[1], k[2], s);
                double w = slowest(k[0], k[1], k[2], s, lowerIsBetter);
                if (Double.isNaN(m)) {
                    b.append(" | —");
                    continue;
                }
                any = true;
                double sp = spread(m, w, lowerIsBetter);
                b.append(" | ").append(fmt(m, dec)).append(" / ").append(fmt(w, dec)).append(", ").append(fmtRatio(sp));
                if (sp > STABLE_SPREAD && !k[0].equals(ANCHOR_SYSTEM)) {
                    unstable.add(c.getKey());
                }
            }
            b.append(" | ").append(!any ? "—" : unstable.isEmpty() ? "yes" : "no (" + String.join(", ", unstable) + ")")
                .append(" |\n");
        }
        return b.toString();
    }

    /**
     * Ratios paired by round: each round's HyMPJ launch ÷ the same round's Open MPI launch (the two
     * ran back to back, so mostly in the same mode of the machine), median over the rounds and, in
     * brackets, the worst round. Where the two systems' launches fell into the machine's modes in
     * different proportions, the ratio of the medians compares one mode with another; this one does
     * not. Empty when fewer than two rounds have both figures.
     *
     * @param columns label → {system, test, variant}, the anchor's first
     */
    String pairedTable(List<Long> sizes, Map<String, String[]> columns, boolean lowerIsBetter) {
        String[] anchor = null;
        Map<String, String[]> hympj = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> c : columns.entrySet()) {
            if (c.getValue()[0].equals(ANCHOR_SYSTEM)) {
                anchor = c.getValue();
            } else {
                hympj.put(c.getKey(), c.getValue());
            }
        }
        if (anchor == null || hympj.isEmpty()) {
            return "";
        }
        StringBuilder body = new StringBuilder();
        boolean any = false;
        for (long s : sizes) {
            body.append("| ").append(sizeLabel(bench.name, s));
            for (String[] k : hympj.values()) {
                List<Double> ratios = pairedRatios(k, anchor, s);
                if (ratios.size() < 2) {
                    body.append(" | —");
                    continue;
                }
                any = true;
                double worst = lowerIsBetter ? java.util.Collections.max(ratios) : java.util.Collections.min(ratios);
                body.append(" | ").append(fmtRatio(Rows.median(ratios))).append(" (").append(fmtRatio(worst))
                    .append(", ").append(ratios.size()).append(')');
            }
            body.append(" |\n");
        }
        if (!any) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        b.append("Paired by round (each round's HyMPJ launch ÷ the same round's Open MPI launch, run back to back: ")
            .append("median over the rounds; in brackets the worst round and the number of rounds):\n\n| size");
        for (String h : hympj.keySet()) {
            b.append(" | ratio ").append(h.replaceFirst("^HyMPJ ", ""));
        }
        b.append(" |\n|---");
        for (int i = 0; i < hympj.size(); i++) {
            b.append("|---:");
        }
        return b.append("|\n").append(body).toString();
    }

    /** HyMPJ ÷ Open MPI per round that has both figures at {@code size}. */
    private List<Double> pairedRatios(String[] k, String[] anchor, long size) {
        Map<Integer, Double> ours = new java.util.TreeMap<>();
        Map<Integer, Double> theirs = new java.util.TreeMap<>();
        for (Row r : rows) {
            if (r.size != size || !r.test.equals(r.system.equals(ANCHOR_SYSTEM) ? anchor[1] : k[1])) {
                continue;
            }
            if (r.system.equals(k[0]) && r.variant.equals(k[2])) {
                ours.put(r.rep, r.value);
            } else if (r.system.equals(anchor[0]) && r.variant.equals(anchor[2])) {
                theirs.put(r.rep, r.value);
            }
        }
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<Integer, Double> e : ours.entrySet()) {
            Double a = theirs.get(e.getKey());
            if (a != null && a > 0) {
                ratios.add(e.getValue() / a);
            }
        }
        return ratios;
    }

    /** The spread table's columns: Open MPI, then each HyMPJ variant measured. */
    Map<String, String[]> spreadColumns(BenchDef def, List<String> variants) {
        String[] ak = anchorKey(def);
        Map<String, String[]> cols = new LinkedHashMap<>();
        cols.put("Open MPI", new String[] {ANCHOR_SYSTEM, ak[0], ak[1]});
        for (String v : variants) {
            cols.put("HyMPJ " + v, new String[] {Rows.SYSTEM, def.csvTest(), v});
        }
        return cols;
    }

    int count(String system, String test, String variant, long size) {
        int n = 0;
        for (Row r : rows) {
            if (r.system.equals(system) && r.test.equals(test) && r.variant.equals(variant) && r.size == size) {
                n++;
            }
        }
        return n;
    }

    /** The anchor's test name and variant as found in its rows (it should be def.csvTest(), "default"). */
    private String[] anchorKey(BenchDef def) {
        for (Row r : rows) {
            if (r.system.equals(ANCHOR_SYSTEM)) {
                return new String[] {r.test, r.variant};
            }
        }
        return new String[] {def.csvTest(), "default"};
    }

    private String unit(BenchDef def) {
        for (Row r : rows) {
            return r.unit;
        }
        return "";
    }

    /** The ranks of the job (and of the anchor, via env NP): --np or the benchmark's. */
    int np() {
        return bench.np > 0 ? bench.np : Bench.def(bench).np();
    }

    /**
     * The variant column values of this run's HyMPJ rows: the --algo values for a benchmark
     * with algorithms (barrier), else the buffer kinds' labels.
     */
    List<String> variants(BenchDef def, List<BufferKind> kinds) {
        List<String> v = new ArrayList<>();
        if (!def.algorithms().isEmpty()) {
            v.addAll(Bench.algorithms(bench));
        } else {
            for (BufferKind k : kinds) {
                v.add(k.label());
            }
        }
        return v;
    }

    private String tooSlow(BenchDef def, List<Long> sizes, List<BufferKind> kinds) {
        String[] ak = anchorKey(def);
        boolean lower = Targets.lowerIsBetter(bench.name);
        for (long s : sizes) {
            double a = median(ANCHOR_SYSTEM, ak[0], ak[1], s);
            double best = Double.NaN;
            for (String variant : variants(def, kinds)) {
                double h = median(Rows.SYSTEM, def.csvTest(), variant, s);
                double ratio = lower ? h / a : a / h;
                best = Double.isNaN(best) ? ratio : Math.min(best, ratio);
            }
            if (best > giveUp) {
                return String.format(Locale.ROOT, "at size %d HyMPJ was %.1f× worse than Open MPI (limit --give-up %s)",
                    s, best, fmtNum(giveUp));
            }
        }
        return null;
    }

    static String fmtNum(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    static String unitText(String unit) {
        switch (unit) {
            case "us":
                return "µs";
            case "us/iter":
                return "µs per iteration";
            default:
                return unit;
        }
    }

    static int decimals(String unit) {
        switch (unit) {
            case "MB/s":
                return 1;
            case "us/iter":
                return 2;
            default:
                return 3;
        }
    }

    static String sizeLabel(String bench, long s) {
        if (bench.equals("halo3d") || bench.equals("jface") || bench.equals("kface")) {
            return "N = " + s;
        }
        BenchDef def = Benchmarks.get(bench);
        if (def != null && def.sizeIsRanks()) {
            return s + " ranks";
        }
        if (s >= 1 << 20 && s % (1 << 20) == 0) {
            return (s >> 20) + " MB";
        }
        if (s >= 1 << 10 && s % (1 << 10) == 0) {
            return (s >> 10) + " KB";
        }
        return s + " B";
    }

    String table(BenchDef def, List<Long> sizes, List<BufferKind> kinds) {
        if (def.anchorScript() != null) {
            return variantTable(def, sizes, kinds);
        }
        String[] ak = anchorKey(def);
        String unit = unit(def);
        int dec = decimals(unit);
        boolean lower = Targets.lowerIsBetter(bench.name);
        StringBuilder b = new StringBuilder();
        b.append("| size | Open MPI | HyMPJ heap | HyMPJ segment | ratio heap | ratio segment | target | met? |\n");
        b.append("|---|---:|---:|---:|---:|---:|---|---|\n");
        for (long s : sizes) {
            double a = median(ANCHOR_SYSTEM, ak[0], ak[1], s);
            Map<BufferKind, Double> h = new LinkedHashMap<>();
            Map<BufferKind, Double> ratio = new LinkedHashMap<>();
            for (BufferKind k : BufferKind.values()) {
                double v = kinds.contains(k) ? median(Rows.SYSTEM, def.csvTest(), k.label(), s) : Double.NaN;
                h.put(k, v);
                ratio.put(k, v / a);
            }
            List<Targets.Target> ts = Targets.of(bench.name, s);
            b.append("| ").append(sizeLabel(bench.name, s))
                .append(" | ").append(fmt(a, dec))
                .append(" | ").append(fmt(h.get(BufferKind.HEAP), dec))
                .append(" | ").append(fmt(h.get(BufferKind.SEGMENT), dec))
                .append(" | ").append(fmtRatio(ratio.get(BufferKind.HEAP)))
                .append(" | ").append(fmtRatio(ratio.get(BufferKind.SEGMENT)))
                .append(" | ").append(Targets.describe(ts))
                .append(" | ").append(met(ts, ratio, kinds)).append(" |\n");
        }
        List<String> labels = new ArrayList<>();
        for (BufferKind k : kinds) {
            labels.add(k.label());
        }
        b.append('\n').append(spreadTable(sizes, spreadColumns(def, labels), lower, dec));
        String paired = pairedTable(sizes, spreadColumns(def, labels), lower);
        if (!paired.isEmpty()) {
            b.append('\n').append(paired);
        }
        String modes = modeTable(sizes, spreadColumns(def, labels), dec);
        if (!modes.isEmpty()) {
            b.append('\n').append(modes);
            b.append('\n').append(modeSpreadTable(sizes, spreadColumns(def, labels), lower));
        }
        return b.toString();
    }

    /**
     * The table of the collective benchmarks: one HyMPJ column and one ratio column per variant
     * (allreduce: heap; barrier: each algorithm), the target where one applies; for barrier also
     * rd ÷ ring, rd ÷ dissemination (which isolates the fold of non-powers of two: dissemination
     * needs none) and the fastest algorithm per rank count (the S4 comparison).
     */
    String variantTable(BenchDef def, List<Long> sizes, List<BufferKind> kinds) {
        String[] ak = anchorKey(def);
        int dec = decimals(unit(def));
        List<String> vs = variants(def, kinds);
        boolean s4 = vs.contains("rd") && vs.contains("ring") && vs.contains("dissemination");
        StringBuilder b = new StringBuilder();
        b.append("| ").append(def.sizeIsRanks() ? "ranks" : "size").append(" | Open MPI");
        for (String v : vs) {
            b.append(" | HyMPJ ").append(v);
        }
        for (String v : vs) {
            b.append(" | ratio ").append(v);
        }
        if (s4) {
            b.append(" | rd ÷ ring | rd ÷ dissemination | fastest HyMPJ");
        }
        b.append(" | target | met? |\n|---|---:");
        for (int i = 0; i < 2 * vs.size(); i++) {
            b.append("|---:");
        }
        if (s4) {
            b.append("|---:|---:|---");
        }
        b.append("|---|---|\n");
        for (long s : sizes) {
            double a = median(ANCHOR_SYSTEM, ak[0], ak[1], s);
            Map<String, Double> h = new LinkedHashMap<>();
            for (String v : vs) {
                h.put(v, median(Rows.SYSTEM, def.csvTest(), v, s));
            }
            b.append("| ").append(sizeLabel(bench.name, s)).append(" | ").append(fmt(a, dec));
            for (String v : vs) {
                b.append(" | ").append(fmt(h.get(v), dec));
            }
            for (String v : vs) {
                b.append(" | ").append(fmtRatio(h.get(v) / a));
            }
            if (s4) {
                String fastest = "—";
                double best = Double.NaN;
                for (String v : vs) {
                    if (!Double.isNaN(h.get(v)) && (Double.isNaN(best) || h.get(v) < best)) {
                        best = h.get(v);
                        fastest = v;
                    }
                }
                b.append(" | ").append(fmtRatio(h.get("rd") / h.get("ring")))
                    .append(" | ").append(fmtRatio(h.get("rd") / h.get("dissemination"))).append(" | ").append(fastest);
            }
            // targets are stated for the benchmark's own rank count (allreduce: 8 ranks)
            List<Targets.Target> ts = def.sizeIsRanks() || np() == def.np() ? Targets.of(bench.name, s) : List.of();
            b.append(" | ").append(Targets.describe(ts)).append(" | ");
            if (ts.isEmpty()) {
                b.append("—");
            } else {
                List<String> per = new ArrayList<>();
                for (String v : vs) {
                    double r = h.get(v) / a;
                    boolean ok = true;
                    for (Targets.Target t : ts) {
                        ok &= t.met(r);
                    }
                    per.add((vs.size() > 1 ? v + " " : "") + (Double.isNaN(r) ? "not run" : ok ? "yes" : "no"));
                }
                b.append(String.join(", ", per));
            }
            b.append(" |\n");
        }
        b.append('\n').append(spreadTable(sizes, spreadColumns(def, vs), Targets.lowerIsBetter(bench.name), dec));
        String paired = pairedTable(sizes, spreadColumns(def, vs), Targets.lowerIsBetter(bench.name));
        if (!paired.isEmpty()) {
            b.append('\n').append(paired);
        }
        String modes = modeTable(sizes, spreadColumns(def, vs), dec);
        if (!modes.isEmpty()) {
            b.append('\n').append(modes);
            b.append('\n').append(modeSpreadTable(sizes, spreadColumns(def, vs), Targets.lowerIsBetter(bench.name)));
        }
        return b.toString();
    }

    static String fmt(double v, int dec) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%." + dec + "f", v);
    }

    static String fmtRatio(double r) {
        if (Double.isNaN(r) || Double.isInfinite(r)) {
            return "—";
        }
        return String.format(Locale.ROOT, r < 0.095 ? "%.3f" : "%.2f", r);
    }

    /** "yes", "no", or per kind ("heap no, segment yes") when they differ; "—" without a target. */
    static String met(List<Targets.Target> ts, Map<BufferKind, Double> ratio, List<BufferKind> kinds) {
        if (ts.isEmpty()) {
            return "—";
        }
        Map<BufferKind, String> per = new LinkedHashMap<>();
        for (BufferKind k : BufferKind.values()) {
            for (Targets.Target t : ts) {
                if (t.appliesTo(k)) {
                    double r = ratio.get(k);
                    per.put(k, !kinds.contains(k) || Double.isNaN(r) ? "not run" : t.met(r) ? "yes" : "no");
                }
            }
        }
        if (per.size() == 1) {
            Map.Entry<BufferKind, String> e = per.entrySet().iterator().next();
            return ts.get(0).kind == null ? e.getValue() : e.getKey().label() + " " + e.getValue();
        }
        if (per.values().stream().distinct().count() == 1) {
            return per.values().iterator().next();
        }
        StringBuilder b = new StringBuilder();
        for (Map.Entry<BufferKind, String> e : per.entrySet()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(e.getKey().label()).append(' ').append(e.getValue());
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ the report

    private String section(BenchDef def, List<Long> sizes, List<BufferKind> kinds, ZonedDateTime start,
                           ZonedDateTime end, String loadStart, String loadEnd, int completed, String stopped,
                           Path csv, String table) {
        String unit = unit(def);
        boolean lower = Targets.lowerIsBetter(bench.name);
        StringBuilder sizeArgs = new StringBuilder();
        for (long s : sizes) {
            sizeArgs.append(' ').append(s);
        }
        StringBuilder b = new StringBuilder();
        b.append("### ").append(section).append(": ").append(def.description()).append("\n\n");
        b.append("Figures in ").append(unitText(unit)).append(", ").append(lower ? "lower" : "higher").append(" is better; ratio = HyMPJ ÷ Open MPI")
            .append(lower ? " (below 1: HyMPJ faster)" : " (above 1: HyMPJ faster)").append(".\n\n");
        b.append("- **Same run**: both columns come from the same session of `bin/hympj-compare`, which ran ")
            .append(completed).append(" round").append(completed == 1 ? "" : "s")
            .append(" interleaved (odd rounds Open MPI then HyMPJ, even rounds HyMPJ then Open MPI); each figure is the ")
            .append("median (and, in the spread table, the slowest) over the rounds of one launch's figure (itself the median of 5 batches, or for halo3d the ")
            .append("max over ranks).\n");
        b.append("- **Date**: ").append(start.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"))).append(" – ")
            .append(end.format(DateTimeFormatter.ofPattern("HH:mm"))).append(" UTC; load average (1/5/15 min) ")
            .append(loadStart).append(" at start, ").append(loadEnd).append(" at end.\n");
        b.append("- **Machine**: ").append(machine()).append(".\n");
        b.append("- **Quiet**: every round held the benchmark lock `").append(Quiet.LOCK.getFileName())
            .append("` (no other benchmark launch during it); ")
            .append(quietSummary()).append(" (per launch: `").append(relative(conditionsFile(csv))).append("`).\n");
        b.append("- **Open MPI**: ").append(openMpiVersion()).append(", `")
            .append(def.anchorScript() != null && !def.sizeIsRanks() ? "NP=" + np() + " " : "")
            .append(relative(Paths.get(anchor))).append(' ').append(bench.name)
            .append(sizeArgs).append("` (`REP=<round>`").append(def.sizeIsRanks() ? "; one mpirun per rank count" : "")
            .append(").\n");
        b.append("- **HyMPJ**: ").append(hympjBuild()).append("; `hympj-bench ").append(bench.name)
            .append(bench.np > 0 && !def.sizeIsRanks() ? " --np " + bench.np : "")
            .append(bench.algo != null ? " --algo " + bench.algo : "")
            .append(" --buffers ").append(BufferKind.format(kinds)).append(sizeArgs).append("`, one launch per buffer kind")
            .append(def.algorithms().isEmpty() ? "" : ", algorithm")
            .append(def.sizeIsRanks() ? " and rank count" : "")
            .append(bench.launcherOptions().isEmpty() ? ", launcher defaults"
                : ", launcher options `" + String.join(" ", bench.launcherOptions()) + "`")
            .append(".\n");
        String lib = System.getenv("HYMPJ_LIB");
        String btl = System.getenv("OMPI_BTL");
        b.append("- **Command**: `").append(btl == null || btl.isBlank() ? "" : "OMPI_BTL=" + btl.trim() + " ")
            .append(lib == null || lib.isEmpty() ? "" : "HYMPJ_LIB=" + lib + " ")
            .append("bin/hympj-compare ").append(bench.name).append(" --rounds ").append(rounds)
            .append(bench.timeout != null ? " --timeout " + bench.timeout.toSeconds() : "")
            .append(bench.quiet != DEFAULT_QUIET ? " --quiet " + fmtNum(bench.quiet) : "")
            .append(bench.quietWait.toSeconds() != 60 ? " --quiet-wait " + bench.quietWait.toSeconds() : "")
            .append(giveUp > 0 ? " --give-up " + fmtNum(giveUp) : "")
            .append(section.equals(bench.name) ? "" : " --section " + section)
            .append(bench.np > 0 ? " --np " + bench.np : "")
            .append(bench.algo != null ? " --algo " + bench.algo : "")
            .append(bench.buffers != null ? " --buffers " + bench.buffers : "")
            .append(bench.loopCompile != null ? " --loop-compile " + bench.loopCompile : "")
            .append(bench.launcherOptions().isEmpty() ? "" : " " + String.join(" ", bench.launcherOptions()))
            .append(sizeArgs).append("`; raw rows: `").append(relative(csv)).append("`.\n");
        if (bench.jvmArgs.contains("-D" + "hympj.perf.prepass=true")) {
            b.append("- **Not the anchors' method**: every HyMPJ launch first ran its first size's whole measurement ")
                .append("once, untimed and discarded (JIT pre-pass, `-Dhympj.perf.prepass=true`); what is timed is ")
                .append("unchanged. Open MPI (compiled C) has no such warm-up to do.\n");
        }
        if (!def.timedLoops().isEmpty()) {
            b.append("- **The rank program's own timed loop** (").append(methods(def.timedLoops())).append(") ")
                .append("lazy".equals(bench.loopCompile)
                    ? "was compiled when HotSpot chose to (`--loop-compile lazy`: after 60,000 back-edges, so an "
                        + "8-byte size's 55,000 iterations ran it in the interpreter)"
                    : "was compiled by HotSpot during the warm-up batch before the timed ones (`--loop-compile "
                        + "warm-up`: its compile thresholds scaled to 1 %, the compile awaited, the warm-up batch's "
                        + "iterations run 16 to a call so that the loop is compiled as a method, not on the stack), "
                        + "as the C anchor's loop is compiled code; the program waits for its JIT to be idle before "
                        + "its first size and prints its rows after its last; the library's code and what is timed "
                        + "are unchanged")
                .append(".\n");
        }
        if (stopped != null) {
            b.append("- **STOPPED EARLY** after round ").append(completed).append(" of ").append(rounds).append(": ")
                .append(stopped).append(".\n");
        }
        b.append('\n').append(table);
        return b.toString();
    }

    /** HotSpot method patterns as the docs name them: {@code `Class.method`}, comma-separated. */
    static String methods(List<String> patterns) {
        StringBuilder b = new StringBuilder();
        for (String m : patterns) {
            b.append(b.length() == 0 ? "" : ", ").append('`').append(m.substring(m.lastIndexOf('/') + 1)).append('`');
        }
        return b.toString();
    }

    /**
     * A path as the docs may name it: relative to the checkout, or {@code ../shared/…} for the
     * workplace's shared folder beside it; anything else by its file name only (no path of the
     * machine the run happened on goes into the docs).
     */
    static String relative(Path p) {
        Path h = home();
        Path a = p.toAbsolutePath().normalize();
        if (a.startsWith(h)) {
            return h.relativize(a).toString();
        }
        Path parent = h.getParent();
        if (parent != null && a.startsWith(parent.resolve("shared"))) {
            return "../shared/" + parent.resolve("shared").relativize(a);
        }
        return "(outside the checkout) " + a.getFileName();
    }

    static String loadAverage() {
        return Quiet.loadAverage();
    }

    static String machine() {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        long memGb = 0;
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memGb = Math.round(Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        return cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores visible, " + memGb + " GB RAM, "
            + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
            + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
            + " (shared machine: other tenants' load varies)";
    }

    static String openMpiVersion() {
        String v = command(null, "mpirun", "--version");
        if (v == null || v.isBlank()) {
            return "Open MPI (version unknown)";
        }
        String first = v.lines().findFirst().orElse("").trim();
        return first.replace("mpirun (Open MPI)", "Open MPI").trim() + " (C, " + openMpiTransport(System.getenv("OMPI_BTL"))
            + ", as the anchor script runs it)";
    }

    /** Open MPI's transports as the anchor script picks them: vader unless {@code OMPI_BTL} names others. */
    static String openMpiTransport(String btl) {
        return btl == null || btl.isBlank() ? "ob1 + vader" : "ob1, btl " + btl.trim() + " from OMPI_BTL";
    }

    /** Which HyMPJ was measured: the source tree of the jars on the class path, its git commit and state. */
    static String hympjBuild() {
        Path lib;
        try {
            lib = Paths.get(Bench.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        } catch (URISyntaxException | RuntimeException e) {
            return "HyMPJ (build unknown)";
        }
        Path tree = lib;
        for (int i = 0; i < 3 && tree != null; i++) {
            tree = tree.getParent(); // <tree>/perf/target/lib
        }
        String jars = relative(lib).startsWith("(outside") ? "a copy of a build's jars (HYMPJ_LIB)" : "jars "
            + relative(lib);
        if (tree == null) {
            return "HyMPJ, " + jars;
        }
        String rev = command(tree, "git", "rev-parse", "--short", "HEAD");
        if (rev == null || rev.isBlank()) {
            return "HyMPJ, " + jars + " (not a git tree)";
        }
        String dirty = command(tree, "git", "status", "--porcelain", "--", "mpj-api/src/main", "transport-shm/src/main");
        return "git " + rev.trim() + (dirty == null || dirty.isBlank() ? " (library sources clean)"
            : " plus uncommitted library changes") + ", " + jars;
    }

    static String command(Path dir, String... cmd) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    // ------------------------------------------------------------------ the document

    static final String DOC_HEADER = String.join("\n",
        "# HyMPJ performance",
        "",
        "HyMPJ measured against Open MPI (C, shared-memory `vader` transport, CMA single copy) on the same",
        "machine, **in the same session, interleaved**, because this machine is shared and its speed drifts.",
        "The Open MPI programs are the anchors in `../shared/anchors` (`pingpong.c`, `bw.c`, `halo3d.c`);",
        "the HyMPJ rank programs in `perf/src/main/java/org/hympj/perf` time exactly the same thing the same way",
        "(same warm-up and iteration counts per size, 5 batches with a barrier before each, median batch;",
        "halo3d: warm-up, barrier, timed iterations, max over ranks of elapsed / iterations).",
        "",
        "Every figure below is written by `bin/hympj-compare` (`org.hympj.perf.Compare`); nothing in the",
        "sections between `<!-- compare:… -->` markers is edited by hand. Buffer kinds: **heap** = Java arrays,",
        "**segment** = buffers from `comm.alloc`/`comm.allocDoubles` (the registered shared segment: messages",
        "above the eager limit move into it with one copy). Targets are ratios HyMPJ ÷ Open MPI from the same",
        "run; \"met?\" compares the unrounded medians. Sections named `…-prepass` are supplementary: they differ",
        "from the anchors' method by an untimed JIT pre-pass (said so in the section).",
        "",
        "Reproduce: `mvn -B -q install -DskipTests`, then e.g. `bin/hympj-compare pingpong --rounds 5`",
        "(single runs: `bin/hympj-bench pingpong`; the anchor: `../shared/anchors/run-openmpi.sh pingpong`).",
        "");

    static void updateDoc(Path doc, String section, String body) throws IOException {
        String text = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : DOC_HEADER;
        Files.createDirectories(doc.toAbsolutePath().getParent());
        Files.writeString(doc, replaceSection(text, section, body), StandardCharsets.UTF_8);
    }

    /** Replaces the text between the section's markers (or appends the section), keeping the rest. */
    static String replaceSection(String text, String section, String body) {
        String begin = "<!-- compare:" + section + " -->";
        String end = "<!-- /compare:" + section + " -->";
        String block = begin + "\n" + body + (body.endsWith("\n") ? "" : "\n") + end;
        int b = text.indexOf(begin);
        int e = text.indexOf(end);
        if (b >= 0 && e > b) {
            return text.substring(0, b) + block + text.substring(e + end.length());
        }
        if (b >= 0 || e >= 0) {
            throw new IllegalStateException("unbalanced markers for section " + section + " in the document");
        }
        return text + (text.endsWith("\n") ? "" : "\n") + "\n" + block + "\n";
    }
}
