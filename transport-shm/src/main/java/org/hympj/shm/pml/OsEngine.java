package org.hympj.shm.pml;

import java.nio.MappedByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.agrona.IoUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
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
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.model.Fabric;
import org.hympj.spi.ProgressEngine;

/**
 * isend/irecv built only from one-sided writes, as QUDA on TCA (S2): the application thread
 * enqueues requests and returns; a per-rank polling thread
 * <ul>
 * <li>for each queued receive writes its buffer's address (segment offset, capacity, tag) into
 *     the sender's Remote Address Buffer — a ring of several slots per peer, so receivers post
 *     addresses before the sends exist and the address round trip is hidden;</li>
 * <li>for each queued send, once a matching address has arrived (first in order whose tag
 *     matches), puts the data straight to that address and then writes a flag (with the tag and
 *     length) into the receiver's complete buffer; the send completes when its data is placed;</li>
 * <li>watches its own complete buffer and completes the receives.</li>
 * </ul>
 * The polling work is guarded by a try-lock: an application thread waiting for a request (or
 * issuing one) does it itself when the lock is free, and the polling thread does it
 * otherwise — so the address round trip is hidden while the application computes, and a
 * waiting rank still needs no second thread to hand off to (on 2 cores, with 8 ranks, a
 * handoff costs a scheduler slice).
 *
 * <p>A receive into a heap array (or a non-contiguous type) gets a staging area in this rank's
 * segment as its address; the polling thread unpacks from it on completion. ANY_SOURCE is not
 * supported (the address must go to one sender), nor are probe and iprobe (nothing arrives
 * before its address): they throw {@link UnsupportedOperationException}.
 */
public final class OsEngine implements ProgressEngine, AutoCloseable {
    static final int SLOTS = 16;
    private static final long STAGING_BYTES = 16L << 20;

    private final Engine two;
    private final ShmFabric fabric;
    private final int rank;
    private final int size;
    private final SlotRing[] addrIn;
    private final SlotRing[] addrOut;
    private final SlotRing[] complIn;
    private final SlotRing[] complOut;
    private final ManyToOneConcurrentArrayQueue<OsRequest> submitted = new ManyToOneConcurrentArrayQueue<>(4096);
    private final Thread poller;
    private volatile boolean running = true;
    private volatile Throwable pollerFailure;
    private final IdleStrategy waitIdle = new BackoffIdleStrategy(200, 200, 10_000, 200_000);
    // ---- polling thread only
    private final ArrayDeque<OsRequest>[] recvWaiting;
    private final ArrayList<OsRequest> sendsWaiting = new ArrayList<>();
    private final ArrayDeque<Addr>[] addrs;
    private final HandleTable<OsRequest> handles = new HandleTable<>();
    private final StagingPool staging;
    private final Packer packer = new Packer();
    private final FabricTiming timing;
    private final IdleStrategy pollIdle;
    private final ArrayList<OsRequest> timedSends = new ArrayList<>();
    private final ArrayList<Long> timedAt = new ArrayList<>();
    private Addr freeAddr;

    /** An address announced by a receiver. */
    private static final class Addr {
        int tag;
        int ctx;
        int handle;
        long segOffset;
        long capacity;
        Addr next;
    }

    /** The shared file of one rank: per peer an address ring (peer → me) and a completion ring (peer → me). */
    public static long fileBytes(int ranks) {
        return (long) ranks * 2 * SlotRing.bytes(SLOTS);
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
        addrs = new ArrayDeque[size];
        for (int p = 0; p < size; p++) {
            recvWaiting[p] = new ArrayDeque<>();
            addrs[p] = new ArrayDeque<>();
        }
        long stagingBytes = Math.min(STAGING_BYTES, fabric.segmentBytes() / 4);
        SegmentBuffer region = segment.alloc(Primitive.BYTE, (int) stagingBytes);
        this.staging = new StagingPool(region.segmentOffset(), stagingBytes);
        // the polling thread must not starve the ranks' own threads when ranks outnumber cores
        boolean over = Idler.oversubscribed(size);
        this.pollIdle = over ? new BackoffIdleStrategy(10, 200, 20_000, 500_000)
            : new BackoffIdleStrategy(2_000, 2_000, 10_000, 200_000);
        this.poller = new Thread(this::pollLoop, "hympj-onesided-poller-" + rank);
        poller.setDaemon(true);
        poller.start();
    }

    // ------------------------------------------------------------------ application thread

    void submit(OsRequest q) {
        failIfPollerDied();
        while (!submitted.offer(q)) {
            Thread.yield();
            two.pollFailures();
        }
        if (!helpPoll() && pollerSleeping) {
            LockSupport.unpark(poller);
        }
    }

    /** Does one round of the polling work if no one else is doing it; true if it did. */
    private boolean helpPoll() {
        if (!pollBusy.compareAndSet(false, true)) {
            return false;
        }
        try {
            lastWork = pollOnce();
        } catch (RuntimeException | Error e) {
            pollerFailure = e;
            throw e;
        } finally {
            pollBusy.set(false);
        }
        return true;
    }

    /** Guards the polling-thread state: whoever holds it polls. */
    private final AtomicBoolean pollBusy = new AtomicBoolean();
    private int lastWork;

    /**
     * Waits for {@code q}: a short spin, then parking — the polling thread does the work and
     * unparks us when it completes the request, so a waiting rank leaves the core to it.
     */
    void await(OsRequest q) {
        waitIdle.reset();
        q.waiter = Thread.currentThread();
        try {
            while (!q.done) {
                boolean helped = helpPoll();
                if (q.done) {
                    break;
                }
                if (helped && lastWork > 0) {
                    waitIdle.reset();
                } else {
                    waitIdle.idle(); // parks at most briefly; the polling thread unparks us on completion
                }
                pollFailures();
            }
        } finally {
            q.waiter = null;
        }
    }

    /** Waits until {@code cond} holds, helping with the polling meanwhile. */
    private void helpUntil(java.util.function.BooleanSupplier cond) {
        waitIdle.reset();
        while (!cond.getAsBoolean()) {
            boolean helped = helpPoll();
            if (cond.getAsBoolean()) {
                break;
            }
            if (helped && lastWork > 0) {
                waitIdle.reset();
            } else {
                waitIdle.idle();
            }
            pollFailures();
        }
    }

    private volatile boolean pollerSleeping;

    /** Marks {@code q} complete and wakes its waiter (polling thread). */
    private static void completeRequest(OsRequest q) {
        q.done = true;
        Thread w = q.waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** One round of polling help and the failure checks (a test call). */
    void helpOnce() {
        helpPoll();
        pollFailures();
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
        pollFailures(); // the polling thread makes the progress
        return 0;
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
        helpUntil(() -> allDone(requests));
        consumeAll(requests);
    }

    @Override
    public boolean testAll(Request[] requests) {
        if (!allDone(requests)) {
            helpPoll();
            pollFailures();
            if (!allDone(requests)) {
                return false;
            }
        }
        consumeAll(requests);
        return true;
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
        helpUntil(() -> firstDone(requests) != Request.NONE_COMPLETED);
        int i = firstDone(requests);
        if (i >= 0) {
            os(requests[i]).consume();
        }
        return i;
    }

    @Override
    public int testAny(Request[] requests) {
        int i = firstDone(requests);
        if (i == Request.NONE_COMPLETED) {
            helpPoll();
            pollFailures();
            i = firstDone(requests);
        }
        if (i >= 0) {
            os(requests[i]).consume();
        }
        return i;
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
        for (PersistentRequest q : requests) {
            if (q != null) {
                q.start();
            }
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            poller.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ polling thread

    private void pollLoop() {
        try {
            while (running) {
                int work = 0;
                if (pollBusy.compareAndSet(false, true)) {
                    try {
                        work = pollOnce();
                    } finally {
                        pollBusy.set(false);
                    }
                }
                if (work > 0) {
                    pollIdle.reset();
                } else if (!sendsWaiting.isEmpty() || !timedSends.isEmpty() || handles.inUse() > 0) {
                    Thread.yield(); // a peer's write is expected: check again soon, without holding the core
                } else {
                    // nothing outstanding: sleep until a request is submitted (submit unparks us)
                    pollerSleeping = true;
                    if (submitted.isEmpty()) {
                        LockSupport.parkNanos(this, 1_000_000L);
                    }
                    pollerSleeping = false;
                }
            }
        } catch (Throwable t) {
            pollerFailure = t;
        }
    }

    private int pollOnce() {
        int work = 0;
        long now = System.nanoTime();
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
            }
        }
        for (int p = 0; p < size; p++) {
            work += announce(p, now);
            work += readAddresses(p, now);
            work += readCompletions(p, now);
        }
        work += matchSends(now);
        work += completeTimedSends(now);
        return work;
    }

    /** Writes the addresses of queued receives from {@code src} into its Remote Address Buffer. */
    private int announce(int src, long now) {
        int work = 0;
        ArrayDeque<OsRequest> q = recvWaiting[src];
        OsRequest r;
        while ((r = q.peekFirst()) != null) {
            long where = r.buf.segOffset;
            if (where < 0 && r.staging < 0) {
                if (r.buf.bytes > staging.capacity()) {
                    fail(r, new MpjException("onesided receive of " + r.buf.bytes + " bytes into a heap or strided "
                        + "buffer exceeds the staging area (" + staging.capacity() + " bytes); use a segment buffer"));
                    q.pollFirst();
                    continue;
                }
                r.staging = staging.alloc(Math.max(1, r.buf.bytes));
                if (r.staging < 0) {
                    break; // wait for staging space to free up
                }
            }
            int slot = addrOut[src].claim();
            if (slot < 0) {
                break; // all address slots to this sender are in use
            }
            r.handle = handles.add(r);
            SlotRing ring = addrOut[src];
            ring.putInt(slot, SlotRing.F_TAG, r.tag);
            ring.putInt(slot, SlotRing.F_CTX, r.ctx);
            ring.putInt(slot, SlotRing.F_HANDLE, r.handle);
            ring.putLong(slot, SlotRing.F_A, where >= 0 ? where : r.staging);
            ring.putLong(slot, SlotRing.F_B, r.buf.bytes);
            long vis = 0;
            if (timing != null) {
                // the address notify: a small write to the sender
                timing.plan(fabricTo(src), src, org.hympj.api.Datatype.BYTE, 32, 32, true, true, true, now);
                vis = timing.visibleAtReal;
            }
            ring.publish(slot, vis);
            q.pollFirst();
            work++;
        }
        return work;
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
            ring.release(slot);
            addrs[receiver].addLast(a);
            work++;
        }
        return work;
    }

    /** Puts each queued send whose receiver has announced a matching address, in order. */
    private int matchSends(long now) {
        int work = 0;
        for (Iterator<OsRequest> it = sendsWaiting.iterator(); it.hasNext(); ) {
            OsRequest s = it.next();
            Addr a = takeMatching(s);
            if (a == null) {
                continue;
            }
            int slot = complOut[s.peer].claim();
            if (slot < 0) {
                addrs[s.peer].addFirst(a); // the receiver has not drained its completions: try later
                continue;
            }
            long accept = Math.min(s.buf.bytes, a.capacity);
            packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0,
                null, fabric.segmentAddress(s.peer) + a.segOffset, accept);
            SlotRing ring = complOut[s.peer];
            ring.putInt(slot, SlotRing.F_TAG, s.tag);
            ring.putInt(slot, SlotRing.F_HANDLE, a.handle);
            ring.putLong(slot, SlotRing.F_A, accept);
            ring.putLong(slot, SlotRing.F_B, s.buf.bytes);
            long vis = 0;
            long senderDone = 0;
            if (timing != null) {
                timing.plan(fabricTo(s.peer), s.peer, s.buf.type, s.buf.count, accept, s.buf.base == null, true,
                    s.persistent, now);
                vis = timing.visibleAtReal;
                senderDone = timing.senderDoneReal;
            }
            ring.publish(slot, vis); // release: the data before the flag
            a.next = freeAddr;
            freeAddr = a;
            it.remove();
            work++;
            if (senderDone == 0 || senderDone - now <= 0) {
                completeRequest(s); // S2: the chain's last write lands in the sender's own memory
            } else {
                timedSends.add(s);
                timedAt.add(senderDone);
            }
        }
        return work;
    }

    private Addr takeMatching(OsRequest s) {
        for (Iterator<Addr> it = addrs[s.peer].iterator(); it.hasNext(); ) {
            Addr a = it.next();
            if (a.ctx == s.ctx && (a.tag == Comm.ANY_TAG || a.tag == s.tag)) {
                it.remove();
                return a;
            }
        }
        return null;
    }

    private int completeTimedSends(long now) {
        int work = 0;
        for (int i = timedSends.size() - 1; i >= 0; i--) {
            if (timedAt.get(i) - now <= 0) {
                completeRequest(timedSends.remove(i));
                timedAt.remove(i);
                work++;
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
        return timing.model().topology().tcaReaches(rank, peer) ? Fabric.TCA : Fabric.IB;
    }
}
