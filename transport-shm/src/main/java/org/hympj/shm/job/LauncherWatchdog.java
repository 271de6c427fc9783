package org.hympj.shm.job;

/**
 * Ends a rank whose launcher is gone (killed with SIGKILL, so its shutdown hook never ran):
 * a daemon thread that checks the launcher's process every {@value #PERIOD_MS} ms whatever the
 * rank is doing (computing, blocked outside the library), raises the job's abort flag, says
 * so on stderr and halts the JVM; the last rank to halt removes the job's directory. The library's own idle checks would notice only at the
 * rank's next call. Costs the hot path nothing: one sleeping thread per rank.
 */
public final class LauncherWatchdog implements Runnable {
    /** How often the launcher is checked: a rank notices within this plus the halt. */
    public static final long PERIOD_MS = 250;
    /** Exit code of a rank halted because its launcher is gone (128 + SIGHUP, as for a lost terminal). */
    public static final int EXIT_CODE = 129;

    private final JobConfig config;
    private final JobControl control;
    private final int rank;
    private final ProcessHandle launcher;

    private LauncherWatchdog(JobConfig config, JobControl control, int rank, ProcessHandle launcher) {
        this.config = config;
        this.control = control;
        this.rank = rank;
        this.launcher = launcher;
    }

    /**
     * Starts the watchdog of a rank started by a launcher. If the launcher is already gone
     * the rank halts at once.
     */
    public static Thread start(JobConfig config, JobControl control, int rank) {
        // the handle is resolved once and checked against the recorded start time: a reused pid
        // is another process (ProcessHandle.isAlive on a kept handle also compares start times)
        ProcessHandle h = config.launcherAlive() ? ProcessHandle.of(config.launcherPid).orElse(null) : null;
        LauncherWatchdog w = new LauncherWatchdog(config, control, rank, h);
        if (h == null) {
            w.halt();
        }
        Thread t = new Thread(w, "hympj-launcher-watchdog");
        t.setDaemon(true);
        t.setPriority(Thread.MAX_PRIORITY); // it must run even when the rank's threads keep every core busy
        t.start();
        return t;
    }

    @Override
    public void run() {
        while (true) {
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return; // stopped on purpose
            }
            if (!launcher.isAlive()) {
                halt();
            }
        }
    }

    private void halt() {
        control.abort(-1, JobControl.CODE_LAUNCHER_GONE);
        control.setState(rank, JobControl.STATE_FAILED);
        // nobody else will remove the job's files: the last rank to go does (two at once: both try, harmlessly)
        boolean last = true;
        for (int r = 0; r < control.size(); r++) {
            if (r != rank && control.state(r) != JobControl.STATE_FAILED && control.rankAlive(r)) {
                last = false;
            }
        }
        if (last) {
            JobDirectory.deleteTree(control.directory());
        }
        System.err.println("hympj: rank " + rank + " of job " + config.jobId + ": its launcher (pid "
            + config.launcherPid + ") is gone; halting the rank (exit code " + EXIT_CODE + ")");
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_CODE);
    }
}
