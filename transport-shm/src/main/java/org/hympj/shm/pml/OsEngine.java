package org.hympj.shm.pml;

import java.nio.MappedByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.hympj.api.Comm;
import org.hympj.api.MpjException;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.api.TruncationException;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.shm.job.Cores;
import org.hympj.shm.job.JobDirectory;
import org.hympj.model.Fabric;
import org.hympj.model.OneSidedTiming;
import org.hympj.spi.ProgressEngine;

/**
 * isend/irecv built only from one-sided writes, as QUDA on TCA (S2): the application thread
 * enqueues requests and returns; the polling work
 * <ul>
 * <li>for each queued receive writes its buffer's address (segment offset, capacity, tag) into
 *     the sender's Remote Address Buffer — a ring of several slots per peer, so receivers post
 *     addresses before the sends exist and the address round trip is hidden;</li>
 * <li>for each queued send, once a matching address has arrived (first in order whose tag
 *     matches), puts the data straight to that address and then writes a flag (with the tag and
 *     length) into the receiver's complete buffer; the send completes when its data is placed;</li>
 * <li>watches its own complete buffer and completes the receives.</li>
 * </ul>
 * <b>Who polls.</b> The polling state is guarded by a try-lock. Issuing a request does one
 * round inline (so a receive's address is in the sender's buffer when irecv returns, and a send
 * whose address is there is put before isend returns). A thread that waits does the rounds
 * itself, spinning while a modelled instant is near and otherwise idling as the two-sided
 * engine does (spin, yield, park); it never waits for another thread to wake it. The per-rank
 * polling thread is for the time the application is not in the library (S2: the address
 * round trip hidden behind computation): it parks while an application thread waits, sleeps
 * while nothing outstanding needs it, sleeps until the next modelled instant when one is
 * pending, and otherwise backs off (brief spin unless oversubscribed, a few yields, then
 * parks of growing length), so with 8 ranks on 2 cores it does not take the ranks' cores.
 *
 * <p><b>On virtual time</b> ({@link OsVirtualTime}) there is no polling thread: the rank's own
 * thread does the rounds — when it issues, waits or tests, and in every progress pass of its
 * two-sided engine (collectives, a send waiting for its turn) — and the polling thread's cost
 * is the model's polling delay, not the real time a round takes. Entries are read at once,
 * whatever their stamps; every address write and put is booked at its modelled instant in
 * virtual time's order of bookings.
 *
 * <p>A receive into a heap array (or a non-contiguous type) gets a staging area in this rank's
 * segment as its address, and is unpacked from it on completion. ANY_SOURCE is not supported
 * (the address must go to one sender), nor are probe and iprobe (nothing arrives before its
 * address): they throw {@link UnsupportedOperationException}. The polling rounds allocate
 * nothing (addresses are pooled, the queues are arrays).
 */
public final class OsEngine implements ProgressEngine, AutoCloseable {
    static final int SLOTS = org.hympj.shm.job.FileLayout.ONE_SIDED_SLOTS;
    private static final long STAGING_BYTES = 16L << 20;
    private static final long NONE = Long.MAX_VALUE;
    /** A waiting thread spins for a pending modelled instant nearer than this (cores not oversubscribed). */
    private static final long SPIN_NS = 200_000L;
    /** ... yields for one nearer than this; further away it parks until shortly before it. */
    private static final long SHORT_WAIT_NS = 2_000_000L;
    /** The polling thread's longest sleep (it is woken earlier when it is needed). */
    private static final long POLLER_MAX_PARK_NS = 1_000_000L;
    private static final long POLLER_MIN_PARK_NS = 10_000L;

    private final Engine two;
    private final ShmFabric fabric;
    private final int rank;
    private final int size;
    private final SlotRing[] addrIn;
    private final SlotRing[] addrOut;
    private final SlotRing[] complIn;
    private final SlotRing[] complOut;
    private final ManyToOneConcurrentArrayQueue<OsRequest> submitted = new ManyToOneConcurrentArrayQueue<>(4096);
    /** The polling thread (null on virtual time: the rank's thread does the rounds). */
    private final Thread poller;
    private volatile boolean running = true;
    private volatile Throwable pollerFailure;
    private final boolean oversubscribed;
    /** How a waiting application thread idles when nothing is due soon: the two-sided engine's policy. */
    private final IdleStrategy appIdle;
    /** Guards the polling state: whoever holds it polls. */
    private final AtomicBoolean pollBusy = new AtomicBoolean();
    /** Application threads inside a wait (they poll; the polling thread stays parked). */
    private final AtomicInteger waiters = new AtomicInteger();
    private volatile boolean pollerParked;
    // ---- results of the last polling round (written under the lock)
    /** A peer waits for us: sends without their address yet, or receives not yet announced. */
    private volatile boolean peerWork;
    /** Earliest real instant at which a pending modelled entry becomes visible or a send completes (NONE: none). */
    private volatile long nextAt = NONE;
    // ---- polling state (under the lock)
    private final ArrayDeque<OsRequest>[] recvWaiting;
    private int recvQueued;
    private final ArrayList<OsRequest> sendsWaiting = new ArrayList<>();
    private final Addr[] addrHead;
    private final Addr[] addrTail;
    private final HandleTable<OsRequest> handles = new HandleTable<>();
    private final StagingPool staging;
    private final Packer packer = new Packer();
    private final FabricTiming timing;
    /** Virtual time's instants and order of bookings, or null (native, wall clock). */
    private final OsVirtualTime vt;
    /** The --trace events: the two-sided engine's on virtual time, none on the wall clock (its polling thread). */
    private final TraceEvents events;
    /** Every rank's one-sided file (virtual time reads what waits in them). */
    private final UnsafeBuffer[] files;
    private final int ringBytes;
    /** Filled by {@link #putAndFlag}: the stamps of the put just planned (0 without a model). */
    private long putVisible;
    private long putSenderDone;
    private OsRequest[] timedSends = new OsRequest[16];
    private long[] timedAt = new long[16];
    private int timedCount;
    private Addr freeAddr;

    /** An address announced by a receiver. */
    private static final class Addr {
        int tag;
        int ctx;
        int handle;
        long segOffset;
        long capacity;
        /** Its stamp: when it landed. */
        long landed;
        Addr next;
    }

    /** The shared file of one rank: per peer an address ring (peer → me) and a completion ring (peer → me). */
    public static long fileBytes(int ranks) {
        return org.hympj.shm.job.FileLayout.oneSidedFileBytes(ranks);
    }

    @SuppressWarnings("unchecked")
    OsEngine(Engine two, JobDirectory job, SegmentAllocator segment, FabricTiming timing) {
        this.two = two;
        this.fabric = two.fabric();
        this.rank = two.rank();
        this.size = two.size();
        this.timing = timing;
        MappedByteBuffer[] maps = new MappedByteBuffer[size];
        for (int r = 0; r < size; r++) {
            maps[r] = IoUtil.mapExistingFile(job.oneSidedFile(r).toFile(), "one-sided buffers of rank " + r);
        }
        int ring = SlotRing.bytes(SLOTS);
        this.ringBytes = ring;
        this.files = new UnsafeBuffer[size];
        for (int r = 0; r < size; r++) {
            files[r] = new UnsafeBuffer(maps[r]);
        }
        addrIn = new SlotRing[size];
        addrOut = new SlotRing[size];
        complIn = new SlotRing[size];
        complOut = new SlotRing[size];
        for (int p = 0; p < size; p++) {
            // addresses for my sends, written by receiver p: my file, slot [p][0]
            addrIn[p] = new SlotRing(new UnsafeBuffer(maps[rank]), (2 * p) * ring, SLOTS);
            // my addresses for sender p: p's file, slot [rank][0]
            addrOut[p] = new SlotRing(new UnsafeBuffer(maps[p]), (2 * rank) * ring, SLOTS);
            // completions of my receives, written by sender p: my file, slot [p][1]
            complIn[p] = new SlotRing(new UnsafeBuffer(maps[rank]), (2 * p + 1) * ring, SLOTS);
            // completions I write for receiver p: p's file, slot [rank][1]
            complOut[p] = new SlotRing(new UnsafeBuffer(maps[p]), (2 * rank + 1) * ring, SLOTS);
        }
        recvWaiting = new ArrayDeque[size];
        addrHead = new Addr[size];
        addrTail = new Addr[size];
        for (int p = 0; p < size; p++) {
            recvWaiting[p] = new ArrayDeque<>();
        }
        long stagingBytes = Math.min(STAGING_BYTES, fabric.segmentBytes() / 4);
        SegmentBuffer region = segment.alloc(Primitive.BYTE, (int) stagingBytes);
        this.staging = new StagingPool(region.segmentOffset(), stagingBytes);
        int cores = Cores.available();
        int sharing = Cores.sharing(fabric.localCount());
        this.oversubscribed = Idler.oversubscribed(sharing);
        this.appIdle = Idler.strategy(job.config().idle, sharing, cores);
        if (timing != null && timing.virtual()) {
            this.vt = new OsVirtualTime(timing.clock(), new OneSidedTiming(timing.model()), size);
            this.noRoom = new boolean[size];
            this.events = two.events();
            vt.order.stamps(this::waitingStamp); // our entries bound each rank as its packets do
            two.drive(new DrivenEngine() {
                @Override
                public int round() {
                    return Math.max(0, helpPoll());
                }

                @Override
                public boolean hasDeferred() {
                    return hasWaitingBookings();
                }
            });
            this.poller = null;
        } else {
            this.vt = null;
            this.events = new TraceEvents(); // never enabled
            this.poller = new Thread(this::pollLoop, "hympj-onesided-poller-" + rank);
            poller.setDaemon(true);
            poller.start();
        }
    }

    // ------------------------------------------------------------------ application thread

    void submit(OsRequest q) {
        failIfPollerDied();
        if (vt != null) {
            vt.issue(q);
            events.postOneSided(q);
        }
        while (!submitted.offer(q)) {
            Thread.yield();
            two.pollFailures();
        }
        int work = helpPoll(); // one round now: the address goes out / the data is put before we return
        if (vt != null) {
            return; // no polling thread: the rank's later calls and passes do the rounds
        }
        if ((work < 0 || peerWork) && pollerParked && waiters.get() == 0) {
            // the application may now compute: the polling thread carries on (S2)
            LockSupport.unpark(poller);
        }
    }

    /** Does one polling round if no one else is doing one: the work it did, or -1 if the lock was taken. */
    private int helpPoll() {
        if (pollBusy.get() || !pollBusy.compareAndSet(false, true)) {
            return -1;
        }
        try {
            return pollOnce();
        } catch (RuntimeException | Error e) {
            pollerFailure = e;
            throw e;
        } finally {
            pollBusy.set(false);
        }
    }

    private void enterWait() {
        waiters.incrementAndGet();
        appIdle.reset();
    }

    private void leaveWait() {
        if (waiters.decrementAndGet() == 0 && peerWork && pollerParked) {
            LockSupport.unpark(poller); // a peer waits for something of ours while we compute
        }
    }

    /** One idle step of a waiting application thread after a round that did {@code work}. */
    private void idle(int work) {
        if (two.schedules().count() > 0) {
            work = Math.max(work, two.progress()); // non-blocking collectives run on the two-sided engine
        }
        if (work > 0) {
            appIdle.reset();
        } else if (work < 0) {
            // another thread is in a round: it ends shortly (the polling thread parks when it sees us)
            if (oversubscribed) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        } else {
            long at = nextAt;
            long d = at == NONE ? NONE : at - System.nanoTime();
            if (d < SPIN_NS && !oversubscribed) {
                Thread.onSpinWait(); // a modelled instant is near: be on the core when it comes
            } else if (d < SHORT_WAIT_NS) {
                Thread.yield();      // near: a park would overshoot it (woken late, often by 100-400 µs here)
            } else if (at != NONE) {
                // far: sleep until shortly before it, at most 1 ms (an earlier entry may come meanwhile)
                LockSupport.parkNanos(this, Math.min(d - SHORT_WAIT_NS / 2, POLLER_MAX_PARK_NS));
            } else {
                appIdle.idle();      // nothing due: the rank's idle policy (spin, yield, park)
            }
        }
        pollFailures();
    }

    /**
     * One round of a waiting (or testing) thread: on virtual time a pass of the rank's two-sided
     * engine, which includes this engine's round; the work done (-1: another thread is in a round).
     */
    private int waitRound() {
        return vt != null ? two.progress() : helpPoll();
    }

    /** Idles after a waiting round that did {@code work}: on virtual time as the two-sided engine's waits (blocked). */
    private void waitIdle(int work) {
        if (vt != null) {
            two.idleStep(work);
        } else {
            idle(work);
        }
    }

    /** Waits for {@code q}, doing the polling rounds itself. */
    void await(OsRequest q) {
        enterWait();
        try {
            while (!q.done) {
                int work = waitRound();
                if (q.done) {
                    break;
                }
                waitIdle(work);
            }
        } finally {
            leaveWait();
        }
    }

    /** The rank enters a library call (a request's wait, test, start): on virtual time a boundary of its computation. */
    void enterCall() {
        two.enterCall();
    }

    void exitCall() {
        two.exitCall();
    }

    /** A wait or test observes {@code q}'s completion: on virtual time the rank's clock moves to it. */
    void observe(OsRequest q) {
        if (vt != null) {
            vt.clock.advanceTo(q.vdone);
        }
    }

    /** Marks {@code q} complete. */
    private static void completeRequest(OsRequest q) {
        q.done = true;
    }

    /** One round of polling help for a test call (the caller checks for failures if it found nothing). */
    void testRound() {
        waitRound();
    }

    void pollFailures() {
        failIfPollerDied();
        two.pollFailures();
    }

    private void failIfPollerDied() {
        Throwable t = pollerFailure;
        if (t != null) {
            throw new MpjException("the one-sided polling thread failed: " + t, t);
        }
    }

    OsRequest newRequest(boolean send, boolean persistent) {
        return new OsRequest(this, send, persistent);
    }

    @Override
    public int progress() {
        int work = waitRound();
        pollFailures();
        return Math.max(0, work);
    }

    private static OsRequest os(Request q) {
        if (!(q instanceof OsRequest)) {
            throw new IllegalArgumentException("request is not a one-sided request: " + q);
        }
        return (OsRequest) q;
    }

    private static boolean allDone(Request[] rs) {
        for (Request q : rs) {
            if (q != null && os(q).active && !os(q).done) {
                return false;
            }
        }
        return true;
    }

    private static void consumeAll(Request[] rs) {
        MpjException first = null;
        for (Request q : rs) {
            if (q != null && os(q).active) {
                try {
                    os(q).consume();
                } catch (MpjException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void waitAll(Request[] requests) {
        enterCall();
        try {
            if (!allDone(requests)) {
                enterWait();
                try {
                    while (!allDone(requests)) {
                        int work = waitRound();
                        if (allDone(requests)) {
                            break;
                        }
                        waitIdle(work);
                    }
                } finally {
                    leaveWait();
                }
            }
            consumeAll(requests);
        } finally {
            exitCall();
        }
    }

    @Override
    public boolean testAll(Request[] requests) {
        enterCall();
        try {
            if (!allDone(requests)) {
                waitRound();
                if (!allDone(requests)) {
                    pollFailures();
                    return false;
                }
            }
            consumeAll(requests);
            return true;
        } finally {
            exitCall();
        }
    }

    private static int firstDone(Request[] rs) {
        boolean any = false;
        for (int i = 0; i < rs.length; i++) {
            if (rs[i] != null && os(rs[i]).active) {
                any = true;
                if (os(rs[i]).done) {
                    return i;
                }
            }
        }
        return any ? Request.NONE_COMPLETED : Request.UNDEFINED;
    }

    @Override
    public int waitAny(Request[] requests) {
        enterCall();
        try {
            int i = firstDone(requests);
            if (i == Request.NONE_COMPLETED) {
                enterWait();
                try {
                    while ((i = firstDone(requests)) == Request.NONE_COMPLETED) {
                        waitIdle(waitRound());
                    }
                } finally {
                    leaveWait();
                }
            }
            if (i >= 0) {
                os(requests[i]).consume();
            }
            return i;
        } finally {
            exitCall();
        }
    }

    @Override
    public int testAny(Request[] requests) {
        enterCall();
        try {
            int i = firstDone(requests);
            if (i == Request.NONE_COMPLETED) {
                waitRound();
                i = firstDone(requests);
                if (i == Request.NONE_COMPLETED) {
                    pollFailures();
                }
            }
            if (i >= 0) {
                os(requests[i]).consume();
            }
            return i;
        } finally {
            exitCall();
        }
    }

    @Override
    public void startAll(PersistentRequest[] requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null) {
                String why = os(requests[i]).whyNotStartable();
                if (why != null) {
                    throw new IllegalStateException("startAll: request " + i + ": " + why + "; none was started");
                }
            }
        }
        enterCall();
        try {
            for (PersistentRequest q : requests) {
                if (q != null) {
                    q.start();
                }
            }
        } finally {
            exitCall();
        }
    }

    @Override
    public void close() {
        running = false;
        if (poller == null) {
            return;
        }
        LockSupport.unpark(poller);
        try {
            poller.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ polling thread

    private void pollLoop() {
        int idleRounds = 0;
        long parkNs = POLLER_MIN_PARK_NS;
        int spins = oversubscribed ? 0 : 200;
        int yields = oversubscribed ? 4 : 50;
        long maxPark = oversubscribed ? POLLER_MAX_PARK_NS : 200_000L;
        try {
            while (running) {
                if (waiters.get() > 0) {
                    // an application thread is waiting and polls itself: keep off the cores
                    park(POLLER_MAX_PARK_NS, true);
                    idleRounds = 0;
                    parkNs = POLLER_MIN_PARK_NS;
                    continue;
                }
                int work = helpPoll();
                if (work > 0 || !submitted.isEmpty()) {
                    idleRounds = 0;
                    parkNs = POLLER_MIN_PARK_NS;
                    continue;
                }
                if (work < 0) {
                    Thread.yield(); // an application thread is in a round
                    continue;
                }
                boolean peer = peerWork;
                long at = nextAt;
                if (at != NONE) {
                    // a modelled instant is pending: be there when it comes, not before
                    long d = at - System.nanoTime();
                    if (d <= 0) {
                        continue;
                    } else if (d < 2 * POLLER_MIN_PARK_NS && peer && !oversubscribed) {
                        Thread.onSpinWait(); // a peer waits for what we do at that instant
                    } else if (d < 2 * POLLER_MIN_PARK_NS) {
                        Thread.yield();
                    } else {
                        park(Math.min(d, POLLER_MAX_PARK_NS), false);
                    }
                } else if (!peer) {
                    // nothing a peer waits for (our own receives complete when we wait or test): sleep
                    park(POLLER_MAX_PARK_NS, false);
                } else if (++idleRounds <= spins) {
                    Thread.onSpinWait(); // a peer's address is expected: check again soon
                } else if (idleRounds <= spins + yields) {
                    Thread.yield();
                } else {
                    park(parkNs, false);
                    parkNs = Math.min(2 * parkNs, maxPark);
                }
            }
        } catch (Throwable t) {
            pollerFailure = t;
        }
    }

    /** Parks the polling thread for at most {@code ns} (woken by submit or the end of a wait when it is needed). */
    private void park(long ns, boolean forWaiter) {
        pollerParked = true;
        if (running && submitted.isEmpty() && (!forWaiter || waiters.get() > 0)) {
            LockSupport.parkNanos(this, ns);
        }
        pollerParked = false;
    }

    private int pollOnce() {
        int work = 0;
        OsRequest q;
        while ((q = submitted.poll()) != null) {
            work++;
            q.status.fill(q.peer, q.tag, 0, 0, 1, 1);
            if (q.peer == Comm.PROC_NULL) {
                q.status.fill(Comm.PROC_NULL, Comm.ANY_TAG, 0, 0, q.buf.type.primitive().bytes(), q.buf.type.size());
                completeRequest(q);
            } else if (q.send) {
                sendsWaiting.add(q);
            } else {
                recvWaiting[q.peer].addLast(q);
                recvQueued++;
            }
        }
        // on virtual time every entry is read at once, whatever its stamp
        long now = vt != null ? Long.MAX_VALUE : System.nanoTime();
        long next = NONE;
        for (int p = 0; p < size; p++) {
            work += readAddresses(p, now);
            work += readCompletions(p, now);
            if (timing != null && vt == null) {
                next = Math.min(next, pending(addrIn[p]));
                next = Math.min(next, pending(complIn[p]));
            }
        }
        if (vt != null) {
            return work + bookInTurn();
        }
        // the puts first (their addresses are here), then the new addresses
        if (!sendsWaiting.isEmpty()) {
            work += matchSends();
        }
        if (recvQueued > 0) {
            for (int p = 0; p < size; p++) {
                if (!recvWaiting[p].isEmpty()) {
                    work += announce(p);
                }
            }
        }
        if (timedCount > 0) {
            work += completeTimedSends(System.nanoTime());
            for (int i = 0; i < timedCount; i++) {
                next = Math.min(next, timedAt[i]);
            }
        }
        nextAt = next;
        peerWork = !sendsWaiting.isEmpty() || recvQueued > 0;
        return work;
    }

    private static long pending(SlotRing ring) {
        long at = ring.pendingVisibleAt();
        return at == 0 ? NONE : at;
    }

    /** The real instant of a transfer planned now (fresh: the time this round has taken is not hidden). */
    private long planNow() {
        return System.nanoTime();
    }

    /** Writes the addresses of queued receives from {@code src} into its Remote Address Buffer. */
    private int announce(int src) {
        int work = 0;
        ArrayDeque<OsRequest> q = recvWaiting[src];
        while (!q.isEmpty()) {
            int done = announceHead(src, 0);
            if (done == 0) {
                break;
            }
            work += Math.max(0, done);
        }
        return work;
    }

    /**
     * Writes the address of the first queued receive from {@code src} into its Remote Address
     * Buffer, planned at {@code at} on virtual time (else at the real clock now): 1 when written,
     * 0 when there is no room for it yet (staging space, a free slot), -1 when the receive failed.
     */
    private int announceHead(int src, long at) {
        OsRequest r = recvWaiting[src].peekFirst();
        long where = r.buf.segOffset;
        if (where < 0 && r.staging < 0) {
            if (r.buf.bytes > staging.capacity()) {
                fail(r, new MpjException("onesided receive of " + r.buf.bytes + " bytes into a heap or strided "
                    + "buffer exceeds the staging area (" + staging.capacity() + " bytes); use a segment buffer"));
                recvWaiting[src].pollFirst();
                recvQueued--;
                return -1;
            }
            r.staging = staging.alloc(Math.max(1, r.buf.bytes));
            if (r.staging < 0) {
                return 0; // wait for staging space to free up
            }
        }
        SlotRing ring = addrOut[src];
        int slot = ring.claim();
        if (slot < 0) {
            return 0; // all address slots to this sender are in use
        }
        r.handle = handles.add(r);
        ring.putInt(slot, SlotRing.F_TAG, r.tag);
        ring.putInt(slot, SlotRing.F_CTX, r.ctx);
        ring.putInt(slot, SlotRing.F_HANDLE, r.handle);
        ring.putLong(slot, SlotRing.F_A, where >= 0 ? where : r.staging);
        ring.putLong(slot, SlotRing.F_B, r.buf.bytes);
        long vis = 0;
        if (timing != null) {
            if (vt != null) {
                vt.booked(at);
            }
            // the address notify: a small write to the sender (its 32-byte entry), segment to segment
            timing.planAddress(src, vt != null ? at : planNow());
            vis = timing.visibleAtReal;
            if (vt != null) {
                vt.addressWritten(src, at, vis);
                events.oneSidedWrite(src, r.tag, 32, timing);
            }
        }
        ring.publish(slot, vis);
        recvWaiting[src].pollFirst();
        recvQueued--;
        return 1;
    }

    private int readAddresses(int receiver, long now) {
        int work = 0;
        SlotRing ring = addrIn[receiver];
        int slot;
        while ((slot = ring.peek(now)) >= 0) {
            Addr a = freeAddr;
            if (a != null) {
                freeAddr = a.next;
            } else {
                a = new Addr();
            }
            a.tag = ring.getInt(slot, SlotRing.F_TAG);
            a.ctx = ring.getInt(slot, SlotRing.F_CTX);
            a.handle = ring.getInt(slot, SlotRing.F_HANDLE);
            a.segOffset = ring.getLong(slot, SlotRing.F_A);
            a.capacity = ring.getLong(slot, SlotRing.F_B);
            a.landed = ring.visibleAt(slot);
            if (vt != null) {
                vt.taking(a.landed);
            }
            ring.release(slot);
            a.next = null;
            if (addrTail[receiver] == null) {
                addrHead[receiver] = a;
            } else {
                addrTail[receiver].next = a;
            }
            addrTail[receiver] = a;
            work++;
        }
        return work;
    }

    /** Puts each queued send whose receiver has announced a matching address, in order. */
    private int matchSends() {
        int work = 0;
        for (int i = 0; i < sendsWaiting.size(); ) {
            OsRequest s = sendsWaiting.get(i);
            SlotRing ring = complOut[s.peer];
            int slot = ring.claim();
            if (slot < 0) {
                i++; // the receiver has not drained its completions: try later
                continue;
            }
            Addr a = takeMatching(s);
            if (a == null) {
                i++;
                continue;
            }
            long now = timing != null ? planNow() : 0;
            putAndFlag(s, ring, slot, a.segOffset, a.capacity, a.handle, now);
            long senderDone = putSenderDone;
            freeAddr(a);
            sendsWaiting.remove(i);
            work++;
            if (senderDone == 0 || senderDone - now <= 0) {
                completeRequest(s); // S2: the chain's last write lands in the sender's own memory
            } else {
                addTimed(s, senderDone);
            }
        }
        return work;
    }

    /**
     * Puts {@code s}'s data to {@code dstOffset} (room for {@code capacity} bytes) of its receiver's
     * segment and writes the flag (tag, the receive's handle, length) into {@code slot} of its
     * complete buffer; under a model the put is planned at {@code at} (a stamp) and
     * {@link #putVisible} / {@link #putSenderDone} are set. The completion flag is the last write
     * of the same chain: not charged separately.
     */
    private void putAndFlag(OsRequest s, SlotRing ring, int slot, long dstOffset, long capacity, int handle, long at) {
        long accept = Math.min(s.buf.bytes, capacity);
        packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0,
            null, fabric.segmentAddress(s.peer) + dstOffset, accept);
        ring.putInt(slot, SlotRing.F_TAG, s.tag);
        ring.putInt(slot, SlotRing.F_HANDLE, handle);
        ring.putLong(slot, SlotRing.F_A, accept);
        ring.putLong(slot, SlotRing.F_B, s.buf.bytes);
        putVisible = 0;
        putSenderDone = 0;
        if (timing != null) {
            timing.plan(fabricTo(s.peer), s.peer, s.buf.type, s.buf.count, accept, s.buf.base == null, true,
                s.persistent, at);
            putVisible = timing.visibleAtReal;
            putSenderDone = timing.senderDoneReal;
        }
        ring.publish(slot, putVisible); // release: the data before the flag
    }

    private void freeAddr(Addr a) {
        a.next = freeAddr;
        freeAddr = a;
    }

    // ------------------------------------------------------------------ virtual time

    /**
     * Virtual time: pairs each waiting send with its address, then makes the bookings whose turn
     * has come — puts and address writes, earliest first (equal instants in issue order) — and
     * publishes the earliest left (it counts in the rank's floor). A booking whose turn has come
     * but that has no room yet in real time (the peer has not taken what fills its buffer, or a
     * heap receive waits for staging space, which a later booking of this rank may free) is passed
     * over for this round; made later, at its own instant, it is counted out of order.
     */
    private int bookInTurn() {
        int work = 0;
        for (int i = 0; i < sendsWaiting.size(); ) {
            OsRequest s = sendsWaiting.get(i);
            Addr a = takeMatching(s);
            if (a == null) {
                i++;
                continue;
            }
            s.dstOffset = a.segOffset;
            s.dstCapacity = a.capacity;
            s.dstHandle = a.handle;
            vt.matched(s, a.landed);
            freeAddr(a);
            sendsWaiting.remove(i);
            work++;
        }
        java.util.Arrays.fill(noRoom, false);
        int put = 0; // the puts before it have no room this round
        for (;;) {
            OsRequest s = put < vt.putCount() ? vt.put(put) : null;
            int src = firstAddress(noRoom);
            boolean putFirst = s != null && (src < 0 || s.bookAt < nextAddressAt
                || (s.bookAt == nextAddressAt && s.issueOrder < recvWaiting[src].peekFirst().issueOrder));
            if (!putFirst && src < 0) {
                break;
            }
            if (!vt.mayBook(putFirst ? s.bookAt : nextAddressAt)) {
                break; // and every later one
            }
            if (putFirst) {
                if (putInTurn(s, put)) {
                    work++;
                } else {
                    put++;
                }
            } else {
                int done = announceHead(src, nextAddressAt);
                if (done == 0) {
                    noRoom[src] = true; // its later receives wait behind it (the sender takes addresses in order)
                } else {
                    work++;
                }
            }
        }
        vt.waiting(earliestBooking());
        return work;
    }

    /** Set by {@link #firstAddress}: the instant of the first address write waiting. */
    private long nextAddressAt;
    /** Per sender: its first address write has no room this round. */
    private boolean[] noRoom;

    /**
     * The sender whose first queued receive writes its address first (-1: none), skipping those
     * marked in {@code skip} (null: none); sets {@link #nextAddressAt}.
     */
    private int firstAddress(boolean[] skip) {
        int best = -1;
        long bestOrder = Long.MAX_VALUE;
        nextAddressAt = Long.MAX_VALUE;
        if (recvQueued == 0) {
            return -1;
        }
        for (int p = 0; p < size; p++) {
            OsRequest r = recvWaiting[p].peekFirst();
            if (r != null && (skip == null || !skip[p])) {
                long at = vt.addressAt(r, p);
                if (at < nextAddressAt || (at == nextAddressAt && r.issueOrder < bestOrder)) {
                    best = p;
                    bestOrder = r.issueOrder;
                    nextAddressAt = at;
                }
            }
        }
        return best;
    }

    /** The earliest booking waiting for its turn (MAX_VALUE: none). */
    private long earliestBooking() {
        firstAddress(null);
        return Math.min(vt.putCount() == 0 ? Long.MAX_VALUE : vt.put(0).bookAt, nextAddressAt);
    }

    /** True while bookings wait for their turn (a put matched to its address, an address to write). */
    private boolean hasWaitingBookings() {
        return vt.putCount() > 0 || recvQueued > 0;
    }

    /** Makes put {@code i} (send {@code s}) in its turn; false when the receiver's complete buffer has no room yet. */
    private boolean putInTurn(OsRequest s, int i) {
        SlotRing ring = complOut[s.peer];
        int slot = ring.claim();
        if (slot < 0) {
            return false;
        }
        vt.removePut(i);
        vt.booked(s.bookAt);
        putAndFlag(s, ring, slot, s.dstOffset, s.dstCapacity, s.dstHandle, s.bookAt);
        long accept = Math.min(s.buf.bytes, s.dstCapacity);
        events.oneSidedWrite(s.peer, s.tag, accept, timing);
        s.vdone = vt.noticed(putSenderDone); // S2: the chain's last write lands in the sender's own memory
        events.completeOneSided(s, accept, timing);
        completeRequest(s);
        return true;
    }

    /** The least stamp of the entries waiting in rank {@code s}'s one-sided buffers (VirtualOrder.PendingStamps). */
    private long waitingStamp(int s) {
        long min = Long.MAX_VALUE;
        UnsafeBuffer f = files[s];
        for (int k = 0; k < 2 * size; k++) {
            min = Math.min(min, SlotRing.pendingMin(f, k * ringBytes, SLOTS));
        }
        return min;
    }

    /** Unlinks and returns the first address from {@code s}'s receiver that matches it, or null. */
    private Addr takeMatching(OsRequest s) {
        int p = s.peer;
        Addr prev = null;
        for (Addr a = addrHead[p]; a != null; prev = a, a = a.next) {
            if (a.ctx == s.ctx && (a.tag == Comm.ANY_TAG || a.tag == s.tag)) {
                if (prev == null) {
                    addrHead[p] = a.next;
                } else {
                    prev.next = a.next;
                }
                if (addrTail[p] == a) {
                    addrTail[p] = prev;
                }
                a.next = null;
                return a;
            }
        }
        return null;
    }

    private void addTimed(OsRequest s, long at) {
        if (timedCount == timedSends.length) {
            timedSends = java.util.Arrays.copyOf(timedSends, 2 * timedCount);
            timedAt = java.util.Arrays.copyOf(timedAt, 2 * timedCount);
        }
        timedSends[timedCount] = s;
        timedAt[timedCount] = at;
        timedCount++;
    }

    private int completeTimedSends(long now) {
        int work = 0;
        for (int i = 0; i < timedCount; ) {
            if (timedAt[i] - now <= 0) {
                completeRequest(timedSends[i]);
                timedCount--;
                // keep the order of the rest (completion order = issue order)
                System.arraycopy(timedSends, i + 1, timedSends, i, timedCount - i);
                System.arraycopy(timedAt, i + 1, timedAt, i, timedCount - i);
                timedSends[timedCount] = null;
                work++;
            } else {
                i++;
            }
        }
        return work;
    }

    private int readCompletions(int sender, long now) {
        int work = 0;
        SlotRing ring = complIn[sender];
        int slot;
        while ((slot = ring.peek(now)) >= 0) {
            int tag = ring.getInt(slot, SlotRing.F_TAG);
            int handle = ring.getInt(slot, SlotRing.F_HANDLE);
            long accept = ring.getLong(slot, SlotRing.F_A);
            long sent = ring.getLong(slot, SlotRing.F_B);
            long landed = ring.visibleAt(slot);
            if (vt != null) {
                vt.taking(landed);
            }
            ring.release(slot);
            OsRequest r = handles.get(handle);
            handles.release(handle);
            if (r.staging >= 0) {
                packer.unpack(null, fabric.segmentAddress(rank) + r.staging, accept,
                    r.buf.base, r.buf.addr, r.buf.type, r.buf.count, 0);
                staging.free(r.staging, Math.max(1, r.buf.bytes));
                r.staging = -1;
            }
            r.status.fill(r.localOf[sender], tag, accept, sent, r.buf.type.primitive().bytes(), r.buf.type.size());
            if (sent > accept) {
                r.error = new TruncationException(r.status.copy(), r.buf.bytes);
            }
            if (vt != null) {
                r.vdone = Math.max(r.vdone, vt.noticed(landed));
                events.completeOneSided(r, accept, timing);
            }
            completeRequest(r);
            work++;
        }
        return work;
    }

    private void fail(OsRequest r, MpjException e) {
        r.error = e;
        completeRequest(r);
    }

    private Fabric fabricTo(int peer) {
        return OneSidedTiming.fabric(timing.model().topology(), rank, peer);
    }
}
