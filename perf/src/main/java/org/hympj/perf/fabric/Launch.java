package org.hympj.perf.fabric;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hympj.perf.Quiet;
import org.hympj.perf.Rows;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;

/**
 * One launch of a fabric benchmark's rank program: builds the {@link LaunchSpec} (model, route,
 * subcluster, dilation, route table, protocol limits), holds the machine-wide benchmark lock
 * ({@link Quiet#lock}) while it runs, and returns rank 0's CSV rows and {@code #} remarks.
 */
final class Launch {
    int np = 2;
    String main;
    List<String> args = new ArrayList<>();
    String model = "ha-pacs";
    String route = "auto";
    int subcluster;
    double dilation;
    String routeTable;
    long segmentBytes;
    int eagerLimit = -1;
    int inlineLimit = -1;
    Duration timeout = Duration.ofSeconds(1800);
    List<String> jvmArgs = new ArrayList<>();
    boolean verbose;
    /** The ranks' idle policy (null: the launcher's default, auto). */
    String idle;
    /** --clock (null: the launcher's default, virtual) and --compute-scale (negative: its default). */
    String clock;
    double computeScale = -1;

    /** Runs it; rows (and remarks) of rank 0 go to {@code rows} as they are parsed. */
    /** A copy (lists copied) to vary one launch. */
    Launch copy() {
        Launch c = new Launch();
        c.np = np;
        c.main = main;
        c.args = new ArrayList<>(args);
        c.model = model;
        c.route = route;
        c.subcluster = subcluster;
        c.dilation = dilation;
        c.routeTable = routeTable;
        c.segmentBytes = segmentBytes;
        c.eagerLimit = eagerLimit;
        c.inlineLimit = inlineLimit;
        c.timeout = timeout;
        c.jvmArgs = new ArrayList<>(jvmArgs);
        c.verbose = verbose;
        c.idle = idle;
        c.clock = clock;
        c.computeScale = computeScale;
        return c;
    }

    List<String> run(PrintStream rows, PrintStream diag) throws IOException {
        LaunchSpec spec = new LaunchSpec().np(np).main(main).args(args).timeout(timeout)
            .output(LaunchSpec.Output.CAPTURE).model(model).route(route);
        if (subcluster > 0) {
            spec.subcluster(subcluster);
        }
        if (dilation > 0) {
            spec.timeDilation(dilation);
        }
        if (clock != null) {
            spec.clock(clock);
        }
        if (computeScale >= 0) {
            spec.computeScale(computeScale);
        }
        if (routeTable != null) {
            spec.routeTable(routeTable);
        }
        if (segmentBytes > 0) {
            spec.segmentBytes(segmentBytes);
        }
        if (inlineLimit >= 0) {
            spec.inlineLimit(inlineLimit);
        }
        if (eagerLimit >= 0) {
            spec.eagerLimit(eagerLimit);
        }
        for (String j : jvmArgs) {
            spec.jvmArg(j);
        }
        if (idle != null) {
            spec.idle(idle);
        }
        rows.println("# launch: " + describe()); // in the results file: how each figure was launched
        rows.flush();
        JobResult r;
        try (Quiet lock = Quiet.lock(Duration.ofSeconds(7200), diag)) {
            long t0 = System.nanoTime();
            r = Launcher.run(spec);
            diag.println(Quiet.wallTime(System.nanoTime() - t0, lock.waitedSeconds(), Quiet.loadAverage()));
        }
        try {
            Thread.sleep(1000); // let other drivers waiting for the lock have their turn before our next launch
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<String> out = new ArrayList<>();
        for (String line : r.output(0).split("\n")) {
            if (line.startsWith(Rows.SYSTEM + ",") || line.startsWith("# ")) {
                out.add(line);
                rows.println(line);
            }
        }
        rows.flush();
        if (!r.ok()) {
            diag.print(r.allOutput());
            throw new IOException(main + " failed: " + r.message());
        }
        if (verbose) {
            diag.print(r.allOutput());
        }
        return out;
    }

    /** The launch as mpjrun options (for the record). */
    String describe() {
        StringBuilder b = new StringBuilder("mpjrun -np " + np + " --model " + model + " --route " + route);
        if (subcluster > 0) {
            b.append(" --subcluster ").append(subcluster);
        }
        b.append(" --time-dilation ").append(dilation > 0 ? fmt(dilation) : "default");
        if (routeTable != null) {
            b.append(" --route-table ").append(routeTable);
        }
        if (inlineLimit >= 0) {
            b.append(" --inline-limit ").append(inlineLimit);
        }
        if (eagerLimit >= 0) {
            b.append(" --eager-limit ").append(eagerLimit);
        }
        if (segmentBytes > 0) {
            b.append(" --segment-size ").append(segmentBytes);
        }
        if (idle != null) {
            b.append(" --idle ").append(idle);
        }
        b.append(' ').append(main.substring(main.lastIndexOf('.') + 1));
        for (String a : args) {
            b.append(' ').append(a);
        }
        return b.toString();
    }

    static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d);
    }

    /** Remarks recording when and under what load a run happened. */
    static String conditions(String what) {
        return "# " + what + ": " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
            "yyyy-MM-dd HH:mm 'UTC'")) + "; load average " + Quiet.loadAverage() + "; " + build();
    }

    static String build() {
        String b = System.getenv("HYMPJ_BUILD");
        if (b != null && !b.isBlank()) {
            return b;
        }
        // named by its path in the repo: results never name a path of the machine they ran on
        Path jar = Paths.get(System.getProperty("java.class.path", "").split(":")[0]).toAbsolutePath().normalize();
        return jar.startsWith(home()) ? "jars " + home().relativize(jar.getParent()) : "a copy of a build's jars";
    }

    static String today() {
        return ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE);
    }

    /** $HYMPJ_HOME (or the working directory). */
    static Path home() {
        String h = System.getenv("HYMPJ_HOME");
        return Paths.get(h != null && !h.isBlank() ? h : ".").toAbsolutePath().normalize();
    }

    /** A model file overriding some values of {@code base} (a preset name or a file). */
    static String derivedModel(String base, String name, String... keyValues) throws IOException {
        Path f = Files.createTempFile("hympj-model-" + name + "-", ".properties");
        f.toFile().deleteOnExit();
        StringBuilder b = new StringBuilder("base = " + base + "\nname = " + name + "\n");
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            b.append(keyValues[i]).append(" = ").append(keyValues[i + 1]).append('\n');
        }
        Files.writeString(f, b.toString());
        return f.toString();
    }
}
