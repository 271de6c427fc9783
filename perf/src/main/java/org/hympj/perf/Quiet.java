package org.hympj.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Keeps benchmark launches from sharing the machine with each other, and waits for a quiet
 * CPU before each one. On this 2-core shared machine two benchmark drivers running at once
 * (or a test suite) slow Open MPI (which polls) far more than HyMPJ (which backs off), so a
 * side-by-side ratio taken then says little about either library.
 *
 * <ul>
 *   <li>{@link #lock}: an exclusive lock on {@code /tmp/hympj-bench.lock}, held by {@code hympj-bench}
 *       for each launch and by {@code hympj-compare} for each round (its Open MPI and HyMPJ launches
 *       together, so both systems of a round see the same machine), so benchmarks of different
 *       drivers alternate instead of overlapping;</li>
 *   <li>{@link #waitForIdle}: samples {@code /proc/stat} over 1 s and waits (up to a limit) until
 *       the CPUs are idle enough; the idle fraction found is reported with the results.</li>
 * </ul>
 */
public final class Quiet implements AutoCloseable {
    /** The lock file every HyMPJ benchmark launch holds (system property hympj.bench.lock overrides it, for tests). */
    public static final Path LOCK = Paths.get("/tmp/hympj-bench.lock");

    static Path lockPath() {
        String p = System.getProperty("hympj.bench.lock");
        return p == null || p.isEmpty() ? LOCK : Paths.get(p);
    }

    /** The lock this JVM holds now, if any: a nested {@link #lock} call reuses it. */
    private static volatile Quiet current;

    private final FileChannel channel;
    private final FileLock lock;
    private final double waitedSeconds;
    private final boolean nested;

    private Quiet(FileChannel channel, FileLock lock, double waitedSeconds) {
        this(channel, lock, waitedSeconds, false);
    }

    private Quiet(FileChannel channel, FileLock lock, double waitedSeconds, boolean nested) {
        this.channel = channel;
        this.lock = lock;
        this.waitedSeconds = waitedSeconds;
        this.nested = nested;
    }

    /** True when the lock is held (false: given up after the limit, or no lock file possible). */
    public boolean held() {
        return lock != null;
    }

    /** Seconds spent waiting for the lock. */
    public double waitedSeconds() {
        return waitedSeconds;
    }

    /**
     * Takes the machine-wide benchmark lock, waiting up to {@code max} for another launch to
     * end; after that, goes on without it (says so on {@code log}).
     */
    public static synchronized Quiet lock(Duration max, PrintStream log) {
        Quiet outer = current;
        if (outer != null && outer.held()) {
            return new Quiet(null, outer.lock, 0, true); // e.g. a launch inside a round that holds it
        }
        Quiet q = acquire(max, log);
        if (q.held()) {
            current = q;
        }
        return q;
    }

    private static Quiet acquire(Duration max, PrintStream log) {
        final Path lockFile = lockPath();
        long t0 = System.nanoTime();
        FileChannel ch = null;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                Files.setPosixFilePermissions(lockFile, PosixFilePermissions.fromString("rw-rw-rw-"));
            } catch (IOException | UnsupportedOperationException | SecurityException ignored) {
                // another user's file: locking it still works
            }
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                // wait in the kernel's queue (F_SETLKW), as other waiters do: polling with tryLock loses
                // every hand-over to a blocked waiter
                log.println("hympj: waiting for another benchmark launch to end (" + lockFile + ")");
                final FileChannel c = ch;
                FutureTask<FileLock> task = new FutureTask<>(c::lock);
                Thread t = new Thread(task, "hympj-bench-lock");
                t.setDaemon(true);
                t.start();
                try {
                    l = task.get(max.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    ch.close(); // ends the blocked lock() with AsynchronousCloseException
                    log.println("hympj: another benchmark still holds " + lockFile + " after " + max.toSeconds()
                        + " s; running anyway");
                    return new Quiet(null, null, (System.nanoTime() - t0) * 1e-9);
                } catch (ExecutionException e) {
                    throw new IOException(e.getCause());
                }
            }
            return new Quiet(ch, l, (System.nanoTime() - t0) * 1e-9);
        } catch (IOException e) {
            log.println("hympj: cannot use " + lockFile + " (" + e.getMessage() + "); running without it");
            closeQuietly(ch);
            return new Quiet(null, null, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(ch);
            return new Quiet(null, null, 0);
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }

    @Override
    public void close() {
        if (nested) {
            return;
        }
        synchronized (Quiet.class) {
            if (current == this) {
                current = null;
            }
        }
        closeQuietly(channel); // releases the lock
    }

    /** Idle fraction of all CPUs over {@code ms} milliseconds (idle + iowait), from /proc/stat; NaN if unknown. */
    public static double idleFraction(long ms) {
        long[] a = cpuTimes();
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
        long[] b = cpuTimes();
        if (a == null || b == null) {
            return Double.NaN;
        }
        long total = b[0] - a[0];
        long idle = b[1] - a[1];
        return total <= 0 ? Double.NaN : (double) idle / total;
    }

    /** {total, idle+iowait} jiffies of the "cpu" line, or null. */
    private static long[] cpuTimes() {
        try {
            String line = Files.readAllLines(Paths.get("/proc/stat")).get(0);
            String[] f = line.trim().split("\\s+");
            if (!f[0].equals("cpu")) {
                return null;
            }
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) { // user nice system idle iowait irq softirq steal
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            return new long[] {total, idle};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** What {@link #waitForIdle} found. */
    public static final class Idle {
        public final double fraction;
        public final double waitedSeconds;
        public final boolean quiet;
        /** {@link CoreToCore#oneWayNanos} right after the idle check (NaN if not measured). */
        public final double coreToCoreNs;
        /** The same trip right after the launch (NaN if not measured): the mode can change during one. */
        public final double coreToCoreAfterNs;

        Idle(double fraction, double waitedSeconds, boolean quiet, double coreToCoreNs) {
            this(fraction, waitedSeconds, quiet, coreToCoreNs, Double.NaN);
        }

        Idle(double fraction, double waitedSeconds, boolean quiet, double coreToCoreNs, double coreToCoreAfterNs) {
            this.fraction = fraction;
            this.waitedSeconds = waitedSeconds;
            this.quiet = quiet;
            this.coreToCoreNs = coreToCoreNs;
            this.coreToCoreAfterNs = coreToCoreAfterNs;
        }

        /** This idle check with the core-to-core trip taken after the launch it preceded. */
        public Idle after(double ns) {
            return new Idle(fraction, waitedSeconds, quiet, coreToCoreNs, ns);
        }

        /** Whether the trips before and after the launch put the CPUs far apart (above {@code farNs}); null when they disagree or none was taken. */
        public Boolean far(double farNs) {
            if (Double.isNaN(coreToCoreNs)) {
                return null;
            }
            boolean before = coreToCoreNs > farNs;
            if (!Double.isNaN(coreToCoreAfterNs) && (coreToCoreAfterNs > farNs) != before) {
                return null;
            }
            return before;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f%% idle%s", 100 * fraction,
                waitedSeconds >= 1.5 ? String.format(Locale.ROOT, " after waiting %.0f s", waitedSeconds) : "");
        }
    }

    /**
     * Samples the CPUs' idle fraction over 1 s, repeatedly, until it reaches {@code threshold}
     * or {@code max} has passed ({@code threshold <= 0} samples once and does not wait); then
     * takes the machine's core-to-core trip ({@link CoreToCore}, about 0.1 s).
     */
    public static Idle waitForIdle(double threshold, Duration max, PrintStream log) {
        long t0 = System.nanoTime();
        double f = idleFraction(1000);
        boolean told = false;
        while (threshold > 0 && !(f >= threshold) && System.nanoTime() - t0 < max.toNanos()) {
            if (!told) {
                log.println(String.format(Locale.ROOT,
                    "hympj: CPUs %.0f%% idle, waiting up to %d s for %.0f%% before the next launch", 100 * f,
                    max.toSeconds(), 100 * threshold));
                told = true;
            }
            f = idleFraction(1000);
        }
        double waited = (System.nanoTime() - t0) * 1e-9 - 1.0;
        return new Idle(f, Math.max(0, waited), threshold <= 0 || f >= threshold, CoreToCore.oneWayNanos());
    }

    /**
     * A remark for stderr: how long a launch took (the job alone, not the wait for the benchmark
     * lock before it), for wall-time figures on a shared machine.
     */
    public static String wallTime(long launchNs, double lockWaitSeconds, String load) {
        return String.format(Locale.ROOT, "# launch wall time %.2f s (benchmark lock waited %.1f s before it); load "
            + "average %s", launchNs / 1e9, lockWaitSeconds, load);
    }

    /** /proc/loadavg's three figures, or "unknown". */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Paths.get("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
