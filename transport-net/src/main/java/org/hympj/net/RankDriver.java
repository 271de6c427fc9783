package org.hympj.net;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A host's media driver run inside one of the host's ranks (Aeron's invoker mode), instead of
 * by a thread of the host agent: the rank does the driver's work in its own progress loop
 * ({@link #duty}), so a message between hosts takes no hand-over to another thread on the way
 * out or in — on 2 cores that hand-over is most of an 8-byte trip (docs/PERFORMANCE.md).
 *
 * <p>The host's other ranks depend on this driver, so it must run while this rank computes or
 * parks: a guard thread does the work whenever the rank has not since the guard last looked,
 * and parks again while the rank keeps doing it — {@link #GUARD_NS} at first, twice as long
 * each time it finds the rank at work, up to {@link #GUARD_MAX_NS}, and {@link #GUARD_NS}
 * again once it had to take over. One of the two invokes at a time (a lock taken with a
 * compare-and-set, never waited for: the loser just skips).
 *
 * <p>Threads: {@link #duty} from the rank's thread; the guard thread; {@link #clientInvoker}
 * from whatever thread the rank's Aeron client waits for the driver in.
 */
public final class RankDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RankDriver.class);
    /** How long the guard parks at first (and after it took over) before it looks at the rank again. */
    public static final long GUARD_NS = 100_000;
    /**
     * The longest the guard parks while the rank keeps doing the work ({@code
     * -Dhympj.net.guardMaxNs}): a rank that stops (computes, parks) has its driver's work taken
     * over within twice this. Each look is a wake-up on a core the host's ranks share: looking
     * every 100 µs, halo3d on 2 local hosts × 4 ranks at N = 64 was 1.46× Open MPI over TCP, with
     * this back-off 0.99–1.05× (docs/PERFORMANCE.md, "Ranks on several hosts", session 16).
     */
    public static final long GUARD_MAX_NS = Math.max(GUARD_NS, Long.getLong("hympj.net.guardMaxNs", 1_000_000));

    private final MediaDriver driver;
    private final AgentInvoker invoker;
    private final AtomicInteger lock = new AtomicInteger();
    private final AgentInvoker clientInvoker;
    /** The rank's Aeron client's conductor (guarded by {@link #lock}). */
    private AgentInvoker conductor;
    private final Thread guard;
    private final IdleStrategy guardIdle;
    /** Bumped by every {@link #duty} call (an ordered store, no fence): the guard stays parked while it moves. */
    private final AtomicLong duties = new AtomicLong();
    private long dutyCount; // the rank thread's own copy
    private volatile boolean closed;

    private RankDriver(MediaDriver driver, IdleStrategy guardIdle) {
        this.driver = driver;
        this.invoker = driver.sharedAgentInvoker();
        this.guardIdle = guardIdle;
        this.clientInvoker = new AgentInvoker(e -> LOG.warn("media driver: {}", e.toString()), null, new Agent() {
            @Override
            public int doWork() {
                return tryInvoke(false);
            }

            @Override
            public String roleName() {
                return "hympj-rank-driver-client";
            }
        });
        this.clientInvoker.start();
        this.guard = new Thread(this::guardLoop, "hympj-net-driver-guard");
        this.guard.setDaemon(true);
    }

    /**
     * Starts the host's driver in {@code dir} (settings as {@link HostDriver}'s) and its guard
     * thread, which idles as the agent's driver does by default when it has the work to itself:
     * yields at once, up to 100,000 times, then parks 10 µs … 1 ms.
     */
    public static RankDriver launch(Path dir, NetSettings settings) {
        MediaDriver.Context ctx = HostDriver.context(dir, settings)
            .threadingMode(ThreadingMode.INVOKER);
        RankDriver d = new RankDriver(MediaDriver.launchEmbedded(ctx),
            new BackoffIdleStrategy(0, 100_000, 10_000, 1_000_000));
        d.guard.start();
        return d;
    }

    /**
     * The invoker the rank's own Aeron client is given: while it waits for the driver's answer it
     * does the driver's work, through the same lock as everyone else.
     */
    public AgentInvoker clientInvoker() {
        return clientInvoker;
    }

    /**
     * Hands over the conductor of the rank's Aeron client (Aeron requires the client of an
     * invoked driver to be invoked too): from now on each step does its work as well, so its
     * keepalives and image notices go on while the rank computes. Null takes it back (before the
     * client closes).
     */
    public void client(AgentInvoker conductor) {
        lockWaiting();
        this.conductor = conductor;
        lock.set(0);
    }

    /** Takes the lock, waiting for it: an invoke in progress ends in microseconds. */
    private void lockWaiting() {
        while (!lock.compareAndSet(0, 1)) {
            Thread.onSpinWait();
        }
    }

    /**
     * One step of the driver's (and the client's) work from the rank's thread; skipped while the
     * guard does it. One step only: steps after it while there was work (up to 16) made the 8-byte
     * ping-pong slower (3.8–4.0 against 2.8–3.0 µs) and bandwidth no faster.
     */
    public int duty() {
        duties.lazySet(++dutyCount);
        return tryInvoke(true);
    }

    private int tryInvoke(boolean withClient) {
        if (!lock.compareAndSet(0, 1)) {
            return 0;
        }
        try {
            if (closed) {
                return 0;
            }
            AgentInvoker c = conductor;
            return invoker.invoke() + (withClient && c != null ? c.invoke() : 0);
        } finally {
            lock.set(0);
        }
    }

    private void guardLoop() {
        long seen = duties.get();
        long park = GUARD_NS;
        while (!closed) {
            long now = duties.get();
            if (now != seen) {
                seen = now; // the rank does the work: look again later, each time a little later
                guardIdle.reset();
                LockSupport.parkNanos(park);
                park = Math.min(2 * park, GUARD_MAX_NS);
                continue;
            }
            park = GUARD_NS; // the rank stopped: once it is back, look often at first
            guardIdle.idle(tryInvoke(true));
        }
    }

    /** Stops the guard and closes the driver (its directory goes with it). */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(guard);
        try {
            guard.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lockWaiting();
        try {
            clientInvoker.close();
            driver.close();
        } finally {
            lock.set(0);
        }
    }
}
