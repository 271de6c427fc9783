package org.hympj.tools.trace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.trace.TraceEvent;
import org.hympj.shm.trace.TraceJournal;
import org.hympj.shm.trace.TraceJournal.RankTrace;

/**
 * {@code bin/hympj-trace DIR}: reads the journals a job traced with {@code --trace DIR} left
 * in {@code DIR/rank-<r>/} and writes
 * <ul>
 *   <li>{@code PREFIX-summary.txt}: per rank and event kind, counts, bytes and post-to-completion
 *       times (median/p99/max), puts per engine and protocol, pairing checks (also printed);
 *   <li>{@code PREFIX.json}: Chrome/Perfetto trace event JSON ({@link ChromeTrace});
 *   <li>{@code PREFIX-exchange.png}: the per-engine timeline of one exchange ({@link ExchangePlot}).
 * </ul>
 * PREFIX defaults to {@code DIR/trace}.
 */
public final class TraceTool {
    static final String USAGE = String.join("\n",
        "usage: hympj-trace DIR [--out PREFIX] [--exchange N] [--min-requests R] [--color dest|tag]",
        "                       [--tag-names T=NAME,...] [--align rank|job] [--width PX] [--dump]",
        "  DIR               a trace directory written by mpjrun --trace DIR (DIR/rank-<r>/ per rank)",
        "  --out PREFIX      write PREFIX-summary.txt, PREFIX.json, PREFIX-exchange.png (default DIR/trace)",
        "  --exchange N      the exchange to draw: the N-th waitAll of rank 0 (1-based, negative from the end;",
        "                    default -1, the last) among those with the most requests (see --min-requests);",
        "                    'shortest': the one whose puts took the least modelled time (least disturbed by",
        "                    the OS scheduler on a loaded machine)",
        "  --min-requests R  count as exchanges the waitAll calls of at least R requests (default: rank 0's largest",
        "                    waitAll, so barriers between halo exchanges are skipped)",
        "  --color dest|tag  colour the puts by destination rank (default) or by tag (a halo code's direction)",
        "  --tag-names LIST  names of tags for --color tag, e.g. 100=E,102=W,104=N,105=N (one colour per name)",
        "  --align rank|job  x axis of the picture from each rank's first put issue (default) or from the job's",
        "                    first (one clock: shows how far apart the ranks started the exchange)",
        "  --width PX        width of the picture (default 1400)",
        "  --dump            also print every event, one line each");

    private TraceTool() {
    }

    /** A bad command line (the usage is printed with it). */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** What a run produced. */
    public static final class Result {
        public final TraceAnalysis analysis;
        public final TraceAnalysis.Exchange exchange;
        public final ExchangePlot.Result plot;
        public final Path summary;
        public final Path json;
        public final Path png;

        Result(TraceAnalysis analysis, TraceAnalysis.Exchange exchange, ExchangePlot.Result plot, Path summary,
               Path json, Path png) {
            this.analysis = analysis;
            this.exchange = exchange;
            this.plot = plot;
            this.summary = summary;
            this.json = json;
            this.png = png;
        }
    }

    public static void main(String[] args) {
        if (!chronicleCanOpen()) {
            System.exit(relaunch(args));
        }
        System.setProperty("java.awt.headless", "true");
        int code;
        try {
            run(args, System.out);
            code = 0;
        } catch (UsageException e) {
            System.err.println("hympj-trace: " + e.getMessage());
            System.err.println(USAGE);
            code = 2;
        } catch (IllegalArgumentException e) {
            System.err.println("hympj-trace: " + e.getMessage());
            code = 2;
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            System.err.println("hympj-trace: " + e.getMessage());
            code = 1;
        }
        System.exit(code);
    }

    /** Chronicle Queue opens only with java.lang.reflect opened to us (the flags of DEPENDENCIES.md). */
    static boolean chronicleCanOpen() {
        return Object.class.getModule().isOpen("java.lang.reflect", TraceTool.class.getModule());
    }

    /** Runs this tool again in a JVM with HyMPJ's flags (started without them, e.g. from an IDE). */
    static int relaunch(String[] args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        cmd.addAll(Launcher.jvmFlags());
        cmd.add("-Djava.awt.headless=true");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(TraceTool.class.getName());
        cmd.addAll(List.of(args));
        try {
            return new ProcessBuilder(cmd).inheritIO().start().waitFor();
        } catch (IOException e) {
            System.err.println("hympj-trace: cannot start a JVM: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** Reads DIR's journals and writes the summary, the JSON and the picture; prints the summary to {@code out}. */
    public static Result run(String[] args, PrintStream out) throws IOException {
        Path dir = null;
        String prefix = null;
        int exchange = -1;
        boolean shortest = false;
        long minRequests = 0;
        int width = 1400;
        boolean dump = false;
        boolean alignRanks = true;
        java.util.Map<Integer, String> tagNames = new java.util.HashMap<>();
        ExchangePlot.ColorBy color = ExchangePlot.ColorBy.DEST;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h":
                case "--help":
                    out.println(USAGE);
                    return null;
                case "--out":
                    prefix = value(args, ++i, a);
                    break;
                case "--exchange":
                    if (i + 1 < args.length && args[i + 1].equals("shortest")) {
                        shortest = true;
                        i++;
                        break;
                    }
                    exchange = parseInt(a, value(args, ++i, a));
                    if (exchange == 0) {
                        throw new UsageException("--exchange counts from 1 (or from the end: -1 = the last)");
                    }
                    break;
                case "--min-requests":
                    minRequests = parseInt(a, value(args, ++i, a));
                    break;
                case "--width":
                    width = parseInt(a, value(args, ++i, a));
                    if (width < 400) {
                        throw new UsageException("--width must be at least 400");
                    }
                    break;
                case "--color": {
                    String v = value(args, ++i, a);
                    if (v.equals("dest")) {
                        color = ExchangePlot.ColorBy.DEST;
                    } else if (v.equals("tag")) {
                        color = ExchangePlot.ColorBy.TAG;
                    } else {
                        throw new UsageException("--color must be dest or tag, was " + v);
                    }
                    break;
                }
                case "--tag-names":
                    for (String part : value(args, ++i, a).split(",")) {
                        int eq = part.indexOf('=');
                        if (eq <= 0 || eq == part.length() - 1) {
                            throw new UsageException("--tag-names expects TAG=NAME,..., got '" + part + "'");
                        }
                        tagNames.put(parseInt(a, part.substring(0, eq).trim()), part.substring(eq + 1).trim());
                    }
                    color = ExchangePlot.ColorBy.TAG;
                    break;
                case "--align": {
                    String v = value(args, ++i, a);
                    if (!v.equals("rank") && !v.equals("job")) {
                        throw new UsageException("--align must be rank or job, was " + v);
                    }
                    alignRanks = v.equals("rank");
                    break;
                }
                case "--dump":
                    dump = true;
                    break;
                default:
                    if (a.startsWith("-") || dir != null) {
                        throw new UsageException("unknown argument " + a);
                    }
                    dir = Paths.get(a);
                    break;
            }
        }
        if (dir == null) {
            throw new UsageException("no trace directory given");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
        Path pre = prefix != null ? Paths.get(prefix) : dir.resolve("trace");
        if (pre.getParent() != null) {
            Files.createDirectories(pre.getParent());
        }
        List<RankTrace> ranks = TraceJournal.read(dir);
        TraceAnalysis a = new TraceAnalysis(ranks);
        if (dump) {
            for (RankTrace r : ranks) {
                out.println("# " + r.header);
                for (TraceEvent e : r.events) {
                    out.println(e);
                }
            }
        }
        String summary = TraceSummary.of(a);
        TraceAnalysis.Exchange x = shortest ? a.shortestExchange(minRequests) : a.exchange(exchange, minRequests);
        Path summaryFile = Paths.get(pre + "-summary.txt");
        Path json = Paths.get(pre + ".json");
        Path png = Paths.get(pre + "-exchange.png");
        try (BufferedWriter w = Files.newBufferedWriter(json, StandardCharsets.UTF_8)) {
            ChromeTrace.write(a, w);
        }
        ExchangePlot.Result plot = ExchangePlot.draw(a, x, color, tagNames, alignRanks, width, png);
        summary += String.format(Locale.ROOT, "%nexchange %d of %d drawn: %d puts, %.1f modelled us from first issue to "
            + "last put end%n", x.number, x.of, plot.puts, plot.spanMicros);
        Files.writeString(summaryFile, summary, StandardCharsets.UTF_8);
        out.print(summary);
        out.println("wrote " + summaryFile + ", " + json + " (open in ui.perfetto.dev or chrome://tracing), " + png
            + " (" + plot.width + "x" + plot.height + ")");
        return new Result(a, x, plot, summaryFile, json, png);
    }

    private static String value(String[] argv, int i, String opt) {
        if (i >= argv.length) {
            throw new UsageException(opt + " needs a value");
        }
        return argv[i];
    }

    private static int parseInt(String opt, String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(opt + " expects a whole number, got '" + v + "'");
        }
    }
}
