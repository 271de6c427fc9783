package org.hympj.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hympj.model.ArrayTimelines;
import org.hympj.model.DescriptorCache;
import org.hympj.model.Fabric;
import org.hympj.model.JobFabric;
import org.hympj.model.ModelParams;
import org.hympj.model.NetTopology;
import org.hympj.model.OneSidedTiming;
import org.hympj.model.Plan;
import org.hympj.model.TimingModel;
import org.hympj.model.Transfer;
import org.hympj.router.RouteChoice;
import org.hympj.rsched.MachineModel;
import org.hympj.rsched.Put;
import org.hympj.rsched.Scheduler;
import org.hympj.rsched.StartOrder;

/**
 * The virtual-time simulator: P rank programs ({@link Script}) run as discrete events against
 * the emulator's own timing model — the {@link TimingModel}, {@link NetTopology} and
 * {@link DescriptorCache} built by {@link JobFabric} (the emulator's own), reserving on
 * {@link ArrayTimelines} — with the point-to-point protocol of {@code org.hympj.shm.pml.Engine}:
 * the hybrid router's fabric per message (decided at init for persistent requests), eager
 * messages planned when started, rendezvous messages planned when the receiver's clear-to-send
 * reaches the sender (RTS and CTS cost no modelled time, as in the emulator; under
 * {@code --sched rndv} each is a control put, as {@code FabricTiming.planControl}), packets read in
 * ring order and in per-pair sequence order, persistent TCA sends in descriptor register /
 * internal / host mode by this rank's chain length, RSched's order and engines for
 * {@code startAll} under {@code --sched}. Ranks cost no time between calls (the emulator's real
 * overhead divided by its time dilation is taken as zero) except {@code compute(t)}.
 *
 * <p>The event loop is allocation-free: requests, messages and events live in primitive
 * arrays (grown by doubling while a run warms up), the event queue is a binary heap of
 * (time, acting rank, sequence) keys: events at one instant go in rank order, as the emulator books them.
 */
public final class Sim {
    // event kinds
    private static final int EV_RESUME = 0;
    private static final int EV_DELIVER = 1;
    private static final int EV_CTS = 2;
    private static final int EV_FIN = 3;
    private static final int EV_SEND_DONE = 4;
    private static final int EV_PUT_ARRIVE = 5;
    /** --p2p onesided: a receive's address write is booked (id: the receive). */
    private static final int EV_OS_ADDRESS = 6;
    /** --p2p onesided: a receive's address lands at its sender (id: the receive). */
    private static final int EV_OS_LAND = 7;
    /** --p2p onesided: a send's put is booked (id: the send). */
    private static final int EV_OS_PUT = 8;

    // rank states
    private static final int RUNNING = 0;
    private static final int WAIT_REQ = 1;
    private static final int WAIT_SET = 2;
    private static final int SLEEP = 3;
    private static final int POLL = 4;
    private static final int DONE = 5;

    // message kinds
    private static final int M_EAGER = 0;
    private static final int M_RTS = 1;

    static final int PROC_NULL = -1;

    final SimConfig config;
    final int np;
    final TimingModel model;
    final NetTopology topo;
    final ArrayTimelines timelines;
    private final long eagerLimit;
    /** The job's fabric decisions: the same object the emulator's engine asks (route, RSched, handshake). */
    private final JobFabric fabric;
    private final RouteChoice routes;
    private final Scheduler scheduler;
    /** --sched rndv: RTS and CTS are planned as control puts (Engine.toRendezvous, Engine.matchRts). */
    private final boolean handshakePuts;
    private final MachineModel machine;
    private final DescriptorCache[] caches;
    private final Transfer transfer = new Transfer();
    private final Plan plan = new Plan();
    private final int[] path;
    private final int[] persistentTca;
    private final double tcaLinkBw;
    private final double ibLinkBw;

    // shapes
    final List<Shape> shapes = new ArrayList<>();

    // requests
    private int nreq;
    private int[] rOwner = new int[64];
    private int[] rPeer = new int[64];
    private int[] rTag = new int[64];
    private int[] rShape = new int[64];
    private boolean[] rSend = new boolean[64];
    private boolean[] rSeg = new boolean[64];
    private boolean[] rPersistent = new boolean[64];
    private int[] rChannel = new int[64];
    private boolean[] rStripe = new boolean[64];
    private int[] rEngineHint = new int[64];
    private boolean[] rDone = new boolean[64];
    private long[] rDoneAt = new long[64];
    private int[] rNext = new int[64];
    private long[] rSeqPlannedAt = new long[64];
    /** When each request last started, in the order of its rank's starts (ties of its data at one instant). */
    private long[] rStartOrder = new long[64];
    private long starts;
    // --p2p onesided (OneSidedTiming's rule, as the emulator's OsEngine on virtual time)
    /** The rule, or null: point-to-point is two-sided. */
    private final OneSidedTiming oneSided;
    /** Planned as persistent by the one-sided engine (sendInit, recvInit, blocking calls; not isend/irecv). */
    private boolean[] rOsPersistent = new boolean[64];
    /** When a one-sided request was started; a receive: when its address landed; a send: its receive. */
    private long[] rIssued = new long[64];
    private long[] rLanded = new long[64];
    private int[] rMatch = new int[64];
    /** Links of the one-sided lists (a receive is in one at a time: its pair's queue, then its sender's addresses). */
    private int[] rOsNext = new int[64];
    /** Per rank: its sends waiting for an address (issue order); the addresses landed there unmatched (landing order). */
    private final int[] osSendHead;
    private final int[] osSendTail;
    private final int[] osAddrHead;
    private final int[] osAddrTail;
    /** Per receiver and sender (made at first use): its addresses and the receives waiting to write theirs. */
    private final OsPair[][] osPairs;
    /** The one-sided engine plans with descriptor caches of its own (the emulator's OsEngine has its own FabricTiming). */
    private final DescriptorCache[] osCaches;

    /** A receiver's addresses to one sender: written in order, the head scheduled when the one before is written. */
    private static final class OsPair {
        final OneSidedTiming.Addresses addresses;
        int head = -1;
        int tail = -1;
        boolean scheduled;

        OsPair(OneSidedTiming.Addresses addresses) {
            this.addresses = addresses;
        }
    }

    // request sets (startAll / waitAll)
    final List<int[]> sets = new ArrayList<>();
    private final List<int[]> setSeq = new ArrayList<>();
    private int[] startCursor;
    /** startAll yields after each send (see {@link #startAll}); off: a rank starts its whole set at once. */
    public boolean interleave;

    // messages (a pool with a free list)
    private int[] mSrc = new int[64];
    private int[] mDst = new int[64];
    private int[] mTag = new int[64];
    private int[] mSend = new int[64];
    private int[] mRecv = new int[64];
    private int[] mKind = new int[64];
    /** A scheduled rendezvous put planned at its start (Engine: S3's persistent protocol): its plan. */
    private long[] mPlanVis = new long[64];
    private long[] mPlanDone = new long[64];
    private int[] mNext = new int[64];
    private int mCount;
    private int mFree = -1;

    // ordering: per (channel, src, dst) ring the last read instant; per (src, dst) the last message's
    private final long[] ringLast;
    private final long[] seqLast;

    // ranks
    final Script[] scripts;
    private final int[] state;
    private final int[] pc;
    private final int[] waitArg;
    private final long[] computeUntil;
    private final int[] loopLeft;
    private final int[] loopStart;
    private final int[] loopIter;
    private final long[] markAt;
    private final int[] postedHead;
    private final int[] postedTail;
    private final int[] unexpHead;
    private final int[] unexpTail;
    private final long[][] putDone;
    private final int[][] putArrived;
    private final int[][] putConsumed;
    private final long[] finishedAt;
    private int running;

    /**
     * Mean of an exponentially distributed delay (ns) added when a blocked rank wakes up and when a
     * rank reads a protocol packet (RTS, CTS): the scheduling noise of emulated ranks sharing few
     * cores (0: the ideal, deterministic machine). Seeded: runs are repeatable.
     */
    private double jitter;
    private final java.util.SplittableRandom rng = new java.util.SplittableRandom(8);

    /** Prints every planned transfer (debugging, {@code --print-plans}); null: off. */
    public java.io.PrintStream planLog;

    // statistics
    private final double[] busy;
    long events;
    long plans;
    long messages;
    long endTime;
    /** Per loop iteration: the slowest rank's span between its marks, the earliest start, the latest end (ns). */
    long[] iterMaxSpan = new long[0];
    long[] iterMinStart = new long[0];
    long[] iterMaxEnd = new long[0];
    long[] iterRank0 = new long[0];

    // event heap
    private long[] hTime = new long[1024];
    private long[] hSeq = new long[1024];
    private long[] hPay = new long[1024];
    private int hSize;
    private long seq;

    public Sim(SimConfig config) {
        this.config = config;
        this.np = config.np;
        if (np < 1) {
            throw new IllegalArgumentException("--np must be >= 1");
        }
        this.fabric = JobFabric.of(config.fabricOptions());
        if (fabric.model() == null) {
            throw new IllegalArgumentException("--model: the simulator needs a timing model (ha-pacs, tofu or a file), "
                + "not none");
        }
        this.model = fabric.model();
        this.topo = model.topology();
        this.timelines = new ArrayTimelines(topo.resources());
        this.eagerLimit = config.effectiveEagerLimit();
        ModelParams p = model.params();
        this.routes = fabric.routes();
        this.handshakePuts = fabric.handshakePuts();
        this.scheduler = fabric.scheduler();
        this.machine = fabric.machine();
        this.caches = new DescriptorCache[np];
        this.osCaches = new DescriptorCache[np];
        this.osPairs = new OsPair[np][];
        this.oneSided = config.p2p.equals("onesided") ? new OneSidedTiming(model) : null;
        this.osSendHead = new int[np];
        this.osSendTail = new int[np];
        this.osAddrHead = new int[np];
        this.osAddrTail = new int[np];
        Arrays.fill(osSendHead, -1);
        Arrays.fill(osSendTail, -1);
        Arrays.fill(osAddrHead, -1);
        Arrays.fill(osAddrTail, -1);
        this.path = new int[Math.max(4, topo.maxHops() + 2)];
        this.persistentTca = new int[np];
        this.tcaLinkBw = p.bytesPerNs("tca.link.bandwidth");
        this.ibLinkBw = model.hasIb() ? p.bytesPerNs("ib.link.bandwidth") : 1;
        long pairs = (long) np * np;
        if (pairs > (1L << 26)) {
            throw new IllegalArgumentException("--np " + np + ": at most 8192 ranks");
        }
        this.ringLast = new long[(int) (2 * pairs)];
        this.seqLast = new long[(int) pairs];
        this.scripts = new Script[np];
        for (int r = 0; r < np; r++) {
            scripts[r] = new Script(this, r);
        }
        this.state = new int[np];
        this.pc = new int[np];
        this.waitArg = new int[np];
        this.computeUntil = new long[np];
        this.loopLeft = new int[np];
        this.loopStart = new int[np];
        this.loopIter = new int[np];
        this.markAt = new long[np];
        this.postedHead = new int[np];
        this.postedTail = new int[np];
        this.unexpHead = new int[np];
        this.unexpTail = new int[np];
        this.putDone = new long[np][];
        this.putArrived = new int[np][];
        this.putConsumed = new int[np][];
        this.finishedAt = new long[np];
        this.startCursor = new int[np];
        this.busy = new double[topo.resources()];
        Arrays.fill(postedHead, -1);
        Arrays.fill(postedTail, -1);
        Arrays.fill(unexpHead, -1);
        Arrays.fill(unexpTail, -1);
    }

    public int size() {
        return np;
    }

    /** Sets the wake-up and packet-reading jitter (mean, ns; 0 = off). */
    public void jitter(double meanNs) {
        this.jitter = meanNs;
    }

    private long noise() {
        return jitter <= 0 ? 0 : (long) (-jitter * Math.log(1 - rng.nextDouble()));
    }

    public Script script(int rank) {
        return scripts[rank];
    }

    public TimingModel model() {
        return model;
    }

    // ------------------------------------------------------------------ building

    int shape(Shape s) {
        shapes.add(s);
        return shapes.size() - 1;
    }

    /** A request as {@code sendInit}/{@code recvInit} (persistent) or a blocking call's (also planned as persistent). */
    int newRequest(int owner, boolean send, int peer, int tag, int shape, boolean seg, boolean persistent,
                   boolean register) {
        if (nreq == rOwner.length) {
            growRequests();
        }
        int q = nreq++;
        rOwner[q] = owner;
        rSend[q] = send;
        rSeg[q] = seg;
        rPersistent[q] = register;   // planned as persistent only when registered by sendInit (Engine: s.registered)
        rOsPersistent[q] = persistent;
        rEngineHint[q] = -1;
        rDone[q] = true;
        rNext[q] = -1;
        bind(q, peer, tag, shape);
        if (send && register && rChannel[q] == 0 && peer != PROC_NULL) {
            persistentTca[owner]++;   // Engine.registerPersistent: descriptors on this rank's DMACs
        }
        return q;
    }

    /** Binds a request to a peer, tag and data (routing decided here, as ShmComm.bind does). */
    void bind(int q, int peer, int tag, int shape) {
        rPeer[q] = peer;
        rTag[q] = tag;
        rShape[q] = shape;
        if (rSend[q]) {
            Shape s = shapes.get(shape);
            rChannel[q] = routes.channel(rOwner[q], peer, s.bytes, s.layout, "send");
            rStripe[q] = routes.stripe(rOwner[q], peer, s.bytes, s.layout);
        }
    }

    public boolean isSend(int q) {
        return rSend[q];
    }

    int newSet(int[] reqs) {
        sets.add(reqs.clone());
        setSeq.add(null);
        return sets.size() - 1;
    }

    private void growRequests() {
        int n = rOwner.length * 2;
        rOwner = Arrays.copyOf(rOwner, n);
        rPeer = Arrays.copyOf(rPeer, n);
        rTag = Arrays.copyOf(rTag, n);
        rShape = Arrays.copyOf(rShape, n);
        rSend = Arrays.copyOf(rSend, n);
        rSeg = Arrays.copyOf(rSeg, n);
        rPersistent = Arrays.copyOf(rPersistent, n);
        rChannel = Arrays.copyOf(rChannel, n);
        rStripe = Arrays.copyOf(rStripe, n);
        rEngineHint = Arrays.copyOf(rEngineHint, n);
        rDone = Arrays.copyOf(rDone, n);
        rDoneAt = Arrays.copyOf(rDoneAt, n);
        rNext = Arrays.copyOf(rNext, n);
        rSeqPlannedAt = Arrays.copyOf(rSeqPlannedAt, n);
        rStartOrder = Arrays.copyOf(rStartOrder, n);
        rOsPersistent = Arrays.copyOf(rOsPersistent, n);
        rIssued = Arrays.copyOf(rIssued, n);
        rLanded = Arrays.copyOf(rLanded, n);
        rMatch = Arrays.copyOf(rMatch, n);
        rOsNext = Arrays.copyOf(rOsNext, n);
    }

    // ------------------------------------------------------------------ running

    /** Runs every rank's script to its end; returns the modelled end (ns). */
    public long run() {
        int iters = 0;
        for (Script s : scripts) {
            s.seal();
            iters = Math.max(iters, s.loopIterations);
        }
        iterMaxSpan = new long[iters];
        iterMinStart = new long[iters];
        iterMaxEnd = new long[iters];
        iterRank0 = new long[iters];
        Arrays.fill(iterMinStart, Long.MAX_VALUE);
        for (int r = 0; r < np; r++) {
            int tags = scripts[r].maxTag + 1;
            int handles = scripts[r].handles;
            putDone[r] = new long[handles];
            putArrived[r] = new int[Math.max(1, tags)];
            putConsumed[r] = new int[Math.max(1, tags)];
        }
        running = np;
        for (int r = 0; r < np; r++) {
            state[r] = SLEEP;
            push(0, EV_RESUME, r);
        }
        while (hSize > 0) {
            long t = hTime[0];
            long pay = hPay[0];
            pop();
            events++;
            int kind = (int) (pay >>> 32);
            int id = (int) pay;
            switch (kind) {
                case EV_RESUME:
                    if (state[id] == SLEEP) {
                        state[id] = RUNNING;
                        exec(id, t);
                    }
                    break;
                case EV_DELIVER:
                    deliver(id, t);
                    break;
                case EV_CTS:
                    cts(id, t);
                    break;
                case EV_FIN:
                    completeRecv(mRecv[id], t);
                    freeMsg(id);
                    break;
                case EV_SEND_DONE:
                    complete(id, t);
                    break;
                case EV_PUT_ARRIVE:
                    putArrive(id, t);
                    break;
                case EV_OS_ADDRESS:
                    osWriteAddress(id, t);
                    break;
                case EV_OS_LAND:
                    osAddressLanded(id, t);
                    break;
                case EV_OS_PUT:
                    osPut(id, t);
                    break;
                default:
                    throw new IllegalStateException("internal: event kind " + kind);
            }
        }
        if (running > 0) {
            StringBuilder b = new StringBuilder("deadlock: no event left, ranks still blocked:");
            int shown = 0;
            for (int r = 0; r < np && shown < 8; r++) {
                if (state[r] != DONE) {
                    b.append(" rank ").append(r).append(" (state ").append(state[r]).append(", op ")
                        .append(scripts[r].describe(pc[r])).append(')');
                    shown++;
                }
            }
            throw new IllegalStateException(b.toString());
        }
        return endTime;
    }

    /** Executes rank r's ops from its pc at time {@code now} until it blocks or ends. */
    private void exec(int r, long now) {
        Script s = scripts[r];
        int[] code = s.code;
        while (true) {
            int i = pc[r] * Script.W;
            int op = code[i];
            int a = code[i + 1];
            int b = code[i + 2];
            int c = code[i + 3];
            pc[r]++;
            switch (op) {
                case Script.OP_START:
                    start(a, now);
                    break;
                case Script.OP_STARTALL:
                    if (!startAll(r, a, now)) {
                        pc[r]--;
                        state[r] = SLEEP;
                        computeUntil[r] = 0;
                        push(now, EV_RESUME, r);
                        return;
                    }
                    break;
                case Script.OP_WAIT:
                    if (!rDone[a]) {
                        state[r] = WAIT_REQ;
                        waitArg[r] = a;
                        return;
                    }
                    break;
                case Script.OP_WAITALL:
                    if (!allDone(a)) {
                        state[r] = WAIT_SET;
                        waitArg[r] = a;
                        return;
                    }
                    break;
                case Script.OP_EXCHANGE: {
                    // a: dest, b: source, c: index into the script's exchange table (tag, shapes, requests)
                    int[] x = s.exchanges[c];
                    int sendReq = x[3];
                    int recvReq = x[4];
                    if (b != PROC_NULL) {
                        bind(recvReq, b, x[0], x[2]);
                        start(recvReq, now);
                    }
                    if (a != PROC_NULL) {
                        bind(sendReq, a, x[0], x[1]);
                        start(sendReq, now);
                    }
                    if (!rDone[sendReq] || !rDone[recvReq]) {
                        state[r] = WAIT_SET;
                        waitArg[r] = -2 - c;   // the exchange's two requests
                        return;
                    }
                    break;
                }
                case Script.OP_COMPUTE: {
                    long until = now + s.longs[a];
                    if (until > now) {
                        computeUntil[r] = until;
                        state[r] = SLEEP;
                        push(until, EV_RESUME, r);
                        return;
                    }
                    break;
                }
                case Script.OP_PUT:
                    put(r, a, b, c, now);
                    break;
                case Script.OP_POLL:
                    if (putArrived[r][a] <= putConsumed[r][a]) {
                        state[r] = POLL;
                        waitArg[r] = a;
                        return;
                    }
                    putConsumed[r][a]++;
                    break;
                case Script.OP_COMPLETE:
                    if (putDone[r][a] > now) {
                        state[r] = SLEEP;
                        computeUntil[r] = 0;
                        push(putDone[r][a], EV_RESUME, r);
                        return;
                    }
                    break;
                case Script.OP_LOOP:
                    loopLeft[r] = a;
                    loopStart[r] = pc[r];
                    loopIter[r] = 0;
                    if (a == 0) {
                        pc[r] = b;    // the op after the loop's end
                    }
                    break;
                case Script.OP_ENDLOOP:
                    loopIter[r]++;
                    if (--loopLeft[r] > 0) {
                        pc[r] = loopStart[r];
                    }
                    break;
                case Script.OP_MARK_START:
                    markAt[r] = now;
                    break;
                case Script.OP_MARK_END: {
                    int it = loopIter[r];
                    if (it < iterMaxSpan.length) {
                        iterMaxSpan[it] = Math.max(iterMaxSpan[it], now - markAt[r]);
                        iterMinStart[it] = Math.min(iterMinStart[it], markAt[r]);
                        iterMaxEnd[it] = Math.max(iterMaxEnd[it], now);
                        if (r == 0) {
                            iterRank0[it] = now - markAt[r];
                        }
                    }
                    break;
                }
                case Script.OP_END:
                    state[r] = DONE;
                    finishedAt[r] = now;
                    endTime = Math.max(endTime, now);
                    running--;
                    pc[r]--;
                    return;
                default:
                    throw new IllegalStateException("internal: op " + op);
            }
        }
    }

    private boolean allDone(int set) {
        int[] reqs = sets.get(set);
        for (int q : reqs) {
            if (!rDone[q]) {
                return false;
            }
        }
        return true;
    }

    /** A request of rank r completed: resume r if that was what it waited for. */
    private void complete(int q, long t) {
        rDone[q] = true;
        rDoneAt[q] = t;
        int r = rOwner[q];
        boolean resume;
        switch (state[r]) {
            case WAIT_REQ:
                resume = waitArg[r] == q;
                break;
            case WAIT_SET: {
                int w = waitArg[r];
                if (w <= -2) {
                    int[] x = scripts[r].exchanges[-2 - w];
                    resume = rDone[x[3]] && rDone[x[4]];
                } else {
                    resume = allDone(w);
                }
                break;
            }
            default:
                resume = false;
        }
        if (resume) {
            wake(r, t);
        }
    }

    private void wake(int r, long t) {
        if (jitter > 0) {
            state[r] = SLEEP;
            computeUntil[r] = 0;
            push(t + noise(), EV_RESUME, r);
            return;
        }
        state[r] = RUNNING;
        exec(r, t);
    }

    /**
     * Starts a set's requests (in RSched's order under --sched); true when all are started. With
     * {@link #interleave}, a rank yields after each send to the other ranks starting at the same
     * instant (their puts then reach the timelines in turn, as 2 cores interleave 8 ranks' startAlls).
     */
    private boolean startAll(int r, int set, long now) {
        int[] seq = setSeq.get(set);
        if (seq == null) {
            seq = startSequence(r, sets.get(set));
            setSeq.set(set, seq);
        }
        int i = startCursor[r];
        while (i < seq.length) {
            int q = seq[i++];
            start(q, now);
            if (interleave && rSend[q] && i < seq.length) {
                startCursor[r] = i;
                return false;
            }
        }
        startCursor[r] = 0;
        return true;
    }

    /** Engine.startAll: in the given order; under --sched receives and IB sends first, then the TCA puts in schedule order. */
    private int[] startSequence(int r, int[] reqs) {
        if (scheduler == null) {
            return reqs;
        }
        int[] order = schedule(r, reqs);
        int[] seq = new int[reqs.length];
        int n = 0;
        for (int q : reqs) {
            if (!(rSend[q] && rChannel[q] == 0)) {
                seq[n++] = q;
            }
        }
        for (int q : order) {
            seq[n++] = q;
        }
        for (int q : reqs) {
            if (rSend[q] && rChannel[q] == 0 && rPeer[q] == PROC_NULL) {
                seq[n++] = q;
            }
        }
        return seq;
    }

    /** RSched's start order of the set's TCA sends (as the engine's scheduled sets), once per set. */
    private int[] schedule(int r, int[] reqs) {
        List<Put> puts = new ArrayList<>();
        List<Integer> index = new ArrayList<>();
        for (int q : reqs) {
            if (rSend[q] && rChannel[q] == 0 && rPeer[q] != PROC_NULL) {
                puts.add(fabric.put(puts.size(), r, rPeer[q], shapes.get(rShape[q]).bytes));
                index.add(q);
            }
        }
        int[] order = new int[puts.size()];
        if (!puts.isEmpty()) {
            StartOrder so = StartOrder.of(scheduler, machine, puts);
            for (int k = 0; k < order.length; k++) {
                int q = index.get(so.put(k));
                rEngineHint[q] = so.sendEngine(k);
                order[k] = q;
            }
        }
        return order;
    }

    // ------------------------------------------------------------------ point-to-point

    private void start(int q, long now) {
        rDone[q] = false;
        rStartOrder[q] = ++starts;
        if (oneSided != null && rTag[q] < Script.TAG_BARRIER && rPeer[q] != PROC_NULL) {
            osStart(q, now);   // the user's point-to-point; collectives stay two-sided
            return;
        }
        if (rSend[q]) {
            startSend(q, now);
        } else {
            startRecv(q, now);
        }
    }

    private void startSend(int q, long now) {
        int src = rOwner[q];
        int dst = rPeer[q];
        if (dst == PROC_NULL) {
            rDone[q] = true;
            rDoneAt[q] = now;
            return;
        }
        messages++;
        Shape s = shapes.get(rShape[q]);
        int m = newMsg();
        mSrc[m] = src;
        mDst[m] = dst;
        mTag[m] = rTag[q];
        mSend[m] = q;
        mRecv[m] = -1;
        int ch = rChannel[q];
        if (s.bytes <= eagerLimit && !rStripe[q]) {
            mKind[m] = M_EAGER;
            plan(q, ch, s.bytes, false, now);
            long vis = plan.visibleAt;
            long done = plan.senderDone;
            sendDoneAt(q, done, now);
            push(ordered(ch, src, dst, Math.max(now, vis), true), EV_DELIVER, m);
        } else {
            mKind[m] = M_RTS;
            mPlanVis[m] = -1;
            if (ch == 0 && rEngineHint[q] >= 0 && !rStripe[q]) {
                // scheduled: the put runs from its start in schedule order, the handshake carrying
                // only the real data (S3's persistent protocol, as Engine#startSend plans it)
                plan(q, ch, s.bytes, true, now);
                mPlanVis[m] = plan.visibleAt;
                mPlanDone[m] = plan.senderDone;
            }
            long at = handshakePuts ? Math.max(now, planControl(ch, src, dst, now)) : now;
            push(ordered(ch, src, dst, at, true) + noise(), EV_DELIVER, m);
        }
    }

    private void sendDoneAt(int q, long done, long now) {
        if (done <= now) {
            rDone[q] = true;
            rDoneAt[q] = now;
        } else {
            push(done, EV_SEND_DONE, q);
        }
    }

    /** The instant a packet written at {@code t} on a ring (channel, src → dst) is read: in ring (and message) order. */
    private long ordered(int ch, int src, int dst, long t, boolean message) {
        int pair = src * np + dst;
        int k = ch * np * np + pair;
        long at = Math.max(t, ringLast[k]);
        if (message) {
            at = Math.max(at, seqLast[pair]);
            seqLast[pair] = at;
        }
        ringLast[k] = at;
        return at;
    }

    /**
     * A put's completion notice (FIN), written at {@code t}: the receiver takes it out of the ring in
     * ring order but at once, without waiting for its visibility instant, so it holds up no packet
     * behind it (Engine.onMessage: FINs are not left in the ring); the receive completes at the
     * later of reading it and the data's visibility.
     */
    private long finAt(int ch, int src, int dst, long t, long visibleAt) {
        int k = ch * np * np + src * np + dst;
        long read = Math.max(t, ringLast[k]);
        ringLast[k] = read;
        return Math.max(read, visibleAt);
    }

    private void startRecv(int q, long now) {
        int r = rOwner[q];
        int source = rPeer[q];
        if (source == PROC_NULL) {
            rDone[q] = true;
            rDoneAt[q] = now;
            return;
        }
        // the first unexpected message from source with the tag
        int prev = -1;
        for (int m = unexpHead[r]; m >= 0; prev = m, m = mNext[m]) {
            if (mSrc[m] == source && mTag[m] == rTag[q]) {
                int next = mNext[m];
                if (prev < 0) {
                    unexpHead[r] = next;
                } else {
                    mNext[prev] = next;
                }
                if (unexpTail[r] == m) {
                    unexpTail[r] = prev;
                }
                mRecv[m] = q;
                if (mKind[m] == M_EAGER) {
                    rDone[q] = true;
                    rDoneAt[q] = now;
                    freeMsg(m);
                } else {
                    matchRts(m, now);
                }
                return;
            }
        }
        rNext[q] = -1;
        if (postedTail[r] < 0) {
            postedHead[r] = q;
        } else {
            rNext[postedTail[r]] = q;
        }
        postedTail[r] = q;
    }

    /** A message (eager data or RTS) is read by its receiver at t. */
    private void deliver(int m, long t) {
        int r = mDst[m];
        if (mKind[m] == M_RTS && computeUntil[r] > t && state[r] == SLEEP) {
            push(computeUntil[r], EV_DELIVER, m);  // read when the rank next makes progress
            return;
        }
        int prev = -1;
        for (int q = postedHead[r]; q >= 0; prev = q, q = rNext[q]) {
            if (rPeer[q] == mSrc[m] && rTag[q] == mTag[m]) {
                int next = rNext[q];
                if (prev < 0) {
                    postedHead[r] = next;
                } else {
                    rNext[prev] = next;
                }
                if (postedTail[r] == q) {
                    postedTail[r] = prev;
                }
                mRecv[m] = q;
                if (mKind[m] == M_EAGER) {
                    freeMsg(m);
                    completeRecv(q, t);
                } else {
                    matchRts(m, t);
                }
                return;
            }
        }
        mNext[m] = -1;
        if (unexpTail[r] < 0) {
            unexpHead[r] = m;
        } else {
            mNext[unexpTail[r]] = m;
        }
        unexpTail[r] = m;
    }

    private void completeRecv(int q, long t) {
        complete(q, t);
    }

    /**
     * The receiver answers an RTS (read at t, no earlier than it arrived) with a clear-to-send, in
     * ring order back to the sender: at once, or under --sched rndv when its control put lands.
     */
    private void matchRts(int m, long t) {
        int q = mSend[m];
        long at = handshakePuts ? Math.max(t, planControl(rChannel[q], mDst[m], mSrc[m], t)) : t;
        push(ordered(rChannel[q], mDst[m], mSrc[m], at, false) + noise(), EV_CTS, m);
    }

    /** A 64-byte control put (as the emulator's FabricTiming.planControl) from src to dst issued at now; returns its arrival. */
    private long planControl(int channel, int src, int dst, long now) {
        Transfer t = transfer.setControl(channel == 0 ? Fabric.TCA : Fabric.IB, src, dst);
        model.plan(t, now, timelines, null, path, plan);
        account(t, channel, Transfer.CONTROL_BYTES);
        if (planLog != null) {
            planLog.printf(java.util.Locale.ROOT, "plan r%d ->%d control %d B at %.2f: engine %d start %.2f end %.2f "
                    + "visible %.2f %s%n", src, dst, Transfer.CONTROL_BYTES, now / 1000.0, plan.engine,
                plan.start / 1000.0, plan.senderDone / 1000.0, plan.visibleAt / 1000.0, plan.protocol);
        }
        return plan.visibleAt;
    }

    /** The sender reads the CTS at t: the data moves now (both parts when striped), then the FIN. */
    private void cts(int m, long t) {
        int q = mSend[m];
        int src = mSrc[m];
        if (computeUntil[src] > t && state[src] == SLEEP) {
            push(computeUntil[src], EV_CTS, m);
            return;
        }
        int recv = mRecv[m];
        long total = shapes.get(rShape[q]).bytes;
        long accept = Math.min(total, shapes.get(rShape[recv]).bytes);
        boolean dstSeg = rSeg[recv];
        long done = 0;
        long fin = 0;
        if (rStripe[q]) {
            long split = routes.tcaPart(accept);
            for (int part = 0; part < 2; part++) {
                long bytes = part == 0 ? split : accept - split;
                plan(q, part, bytes, dstSeg, t);
                done = Math.max(done, plan.senderDone);
                fin = Math.max(fin, finAt(part, src, mDst[m], t, plan.visibleAt));
            }
        } else if (mPlanVis[m] >= 0) {
            done = mPlanDone[m];
            fin = finAt(rChannel[q], src, mDst[m], t, mPlanVis[m]);
        } else {
            plan(q, rChannel[q], accept, dstSeg, t);
            done = plan.senderDone;
            fin = finAt(rChannel[q], src, mDst[m], t, plan.visibleAt);
        }
        sendDoneAt(q, done, t);
        push(fin, EV_FIN, m);
    }

    /** FabricTiming.plan: the message as a Transfer, planned on the shared timelines at modelled time {@code now}. */
    private void plan(int q, int channel, long bytes, boolean dstInSegment, long now) {
        int src = rOwner[q];
        int dst = rPeer[q];
        Shape s = shapes.get(rShape[q]);
        Transfer t = transfer.setMessage(channel == 0 ? Fabric.TCA : Fabric.IB, src, dst, bytes, s.layout, s.blocks,
            s.elements, s.typeKey, rSeg[q], dstInSegment, rPersistent[q], persistentTca[src], topo.engines(),
            rEngineHint[q], rEngineHint[q]);
        model.plan(t, now, timelines, cache(src), path, plan);
        account(t, channel, bytes);
        if (planLog != null) {
            planLog.printf(java.util.Locale.ROOT, "plan r%d ->%d tag %d %d B at %.2f: engine %d start %.2f end %.2f "
                    + "visible %.2f %s%n", src, dst, rTag[q], bytes, now / 1000.0, plan.engine, plan.start / 1000.0,
                plan.senderDone / 1000.0, plan.visibleAt / 1000.0, plan.protocol);
        }
    }

    private DescriptorCache cache(int rank) {
        return cacheIn(caches, rank);
    }

    /** The rank's descriptor cache in {@code caches} (the two-sided or the one-sided engine's), made at first use. */
    private DescriptorCache cacheIn(DescriptorCache[] caches, int rank) {
        DescriptorCache c = caches[rank];
        if (c == null) {
            c = fabric.newDescriptorCache();
            caches[rank] = c;
        }
        return c;
    }

    /** Utilisation: the engine the plan used is busy from its start to the sender's end; links carry bytes / bandwidth. */
    private void account(Transfer t, int channel, long bytes) {
        plans++;
        if (plan.engine >= 0) {
            busy[plan.engine] += plan.senderDone - plan.start;
        }
        if (channel == 0) {
            if (plan.engine >= 0) {
                int n = topo.path(t.src, t.dst, path);
                double d = bytes / tcaLinkBw;
                for (int i = 0; i < n; i++) {
                    busy[path[i]] += d;
                }
            }
        } else {
            double d = bytes / ibLinkBw;
            busy[topo.ibUp(t.src)] += d;
            busy[topo.ibDown(t.dst)] += d;
        }
    }

    // ------------------------------------------------------------------ one-sided point-to-point (S2)

    /**
     * --p2p onesided (OneSidedTiming; the emulator's OsEngine on virtual time): a receive writes its
     * address to its sender — in order per pair, each when the one before is written — and a send
     * waits for a matching address, then puts its data.
     */
    private void osStart(int q, long now) {
        rIssued[q] = now;
        if (rSend[q]) {
            int r = rOwner[q];
            int a = osTakeAddress(r, rPeer[q], rTag[q]);
            if (a >= 0) {
                osMatched(q, a);
            } else {
                osAppend(osSendHead, osSendTail, r, q);
            }
        } else {
            OsPair pair = osPair(rOwner[q], rPeer[q]);
            rOsNext[q] = -1;
            if (pair.tail < 0) {
                pair.head = q;
            } else {
                rOsNext[pair.tail] = q;
            }
            pair.tail = q;
            osScheduleAddress(pair);
        }
    }

    private OsPair osPair(int receiver, int sender) {
        if (osPairs[receiver] == null) {
            osPairs[receiver] = new OsPair[np];
        }
        OsPair p = osPairs[receiver][sender];
        if (p == null) {
            p = new OsPair(oneSided.addresses());
            osPairs[receiver][sender] = p;
        }
        return p;
    }

    /** Schedules the booking of the pair's first waiting address, unless one is scheduled. */
    private void osScheduleAddress(OsPair pair) {
        if (!pair.scheduled && pair.head >= 0) {
            pair.scheduled = true;
            push(pair.addresses.nextAt(rIssued[pair.head]), EV_OS_ADDRESS, pair.head);
        }
    }

    /** Receive q's address write is booked at t (q heads its pair's queue). */
    private void osWriteAddress(int q, long t) {
        int r = rOwner[q];
        int sender = rPeer[q];
        OsPair pair = osPair(r, sender);
        pair.head = rOsNext[q];
        if (pair.head < 0) {
            pair.tail = -1;
        }
        pair.scheduled = false;
        Fabric f = OneSidedTiming.fabric(topo, r, sender);
        model.plan(OneSidedTiming.address(transfer, f, r, sender), t, timelines, cacheIn(osCaches, r), path, plan);
        account(transfer, f == Fabric.TCA ? 0 : 1, OneSidedTiming.ADDRESS_BYTES);
        pair.addresses.written(t, plan.visibleAt);
        rLanded[q] = plan.visibleAt;
        push(plan.visibleAt, EV_OS_LAND, q);
        osScheduleAddress(pair);
    }

    /** Receive q's address lands at its sender: the first waiting send it matches takes it. */
    private void osAddressLanded(int q, long t) {
        int sender = rPeer[q];
        int prev = -1;
        for (int s = osSendHead[sender]; s >= 0; prev = s, s = rOsNext[s]) {
            if (rPeer[s] == rOwner[q] && rTag[s] == rTag[q]) {
                osUnlink(osSendHead, osSendTail, sender, prev, s);
                osMatched(s, q);
                return;
            }
        }
        osAppend(osAddrHead, osAddrTail, sender, q);
    }

    /** Appends {@code q} to rank r's list (head[r], tail[r]) linked by rOsNext. */
    private void osAppend(int[] head, int[] tail, int r, int q) {
        rOsNext[q] = -1;
        if (tail[r] < 0) {
            head[r] = q;
        } else {
            rOsNext[tail[r]] = q;
        }
        tail[r] = q;
    }

    /** The first address landed at rank r from {@code receiver} with {@code tag}, unlinked, or -1. */
    private int osTakeAddress(int r, int receiver, int tag) {
        int prev = -1;
        for (int a = osAddrHead[r]; a >= 0; prev = a, a = rOsNext[a]) {
            if (rOwner[a] == receiver && rTag[a] == tag) {
                osUnlink(osAddrHead, osAddrTail, r, prev, a);
                return a;
            }
        }
        return -1;
    }

    private void osUnlink(int[] head, int[] tail, int r, int prev, int q) {
        if (prev < 0) {
            head[r] = rOsNext[q];
        } else {
            rOsNext[prev] = rOsNext[q];
        }
        if (tail[r] == q) {
            tail[r] = prev;
        }
    }

    /** Send s found receive a's address: its put is booked at the later of its issue and the address noticed. */
    private void osMatched(int s, int a) {
        rMatch[s] = a;
        push(oneSided.putAt(rIssued[s], rLanded[a]), EV_OS_PUT, s);
    }

    /** Send s's put is booked at t: the receive completes when its flag is noticed, the send when its end is. */
    private void osPut(int s, long t) {
        int a = rMatch[s];
        int src = rOwner[s];
        int dst = rPeer[s];
        Shape d = shapes.get(rShape[s]);
        long accept = Math.min(d.bytes, shapes.get(rShape[a]).bytes);
        Fabric f = OneSidedTiming.fabric(topo, src, dst);
        transfer.setMessage(f, src, dst, accept, d.layout, d.blocks, d.elements, d.typeKey, rSeg[s], true,
            rOsPersistent[s], 0, topo.engines(), -1, -1);
        model.plan(transfer, t, timelines, cacheIn(osCaches, src), path, plan);
        account(transfer, f == Fabric.TCA ? 0 : 1, accept);
        messages++;
        push(Math.max(rIssued[a], oneSided.noticed(plan.visibleAt)), EV_SEND_DONE, a);
        push(oneSided.noticed(plan.senderDone), EV_SEND_DONE, s);
    }

    // ------------------------------------------------------------------ MGEN puts

    /** rdma_put: a non-persistent TCA put (IB where TCA does not reach), no matching; arrives at its tag. */
    private void put(int r, int dest, int shape, int handleAndTag, long now) {
        int handle = handleAndTag >>> 16;
        int tag = handleAndTag & 0xffff;
        Shape s = shapes.get(shape);
        int ch = topo.tcaReaches(r, dest) ? 0 : 1;
        if (ch == 1 && !model.hasIb()) {
            throw new IllegalArgumentException("put from " + r + " to " + dest + ": TCA does not reach and the model "
                + "has no IB");
        }
        Transfer t = transfer;
        t.engineHint = -1;
        t.recvEngineHint = -1;
        t.set(ch == 0 ? Fabric.TCA : Fabric.IB, r, dest, s.bytes, s.layout, s.blocks, s.elements);
        t.mode = Transfer.Mode.MTOM;
        t.persistent = false;
        t.chainLength = 1;
        t.cacheKey = ((long) dest * 31 + s.bytes) * 31 + s.layout.ordinal() * 7L + s.typeKey;
        model.plan(t, now, timelines, cache(r), path, plan);
        account(t, ch, s.bytes);
        messages++;
        putDone[r][handle] = Math.max(plan.senderDone, plan.visibleAt);
        int m = newMsg();
        mSrc[m] = r;
        mDst[m] = dest;
        mTag[m] = tag;
        push(Math.max(now, plan.visibleAt), EV_PUT_ARRIVE, m);
    }

    private void putArrive(int m, long t) {
        int r = mDst[m];
        int tag = mTag[m];
        freeMsg(m);
        if (tag >= putArrived[r].length) {
            return;     // nobody polls this tag
        }
        putArrived[r][tag]++;
        if (state[r] == POLL && waitArg[r] == tag) {
            putConsumed[r][tag]++;
            wake(r, t);
        }
    }

    // ------------------------------------------------------------------ pools and heap

    private int newMsg() {
        int m = mFree;
        if (m >= 0) {
            mFree = mNext[m];
        } else {
            if (mCount == mSrc.length) {
                int n = mCount * 2;
                mSrc = Arrays.copyOf(mSrc, n);
                mDst = Arrays.copyOf(mDst, n);
                mTag = Arrays.copyOf(mTag, n);
                mSend = Arrays.copyOf(mSend, n);
                mRecv = Arrays.copyOf(mRecv, n);
                mKind = Arrays.copyOf(mKind, n);
                mPlanVis = Arrays.copyOf(mPlanVis, n);
                mPlanDone = Arrays.copyOf(mPlanDone, n);
                mNext = Arrays.copyOf(mNext, n);
            }
            m = mCount++;
        }
        mNext[m] = -1;
        return m;
    }

    private void freeMsg(int m) {
        mNext[m] = mFree;
        mFree = m;
    }

    private static final long SEQ_MASK = (1L << 43) - 1;

    /** The rank an event is handled by (whose bookings it may make). */
    private int actingRank(int kind, int id) {
        switch (kind) {
            case EV_RESUME:
                return id;
            case EV_CTS:
                return mSrc[id];        // the sender reads the clear-to-send and plans its data
            case EV_SEND_DONE:
            case EV_OS_ADDRESS:
            case EV_OS_PUT:
                return rOwner[id];
            case EV_OS_LAND:
                return rPeer[id];       // the address lands at its sender
            default:
                return mDst[id];        // deliveries, completion notices, arrivals: the receiver
        }
    }

    private void push(long time, int kind, int id) {
        if (hSize == hTime.length) {
            int n = hSize * 2;
            hTime = Arrays.copyOf(hTime, n);
            hSeq = Arrays.copyOf(hSeq, n);
            hPay = Arrays.copyOf(hPay, n);
        }
        // events at one instant: first those that only read packets, then those that may book
        // (a rank resuming, a sender reading its clear-to-send), each in the order of the rank
        // that acts on them, then as pushed — the emulator's rule (VirtualOrder: a packet stamped
        // with the instant holds every booking at it; equal bookings go in rank order)
        // (a rank's data released at one instant before its own resumption, in its sends' start
        // order, as the emulator's DeferredBookings; everything else as pushed)
        boolean books = kind == EV_RESUME || kind == EV_CTS || kind == EV_OS_ADDRESS || kind == EV_OS_PUT;
        long order = kind == EV_CTS ? rStartOrder[mSend[id]]
            : kind == EV_OS_ADDRESS || kind == EV_OS_PUT ? rStartOrder[id] : (1L << 42) | seq;
        seq++;
        long s = (books ? 1L << 62 : 0) | ((long) actingRank(kind, id) << 43) | (order & SEQ_MASK);
        long pay = ((long) kind << 32) | (id & 0xffffffffL);
        int i = hSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (hTime[parent] < time || (hTime[parent] == time && hSeq[parent] < s)) {
                break;
            }
            hTime[i] = hTime[parent];
            hSeq[i] = hSeq[parent];
            hPay[i] = hPay[parent];
            i = parent;
        }
        hTime[i] = time;
        hSeq[i] = s;
        hPay[i] = pay;
    }

    private void pop() {
        int n = --hSize;
        if (n == 0) {
            return;
        }
        long time = hTime[n];
        long s = hSeq[n];
        long pay = hPay[n];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && (hTime[c + 1] < hTime[c] || (hTime[c + 1] == hTime[c] && hSeq[c + 1] < hSeq[c]))) {
                c++;
            }
            if (time < hTime[c] || (time == hTime[c] && s < hSeq[c])) {
                break;
            }
            hTime[i] = hTime[c];
            hSeq[i] = hSeq[c];
            hPay[i] = hPay[c];
            i = c;
        }
        hTime[i] = time;
        hSeq[i] = s;
        hPay[i] = pay;
    }

    // ------------------------------------------------------------------ results

    /** Busy time (ns) the plans put on each resource (engines: start to sender done; links: bytes / bandwidth). */
    public double[] busy() {
        return busy;
    }

    /** The run's options. */
    public SimConfig config() {
        return config;
    }

    /** The modelled end of the run (ns): when the last rank finished. */
    public long endTime() {
        return endTime;
    }

    /** Per loop iteration: the slowest rank's span between its marks (ns). */
    public long[] iterMaxSpan() {
        return iterMaxSpan;
    }

    /** Per loop iteration: the earliest mark start over the ranks (ns). */
    public long[] iterMinStart() {
        return iterMinStart;
    }

    /** Per loop iteration: the latest mark end over the ranks (ns). */
    public long[] iterMaxEnd() {
        return iterMaxEnd;
    }

    /** Per loop iteration: rank 0's span between its marks (ns). */
    public long[] iterRank0() {
        return iterRank0;
    }

    public long events() {
        return events;
    }

    public long plans() {
        return plans;
    }

    public long messages() {
        return messages;
    }

    public long finishedAt(int rank) {
        return finishedAt[rank];
    }

    /** Utilisation summary lines: per resource class the mean and the busiest one, over the run's modelled end. */
    public List<String> utilisation() {
        List<String> out = new ArrayList<>();
        if (endTime <= 0) {
            return out;
        }
        int e = topo.engines();
        int re = topo.recvEngines();
        int links = (topo.ibHca(0) - topo.recvEngine(0, 0) - np * re) / Math.max(1, np);
        summary(out, "TCA send engines", 0, np * e);
        if (re > 0) {
            summary(out, "TCA receive engines", topo.recvEngine(0, 0), np * re);
        }
        summary(out, "TCA links", topo.recvEngine(0, 0) + np * re, np * links);
        if (model.hasIb()) {
            summary(out, "IB uplinks", topo.ibUp(0), np);
            summary(out, "IB downlinks", topo.ibDown(0), np);
        }
        return out;
    }

    private void summary(List<String> out, String what, int first, int n) {
        if (n <= 0) {
            return;
        }
        double sum = 0;
        double max = -1;
        int arg = 0;
        for (int i = 0; i < n; i++) {
            double b = busy[first + i];
            sum += b;
            if (b > max) {
                max = b;
                arg = i;
            }
        }
        out.add(String.format(java.util.Locale.ROOT, "%s: mean %.1f%%, busiest #%d %.1f%% (of %.3f us)", what,
            100 * sum / n / endTime, arg, 100 * max / endTime, endTime / 1000.0));
    }
}
