package org.hympj.shm.pml;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.hympj.api.MpjException;
import org.hympj.api.RankFailedException;
import org.hympj.shm.job.Cores;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.LauncherWatchdog;

/**
 * How a rank waits when nothing moved: spin briefly, then yield, then park (Agrona's
 * {@link BackoffIdleStrategy}), tuned by whether the machine is oversubscribed (more ranks
 * than cores: spinning then steals the core the peer needs). Every idle step also checks the
 * job's abort flag (one volatile read), and about once a second the peers' processes, so a
 * dead rank makes every waiting peer fail within seconds, naming it. A peer that finalized
 * and whose process is gone is reported to the {@link ExitedPeers} listener (the engine fails
 * the receives only it could have matched). A rank started by a launcher also gets a
 * {@link LauncherWatchdog}, which halts it within a second of its launcher's death.
 */
public final class Idler {
    private static final long PEER_CHECK_NS = 500_000_000L;

    /** Told, at a peer check, which peers have finalized and exited (for receives nothing can match any more). */
    interface ExitedPeers {
        /**
         * @param exited    exited[p]: rank p finalized and its process is gone (read only)
         * @param allExited every rank but this one has
         * @param last      the highest exited rank (the one to name for ANY_SOURCE)
         */
        void peersExited(boolean[] exited, boolean allExited, int last);
    }

    private final IdleStrategy strategy;
    private final JobControl control;
    private final JobConfig config;
    private final int rank;
    private final boolean launched;
    /** Failure checks so far (never reset, so a wait that keeps finding a little work still checks). */
    private int polls;
    private long nextCheck;
    /** Peers' process handles, looked up once each (when the peer has registered), so checks allocate nothing. */
    private final ProcessHandle[] peers;
    private final ProcessHandle launcher;
    /** exited[p]: peer p finalized and its process is gone (nothing more can come from it). */
    private final boolean[] exited;
    private int exitedCount;
    private int lastExited = -1;
    private ExitedPeers exitedListener;
    /** Told once, when this rank first sees the job aborted naming a rank (the other hosts' peers are told). */
    private FailureRelay failureRelay;
    private boolean relayed;

    /** Passes a failure this rank's host saw on to the ranks of the other hosts. */
    public interface FailureRelay {
        void relay(int failedRank, int code);
    }

    /** @param sharing the ranks that share this host's cores ({@link Cores#sharing}) */
    Idler(JobConfig config, JobControl control, int rank, boolean launched, int sharing) {
        this.control = control;
        this.config = config;
        this.rank = rank;
        this.launched = launched;
        this.strategy = strategy(config.idle, sharing, Cores.available());
        this.peers = new ProcessHandle[config.size];
        // resolved once: ProcessHandle.isAlive() on a kept handle also guards against pid reuse
        this.launcher = launched && config.launcherAlive() ? ProcessHandle.of(config.launcherPid).orElse(null) : null;
        this.exited = new boolean[config.size];
        if (launched) {
            LauncherWatchdog.start(config, control, rank);
        }
    }

    /** Who passes a failure on to the other hosts (a job on several hosts). */
    void onFailure(FailureRelay relay) {
        this.failureRelay = relay;
    }

    /** Who to tell about peers that finalized and exited (the engine). */
    void onPeersExited(ExitedPeers listener) {
        this.exitedListener = listener;
    }

    /**
     * Parks so far when a long wait spins, then yields, then parks ({@code --idle auto} with a core
     * per rank, {@code plain:…}); -1 with another strategy.
     */
    long parks() {
        return strategy instanceof SpinYieldParkIdleStrategy ? ((SpinYieldParkIdleStrategy) strategy).parks() : -1;
    }

    /** Empty passes {@code auto} spins through, without PAUSE, when every rank has a core. */
    static final int AUTO_SPINS = 2_000;

    /** What {@code auto} is when busy threads outnumber the cores: no spin, yields, then parks. */
    public static final String OVERSUBSCRIBED = "backoff:0:20000:20000:500000";

    /**
     * The policy {@code auto} stands for when {@code threads} busy threads (ranks, and the media
     * drivers of local hosts) share {@code cores}: {@code auto} itself, or {@link #OVERSUBSCRIBED}.
     */
    public static String auto(int threads, int cores) {
        return threads > cores ? OVERSUBSCRIBED : "auto";
    }

    public static IdleStrategy strategy(String idle, int ranks, int cores) {
        if (idle.startsWith("backoff:")) {
            long[] v = backoffParameters(idle);
            return new BackoffIdleStrategy(v[0], v[1], v[2], v[3]);
        }
        if (idle.startsWith("plain:")) {
            long[] v = backoffParameters(idle);
            return new SpinYieldParkIdleStrategy(v[0], v[1], v[2], v[3]);
        }
        switch (idle) {
            case "spin":
                return NoOpIdleStrategy.INSTANCE;
            case "yield":
                return new YieldingIdleStrategy();
            case "backoff":
                return new BackoffIdleStrategy(100, 100, 1_000, 1_000_000);
            case "auto":
                if (ranks > cores) {
                    // oversubscribed: hand the core over at once (a spin only delays the peer that needs
                    // it: 8-rank halo3d N=16 54 against 80 us, barrier 17.5 against 31.6 us with 20 spins,
                    // docs/PERFORMANCE.md); park only after long quiet
                    return strategy(OVERSUBSCRIBED, ranks, cores);
                }
                // some 15 us of spinning catches a quick reply; then yield, so the JVM's own compiler
                // and GC threads get the core (long spins starved C2: minutes of warm-up). The spin
                // has no PAUSE: a pass that finds nothing goes straight to the next, so a packet is
                // seen as soon as its line arrives (2-rank 8-byte ping-pong with the vCPUs near each
                // other 0.090-0.095 us against 0.110-0.116 with Agrona's back-off and its PAUSE per
                // empty pass; 2,000 plain passes last about as long as its 500: docs/PERFORMANCE.md,
                // session 19)
                return new SpinYieldParkIdleStrategy(AUTO_SPINS, 10_000, 10_000, 1_000_000);
            default:
                throw new IllegalArgumentException("idle policy must be auto, spin, yield, backoff or "
                    + "backoff:SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS, was " + idle);
        }
    }

    /**
     * backoff:SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS (Agrona's BackoffIdleStrategy) or plain:… (the
     * same without the spin hint, SpinYieldParkIdleStrategy), for measuring waits.
     */
    public static long[] backoffParameters(String idle) {
        String[] p = idle.split(":");
        if (p.length != 5) {
            throw new IllegalArgumentException("--idle " + p[0] + ":SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS: expected 4 "
                + "numbers, was " + idle);
        }
        long[] v = new long[4];
        for (int i = 0; i < 4; i++) {
            try {
                v[i] = Long.parseLong(p[i + 1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--idle " + idle + ": '" + p[i + 1] + "' is not a number");
            }
            if (v[i] < 0) {
                throw new IllegalArgumentException("--idle " + idle + ": every number must be >= 0");
            }
        }
        if (v[2] < 1 || v[3] < v[2]) {
            throw new IllegalArgumentException("--idle " + idle + ": need 1 <= MIN_PARK_NS <= MAX_PARK_NS");
        }
        return v;
    }

    static boolean oversubscribed(int ranks) {
        return ranks > Cores.available();
    }

    /**
     * True when a rank cannot count on its peers running while it waits: more ranks on this host
     * ({@code sharing}, {@link Cores#sharing}) than cores, or the launcher counted the local hosts'
     * media drivers in and chose {@link #OVERSUBSCRIBED}.
     */
    static boolean sharesCores(JobConfig config, int sharing) {
        return oversubscribed(sharing) || OVERSUBSCRIBED.equals(config.idle);
    }

    void reset() {
        strategy.reset();
    }

    /** One idle step; throws if the job has failed. */
    void idle() {
        strategy.idle();
        poll();
    }

    /** An idle step that never parks: for waits on a modelled instant that is near. */
    void idleBriefly() {
        Thread.yield();
        poll();
    }

    /**
     * The failure checks of an idle step without idling, for polling calls (test, iprobe):
     * the abort flag every 16th step (a volatile read through a VarHandle on the mapped control
     * file, whose scope checks cost a spinning wait as much as a progress pass: JFR of an 8-byte
     * ping-pong, docs/PERFORMANCE.md), the peers' processes about every 0.5 s. Allocates nothing
     * while the peers run (a finalized peer is looked up until its process is gone).
     */
    void poll() {
        if ((++polls & 0xF) != 0) {
            return;
        }
        checkAbort();
        if ((polls & 0x3F) == 0) {
            long now = System.nanoTime();
            if (now - nextCheck > 0) {
                nextCheck = now + PEER_CHECK_NS;
                control.heartbeat(rank, now);
                checkPeers();
            }
        }
    }

    void checkAbort() {
        if (control.aborted()) {
            int failed = control.failedRank();
            if (failed < 0) {
                if (control.failedCode() == JobControl.CODE_LAUNCHER_GONE) {
                    throw new MpjException("the launcher of this job (pid " + config.launcherPid + ") is gone; job aborted");
                }
                throw new MpjException("job aborted by its launcher (timeout or signal)");
            }
            if (failureRelay != null && !relayed) {
                relayed = true;
                failureRelay.relay(failed, control.failedCode());
            }
            throw new RankFailedException(failed, describe(control.failedCode()) + "; the job is aborted");
        }
    }

    private void checkPeers() {
        for (int p = 0; p < config.size; p++) {
            if (p == rank || exited[p]) {
                continue;
            }
            int state = control.state(p);
            if (state == JobControl.STATE_FINALIZED) {
                if (!control.rankAlive(p)) {
                    exited[p] = true;
                    exitedCount++;
                    lastExited = Math.max(lastExited, p);
                }
                continue;
            }
            if (state != JobControl.STATE_RUNNING) {
                continue;
            }
            ProcessHandle h = peers[p];
            if (h == null) {
                long pid = control.pid(p);
                if (pid == 0) {
                    continue;
                }
                h = ProcessHandle.of(pid).orElse(null); // once per peer
                if (h == null) {
                    control.abort(p, -1);
                    checkAbort();
                }
                peers[p] = h;
            }
            if (!h.isAlive()) {
                control.abort(p, -1);
                checkAbort();
            }
        }
        if (exitedCount > 0 && exitedListener != null) {
            exitedListener.peersExited(exited, exitedCount == config.size - 1, lastExited);
        }
        if (launched && (launcher == null || !launcher.isAlive())) {
            control.abort(-1, -1);
            throw new MpjException("the launcher of this job (pid " + config.launcherPid + ") is gone");
        }
    }

    static String describe(int code) {
        if (code == -1) {
            return "its process died";
        }
        if (code == JobControl.CODE_NOT_FINALIZED) {
            return "it exited (code 0) without finalizing (no Mpj.close())";
        }
        if (code == JobControl.CODE_LAUNCHER_GONE) {
            return "its launcher is gone";
        }
        if (code == JobControl.CODE_CONNECTION_LOST) {
            return "its network connection was lost (its process or its host stopped)";
        }
        if (code > 128 && code < 160) {
            return "exit code " + code + " (killed by signal " + (code - 128) + ")";
        }
        return "exit code " + code;
    }
}
