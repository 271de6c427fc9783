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
 * process is alive. Prints one line per run and a summary (also the ranks' RSS growth from a
 * fifth of a job's iterations to its end). Not a test: it takes minutes. Exit code 0 when
 * every run was as expected.
 */
public final class Soak {
    private int minutes = 3;
    private int np = 8;
    private int iterations = 150;
    private double killFraction = 0.3;
    private long seed = System.nanoTime();

    private int runs;
    private int cleanRuns;
    private int cleanVerified;
    private int killedRuns;
    private int killsCaught;
    private final List<String> problems = new ArrayList<>();
    private int leakedFiles;
    private int leakedProcesses;
    private final List<Long> rssGrowthKb = new ArrayList<>();
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
                default:
                    throw new IllegalArgumentException("soak: unknown option " + a
                        + " (--minutes M, --np N, --iterations I, --kill-fraction F, --seed S)");
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
        out.printf("# soak: %d ranks, %d iterations per job, kill fraction %.2f, %d minutes, seed %d%n",
            np, iterations, killFraction, minutes, seed);
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
            .timeout(Duration.ofSeconds(300));
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
                if (rss.size() == 1) {
                    String[] f = rss.get(0).split(" ");
                    rssGrowthKb.add(Long.parseLong(f[2]) - Long.parseLong(f[1]));
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
            List<Long> g = new ArrayList<>(rssGrowthKb);
            Collections.sort(g);
            out.printf("rank RSS growth from iteration %d to %d (clean runs, %d ranks): median %d KiB, max %d KiB, min %d KiB%n",
                iterations / 5, iterations, g.size(), g.get(g.size() / 2), g.get(g.size() - 1), g.get(0));
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
