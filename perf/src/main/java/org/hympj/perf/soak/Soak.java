package org.hympj.perf.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;

/**
 * {@code bin/hympj-bench soak --minutes M [--np N] [--iterations I] [--kill-fraction F] [--seed S]}:
 * launches job after job of {@link SoakRank} (eager and rendezvous sizes, collectives,
 * persistent sets, random sizes) for M minutes; in a fraction of the runs a random rank
 * SIGKILLs itself at a random iteration. After each run it checks: a clean run exited 0 and
 * every rank verified its data; a killed run failed naming the victim and every survivor
 * caught RankFailedException naming it; no file of the job is left in /dev/shm and no rank
 * process is alive. Prints one line per run and a summary, with the ranks' RSS growth over
 * two windows of each clean job (warm-up, then the last two fifths), split into shared
 * memory and committed Java heap: growth in the second window that neither explains is a leak. Not a test: it takes minutes. Exit code 0 when
 * every run was as expected.
 */
public final class Soak {
    /** Heap of every rank, fixed and pre-touched (see {@link #one}). */
    static final String HEAP = "256m";
    private int minutes = 3;
    private int np = 8;
    private int iterations = 150;
    private double killFraction = 0.3;
    private long seed = System.nanoTime();
    /** {@code --local-hosts K}: every job on K local hosts (the network transport between them); 0 = one host. */
    private int localHosts;
    /** {@code --net-driver agent|rank} with local hosts (null: the launcher's default). */
    private String netDriver;

    private int runs;
    private int cleanRuns;
    private int cleanVerified;
    private int killedRuns;
    private int killsCaught;
    private final List<String> problems = new ArrayList<>();
    private int leakedFiles;
    private int leakedProcesses;
    /** Per rank of a clean run: RSS growth over the second window (3/5 to the end), KiB. */
    private final List<Long> rssGrowthKb = new ArrayList<>();
    /** The same over the first window (1/5 to 3/5): warm-up (heap and shared pages first touched). */
    private final List<Long> rssWarmKb = new ArrayList<>();
    private final List<Long> heapGrowthKb = new ArrayList<>();
    private final List<Long> shmemGrowthKb = new ArrayList<>();
    private final List<Long> launchMillis = new ArrayList<>();

    private Soak() {
    }

    /** Entry point of the {@code soak} subcommand; returns the exit code. */
    public static int run(String[] argv, PrintStream out) throws IOException {
        Soak s = new Soak();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            String v = i + 1 < argv.length ? argv[i + 1] : null;
            if (v == null) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            switch (a) {
                case "--minutes":
                    s.minutes = positive(a, v);
                    break;
                case "--np":
                    s.np = positive(a, v);
                    break;
                case "--iterations":
                    s.iterations = positive(a, v);
                    break;
                case "--kill-fraction":
                    s.killFraction = Double.parseDouble(v);
                    if (!(s.killFraction >= 0 && s.killFraction <= 1)) {
                        throw new IllegalArgumentException("--kill-fraction must be 0..1, was " + v);
                    }
                    break;
                case "--seed":
                    s.seed = Long.parseLong(v);
                    break;
                case "--local-hosts":
                    s.localHosts = positive(a, v);
                    break;
                case "--net-driver":
                    s.netDriver = v;
                    break;
                default:
                    throw new IllegalArgumentException("soak: unknown option " + a
                        + " (--minutes M, --np N, --iterations I, --kill-fraction F, --seed S, --local-hosts K, --net-driver W)");
            }
            i++;
        }
        return s.soak(out);
    }

    private static int positive(String opt, String v) {
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " expects a whole number, got '" + v + "'");
        }
        if (n < 1) {
            throw new IllegalArgumentException(opt + " must be >= 1, was " + n);
        }
        return n;
    }

    private int soak(PrintStream out) throws IOException {
        Random rnd = new Random(seed);
        out.printf("# soak: %d ranks%s, %d iterations per job, kill fraction %.2f, %d minutes, seed %d, rank heap %s"
            + " (fixed, pre-touched)%n", np, localHosts > 1 ? " on " + localHosts + " local hosts"
                + (netDriver != null ? ", media drivers in the " + netDriver : "") : "", iterations,
            killFraction, minutes, seed, HEAP);
        long end = System.nanoTime() + Duration.ofMinutes(minutes).toNanos();
        while (System.nanoTime() - end < 0) {
            boolean kill = rnd.nextDouble() < killFraction;
            int victim = kill ? rnd.nextInt(np) : -1;
            int killAt = kill ? rnd.nextInt(iterations) : -1;
            long jobSeed = rnd.nextLong();
            one(out, jobSeed, victim, killAt);
        }
        summary(out);
        return problems.isEmpty() && leakedFiles == 0 && leakedProcesses == 0 ? 0 : 1;
    }

    private void one(PrintStream out, long jobSeed, int victim, int killAt) throws IOException {
        runs++;
        LaunchSpec spec = LaunchSpec.of(np, SoakRank.class, Long.toString(jobSeed), Integer.toString(iterations),
            Integer.toString(victim), Integer.toString(killAt))
            .output(LaunchSpec.Output.CAPTURE)
            .timeout(Duration.ofSeconds(300))
            // a fixed, pre-touched heap: RSS growth is then what is not the heap filling its pages
            .jvmArg("-Xms" + HEAP).jvmArg("-Xmx" + HEAP).jvmArg("-XX:+AlwaysPreTouch");
        if (localHosts > 1) {
            spec.localHosts(localHosts);
        }
        if (netDriver != null) {
            spec.netDriver(netDriver);
        }
        long t0 = System.nanoTime();
        JobResult r = Launcher.run(spec);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        launchMillis.add(ms);
        String verdict;
        if (victim < 0) {
            cleanRuns++;
            boolean ok = r.exitCode() == 0;
            for (int k = 0; k < np && ok; k++) {
                ok = lines(r, k, "VERIFIED ").size() == 1;
            }
            if (ok) {
                cleanVerified++;
                verdict = "verified";
            } else {
                verdict = "FAILED (" + r + ")";
                problems.add("run " + runs + " seed " + jobSeed + ": " + r.message() + "\n" + r.allOutput());
            }
            for (int k = 0; k < np; k++) {
                List<String> rss = lines(r, k, "RSS ");
                List<String> shm = lines(r, k, "SHMEM ");
                List<String> heap = lines(r, k, "HEAP ");
                if (rss.size() == 1 && shm.size() == 1 && heap.size() == 1) {
                    long[] a = numbers(rss.get(0));
                    rssWarmKb.add(a[1] - a[0]);
                    rssGrowthKb.add(a[2] - a[1]);
                    long[] b = numbers(shm.get(0));
                    shmemGrowthKb.add(b[2] - b[1]);
                    long[] c = numbers(heap.get(0));
                    heapGrowthKb.add(c[2] - c[1]);
                }
            }
        } else {
            killedRuns++;
            boolean ok = r.failedRank() == victim && r.exitCode() == 128 + 9;
            int caught = 0;
            for (int k = 0; k < np; k++) {
                if (k == victim) {
                    continue;
                }
                List<String> c = lines(r, k, "CAUGHT ");
                if (c.size() == 1 && c.get(0).startsWith("CAUGHT " + victim + " ")) {
                    caught++;
                }
            }
            ok &= caught == np - 1;
            if (ok) {
                killsCaught++;
                verdict = "rank " + victim + " killed at iteration " + killAt + ": every survivor caught it";
            } else {
                verdict = "rank " + victim + " killed at iteration " + killAt + ": NOT AS EXPECTED (failed rank "
                    + r.failedRank() + ", exit " + r.exitCode() + ", " + caught + "/" + (np - 1) + " caught it)";
                problems.add("run " + runs + " seed " + jobSeed + ": " + verdict + "\n" + r.allOutput());
            }
        }
        int files = leftFiles(r.jobDir());
        int procs = liveRanks(r);
        leakedFiles += files;
        leakedProcesses += procs;
        out.printf("run %d: %s, exit %d, %d ms%s%n", runs, verdict, r.exitCode(), ms,
            files + procs == 0 ? "" : ", LEFT " + files + " files and " + procs + " processes");
        out.flush();
    }

    private static long[] numbers(String line) {
        String[] f = line.trim().split(" ");
        long[] out = new long[f.length - 1];
        for (int i = 1; i < f.length; i++) {
            out[i - 1] = Long.parseLong(f[i]);
        }
        return out;
    }

    private static String stats(List<Long> values) {
        List<Long> g = new ArrayList<>(values);
        Collections.sort(g);
        return "median " + g.get(g.size() / 2) + ", max " + g.get(g.size() - 1) + ", min " + g.get(0);
    }

    private static List<String> lines(JobResult r, int rank, String prefix) {
        List<String> out = new ArrayList<>();
        for (String line : r.output(rank).split("\n")) {
            if (line.startsWith(prefix)) {
                out.add(line);
            }
        }
        return out;
    }

    /** Files of this job (its directory) or any other of this launcher's jobs left in /dev/shm. */
    private static int leftFiles(Path jobDir) throws IOException {
        int n = Files.exists(jobDir) ? 1 : 0;
        String mine = JobDirectory.PREFIX + Long.toString(ProcessHandle.current().pid(), 36) + "-";
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(JobDirectory.root(), mine + "*")) {
            for (Path p : ds) {
                if (!p.equals(jobDir)) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Rank processes (from their PID lines) still alive a second after the launcher returned. */
    private int liveRanks(JobResult r) {
        long until = System.nanoTime() + 1_000_000_000L;
        int alive;
        do {
            alive = 0;
            for (int k = 0; k < np; k++) {
                for (String l : lines(r, k, "PID ")) {
                    if (ProcessHandle.of(Long.parseLong(l.substring(4).trim())).map(ProcessHandle::isAlive).orElse(false)) {
                        alive++;
                    }
                }
            }
        } while (alive > 0 && System.nanoTime() - until < 0 && sleep());
        return alive;
    }

    private static boolean sleep() {
        try {
            Thread.sleep(50);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void summary(PrintStream out) {
        out.println("# ---- soak summary ----");
        out.printf("runs: %d (%d clean, %d with a rank killed)%n", runs, cleanRuns, killedRuns);
        out.printf("clean runs whose every rank verified its data: %d/%d%n", cleanVerified, cleanRuns);
        out.printf("killed runs where the launcher named the victim and every survivor caught RankFailedException"
            + " naming it: %d/%d%n", killsCaught, killedRuns);
        out.printf("leaks: %d job directories in %s, %d rank processes alive after their job%n", leakedFiles,
            JobDirectory.root(), leakedProcesses);
        if (!rssGrowthKb.isEmpty()) {
            out.printf("rank memory in clean runs (%d ranks), KiB:%n", rssGrowthKb.size());
            out.printf("  RSS growth, iteration %d to %d (warm-up): %s%n", iterations / 5, iterations * 3 / 5, stats(rssWarmKb));
            out.printf("  RSS growth, iteration %d to %d: %s%n", iterations * 3 / 5, iterations, stats(rssGrowthKb));
            out.printf("    of which shared memory touched (RssShmem): %s%n", stats(shmemGrowthKb));
            out.printf("    committed Java heap growth over the same window: %s%n", stats(heapGrowthKb));
        }
        if (!launchMillis.isEmpty()) {
            List<Long> m = new ArrayList<>(launchMillis);
            Collections.sort(m);
            out.printf("job wall time: median %d ms, max %d ms%n", m.get(m.size() / 2), m.get(m.size() - 1));
        }
        for (String p : problems) {
            out.println("# PROBLEM " + p);
        }
    }
}
