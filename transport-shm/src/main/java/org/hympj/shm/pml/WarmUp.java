package org.hympj.shm.pml;

import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.api.Datatype;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.shm.fabric.ShmFabric;
import org.hympj.shm.job.JobConfig;

/**
 * Runs a rank's hot paths on messages to its neighbours until the JIT has compiled them, before
 * the program's first call (issue 18). A JVM runs new code in its interpreter and compiles it
 * while it runs: without this, a program's first thousands of messages go at interpreter
 * speed, and with C2 (a core per rank) its compiler threads compete with the ranks for the
 * cores during the program's first second — a benchmark's warm-up of a few thousand
 * iterations ends before the paths are compiled, and a launch whose compilation lands in a
 * timed batch measures 3–6 times slower (docs/PERFORMANCE.md).
 *
 * <p>The messages go to real peers, the ring neighbours on the world communicator (to itself
 * in a job of one): a warm-up on messages to itself never waits, never takes a packet from
 * another rank's ring and never matches a receive posted before its message came, so the code
 * it compiled was thrown away ("made not entrant") at the program's first wait, and the program's
 * first batches paid 200–500 ms of recompilation per rank (measured with
 * {@code -XX:+PrintCompilation}, 8-byte ping-pong, session 7).
 *
 * <p>What runs: an 8-byte sendrecv and one of a few other small sizes ({@link #ODD_SIZES}),
 * blocking send and receive (even ranks send first, odd ones receive first: no cycle even at a
 * tiny eager limit), a persistent set of a contiguous, a block-strided and an element-strided
 * face (2 KiB each, the eager path with packing and unpacking), isend/irecv with waitAll (either
 * first), an empty probe, a barrier, a 32 KiB blocking pair (the bulk eager path, piped when every rank
 * has a core: at one in 25 C2 compiled it during a program's first 64 KB batches, 15–28 µs
 * against 8), and now and then a 64 KiB and a 1 MiB exchange (bulk eager, and rendezvous at the
 * default limits) and a 1 MiB send whose receive is posted after it came ({@link #lateRendezvous}),
 * the same from buffers in the
 * shared segment when it has room (the receiver's single copy out of the sender's segment:
 * without it a 64 KiB segment ping-pong recompiled for 40 ms in every other batch, 25 µs
 * against 2.6), given back to the segment afterwards; in a job on several hosts, the
 * shared-memory sizes again on a ring of each host's own ranks ({@link HostRing}) — on the world
 * communicator, tag {@link #TAG}, every message received before the program starts (nothing of it can
 * match a program's receive). It runs in rounds; after each, the ranks agree (an allreduce)
 * whether every JVM's total compilation time has stood still for {@link #QUIET_ROUNDS} rounds
 * or some rank has used {@code budgetNanos}, so all of them stop after the same round.
 */
public final class WarmUp {
    /** The tag of the warm-up's messages. */
    public static final int TAG = 32_767;
    /** Rounds without new compilation that end the warm-up. */
    static final int QUIET_ROUNDS = 3;
    private static final int PER_ROUND = 500;
    private static final int N = 16;
    /** A message the bulk region carries eagerly (the default eager limit is 256 KiB). */
    private static final int BULK = 64 * 1024;
    /**
     * Sizes below the small-copy limit other than 8, one per iteration in turn: empty, and ones that take
     * each loop and tail of {@code Packer.copySmall}. The rest of the warm-up copies 8 bytes or 128 and
     * more, C2 compiled the small copy as never taken, and a program's first 4-byte message (a
     * bandwidth test's acknowledgement, an int) threw away the compiled sends and matching that had
     * inlined it, 35–166 ms of C2 work each to redo on a shared core (JFR, session 22).
     */
    static final int[] ODD_SIZES = {0, 4, 16, 45};
    /** A message above the default eager limit: rendezvous. */
    static final int LARGE = 1024 * 1024;

    private WarmUp() {
    }

    /**
     * What a warm-up did: rounds run, nanoseconds spent, whether the JIT stood still, its time, the rank's
     * parks so far (-1: not counted) and its streams' stalls on a full packet ring ({@link WarmUpWaits#stalledStream};
     * -1: not run).
     */
    public record Result(int rounds, long nanos, boolean quiet, long compileMillis, long parks, long streamStalls) {
    }

    /** Runs the warm-up on {@code world}; every rank of it must call this (init does). */
    public static Result run(ShmComm world, long budgetNanos) {
        long t0 = System.nanoTime();
        int me = world.rank();
        int n = world.size();
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        boolean sendsFirst = me % 2 == 0;
        double[] block = new double[N * N * N];
        double[] ghosts = new double[3 * N * N];
        byte[] small = new byte[ODD_SIZES[ODD_SIZES.length - 1]];
        byte[] back = new byte[small.length];
        byte[] large = new byte[LARGE];
        byte[] largeBack = new byte[LARGE];
        int inline = world.engine.inlineLimit() & ~7; // ringEnd's packets: 8-byte multiples (JobConfig keeps it >= 0)
        byte[] ringOut = new byte[inline];
        byte[] ringIn = new byte[inline];
        PersistentRequest[] set = {
            world.recvInit(ghosts, 0, N * N, Datatype.DOUBLE, left, TAG),
            world.recvInit(ghosts, N * N, N * N, Datatype.DOUBLE, left, TAG),
            world.recvInit(ghosts, 2 * N * N, N * N, Datatype.DOUBLE, left, TAG),
            world.sendInit(block, 0, N * N, Datatype.DOUBLE, right, TAG),
            world.sendInit(block, 0, 1, Datatype.DOUBLE.vector(N, N, N * N), right, TAG),
            world.sendInit(block, 0, 1, Datatype.DOUBLE.vector(N * N, 1, N), right, TAG),
        };
        // segment buffers, if every rank has room for them (the allreduce: all take part or none)
        SegmentAllocator segment = world.segment;
        long mark = segment.used();
        SegmentBuffer segOut = null;
        SegmentBuffer segIn = null;
        SegmentBuffer segLargeOut = null;
        SegmentBuffer segLargeIn = null;
        if (everyRankHasRoom(world, 2L * (BULK + LARGE))) {
            segOut = world.alloc(Primitive.BYTE, BULK);
            segIn = world.alloc(Primitive.BYTE, BULK);
            segLargeOut = world.alloc(Primitive.BYTE, LARGE);
            segLargeIn = world.alloc(Primitive.BYTE, LARGE);
        }
        // a job on several hosts: large messages from arrays to another host go over the bulk sockets
        // as pieces packed and unpacked (NetBulk), as often as the segment's 64 KiB pair below. Every
        // rank of the job decides alike (each pair's messages must match: a rank whose neighbours are
        // both on its host still sends and receives the pair its neighbours on a host boundary do)
        boolean remote = !world.engine.fabric().singleHost();
        HostRing host = remote ? HostRing.of(world) : null;
        Request[] pair = new Request[2];
        QuietRounds rounds = new QuietRounds(budgetNanos - (System.nanoTime() - t0));
        boolean longWaits = n > 1 && world.engine.parks() >= 0; // the spin-yield-park strategy
        try {
            while (true) {
                if (longWaits) {
                    // at a round's start: the paths they deoptimize are compiled again within the round,
                    // and the round is not quiet (at a round's end a deoptimization in the last round
                    // was compiled again in the program: 35 ms in its first 8-byte batches, session 24)
                    if (rounds.rounds() < WarmUpWaits.LONG_WAIT_ROUNDS) {
                        WarmUpWaits.longWait(world, right, left, small, back);
                    }
                    WarmUpWaits.stalledStream(world, right, left, large, largeBack, small, back);
                    WarmUpWaits.stalledEager(world, right, left, ringOut, ringIn);
                }
                for (int i = 0; i < PER_ROUND; i++) {
                    world.sendrecv(small, 0, 8, Datatype.BYTE, right, TAG, back, 0, 8, Datatype.BYTE, left, TAG);
                    int odd = ODD_SIZES[i % ODD_SIZES.length];
                    world.sendrecv(small, 0, odd, Datatype.BYTE, right, TAG, back, 0, odd, Datatype.BYTE, left, TAG);
                    blockingPair(world, sendsFirst, small, back, 8, right, left);
                    Request.startAll(set);
                    Request.waitAll(set);
                    // the receive first, or the send: a wait's first request of either kind (a window of
                    // sends alone, as a bandwidth test's sender waits on, met C2 code that had seen only
                    // receives first: a class_check deoptimization)
                    int r = i & 1;
                    pair[r] = world.irecv(back, 0, 8, Datatype.BYTE, left, TAG);
                    pair[1 - r] = world.isend(small, 0, 8, Datatype.BYTE, right, TAG);
                    Request.waitAll(pair);
                    world.iprobe(left, TAG - 1);
                    // the barrier a program calls before each timed batch: its wait (Engine.idleStep) was
                    // compiled at tier 4 only in a program's first batches (2-9 ms of C2 beside the ranks, in
                    // 13 of 78 JVMs under JFR, session 24)
                    world.barrier();
                    // the bulk eager path (piped when every rank has a core) as often as the rest:
                    // every 25th was too rare for C2, which then compiled it in a program's first batches
                    blockingPair(world, sendsFirst, large, largeBack, JobConfig.PIPE_FROM, right, left);
                    if (remote) {
                        blockingPair(world, sendsFirst, large, largeBack, BULK, right, left);
                    }
                    if (i % 25 == 0) {
                        // the bulk eager path, and above the eager limit the rendezvous
                        world.sendrecv(large, 0, BULK, Datatype.BYTE, right, TAG, largeBack, 0, BULK, Datatype.BYTE,
                            left, TAG);
                        world.sendrecv(large, 0, LARGE, Datatype.BYTE, right, TAG, largeBack, 0, LARGE,
                            Datatype.BYTE, left, TAG);
                        lateRendezvous(world, large, largeBack, LARGE, small, back, right, left);
                    }
                    if (segOut != null) {
                        world.sendrecv(segOut, 0, 8, Datatype.BYTE, right, TAG, segIn, 0, 8, Datatype.BYTE, left, TAG);
                        blockingPair(world, sendsFirst, segOut, segIn, BULK, right, left);
                        if (i % 25 == 0) {
                            blockingPair(world, sendsFirst, segLargeOut, segLargeIn, LARGE, right, left);
                            lateRendezvous(world, segLargeOut, segLargeIn, LARGE, small, back, right, left);
                            lateRendezvous(world, segOut, segIn, BULK, small, back, right, left);
                        }
                    }
                    if (host != null) {
                        host.exchange(world, small, back, large, largeBack, segOut, segIn);
                    }
                }
                ringEnd(world, right, left, ringOut, ringIn);
                if (rounds.ended(world)) {
                    break;
                }
                sleepBriefly(); // the compiler threads get the cores
            }
        } finally {
            for (PersistentRequest r : set) {
                r.free();
            }
            if (host != null) {
                host.free();
            }
            segment.release(mark);
        }
        return new Result(rounds.rounds(), System.nanoTime() - t0, rounds.quiet(), rounds.compileMillis(),
            world.engine.parks(), longWaits ? world.engine.streamStalls() : -1);
    }

    /** Bytes of a ring record's eager packet before its payload: Agrona's record header, then the PML's. */
    private static final int RECORD_BEFORE_PAYLOAD = RecordDescriptor.HEADER_LENGTH + Packets.EAGER_HEADER;

    /**
     * Writes the ring to the right neighbour up to its very end, the last record ending exactly
     * there, and takes the same from the left neighbour only after all of it has come (so every
     * packet of it arrives before its receive is posted). Two paths a program meets and the rest
     * of the warm-up rarely did: Agrona's claim of a record that fills the ring to its end is a
     * branch of its own, which an 8-byte ping-pong takes at about one wrap in five (its records
     * are all alike), and an eager packet for which no receive is posted yet. C2 had compiled both
     * as never taken and threw the code away in a program's first batches (JFR's
     * {@code jdk.Deoptimization}: {@code unstable_if} in {@code OneToOneRingBuffer.claimCapacity}
     * and {@code Matching.arrived}, session 18). Packets of at most the inline limit, each one's
     * size chosen from the ring's tail when it is sent (a blocking eager send has written its
     * record when it returns), their first byte 1 on the last; at most a ring's worth each way.
     * Ranks on another host, a modelled fabric (two rings per pair) or a job of one: nothing.
     */
    static void ringEnd(ShmComm world, int right, int left, byte[] out, byte[] in) {
        ShmFabric fabric = world.engine.fabric();
        boolean on = world.size() > 1 && fabric.channels() == 1 && out.length >= 8;
        boolean sends = on && fabric.local(right);
        boolean receives = on && fabric.local(left); // what the left neighbour decides about sending to me
        if (sends) {
            RingBuffer ring = fabric.ring(0, right);
            int mask = ring.capacity() - 1;
            int limit = out.length;
            boolean last = false;
            while (!last) {
                int toEnd = ring.capacity() - (int) (ring.producerPosition() & mask);
                int payload = toEnd - RECORD_BEFORE_PAYLOAD;
                last = payload >= 8 && payload <= limit;
                if (!last) {
                    // leave room for a last record with 8 bytes of payload after this one padded to
                    // a line's end (EagerProtocol.lineEnd), or (too little room: no record fits) wrap
                    // to the ring's start with the smallest
                    payload = toEnd < RECORD_BEFORE_PAYLOAD + 8 ? 8
                        : Math.min(limit, toEnd - 2 * RECORD_BEFORE_PAYLOAD - 8 - 64);
                }
                out[0] = (byte) (last ? 1 : 0);
                world.send(out, 0, payload, Datatype.BYTE, right, TAG);
            }
        }
        // a token behind the packets: taking it reads them first, while no receive of theirs is posted
        if (sends && receives) {
            world.sendrecv(out, 0, 8, Datatype.BYTE, right, RING_END_TOKEN, in, 0, 8, Datatype.BYTE, left,
                RING_END_TOKEN);
        } else if (sends) {
            world.send(out, 0, 8, Datatype.BYTE, right, RING_END_TOKEN);
        } else if (receives) {
            world.recv(in, 0, 8, Datatype.BYTE, left, RING_END_TOKEN, null);
        }
        if (receives) {
            do {
                world.recv(in, 0, in.length, Datatype.BYTE, left, TAG, null);
            } while (in[0] != 1);
        }
    }

    /** The tag of {@link #ringEnd}'s token (below {@link #TAG}, whose neighbour the empty probe asks for). */
    private static final int RING_END_TOKEN = TAG - 2;

    /** The tag of {@link #lateRendezvous}'s token. */
    private static final int LATE_TOKEN = TAG - 3;

    /**
     * A rendezvous whose request to send arrives before its receive is posted: the send started,
     * then a token behind it on the same ring (taking the token reads the request first and keeps
     * it as unexpected), then the receive. Elsewhere in the warm-up every rendezvous found its
     * receive posted, C2 compiled the other branch of the matching as never taken, and a
     * ping-pong's first late receive at 1 MB threw away the compiled matching, sends and starts —
     * 130 ms of C2 work redone inside the program's 64 KB and 1 MB sizes, in the launches where
     * it happened (session 22: at 64 KB 4.1 µs against 0.7 in the fifth launch under JFR, 12.4 in one of a
     * compare's ten). Also at 64 KiB from the segment: a request to send that a receiver may pull
     * and buffer (eager-sized), taken before its receive was posted — a branch of the matching no
     * other exchange took, which a segment ping-pong took in some launches and C2 recompiled the
     * matching (59 ms) inside its timed batches (JFR, session 23).
     */
    static void lateRendezvous(ShmComm world, Object out, Object in, int bytes, byte[] token, byte[] tokenBack,
                               int right, int left) {
        Request send = world.isend(out, 0, bytes, Datatype.BYTE, right, TAG);
        world.sendrecv(token, 0, 8, Datatype.BYTE, right, LATE_TOKEN, tokenBack, 0, 8, Datatype.BYTE, left,
            LATE_TOKEN);
        world.recv(in, 0, bytes, Datatype.BYTE, left, TAG, null);
        send.waitFor();
    }

    /** Iterations of {@link #socketPaths} per round; its rounds end as {@link #run}'s do, within its own budget. */
    private static final int SOCKET_ROUND = 50;
    private static final long SOCKET_BUDGET_NS = 1_000_000_000L;
    private static final int WINDOW = 8;
    /**
     * A window deeper than the socket's buffer holds (64 x 64 KiB, a window bandwidth test's),
     * every {@value #DEEP_EVERY}th iteration: its sends find the connection's staging buffer busy
     * and wait in the outbound queue, a branch the window of 8 never took — C2 had compiled it as
     * never taken and threw the code away at a program's first deep window (unstable_if
     * deoptimizations in JFR's jdk.Deoptimization events, the 64 KiB window's first batch
     * between hosts 2.0–2.6 GB/s against 3.5–5.8 after, session 17).
     */
    private static final int DEEP_WINDOW = 64;
    private static final int DEEP_EVERY = 10;

    /**
     * The paths of large packets between hosts, once the engine has opened them to the ranks' bulk
     * sockets ({@link Engine#openNetPackets}, after {@link #run}, so that the warm-up's messages
     * keep to the network transport's frames and compile its paths): every rank with a partner
     * on another host ({@link #acrossShift}), an 8-byte, a 2 KiB and a 64 KiB sendrecv and a
     * window of {@value #WINDOW} 64 KiB messages each way (now and then one of
     * {@value #DEEP_WINDOW}, {@link #DEEP_WINDOW}, and a 1 MiB sendrecv from an array and from the
     * segment), in rounds of {@value #SOCKET_ROUND}, until every
     * JVM's compilation time has stood still for {@link #QUIET_ROUNDS} rounds or
     * {@link #SOCKET_BUDGET_NS} is spent (the ranks agree after each round). Without it a
     * program's first 64 KB ping-pong between hosts took 27–44 µs instead of 16–18. The partner is
     * not the ring neighbour: with 4 ranks per host only the two ranks at each host's edge had one
     * on another host, and the others compiled the sockets' paths in the program's first
     * iterations (halo3d N = 64 on 2 hosts × 4 ranks: 600–800 µs in a launch's first 200
     * iterations, 270–320 in its next — session 17). Every rank of a job on several hosts calls it.
     *
     * @return the rounds run
     */
    public static int socketPaths(ShmComm world) {
        int me = world.rank();
        int n = world.size();
        int shift = acrossShift(world);
        int to = (me + shift) % n;
        int from = (me - shift + n) % n;
        byte[] face = new byte[2048];
        byte[] faceBack = new byte[2048];
        byte[][] out = new byte[WINDOW][BULK];
        byte[][] in = new byte[WINDOW][BULK];
        Request[] window = new Request[2 * WINDOW];
        Request[] deep = new Request[2 * DEEP_WINDOW];
        byte[] large = new byte[LARGE];
        byte[] largeBack = new byte[LARGE];
        SegmentAllocator segment = world.segment;
        long mark = segment.used();
        SegmentBuffer segOut = null;
        SegmentBuffer segIn = null;
        if (everyRankHasRoom(world, 2L * LARGE)) {
            segOut = world.alloc(Primitive.BYTE, LARGE);
            segIn = world.alloc(Primitive.BYTE, LARGE);
        }
        QuietRounds rounds = new QuietRounds(SOCKET_BUDGET_NS);
        try {
            while (true) {
                for (int i = 0; i < SOCKET_ROUND; i++) {
                    // packets below 1 KiB stay on Aeron's frames: the 8-byte path between hosts, for every rank
                    world.sendrecv(face, 0, 8, Datatype.BYTE, to, TAG, faceBack, 0, 8, Datatype.BYTE, from, TAG);
                    world.sendrecv(face, 0, face.length, Datatype.BYTE, to, TAG, faceBack, 0, face.length,
                        Datatype.BYTE, from, TAG);
                    world.sendrecv(out[0], 0, BULK, Datatype.BYTE, to, TAG, in[0], 0, BULK, Datatype.BYTE, from, TAG);
                    for (int k = 0; k < WINDOW; k++) {
                        window[k] = world.irecv(in[k], 0, BULK, Datatype.BYTE, from, TAG);
                        window[WINDOW + k] = world.isend(out[k], 0, BULK, Datatype.BYTE, to, TAG);
                    }
                    Request.waitAll(window);
                    if (i % DEEP_EVERY == 0) {
                        // one send buffer for all, as a window test's; the receives share the window's eight
                        // buffers (their bytes are not looked at: only the paths matter here)
                        for (int k = 0; k < DEEP_WINDOW; k++) {
                            deep[k] = world.irecv(in[k % WINDOW], 0, BULK, Datatype.BYTE, from, TAG);
                            deep[DEEP_WINDOW + k] = world.isend(out[0], 0, BULK, Datatype.BYTE, to, TAG);
                        }
                        Request.waitAll(deep);
                        // above the eager limit: the rendezvous's pieces over the sockets, packed from an array
                        // and sent from the segment without a copy (a window test's first 1 MB batch had paid
                        // for compiling them, session 22)
                        world.sendrecv(large, 0, LARGE, Datatype.BYTE, to, TAG, largeBack, 0, LARGE, Datatype.BYTE,
                            from, TAG);
                        if (segOut != null) {
                            world.sendrecv(segOut, 0, LARGE, Datatype.BYTE, to, TAG, segIn, 0, LARGE, Datatype.BYTE,
                                from, TAG);
                        }
                    }
                }
                if (rounds.ended(world)) {
                    return rounds.rounds();
                }
            }
        } finally {
            segment.release(mark);
        }
    }

    /** Whether every rank's segment has {@code bytes} free (an allreduce: all take part, and all agree). */
    private static boolean everyRankHasRoom(ShmComm world, long bytes) {
        long[] room = {world.segment.free() >= bytes + 256 ? 1 : 0};
        long[] all = new long[1];
        world.allreduce(room, 0, all, 0, 1, Datatype.LONG, Op.MIN);
        return all[0] == 1;
    }

    /**
     * The shift every rank sends by in {@link #socketPaths}: the fewest ranks any host has (an
     * allreduce, so that all agree and every send has its receive). With hosts of equal size in
     * blocks of consecutive ranks, as {@code --hostfile} and {@code --local-hosts} place them,
     * rank r's partner r + shift is on the next host; where a placement differs, some pairs
     * share a host and warm shared memory instead.
     */
    static int acrossShift(ShmComm world) {
        ShmFabric fabric = world.engine.fabric();
        long[] mine = {0};
        for (int p = 0; p < world.size(); p++) {
            if (fabric.local(p)) {
                mine[0]++;
            }
        }
        long[] fewest = new long[1];
        world.allreduce(mine, 0, fewest, 0, 1, Datatype.LONG, Op.MIN);
        return (int) (fewest[0] % world.size());
    }

    /**
     * A job on several hosts: the ranks of each host in a ring of their own, for the shared-memory
     * paths. On the world's ring a host's first rank takes every message from a rank of another
     * host, so its receiving side of the host's rings and bulk region was compiled only in the
     * program: halo3d on 2 hosts × 4 ranks, ranks 0 and 4 compiled {@code EagerProtocol.deliverBulk}
     * and {@code BulkInbound} in the first N = 64 pass, a C1 thread taking a core for 0.3–0.9 ms
     * at a time (a scheduler trace, session 21). A host of one rank has none ({@code of} is null).
     */
    private record HostRing(int right, int left, boolean sendsFirst, PersistentRequest[] set) {
        static HostRing of(ShmComm world) {
            ShmFabric fabric = world.engine.fabric();
            int[] ranks = new int[world.size()]; // this host's ranks, in order
            int count = 0;
            int index = 0;
            for (int p = 0; p < world.size(); p++) {
                if (fabric.local(p)) {
                    if (p == world.rank()) {
                        index = count;
                    }
                    ranks[count++] = p;
                }
            }
            if (count < 2) {
                return null;
            }
            int right = ranks[(index + 1) % count];
            int left = ranks[(index - 1 + count) % count];
            double[] block = new double[N * N * N];
            double[] ghosts = new double[N * N];
            PersistentRequest[] set = {
                world.recvInit(ghosts, 0, N * N, Datatype.DOUBLE, left, TAG),
                world.sendInit(block, 0, 1, Datatype.DOUBLE.vector(N, N, N * N), right, TAG),
            };
            return new HostRing(right, left, index % 2 == 0, set);
        }

        /** The shared-memory exchanges of one iteration, on this ring (every rank of the host calls it). */
        void exchange(ShmComm world, byte[] small, byte[] back, byte[] large, byte[] largeBack, SegmentBuffer segOut,
                      SegmentBuffer segIn) {
            world.sendrecv(small, 0, 8, Datatype.BYTE, right, TAG, back, 0, 8, Datatype.BYTE, left, TAG);
            Request.startAll(set);
            Request.waitAll(set);
            blockingPair(world, sendsFirst, large, largeBack, JobConfig.PIPE_FROM, right, left);
            blockingPair(world, sendsFirst, large, largeBack, BULK, right, left);
            if (segOut != null) {
                blockingPair(world, sendsFirst, segOut, segIn, BULK, right, left);
            }
        }

        void free() {
            for (PersistentRequest r : set) {
                r.free();
            }
        }
    }

    /**
     * Blocking send and receive (even ranks send first, odd ones receive first), as a ping-pong's
     * ranks do them; alone, a sendrecv (to itself a blocking send could wait for a receive never
     * posted, at rendezvous sizes).
     */
    private static void blockingPair(ShmComm world, boolean sendsFirst, Object out, Object in, int bytes,
                                     int right, int left) {
        if (world.size() == 1) {
            world.sendrecv(out, 0, bytes, Datatype.BYTE, right, TAG, in, 0, bytes, Datatype.BYTE, left, TAG);
        } else if (sendsFirst) {
            world.send(out, 0, bytes, Datatype.BYTE, right, TAG);
            world.recv(in, 0, bytes, Datatype.BYTE, left, TAG, null);
        } else {
            world.recv(in, 0, bytes, Datatype.BYTE, left, TAG, null);
            world.send(out, 0, bytes, Datatype.BYTE, right, TAG);
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
