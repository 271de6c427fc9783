package org.hympj.shm.pml;

import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.model.Fabric;
import org.hympj.model.JobFabric;
import org.hympj.router.RouteStatistics;
import org.hympj.router.RouteTable;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.shm.job.Cores;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.trace.Tracer;
import org.hympj.spi.Layout;

/**
 * The point-to-point engine of one rank (Open MPI's PML), as the communicators, requests and
 * collectives see it: a facade over parts with one job each. Single-threaded: everything runs
 * in the thread that calls the communicator, inside library calls; no thread runs in the
 * background.
 *
 * <ul>
 * <li>{@link Sends} numbers a send and decides its protocol; {@link EagerProtocol} and
 *     {@link RendezvousProtocol} move the bytes (the rendezvous picks the fewest copies the
 *     buffers allow: pull out of the sender's segment, put into the receiver's, or stream);
 * <li>{@link Inbound} reads the rings and dispatches each packet; {@link Matching} keeps
 *     MPI's matching and non-overtaking order;
 * <li>{@link OutboundQueues} holds what a full ring could not take, in order per pair;
 * <li>{@link Completions} completes requests, at once or at their modelled instant;
 *     {@link Progress} runs the passes and the waits;
 * <li>{@link ScheduledSets} starts persistent sets in RSched's order; {@link Routing} is the
 *     hybrid router (BML);
 * <li>{@link Pacing} is the timing model's say in all of it (nothing, natively), and
 *     {@link TraceEvents} the --trace journal's.
 * </ul>
 */
public final class Engine implements org.hympj.spi.ProgressEngine {
    private final ShmFabric fabric;
    private final JobControl control;
    private final int rank;
    private final int size;
    private final int eagerLimit;
    private final int inlineLimit;
    private final Idler idler;
    /** The timing model's view, or null (native, or fabrics forced without a model). */
    private final FabricTiming timing;
    private final TraceEvents events = new TraceEvents();
    private final Pacing pacing;
    private final Routing routing;
    private final OutboundQueues outbound;
    private final RendezvousProtocol rendezvous;
    private final Sends sends;
    private final Matching matching;
    private final Progress progress;
    private final ScheduledSets sets;
    private final DetachedRequests detached = new DetachedRequests();
    /** Non-blocking and persistent collectives under way: every progress pass advances them. */
    private final ActiveSchedules schedules = new ActiveSchedules();
    /** A job on several hosts: small allreduces of the world go host by host ({@code --coll allreduce=hier}). */
    private final boolean hierarchicalAllreduce;
    private final JobFabric jobFabric;
    private final CommHints defaultHints;

    public Engine(ShmFabric fabric, JobConfig config, JobFabric jobFabric, JobControl control, boolean launched,
                  FabricTiming timing) {
        this.fabric = fabric;
        this.control = control;
        this.rank = fabric.rank();
        this.size = fabric.size();
        this.eagerLimit = config.eagerLimit;
        this.inlineLimit = config.inlineLimit;
        this.hierarchicalAllreduce = CollectiveChoice.hierarchicalAllreduce(config);
        this.timing = timing;
        this.jobFabric = jobFabric;
        this.defaultHints = CommHints.of(jobFabric);
        int sharing = Cores.sharing(fabric.localCount());
        this.idler = new Idler(config, control, rank, launched, sharing);
        idler.onPeersExited(this::failReceivesFromExited);
        this.pacing = timing == null ? Pacing.NATIVE : timing.virtual()
            ? VirtualPacing.of(timing, events, fabric.channels(), size, virtualOrder(fabric, timing))
            : ModelPacing.of(timing, events);
        this.routing = new Routing(jobFabric.routes(), rank, fabric.channels(), pacing.modelled(), events, fabric);
        this.outbound = new OutboundQueues(fabric);
        Completions completions = new Completions(pacing, events);
        Packer packer = new Packer();
        boolean sharesCores = Idler.sharesCores(config, sharing);
        this.rendezvous = new RendezvousProtocol(fabric, packer, outbound, completions, pacing, config.bulkBytes,
            !sharesCores);
        EagerProtocol eager = new EagerProtocol(fabric, packer, outbound, completions, rendezvous, pacing,
            config.inlineLimit, idler, !sharesCores);
        this.sends = new Sends(fabric, outbound, eager, rendezvous, pacing, routing, events, config.inlineLimit,
            eagerLimit, sharesCores);
        this.matching = new Matching(fabric, eager, rendezvous, pacing, events, config.inlineLimit, config.bulkBytes);
        Inbound inbound = new Inbound(fabric, pacing, matching, rendezvous, completions);
        rendezvous.packetsTo(inbound);
        this.progress = new Progress(inbound, rendezvous, outbound, completions, pacing, idler, events, detached,
            schedules);
        pacing.attach(progress);
        this.sets = new ScheduledSets(config, jobFabric, pacing.modelled(), events, rank);
    }

    /** Virtual time's booking order over the job's floors, published by the rank's clock. */
    private static org.hympj.shm.emu.VirtualOrder virtualOrder(ShmFabric fabric, FabricTiming timing) {
        org.hympj.shm.emu.VirtualOrder order = new org.hympj.shm.emu.VirtualOrder(fabric.virtualFloors(), fabric.rank(),
            fabric.size(), fabric.inboundRingsOfAll(), Packets.VISIBLE_AT_OFFSET);
        timing.clock().order(order);
        order.publish(timing.clock().now());
        return order;
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

    /** This rank's parks so far ({@link Idler#parks}; -1: its idle strategy does not count them). */
    long parks() {
        return idler.parks();
    }

    /** Times a stream in shared memory found the packet ring too full for its next piece or notice (the warm-up's report). */
    long streamStalls() {
        return rendezvous.streamStalls();
    }

    /** Messages up to this many bytes to a rank of this host go inside their ring record. */
    int inlineLimit() {
        return inlineLimit;
    }

    /** True when small allreduces of the world communicator of a job on several hosts go host by host. */
    boolean hierarchicalAllreduce() {
        return hierarchicalAllreduce;
    }

    /** The lowest context id this rank has not used; communicators agree on the max over their members. */
    int nextContext() {
        return matching.nextContext();
    }

    /** Marks context ids below {@code next} as used. */
    void reserveContexts(int next) {
        matching.reserveContexts(next);
    }

    // ------------------------------------------------------------------ routes

    /** The --trace events (the one-sided engine records its own through them on virtual time). */
    TraceEvents events() {
        return events;
    }

    /** Records events in {@code t} from now on (the --trace journal; null: stop). */
    public void trace(Tracer t) {
        events.use(t);
    }

    /** Route decisions so far (per fabric and layout: messages, bytes). */
    public RouteStatistics routeStatistics() {
        return routing.statistics();
    }

    /** The hybrid router's table, or null when routing is not hybrid. */
    public RouteTable routeTable() {
        return routing.table();
    }

    /**
     * The channel for a message of {@code bytes} in {@code layout} to {@code dest}: the hybrid
     * router's choice, or the forced route, or the one native channel.
     */
    int channelFor(org.hympj.router.RouteChoice routes, int dest, long bytes, Layout layout, String op) {
        return routing.channelFor(routes, dest, bytes, layout, op);
    }

    /**
     * The channel a message to {@code dest} (a world rank) takes without the router's table:
     * natively the one channel; emulating, the forced route.
     *
     * @throws IllegalArgumentException for a TCA route to a rank outside this rank's subcluster
     */
    int channelFor(org.hympj.router.RouteChoice routes, int dest, String op) {
        return routing.channelFor(routes, dest, op);
    }

    /** Traced, records the route decided for {@code s} (its channel, and why: router, forced route, native). */
    void traceRoute(SendReq s) {
        routing.trace(s);
    }

    /** True when the hybrid router stripes this message over both fabrics. */
    boolean stripeFor(org.hympj.router.RouteChoice routes, int dest, long bytes, Layout layout) {
        return routing.stripeFor(routes, dest, bytes, layout);
    }

    /** The hints of a communicator without any: the job's --sched and --route. */
    CommHints defaultHints() {
        return defaultHints;
    }

    /** The job's fabric: the model and every decision on it (communicators' hints are built on it). */
    JobFabric jobFabric() {
        return jobFabric;
    }

    static Fabric fabricOf(int channel) {
        return JobFabric.fabricOf(channel);
    }

    /** A persistent send over TCA keeps its descriptors on this rank's DMACs (register mode holds 16 each). */
    void registerPersistent(SendReq s) {
        pacing.registerPersistent(s);
    }

    /** A registered send is freed: its descriptors no longer count against the DMACs' modes. */
    void releasePersistent(SendReq s) {
        pacing.releasePersistent(s);
    }

    // ------------------------------------------------------------------ progress and waits

    /** The collective schedules running on this rank (non-blocking and persistent collectives). */
    ActiveSchedules schedules() {
        return schedules;
    }

    @Override
    public int progress() {
        return progress.progress();
    }

    /** Makes {@code e}'s rounds part of every progress pass (the one-sided engine on virtual time). */
    void drive(DrivenEngine e) {
        progress.drive(e);
    }

    /** Blocks until {@code r}'s transfer is done. */
    void await(Req r) {
        progress.await(r);
    }

    // The request-set calls are library calls of the user's: on virtual time each is a boundary
    // of the rank's computation (enterCall / exitCall).

    @Override
    public void waitAll(Request[] requests) {
        enterCall();
        try {
            progress.awaitAll(requests);
            sets.endTogether();
            Progress.consumeAll(requests);
        } finally {
            exitCall();
        }
    }

    @Override
    public boolean testAll(Request[] requests) {
        enterCall();
        try {
            return progress.testAll(requests);
        } finally {
            exitCall();
        }
    }

    @Override
    public int waitAny(Request[] requests) {
        enterCall();
        try {
            return progress.waitAny(requests);
        } finally {
            exitCall();
        }
    }

    @Override
    public int testAny(Request[] requests) {
        enterCall();
        try {
            return progress.testAny(requests);
        } finally {
            exitCall();
        }
    }

    @Override
    public void startAll(PersistentRequest[] requests) {
        enterCall();
        try {
            sets.startAll(requests);
        } finally {
            exitCall();
        }
    }

    /** A completion is observed (wait, test): on virtual time the rank's clock moves to it. */
    void observe(Req r) {
        pacing.observed(r);
    }

    /** The rank's virtual clock, or null (native, wall clock). */
    public org.hympj.shm.emu.VirtualClock clock() {
        return timing == null ? null : timing.clock();
    }

    /** Entering a library call: on virtual time the computation since the last one counts. */
    void enterCall() {
        pacing.enterCall();
    }

    void exitCall() {
        pacing.exitCall();
    }

    /**
     * A job on several hosts: who tells the other hosts when this rank first sees its host abort
     * naming a failed rank (before it throws RankFailedException).
     */
    public void onFailure(Idler.FailureRelay relay) {
        idler.onFailure(relay);
    }

    /** The schedule of the last Startall's set (null if it was not scheduled). */
    public org.hympj.rsched.Schedule lastSchedule() {
        return sets.lastSchedule();
    }

    /**
     * Large packets between hosts may take the ranks' bulk sockets from now on (NetBulk). Called
     * after the JIT warm-up: its messages go over the network transport alone, which then has
     * its paths compiled (with its 2 KiB faces on the sockets the warm-up ran half as many rounds
     * and a program's first 8-byte trips between hosts took 1.5–3 times as long).
     */
    public void openNetPackets() {
        rendezvous.openNetPackets();
    }

    /** Installs the job-wide barrier used by the pseudo-collective mode. */
    public void barrier(Runnable b) {
        sets.barrier(b);
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
            for (int c = 0; exited[p] && c < fabric.channels(); c++) {
                if (fabric.inbound(c, p).size() > 0) {
                    return;
                }
            }
        }
        matching.failPostedFrom(exited, allExited, last);
    }

    /**
     * Cancels a receive that has not matched a message: it leaves its queue and completes at once,
     * cancelled, with nothing received. One that matched already (its data on the way) goes on.
     */
    void cancelRecv(RecvReq r) {
        // anything already here matches first: a message that arrived is not lost to a cancel. One
        // pass may not reach it: a ring's read stops at the ring's end (a record after the wrap
        // waits for the next pass) and after a packet that completed a request. So passes until one
        // after the first finds nothing (at most 64: peers still sending do not hold the cancel up)
        for (int pass = 0; pass < 64 && !r.done; pass++) {
            if (progress() == 0 && pass > 0) {
                break;
            }
        }
        if (!r.done && matching.withdraw(r)) {
            r.status.cancelled(r.source == org.hympj.api.Comm.ANY_SOURCE ? r.source : r.localOf[r.source], r.tag);
            r.complete();
        }
    }

    /** Failure checks for polling calls that do not idle (test, iprobe). */
    void pollFailures() {
        progress.pollFailures();
    }

    /**
     * Progress until every pending outbound packet is written and every freed send delivered
     * (at finalize).
     */
    public void flush() {
        try {
            progress.flush();
        } finally {
            pacing.finished(); // virtual time: this rank books nothing more
        }
    }

    /** {@code r} was freed while active: its transfer goes on, owned by the engine. */
    void detach(Req r) {
        detached.add(r);
    }

    /** A detached request's transfer completed. */
    void detachedDone(Req r) {
        detached.completed(r);
    }

    // ------------------------------------------------------------------ sends and receives

    void startSend(SendReq s) {
        sends.start(s);
    }

    /** Writes what the send can write now; true when it has nothing more to write. */
    boolean emitSend(SendReq s) {
        return sends.emit(s);
    }

    /** Streams one part of a rendezvous message; true when it is all written. */
    boolean emitStream(StreamCursor c) {
        return rendezvous.emitStream(c);
    }

    boolean writeControl(int channel, int dest, int type, int a, int b, long c, long d, long vis) {
        return outbound.writeControl(channel, dest, type, a, b, c, d, vis);
    }

    void releaseControl(Control k) {
        outbound.releaseControl(k);
    }

    void startRecv(RecvReq r) {
        matching.startRecv(r);
    }

    /** Finds, without receiving, the first unexpected message that (source, tag) accepts. */
    Unexpected probe(int ctx, int source, int tag) {
        return matching.probe(ctx, source, tag);
    }

    // ------------------------------------------------------------------ misc

    /** Throws if the job has been aborted. Cheap; called on entry to blocking calls. */
    void checkAbort() {
        idler.checkAbort();
    }

    void idleStep(int work) {
        progress.idle(work);
    }

    void resetIdle() {
        idler.reset();
    }

    JobControl control() {
        return control;
    }
}
