package org.hympj.shm.pml;

import java.util.ArrayDeque;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.hympj.api.Comm;
import org.hympj.api.MpjException;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.TruncationException;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.fabric.BulkInbound;
import org.hympj.shm.fabric.BulkOutbound;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.model.Fabric;
import org.hympj.model.JobFabric;
import org.hympj.router.RouteChoice;
import org.hympj.router.RouteStatistics;
import org.hympj.router.RouteTable;
import org.hympj.spi.Layout;
import org.hympj.spi.ProgressEngine;

/**
 * The point-to-point engine of one rank (Open MPI's PML): matching, the eager and
 * rendezvous protocols over the fabric channels, and progress. Single-threaded: everything
 * runs in the thread that calls the communicator, inside library calls; no thread runs in the
 * background.
 *
 * <p>Rendezvous chooses the fewest copies the buffers allow: send buffer contiguous in the
 * sender's segment ⇒ the receiver copies straight out of it and ACKs (RGET; natively only:
 * TCA can only write, and under a model every transfer is the sender's put) — natively such
 * a send takes this path from the inline limit up, one copy instead of eager's two; else
 * receive buffer contiguous in the receiver's segment ⇒ the sender puts straight into it
 * (then FIN); else the sender streams pieces, so its copy-in and the receiver's copy-out
 * overlap.
 *
 * <p>Emulated fabrics: every message takes a channel (0 = TCA, 1 = IB), chosen once per call
 * or per persistent request. Under a timing model the sender plans each message on the
 * model when its data starts to move; its packets carry the instant the data is visible at
 * the receiver, which leaves them in the ring until then, and the send completes when the
 * modelled engine is done.
 */
public final class Engine implements ProgressEngine, ControlledMessageHandler {
    private static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);
    private static final int READ_LIMIT = 64;
    /** Waits for a modelled instant closer than this yield instead of parking (parks overshoot by ~60 us). */
    private static final long SHORT_WAIT_NS = 2_000_000L;

    private final ShmFabric fabric;
    private final JobControl control;
    private final JobConfig config;
    private final int rank;
    private final int size;
    private final int channels;
    private final int inlineLimit;
    private final int eagerLimit;
    private final int fragPayload;
    private final int bulkChunk;
    private final Packer packer = new Packer();
    private final Idler idler;
    /** The timing model's view, or null (native, or fabrics forced without a model). */
    private final FabricTiming timing;
    private final int[] sendSeq;
    private final int[] recvSeq;
    /** Outbound packets that did not fit, per [channel * size + dest], in order. */
    private final ArrayDeque<Outbound>[] pending;
    private int pendingCount;
    private MatchQueue[] contexts = new MatchQueue[4];
    /** World uses contexts 0 (point-to-point) and 1 (its collectives); each new communicator takes two more. */
    private int nextContext = 2;
    private final HandleTable<SendReq> rndvSends = new HandleTable<>();
    private final HandleTable<RecvReq> rndvRecvs = new HandleTable<>();
    private Unexpected freeUnexpected;
    private Control freeControl;
    private int currentSource;
    private int currentChannel;
    /** Packets written so far: a wait that wrote something made progress, even if nothing arrived. */
    private long written;
    /** The clock of the current progress pass, read once per pass when a model is on. */
    private long now;
    /** Earliest modelled instant something waits for (a gated packet, a timed completion). */
    private long wakeAt = Long.MAX_VALUE;
    /** The job's fabric decisions, shared with the simulator: route choice, RSched, handshake puts. */
    private final JobFabric jobFabric;
    private final RouteChoice routes;
    private final RouteStatistics stats = new RouteStatistics();
    /** RSched policy for persistent TCA sets (null: issue order, the model's earliest engine). */
    private final org.hympj.rsched.Scheduler scheduler;
    private final org.hympj.rsched.MachineModel machine;
    /**
     * --sched rndv under a model: the rendezvous handshake is paid for on the model, as in
     * S3's original eager/rendezvous protocol: RTS and CTS are control puts on the DMA engines
     * (RSched's persistent puts exchange addresses once, at init, and pay none of it).
     */
    private final boolean handshakePuts;
    private PersistentRequest[] cachedSet;
    private PersistentRequest[] cachedMembers;
    private int[] cachedOrder;
    private org.hympj.rsched.Schedule lastSchedule;
    private Runnable barrier;
    private boolean pseudoCollective;
    /** The --trace journal (Tracer.NONE when off). */
    private org.hympj.shm.trace.Tracer tracer = org.hympj.shm.trace.Tracer.NONE;
    private Req[] timed = new Req[16];
    private long[] timedAt = new long[16];
    private int timedCount;

    @SuppressWarnings("unchecked")
    public Engine(ShmFabric fabric, JobConfig config, JobFabric jobFabric, JobControl control, boolean launched,
                  FabricTiming timing) {
        this.fabric = fabric;
        this.control = control;
        this.config = config;
        this.rank = fabric.rank();
        this.size = fabric.size();
        this.channels = fabric.channels();
        this.inlineLimit = config.inlineLimit;
        this.eagerLimit = config.eagerLimit;
        this.fragPayload = fabric.ring(0, rank).maxMsgLength() - Packets.FRAG_HEADER;
        this.bulkChunk = Math.min(128 << 10, config.bulkBytes / 4);
        this.idler = new Idler(config, control, rank, launched);
        idler.onPeersExited(this::failReceivesFromExited);
        this.timing = timing;
        this.jobFabric = jobFabric;
        this.routes = jobFabric.routes();
        this.handshakePuts = timing != null && jobFabric.handshakePuts();
        this.scheduler = timing != null ? jobFabric.scheduler() : null;
        this.machine = jobFabric.machine();
        this.sendSeq = new int[size];
        this.recvSeq = new int[size];
        this.pending = new ArrayDeque[channels * size];
        for (int i = 0; i < pending.length; i++) {
            pending[i] = new ArrayDeque<>();
        }
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public ShmFabric fabric() {
        return fabric;
    }

    /** The timing model's view (null when no model is on). */
    public FabricTiming timing() {
        return timing;
    }

    int eagerLimit() {
        return eagerLimit;
    }

    /** The matching space of a context, made on first use (a peer may send before we made the communicator). */
    private MatchQueue queue(int ctx) {
        if (ctx >= contexts.length) {
            contexts = java.util.Arrays.copyOf(contexts, Math.max(ctx + 1, contexts.length * 2));
        }
        MatchQueue q = contexts[ctx];
        if (q == null) {
            q = new MatchQueue();
            contexts[ctx] = q;
        }
        return q;
    }

    /** The lowest context id this rank has not used; communicators agree on the max over their members. */
    int nextContext() {
        return nextContext;
    }

    /** Marks context ids below {@code next} as used. */
    void reserveContexts(int next) {
        nextContext = Math.max(nextContext, next);
    }

    // ------------------------------------------------------------------ routes

    /** Records events in {@code t} from now on (the --trace journal). */
    public void trace(org.hympj.shm.trace.Tracer t) {
        this.tracer = t == null ? org.hympj.shm.trace.Tracer.NONE : t;
    }

    /** Route decisions so far (per fabric and layout: messages, bytes). */
    public RouteStatistics routeStatistics() {
        return stats;
    }

    /** The hybrid router's table, or null when routing is not hybrid. */
    public RouteTable routeTable() {
        return routes.hybrid() ? routes.policy().table() : null;
    }

    /**
     * The channel for a message of {@code bytes} in {@code layout} to {@code dest}: the hybrid
     * router's choice, or the forced route, or the one native channel.
     */
    int channelFor(int dest, long bytes, Layout layout, String op) {
        return routes.channel(rank, dest, bytes, layout, op);
    }

    /** Traced, records the route decided for {@code s} (its channel, and why: router, forced route, native). */
    void traceRoute(SendReq s) {
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.ROUTE, s.dest, s.tag, s.buf.bytes, s.channel, -1, -1, 0, 0,
                routes.why(s.dest, s.channel, s.stripe, timing != null));
        }
    }

    /** True when the hybrid router stripes this message over both fabrics. */
    boolean stripeFor(int dest, long bytes, Layout layout) {
        return routes.stripe(rank, dest, bytes, layout);
    }

    /**
     * The channel a message to {@code dest} (a world rank) takes without the router's table:
     * natively the one channel; emulating, the forced route.
     *
     * @throws IllegalArgumentException for a TCA route to a rank outside this rank's subcluster
     */
    int channelFor(int dest, String op) {
        return routes.forcedChannel(rank, dest, op);
    }

    static Fabric fabricOf(int channel) {
        return JobFabric.fabricOf(channel);
    }

    /** A persistent send over TCA keeps its descriptors on this rank's DMACs (register mode holds 16 each). */
    void registerPersistent(SendReq s) {
        s.registered = true;
        if (timing != null && s.channel == 0) {
            timing.registerPersistentTca();
        }
    }

    /** A registered send is freed: its descriptors no longer count against the DMACs' modes. */
    void releasePersistent(SendReq s) {
        if (s.registered && timing != null && s.channel == 0) {
            timing.releasePersistentTca();
        }
        s.registered = false;
    }

    // ------------------------------------------------------------------ progress

    @Override
    public int progress() {
        int work = 0;
        if (timing != null) {
            now = System.nanoTime();
            wakeAt = Long.MAX_VALUE;
            if (timedCount > 0) {
                work += completeTimed();
            }
        }
        for (int c = 0; c < channels; c++) {
            currentChannel = c;
            for (int s = 0; s < size; s++) {
                currentSource = s;
                work += fabric.inbound(c, s).controlledRead(this, READ_LIMIT);
            }
        }
        if (pendingCount > 0) {
            long before = written;
            work += flushPending();
            work += (int) (written - before);
        }
        return work;
    }

    /** Completes the requests whose modelled completion instant has passed. */
    private int completeTimed() {
        int done = 0;
        for (int i = 0; i < timedCount; ) {
            if (timedAt[i] - now <= 0) {
                completeNow(timed[i]);
                timedCount--;
                timed[i] = timed[timedCount];
                timedAt[i] = timedAt[timedCount];
                timed[timedCount] = null;
                done++;
            } else {
                wakeAt = Math.min(wakeAt, timedAt[i]);
                i++;
            }
        }
        return done;
    }

    /** Completes {@code r}; traced, a send records its puts' completion and its own. */
    private void completeNow(Req r) {
        if (tracer.enabled() && r instanceof SendReq) {
            SendReq s = (SendReq) r;
            for (int i = 0; i < s.tracedPuts; i++) {
                SendReq.TracedPut p = s.traced[i];
                tracer.event(org.hympj.shm.trace.Tracer.PUT_COMPLETED, s.dest, s.tag, p.bytes, p.channel, p.engine, p.link,
                    p.start, p.end, p.protocol);
            }
            s.tracedPuts = 0;
            tracer.event(org.hympj.shm.trace.Tracer.COMPLETE_SEND, s.dest, s.tag, s.buf.bytes, s.channel, -1, -1, 0, 0,
                null);
        }
        r.complete();
    }

    /** Completes {@code r} now, or once the real clock reaches {@code at}. */
    private void completeAt(Req r, long at) {
        if (at == 0 || at - System.nanoTime() <= 0) {
            completeNow(r);
            return;
        }
        if (timedCount == timed.length) {
            timed = java.util.Arrays.copyOf(timed, timedCount * 2);
            timedAt = java.util.Arrays.copyOf(timedAt, timedCount * 2);
        }
        timed[timedCount] = r;
        timedAt[timedCount] = at;
        timedCount++;
        wakeAt = Math.min(wakeAt, at);
    }

    /** Blocks until {@code r}'s transfer is done. */
    void await(Req r) {
        idler.reset();
        while (!r.done) {
            int work = progress();
            if (r.done) {
                break;
            }
            idle(work);
        }
    }

    private void idle(int work) {
        if (work > 0) {
            idler.reset();
        } else if (wakeAt != Long.MAX_VALUE && wakeAt - System.nanoTime() < SHORT_WAIT_NS) {
            idler.idleBriefly(); // a modelled instant is near: parking would overshoot it
        } else {
            idler.idle();
        }
    }

    private static Req req(Request q) {
        if (!(q instanceof Req)) {
            throw new IllegalArgumentException("request is not a HyMPJ shared-memory request: " + q);
        }
        return (Req) q;
    }

    private static boolean allDone(Request[] requests) {
        for (Request q : requests) {
            if (q != null && req(q).active && !req(q).done) {
                return false;
            }
        }
        return true;
    }

    /** Makes every active request inactive; throws the first error after all are consumed. */
    private static void consumeAll(Request[] requests) {
        MpjException first = null;
        for (Request q : requests) {
            if (q != null && req(q).active) {
                try {
                    req(q).consume();
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
        idler.reset();
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.WAIT_BEGIN, -1, -1, requests.length, -1, -1, -1, 0, 0, "waitAll");
        }
        while (!allDone(requests)) {
            idle(progress());
        }
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.WAIT_END, -1, -1, requests.length, -1, -1, -1, 0, 0, "waitAll");
        }
        if (pseudoCollective) {
            pseudoCollective = false;
            barrier.run();            // ...and ends together
        }
        consumeAll(requests);
    }

    @Override
    public boolean testAll(Request[] requests) {
        if (!allDone(requests)) {
            progress();
            if (!allDone(requests)) {
                idler.poll();
                return false;
            }
        }
        consumeAll(requests);
        return true;
    }

    /** Index of the first active request that is done, NONE_COMPLETED, or UNDEFINED if none is active. */
    private static int firstDone(Request[] requests) {
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            Request q = requests[i];
            if (q != null && req(q).active) {
                anyActive = true;
                if (req(q).done) {
                    return i;
                }
            }
        }
        return anyActive ? Request.NONE_COMPLETED : Request.UNDEFINED;
    }

    @Override
    public int waitAny(Request[] requests) {
        idler.reset();
        int i;
        while ((i = firstDone(requests)) == Request.NONE_COMPLETED) {
            idle(progress());
        }
        if (i >= 0) {
            req(requests[i]).consume();
        }
        return i;
    }

    @Override
    public int testAny(Request[] requests) {
        int i = firstDone(requests);
        if (i == Request.NONE_COMPLETED) {
            progress();
            i = firstDone(requests);
            if (i == Request.NONE_COMPLETED) {
                idler.poll();
            }
        }
        if (i >= 0) {
            req(requests[i]).consume();
        }
        return i;
    }

    /**
     * Starts every non-null request in order, after checking them all: a request that cannot
     * be started (active, freed) fails the call before any other is started.
     */
    @Override
    public void startAll(PersistentRequest[] requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null) {
                String why = req(requests[i]).whyNotStartable();
                if (why != null) {
                    throw new IllegalStateException("startAll: request " + i + ": " + why + "; none was started");
                }
            }
        }
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.START, -1, -1, requests.length, -1, -1, -1, 0, 0,
                scheduler == null ? "startAll" : config.sched);
        }
        if (scheduler == null) {
            for (PersistentRequest q : requests) {
                if (q != null) {
                    q.start();
                }
            }
            return;
        }
        if (config.schedBarrier && barrier != null) {
            barrier.run();            // S3's pseudo-collective mode: the exchange starts together
            pseudoCollective = true;
        }
        int[] order = scheduledOrder(requests);
        for (PersistentRequest q : requests) {
            if (q != null && !(q instanceof SendReq && ((SendReq) q).channel == 0)) {
                q.start();            // receives (and IB sends) first, in the given order
            }
        }
        for (int i : order) {
            requests[i].start();      // TCA puts in schedule order, each on its assigned engines
        }
    }

    /**
     * The TCA sends of a Startall set in RSched's order (by scheduled start), with their
     * engines assigned; computed once per set and cached while the same set is started again
     * (its cost stays out of the per-iteration time, as in S3).
     */
    private int[] scheduledOrder(PersistentRequest[] requests) {
        if (requests == cachedSet && sameSet(requests)) {
            return cachedOrder;
        }
        java.util.List<org.hympj.rsched.Put> puts = new java.util.ArrayList<>();
        java.util.List<Integer> index = new java.util.ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] instanceof SendReq && ((SendReq) requests[i]).channel == 0
                && ((SendReq) requests[i]).dest != Comm.PROC_NULL) {
                SendReq s = (SendReq) requests[i];
                puts.add(jobFabric.put(puts.size(), rank, s.dest, s.buf.bytes));
                index.add(i);
            }
        }
        int[] order = new int[puts.size()];
        if (!puts.isEmpty()) {
            org.hympj.rsched.StartOrder so = org.hympj.rsched.StartOrder.of(scheduler, machine, puts);
            for (int k = 0; k < order.length; k++) {
                SendReq s = (SendReq) requests[index.get(so.put(k))];
                s.engineHint = so.sendEngine(k);
                s.recvEngineHint = so.receiveEngine(k);
                order[k] = index.get(so.put(k));
            }
            lastSchedule = so.schedule();
        }
        cachedSet = requests;
        cachedMembers = requests.clone();
        cachedOrder = order;
        return order;
    }

    private boolean sameSet(PersistentRequest[] requests) {
        if (cachedMembers == null || cachedMembers.length != requests.length) {
            return false;
        }
        for (int i = 0; i < requests.length; i++) {
            if (cachedMembers[i] != requests[i]) {
                return false;
            }
        }
        return true;
    }

    /** The schedule of the last Startall set scheduled (null if none). */
    public org.hympj.rsched.Schedule lastSchedule() {
        return lastSchedule;
    }

    /** Installs the job-wide barrier used by the pseudo-collective mode. */
    public void barrier(Runnable b) {
        this.barrier = b;
    }

    /**
     * Fails the posted receives that only finalized, exited peers could match: after reading
     * whatever they sent before they went (if their rings still hold packets, e.g. waiting
     * for their turn in sequence, it waits for the next check).
     */
    private void failReceivesFromExited(boolean[] exited, boolean allExited, int last) {
        for (int pass = 0; pass < 64 && progress() > 0; pass++) {
            // drain
        }
        for (int p = 0; p < size; p++) {
            for (int c = 0; exited[p] && c < channels; c++) {
                if (fabric.inbound(c, p).size() > 0) {
                    return;
                }
            }
        }
        for (MatchQueue q : contexts) {
            if (q != null) {
                q.failPostedFrom(exited, allExited, last);
            }
        }
    }

    /** Failure checks for polling calls that do not idle (test, iprobe). */
    void pollFailures() {
        idler.poll();
    }

    /** Progress until every pending outbound packet is written (at finalize). */
    public void flush() {
        idler.reset();
        while (pendingCount > 0 || timedCount > 0) {
            idle(progress());
        }
    }

    // ------------------------------------------------------------------ sends

    void startSend(SendReq s) {
        s.visibleAt = 0;
        s.senderDoneAt = 0;
        if (s.dest == Comm.PROC_NULL) {
            s.complete();
            return;
        }
        s.seq = sendSeq[s.dest]++;
        // data contiguous in our segment: the receiver copies it out once (RGET), natively, when
        // that beats the two copies of eager — above the inline limit
        boolean pull = pullable() && s.buf.segOffset >= 0 && s.buf.bytes > inlineLimit;
        if (channels > 1) {
            stats.count(s.stripe ? 2 : s.channel, s.layout, s.buf.bytes);
        }
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.POST_SEND, s.dest, s.tag, s.buf.bytes, s.channel, -1, -1, 0, 0,
                s.stripe ? "striped" : null);
        }
        s.preplanned = false;
        s.tracedPuts = 0;
        if (s.buf.bytes <= eagerLimit && !pull && !s.stripe) {
            s.emit = SendReq.EMIT_EAGER;
            plan(s, false); // an eager message starts to move now
            s.preplanned = scheduled(s); // should it fall back to rendezvous, it keeps this plan
        } else {
            toRendezvous(s);
        }
        ArrayDeque<Outbound> q = pending[s.channel * size + s.dest];
        if (!q.isEmpty() || !emitSend(s)) {
            q.addLast(s);
            pendingCount++;
        }
    }

    /** The send goes as a rendezvous; under --sched rndv its RTS is planned as a control put now. */
    private void toRendezvous(SendReq s) {
        s.emit = SendReq.EMIT_RTS;
        s.sendId = rndvSends.add(s);
        s.rtsVisibleAt = handshakePuts ? planControl(s.channel, s.dest, 0) : 0;
        if (!s.preplanned && scheduled(s)) {
            // scheduled: the put runs from its start, in schedule order (S3's persistent protocol
            // has no handshake); the emulator's handshake only carries the real data meanwhile
            plan(s, false);
            s.preplanned = true;
        }
    }

    /** A put RSched placed on an engine, under a model (S3's persistent protocol). */
    private boolean scheduled(SendReq s) {
        return timing != null && s.channel == 0 && s.engineHint >= 0 && !s.stripe;
    }

    /**
     * Plans a rendezvous control put (RTS, CTS) to {@code dest}, issued no earlier than the real
     * instant {@code notBefore} (0: now); returns the real instant it arrives (the packet's vis).
     */
    private long planControl(int channel, int dest, long notBefore) {
        timing.planControl(fabricOf(channel), dest, notBefore, System.nanoTime());
        return timing.visibleAtReal;
    }

    /** Pulling from the sender's segment is a read: native only (TCA writes; a model plans sender puts). */
    private boolean pullable() {
        return channels == 1 && timing == null;
    }

    /** Plans the message's transfer on the model (no-op without one). */
    private void plan(SendReq s, boolean dstInSegment) {
        plan(s, s.channel, s.buf.bytes, dstInSegment);
    }

    /** Plans {@code bytes} of the message over {@code channel} (a part, when striped). */
    private void plan(SendReq s, int channel, long bytes, boolean dstInSegment) {
        if (timing == null) {
            return;
        }
        // a put RSched scheduled goes straight into the receive buffer (Transfer.setMessage)
        timing.plan(fabricOf(channel), s.dest, s.buf.type, s.buf.count, bytes, s.buf.base == null, dstInSegment,
            s.registered, s.engineHint, s.recvEngineHint, System.nanoTime());
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.PUT_ISSUED, s.dest, s.tag, bytes, channel, timing.lastEngine(),
                timing.lastLink(), timing.lastStart(), timing.lastSenderDone(), timing.lastProtocol());
            s.tracePut(channel, bytes, timing.lastEngine(), timing.lastLink(), timing.lastStart(),
                timing.lastSenderDone(), timing.lastProtocol());
        }
        s.visibleAt = timing.visibleAtReal;
        s.senderDoneAt = timing.senderDoneReal;
    }

    /** Writes what the send can write now; true when it has nothing more to write. */
    boolean emitSend(SendReq s) {
        OneToOneRingBuffer ring = fabric.ring(s.channel, s.dest);
        switch (s.emit) {
            case SendReq.EMIT_EAGER: {
                int n = (int) s.buf.bytes;
                if (n > inlineLimit) {
                    return emitBulkEager(s, ring, n);
                }
                int idx = ring.tryClaim(Packets.EAGER, Packets.EAGER_HEADER + n);
                if (idx < 0) {
                    return false;
                }
                AtomicBuffer b = ring.buffer();
                b.putLong(idx, s.visibleAt);
                b.putInt(idx + Packets.B, s.ctx);
                b.putInt(idx + Packets.B + 4, s.tag);
                b.putInt(idx + Packets.B + 8, s.seq);
                packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0,
                    null, b.addressOffset() + idx + Packets.EAGER_HEADER, n);
                ring.commit(idx);
                written++;
                completeAt(s, s.senderDoneAt);
                return true;
            }
            case SendReq.EMIT_RTS: {
                int idx = ring.tryClaim(Packets.RTS, Packets.RTS_LENGTH);
                if (idx < 0) {
                    return false;
                }
                AtomicBuffer b = ring.buffer();
                b.putLong(idx, s.rtsVisibleAt); // 0 unless --sched rndv: the handshake costs nothing modelled
                b.putInt(idx + Packets.B, s.ctx);
                b.putInt(idx + Packets.B + 4, s.tag);
                b.putInt(idx + Packets.B + 8, s.seq);
                b.putInt(idx + Packets.B + 12, s.sendId);
                b.putLong(idx + Packets.B + 16, s.buf.bytes);
                b.putLong(idx + Packets.B + 24, pullable() ? s.buf.segOffset : -1L);
                ring.commit(idx);
                written++;
                return true; // now waits for CTS or ACK
            }
            default:
                throw new IllegalStateException("internal: unknown emit state " + s.emit);
        }
    }

    /**
     * An eager message too big for the packet ring: payload into the pair's bulk region, a
     * notice into the ring. When the bulk region is full (the receiver holds unexpected
     * payloads) the message falls back to rendezvous, which never needs bulk space.
     */
    private boolean emitBulkEager(SendReq s, OneToOneRingBuffer ring, int n) {
        BulkOutbound bulk = fabric.bulkTo(s.channel, s.dest);
        long start = bulk.tryReserve(n);
        if (start < 0) {
            toRendezvous(s);
            return emitSend(s);
        }
        int idx = ring.tryClaim(Packets.EAGER_BULK, Packets.BULK_NOTICE_LENGTH);
        if (idx < 0) {
            return false;
        }
        packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, 0, null, bulk.address(start), n);
        bulk.commit(start, n);
        AtomicBuffer b = ring.buffer();
        b.putLong(idx, s.visibleAt);
        b.putInt(idx + Packets.B, s.ctx);
        b.putInt(idx + Packets.B + 4, s.tag);
        b.putInt(idx + Packets.B + 8, s.seq);
        b.putInt(idx + Packets.B + 12, n);
        b.putLong(idx + Packets.B + 16, start);
        ring.commit(idx); // release: the receiver sees the payload once it sees the notice
        written++;
        completeAt(s, s.senderDoneAt);
        return true;
    }

    /**
     * Streams one part of a rendezvous message the receiver cannot take by a put: pieces
     * through the bulk region (one copy in, one out, the receiver copying piece k while we pack
     * piece k+1), or through the packet ring itself while the bulk region is full.
     */
    boolean emitStream(StreamCursor c) {
        SendReq s = c.owner;
        OneToOneRingBuffer ring = fabric.ring(c.channel, s.dest);
        BulkOutbound bulk = fabric.bulkTo(c.channel, s.dest);
        while (c.pos < c.end) {
            int chunk = (int) Math.min(bulkChunk, c.end - c.pos);
            long start = bulk.tryReserve(chunk);
            AtomicBuffer b = ring.buffer();
            if (start >= 0) {
                int idx = ring.tryClaim(Packets.FRAG_BULK, Packets.BULK_NOTICE_LENGTH);
                if (idx < 0) {
                    return false;
                }
                packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, c.pos, null, bulk.address(start), chunk);
                bulk.commit(start, chunk);
                b.putLong(idx, c.visibleAt);
                b.putInt(idx + Packets.B, s.recvId);
                b.putInt(idx + Packets.B + 4, chunk);
                b.putLong(idx + Packets.B + 8, c.pos);
                b.putLong(idx + Packets.B + 16, start);
                ring.commit(idx);
                written++;
            } else {
                chunk = (int) Math.min(fragPayload, c.end - c.pos);
                int idx = ring.tryClaim(Packets.FRAG, Packets.FRAG_HEADER + chunk);
                if (idx < 0) {
                    return false;
                }
                b.putLong(idx, c.visibleAt);
                b.putInt(idx + Packets.B, s.recvId);
                b.putLong(idx + Packets.B + 8, c.pos);
                packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, c.pos,
                    null, b.addressOffset() + idx + Packets.FRAG_HEADER, chunk);
                ring.commit(idx);
                written++;
            }
            c.pos += chunk;
        }
        partDone(s, c.senderDoneAt);
        return true;
    }

    /** One part of a rendezvous send is written; the send completes with its last part. */
    private void partDone(SendReq s, long senderDoneAt) {
        s.partsDoneAt = Math.max(s.partsDoneAt, senderDoneAt);
        if (--s.partsLeft == 0) {
            s.senderDoneAt = s.partsDoneAt;
            finishRendezvousSend(s);
        }
    }

    private void finishRendezvousSend(SendReq s) {
        rndvSends.release(s.sendId);
        s.sendId = -1;
        completeAt(s, s.senderDoneAt);
    }

    private int flushPending() {
        int work = 0;
        for (int i = 0; i < pending.length; i++) {
            ArrayDeque<Outbound> q = pending[i];
            Outbound o;
            while ((o = q.peekFirst()) != null) {
                if (!o.emit()) {
                    break;
                }
                q.pollFirst();
                pendingCount--;
                work++;
            }
        }
        return work;
    }

    /** Sends a control packet now if the ring has room and nothing is queued before it, else queues it. */
    private void sendControl(int channel, int dest, int type, int a, int b, long c, long d, long vis) {
        ArrayDeque<Outbound> q = pending[channel * size + dest];
        if (q.isEmpty() && writeControl(channel, dest, type, a, b, c, d, vis)) {
            return;
        }
        Control k = freeControl;
        if (k != null) {
            freeControl = k.nextFree;
        } else {
            k = new Control(this);
        }
        k.channel = channel;
        k.dest = dest;
        k.type = type;
        k.a = a;
        k.b = b;
        k.c = c;
        k.d = d;
        k.vis = vis;
        q.addLast(k);
        pendingCount++;
    }

    boolean writeControl(int channel, int dest, int type, int a, int b, long c, long d, long vis) {
        OneToOneRingBuffer ring = fabric.ring(channel, dest);
        int len = type == Packets.CTS ? Packets.CTS_LENGTH : type == Packets.FIN ? Packets.FIN_LENGTH : Packets.ID_LENGTH;
        int idx = ring.tryClaim(type, len);
        if (idx < 0) {
            return false;
        }
        AtomicBuffer buf = ring.buffer();
        buf.putLong(idx, vis);
        buf.putInt(idx + Packets.B, a);
        if (type == Packets.CTS) {
            buf.putInt(idx + Packets.B + 4, b);
            buf.putLong(idx + Packets.B + 8, c);
            buf.putLong(idx + Packets.B + 16, d);
        } else if (type == Packets.FIN) {
            buf.putLong(idx + Packets.B + 8, c);
        }
        ring.commit(idx);
        written++;
        return true;
    }

    void releaseControl(Control k) {
        k.nextFree = freeControl;
        freeControl = k;
    }

    // ------------------------------------------------------------------ receives

    void startRecv(RecvReq r) {
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.POST_RECV, r.source, r.tag, r.buf.bytes, -1, -1, -1, 0, 0, null);
        }
        if (r.source == Comm.PROC_NULL) {
            r.status.fill(Comm.PROC_NULL, Comm.ANY_TAG, 0, 0, r.buf.type.primitive().bytes(), r.buf.type.size());
            r.complete();
            return;
        }
        MatchQueue mq = queue(r.ctx);
        Unexpected u = mq.findUnexpected(r.source, r.tag, true);
        if (u == null) {
            mq.post(r);
            return;
        }
        if (u.kind == Packets.EAGER) {
            deliverEager(r, u.source, u.tag, u.data, BYTE_BASE, u.total);
        } else if (u.kind == Packets.EAGER_BULK) {
            BulkInbound bulk = fabric.bulkFrom(u.channel, u.source);
            deliverEager(r, u.source, u.tag, null, bulk.address(u.bulkStart), u.total);
            bulk.consumed(u.bulkStart, (int) u.total);
        } else {
            matchRts(r, u.channel, u.source, u.tag, u.sendId, u.total, u.srcSegOffset, u.rtsVisibleAt);
        }
        releaseUnexpected(u);
    }

    /** Finds, without receiving, the first unexpected message that (source, tag) accepts. */
    Unexpected probe(int ctx, int source, int tag) {
        return queue(ctx).findUnexpected(source, tag, false);
    }

    private void deliverEager(RecvReq r, int source, int tag, Object dataBase, long dataAddr, long n) {
        long accept = Math.min(n, r.buf.bytes);
        packer.unpack(dataBase, dataAddr, accept, r.buf.base, r.buf.addr, r.buf.type, r.buf.count, 0);
        finishRecv(r, source, tag, accept, n);
    }

    private void finishRecv(RecvReq r, int source, int tag, long accept, long sent) {
        finishRecv(r, source, tag, accept, sent, 0);
    }

    /** As above; a successful receive completes once the real clock reaches {@code at} (0: now). */
    private void finishRecv(RecvReq r, int source, int tag, long accept, long sent, long at) {
        if (tracer.enabled()) {
            tracer.event(org.hympj.shm.trace.Tracer.COMPLETE_RECV, source, tag, accept, r.channel, -1, -1, 0, 0, null);
        }
        r.status.fill(r.localOf[source], tag, accept, sent, r.buf.type.primitive().bytes(), r.buf.type.size());
        if (sent > accept) {
            r.fail(new TruncationException(r.status.copy(), r.buf.bytes));
        } else {
            completeAt(r, at);
        }
    }

    /** {@code rtsVis}: the real instant the RTS arrived (0 unless --sched rndv); the CTS leaves no earlier. */
    private void matchRts(RecvReq r, int channel, int source, int tag, int sendId, long total, long srcSegOff,
                         long rtsVis) {
        long accept = Math.min(total, r.buf.bytes);
        r.accept = accept;
        r.received = 0;
        r.matchedSource = source;
        r.matchedTag = tag;
        r.sentBytes = total;
        r.channel = channel;
        // under --sched rndv the CTS is a control put back to the sender, visible when it lands
        long ctsVis = handshakePuts && srcSegOff < 0 ? planControl(channel, source, rtsVis) : 0;
        if (accept == 0) {
            sendControl(channel, source, Packets.CTS, sendId, -1, 0, -1, ctsVis);
            finishRecv(r, source, tag, 0, total);
        } else if (srcSegOff >= 0) {
            // one copy straight out of the sender's segment, and no clear-to-send round trip
            packer.unpack(null, fabric.segmentAddress(source) + srcSegOff, accept,
                r.buf.base, r.buf.addr, r.buf.type, r.buf.count, 0);
            sendControl(channel, source, Packets.ACK, sendId, 0, 0, 0, 0);
            finishRecv(r, source, tag, accept, total);
        } else if (r.buf.segOffset >= 0) {
            r.recvId = rndvRecvs.add(r);
            sendControl(channel, source, Packets.CTS, sendId, r.recvId, accept, r.buf.segOffset, ctsVis);
        } else {
            r.recvId = rndvRecvs.add(r);
            sendControl(channel, source, Packets.CTS, sendId, r.recvId, accept, -1, ctsVis);
        }
    }

    private void finishRendezvousRecv(RecvReq r) {
        finishRendezvousRecv(r, 0);
    }

    private void finishRendezvousRecv(RecvReq r, long at) {
        rndvRecvs.release(r.recvId);
        r.recvId = -1;
        finishRecv(r, r.matchedSource, r.matchedTag, r.accept, r.sentBytes, at);
    }

    // ------------------------------------------------------------------ inbound packets

    @Override
    public Action onMessage(int type, MutableDirectBuffer buffer, int index, int length) {
        if (timing != null) {
            long vis = buffer.getLong(index);
            if (type == Packets.FIN) {
                // A put's completion notice is taken out of the ring at once and completes the
                // receive when its modelled time comes: left in the ring, it would hold up every
                // packet behind it (clear-to-sends of other transfers: false serialisation)
                onFin(buffer, index + Packets.B, buffer.getLong(index));
                return Action.CONTINUE;
            }
            // Streamed pieces of a rendezvous message likewise: copied in at once, the receive
            // completing at the latest piece's instant. Left in the ring until then, they held up
            // the clear-to-send of the opposite direction's message: both of a pair's messages ran
            // one after the other (a 3x3 SCALE-LES3 exchange took twice its schedule)
            if (vis != 0 && vis - now > 0 && type != Packets.FRAG && type != Packets.FRAG_BULK) {
                wakeAt = Math.min(wakeAt, vis); // not there yet in modelled time: leave it in the ring
                return Action.ABORT;
            }
        }
        final int src = currentSource;
        final int ch = currentChannel;
        final int p = index + Packets.B;
        switch (type) {
            case Packets.EAGER:
            case Packets.EAGER_BULK:
            case Packets.RTS: {
                int ctx = buffer.getInt(p);
                int tag = buffer.getInt(p + 4);
                int seq = buffer.getInt(p + 8);
                if (seq != recvSeq[src]) {
                    if (seq - recvSeq[src] > 0) {
                        // an earlier message from src is still on the other fabric: leave this one in its
                        // ring (no copy) until that one is matched — each ring is in order, so the
                        // expected packet heads one of them and this cannot deadlock
                        return Action.ABORT;
                    }
                    throw new MpjException("internal: packet from rank " + src + " with an old sequence number "
                        + seq + " (expected " + recvSeq[src] + ")");
                }
                recvSeq[src] = seq + 1;
                MatchQueue mq = queue(ctx);
                RecvReq r = mq.takePosted(src, tag);
                if (type == Packets.EAGER) {
                    long addr = buffer.addressOffset() + index + Packets.EAGER_HEADER;
                    int n = length - Packets.EAGER_HEADER;
                    if (r != null) {
                        deliverEager(r, src, tag, null, addr, n);
                    } else {
                        Unexpected u = newUnexpected(Packets.EAGER, ch, src, tag, n);
                        if (u.data.length < n) {
                            u.data = new byte[Math.max(n, inlineLimit)];
                        }
                        Packer.copy(null, addr, u.data, BYTE_BASE, n);
                        mq.addUnexpected(u);
                    }
                } else if (type == Packets.EAGER_BULK) {
                    int n = buffer.getInt(p + 12);
                    long start = buffer.getLong(p + 16);
                    BulkInbound bulk = fabric.bulkFrom(ch, src);
                    bulk.arrived(start, n);
                    if (r != null) {
                        deliverEager(r, src, tag, null, bulk.address(start), n);
                        bulk.consumed(start, n);
                    } else {
                        Unexpected u = newUnexpected(Packets.EAGER_BULK, ch, src, tag, n);
                        u.bulkStart = start; // the payload stays in the bulk region until matched
                        mq.addUnexpected(u);
                    }
                } else {
                    int sendId = buffer.getInt(p + 12);
                    long total = buffer.getLong(p + 16);
                    long srcSeg = buffer.getLong(p + 24);
                    long rtsVis = buffer.getLong(index);
                    if (r != null) {
                        matchRts(r, ch, src, tag, sendId, total, srcSeg, rtsVis);
                    } else {
                        Unexpected u = newUnexpected(Packets.RTS, ch, src, tag, total);
                        u.sendId = sendId;
                        u.srcSegOffset = srcSeg;
                        u.rtsVisibleAt = rtsVis;
                        mq.addUnexpected(u);
                    }
                }
                break;
            }
            case Packets.CTS: {
                SendReq s = rndvSends.get(buffer.getInt(p));
                int recvId = buffer.getInt(p + 4);
                long accept = buffer.getLong(p + 8);
                long dstSeg = buffer.getLong(p + 16);
                if (accept == 0) {
                    finishRendezvousSend(s);
                    break;
                }
                if (dstSeg >= 0 && dstSeg + accept > fabric.segmentBytes()) {
                    throw new MpjException("internal: CTS from rank " + src + " names segment bytes past its end");
                }
                s.recvId = recvId;
                s.partsDoneAt = 0;
                // under --sched rndv the CTS stayed in the ring until its control put arrived
                // (its vis): planning the data at the real clock now plans it at that arrival
                // a striped message: [0, split) over TCA, [split, accept) over IB
                long split = s.stripe ? routes.tcaPart(accept) : accept;
                int parts = s.stripe ? 2 : 1;
                s.partsLeft = parts; // partDone counts it down, possibly within this loop
                for (int part = 0; part < parts; part++) {
                    int channel = s.stripe ? part : s.channel;
                    long from = part == 0 ? 0 : split;
                    long to = part == 0 ? split : accept;
                    if (!s.preplanned) {
                        plan(s, channel, to - from, dstSeg >= 0);
                    }
                    if (dstSeg >= 0) {
                        // the put: straight into the receiver's segment, then its completion notice
                        packer.pack(s.buf.base, s.buf.addr, s.buf.type, s.buf.count, from,
                            null, fabric.segmentAddress(src) + dstSeg + from, to - from);
                        sendControl(channel, src, Packets.FIN, recvId, 0, to - from, 0, s.visibleAt);
                        partDone(s, s.senderDoneAt);
                    } else {
                        StreamCursor c = s.cursors[part];
                        c.channel = channel;
                        c.pos = from;
                        c.end = to;
                        c.visibleAt = s.visibleAt;
                        c.senderDoneAt = s.senderDoneAt;
                        pending[channel * size + src].addLast(c); // streamed by flushPending, in order
                        pendingCount++;
                    }
                }
                break;
            }
            case Packets.FRAG: {
                RecvReq r = rndvRecvs.get(buffer.getInt(p));
                long offset = buffer.getLong(p + 8);
                int n = length - Packets.FRAG_HEADER;
                packer.unpack(null, buffer.addressOffset() + index + Packets.FRAG_HEADER, n,
                    r.buf.base, r.buf.addr, r.buf.type, r.buf.count, offset);
                pieceArrived(r, n, buffer.getLong(index));
                break;
            }
            case Packets.FRAG_BULK: {
                RecvReq r = rndvRecvs.get(buffer.getInt(p));
                int n = buffer.getInt(p + 4);
                long offset = buffer.getLong(p + 8);
                long start = buffer.getLong(p + 16);
                BulkInbound bulk = fabric.bulkFrom(ch, src);
                bulk.arrived(start, n);
                packer.unpack(null, bulk.address(start), n, r.buf.base, r.buf.addr, r.buf.type, r.buf.count, offset);
                bulk.consumed(start, n);
                pieceArrived(r, n, buffer.getLong(index));
                break;
            }
            case Packets.FIN:
                onFin(buffer, p, 0);
                break;
            case Packets.ACK:
                finishRendezvousSend(rndvSends.get(buffer.getInt(p)));
                break;
            default:
                throw new MpjException("internal: unknown packet type " + type + " from rank " + src);
        }
        return Action.CONTINUE;
    }

    /**
     * {@code n} bytes of a rendezvous receive are in (a streamed piece, or a put's completion
     * notice): the receive completes with its last bytes, at the latest part's instant (0: now).
     */
    private void pieceArrived(RecvReq r, long n, long vis) {
        r.received += n;
        if (vis - r.visibleAt > 0) {
            r.visibleAt = vis;
        }
        if (r.received == r.accept) {
            long at = r.visibleAt;
            r.visibleAt = 0;
            finishRendezvousRecv(r, at);
        }
    }

    /** A put's completion notice. */
    private void onFin(MutableDirectBuffer buffer, int p, long vis) {
        pieceArrived(rndvRecvs.get(buffer.getInt(p)), buffer.getLong(p + 8), vis);
    }

    private Unexpected newUnexpected(int kind, int channel, int src, int tag, long total) {
        Unexpected u = freeUnexpected;
        if (u != null) {
            freeUnexpected = u.next;
            u.next = null;
        } else {
            u = new Unexpected();
        }
        u.kind = kind;
        u.channel = channel;
        u.source = src;
        u.tag = tag;
        u.total = total;
        return u;
    }

    private void releaseUnexpected(Unexpected u) {
        u.prev = null;
        u.next = freeUnexpected;
        freeUnexpected = u;
    }

    // ------------------------------------------------------------------ misc

    /** Throws if the job has been aborted. Cheap; called on entry to blocking calls. */
    void checkAbort() {
        idler.checkAbort();
    }

    void idleStep(int work) {
        idle(work);
    }

    void resetIdle() {
        idler.reset();
    }

    JobControl control() {
        return control;
    }

}
