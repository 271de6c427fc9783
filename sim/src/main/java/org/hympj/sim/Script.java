package org.hympj.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One rank's program for the {@link Sim}: the MGEN-like calls of S4 — {@link #compute},
 * {@link #put}, {@link #poll}, {@link #complete} — and HyMPJ's two-sided and persistent
 * operations ({@link #sendInit}, {@link #recvInit}, {@link #startAll}, {@link #waitAll},
 * {@link #send}, {@link #recv}, {@link #barrier}, {@link #allreduce}). Calls are recorded as
 * compact ops (four ints each) and interpreted by the simulator; one level of
 * {@link #loop}/{@link #endLoop} repeats a body (an iteration), {@link #markStart}/{@link #markEnd}
 * time it. Requests are made when the script is built (as {@code sendInit} does at init: the
 * route is decided then).
 *
 * <p>The collectives are written here with the emulator's algorithms ({@code
 * org.hympj.shm.pml.Collectives}): every step a blocking exchange on the collective context
 * (zero-byte signals for barriers) — the same messages the emulator plans.
 */
public final class Script {
    static final int W = 4;
    static final int OP_END = 0;
    static final int OP_START = 1;
    static final int OP_STARTALL = 2;
    static final int OP_WAIT = 3;
    static final int OP_WAITALL = 4;
    static final int OP_EXCHANGE = 5;
    static final int OP_COMPUTE = 6;
    static final int OP_PUT = 7;
    static final int OP_POLL = 8;
    static final int OP_COMPLETE = 9;
    static final int OP_LOOP = 10;
    static final int OP_ENDLOOP = 11;
    static final int OP_MARK_START = 12;
    static final int OP_MARK_END = 13;

    /** Tags of the collectives (on their own context in the emulator; here above every user tag). */
    static final int TAG_BARRIER = 1 << 20;
    static final int TAG_ALLREDUCE = TAG_BARRIER + 1;
    static final int TAG_P2P = TAG_BARRIER + 2;

    private final Sim sim;
    private final int rank;
    int[] code = new int[64];
    private int n;
    long[] longs = new long[4];
    private int nlongs;
    int[][] exchanges = new int[0][];
    private final List<int[]> exchangeList = new ArrayList<>();
    int maxTag;
    int handles;
    int loopIterations;
    private int loopAt = -1;
    private boolean sealed;
    private int collSend = -1;
    private int collRecv = -1;
    private int zero = -1;

    Script(Sim sim, int rank) {
        this.sim = sim;
        this.rank = rank;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return sim.np;
    }

    private void op(int op, int a, int b, int c) {
        if (sealed) {
            throw new IllegalStateException("script of rank " + rank + " is already running");
        }
        if (n + W > code.length) {
            code = Arrays.copyOf(code, code.length * 2);
        }
        code[n] = op;
        code[n + 1] = a;
        code[n + 2] = b;
        code[n + 3] = c;
        n += W;
    }

    // ------------------------------------------------------------------ two-sided

    /** {@code comm.sendInit}: a persistent send; {@code segment}: the data is in the registered segment. */
    public int sendInit(int dest, int tag, Shape data, boolean segment) {
        return sim.newRequest(rank, true, dest, tag, sim.shape(data), segment, true, true);
    }

    /** {@code comm.recvInit}. */
    public int recvInit(int source, int tag, Shape data, boolean segment) {
        return sim.newRequest(rank, false, source, tag, sim.shape(data), segment, true, false);
    }

    /**
     * A request as {@code comm.isend} makes one (not registered: its puts go through the descriptor
     * cache), to {@link #start} and {@link #waitFor} as often as the program issues that send.
     */
    public int isendRequest(int dest, int tag, Shape data, boolean segment) {
        return sim.newRequest(rank, true, dest, tag, sim.shape(data), segment, false, false);
    }

    /** A request as {@code comm.irecv} makes one (see {@link #isendRequest}). */
    public int irecvRequest(int source, int tag, Shape data, boolean segment) {
        return sim.newRequest(rank, false, source, tag, sim.shape(data), segment, false, false);
    }

    /** True for a send request. */
    public boolean isSend(int request) {
        return sim.isSend(request);
    }

    /** A set of requests for {@link #startAll} / {@link #waitAll}. */
    public int set(int... requests) {
        return sim.newSet(requests);
    }

    public void start(int request) {
        op(OP_START, request, 0, 0);
    }

    public void waitFor(int request) {
        op(OP_WAIT, request, 0, 0);
    }

    public void startAll(int set) {
        op(OP_STARTALL, set, 0, 0);
    }

    public void waitAll(int set) {
        op(OP_WAITALL, set, 0, 0);
    }

    /** Blocking send (planned as persistent, as the emulator's blocking sends are). */
    public void send(int dest, int tag, Shape data, boolean segment) {
        exchange(dest, Sim.PROC_NULL, tag, data, Shape.bytes(0), segment, false);
    }

    public void recv(int source, int tag, Shape data, boolean segment) {
        exchange(Sim.PROC_NULL, source, tag, Shape.bytes(0), data, false, segment);
    }

    /** sendrecv / the collectives' exchange: start the receive, start the send, wait for both. */
    public void sendrecv(int dest, int source, int tag, Shape sendData, Shape recvData, boolean segment) {
        exchange(dest, source, tag, sendData, recvData, segment, segment);
    }

    private void exchange(int dest, int source, int tag, Shape sendData, Shape recvData, boolean sendSeg,
                          boolean recvSeg) {
        if (collSend < 0) {
            zero = sim.shape(Shape.bytes(0));
            collSend = sim.newRequest(rank, true, Sim.PROC_NULL, 0, zero, false, true, false);
            collRecv = sim.newRequest(rank, false, Sim.PROC_NULL, 0, zero, false, true, false);
        }
        int s = sendData.bytes == 0 ? zero : sim.shape(sendData);
        int r = recvData.bytes == 0 ? zero : sim.shape(recvData);
        // heap (or segment) buffers per exchange are fixed by the first use; the coll requests carry them
        int sq = collSend;
        int rq = collRecv;
        if (sendSeg || recvSeg) {
            sq = sim.newRequest(rank, true, Sim.PROC_NULL, 0, zero, sendSeg, true, false);
            rq = sim.newRequest(rank, false, Sim.PROC_NULL, 0, zero, recvSeg, true, false);
        }
        exchangeList.add(new int[] {tag, s, r, sq, rq});
        op(OP_EXCHANGE, dest, source, exchangeList.size() - 1);
    }

    // ------------------------------------------------------------------ collectives

    public enum Barrier {
        DISSEMINATION, RD, RING;

        public static Barrier parse(String s) {
            switch (s) {
                case "dissemination":
                    return DISSEMINATION;
                case "rd":
                case "recursive-doubling":
                    return RD;
                case "ring":
                    return RING;
                default:
                    throw new IllegalArgumentException("barrier algorithm must be dissemination, rd or ring, was " + s);
            }
        }

        public String key() {
            return this == RD ? "rd" : name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The job's default barrier ({@code --coll barrier=}). */
    public void barrier() {
        barrier(Barrier.parse(sim.config.barrier));
    }

    /** Collectives.barrier: ring (p−1 steps), recursive doubling with S4's fold, dissemination. */
    public void barrier(Barrier algorithm) {
        int size = sim.np;
        Shape z = Shape.bytes(0);
        switch (algorithm) {
            case RING:
                for (int step = 1; step < size; step++) {
                    sendrecv((rank + 1) % size, (rank - 1 + size) % size, TAG_BARRIER, z, z, false);
                }
                break;
            case RD: {
                int p2 = Integer.highestOneBit(size);
                int extra = size - p2;
                if (rank >= p2) {
                    sendrecv(rank - p2, Sim.PROC_NULL, TAG_BARRIER, z, z, false);
                    sendrecv(Sim.PROC_NULL, rank - p2, TAG_BARRIER, z, z, false);
                    return;
                }
                if (rank < extra) {
                    sendrecv(Sim.PROC_NULL, rank + p2, TAG_BARRIER, z, z, false);
                }
                for (int mask = 1; mask < p2; mask <<= 1) {
                    int partner = rank ^ mask;
                    sendrecv(partner, partner, TAG_BARRIER, z, z, false);
                }
                if (rank < extra) {
                    sendrecv(rank + p2, Sim.PROC_NULL, TAG_BARRIER, z, z, false);
                }
                break;
            }
            default:
                for (int k = 1; k < size; k <<= 1) {
                    sendrecv((rank + k) % size, (rank - k + size) % size, TAG_BARRIER, z, z, false);
                }
        }
    }

    /**
     * Collectives.allreduce of {@code count} doubles on Java arrays (commutative op): recursive
     * doubling with the fold of the ranks above the largest power of two (under a model the
     * one-wave shared-memory path is off).
     */
    public void allreduce(int count) {
        int size = sim.np;
        Shape d = Shape.doubles(count);
        int p2 = Integer.highestOneBit(size);
        int extra = size - p2;
        if (rank >= p2) {
            send(rank - p2, TAG_ALLREDUCE, d, false);
            recv(rank - p2, TAG_ALLREDUCE, d, false);
            return;
        }
        if (rank < extra) {
            recv(rank + p2, TAG_ALLREDUCE, d, false);
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            int partner = rank ^ mask;
            sendrecv(partner, partner, TAG_ALLREDUCE, d, d, false);
        }
        if (rank < extra) {
            send(rank + p2, TAG_ALLREDUCE, d, false);
        }
    }

    // ------------------------------------------------------------------ MGEN (S4)

    /** {@code Comp(t)}: this rank computes for {@code ns} modelled nanoseconds (no progress meanwhile). */
    public void compute(long ns) {
        if (nlongs == longs.length) {
            longs = Arrays.copyOf(longs, nlongs * 2);
        }
        longs[nlongs] = ns;
        op(OP_COMPUTE, nlongs++, 0, 0);
    }

    /**
     * {@code rdma_put(dest, size, tag)}: a one-sided put of {@code bytes} (TCA where it reaches,
     * else IB; non-persistent: through the descriptor cache); returns a handle for
     * {@link #complete}. The put arrives at {@code dest} under {@code tag} (0..65535) for its {@link #poll}.
     */
    public int put(int dest, long bytes, int tag) {
        if (tag < 0 || tag > 0xffff) {
            throw new IllegalArgumentException("put tag must be 0..65535, was " + tag);
        }
        if (dest < 0 || dest >= sim.np) {
            throw new IllegalArgumentException("put to rank " + dest + " of " + sim.np);
        }
        int h = handles++;
        if (h > 0x7fff) {
            throw new IllegalArgumentException("too many put handles in one script (32767)");
        }
        op(OP_PUT, dest, sim.shape(Shape.bytes(bytes)), (h << 16) | tag);
        return h;
    }

    /** A handle for {@link #put(int, long, int, int)} (no put yet). */
    public int newHandle() {
        return handles++;
    }

    /** A put whose handle is reused (in a loop, one handle per program position). */
    public void put(int dest, long bytes, int tag, int handle) {
        if (handle >= handles) {
            throw new IllegalArgumentException("handle " + handle + " was not returned by put");
        }
        op(OP_PUT, dest, sim.shape(Shape.bytes(bytes)), (handle << 16) | tag);
    }

    /** {@code rdma_poll(tag)}: waits until a put with {@code tag} has arrived here (each arrival satisfies one poll). */
    public void poll(int tag) {
        maxTag = Math.max(maxTag, tag);
        op(OP_POLL, tag, 0, 0);
    }

    /** {@code acp_complete(handle)}: waits until the put is done (engine finished and data at the destination). */
    public void complete(int handle) {
        op(OP_COMPLETE, handle, 0, 0);
    }

    // ------------------------------------------------------------------ structure

    /** Repeats the ops up to {@link #endLoop} {@code iterations} times (one level). */
    public void loop(int iterations) {
        if (loopAt >= 0) {
            throw new IllegalStateException("loops do not nest");
        }
        loopAt = n;
        loopIterations = iterations;
        op(OP_LOOP, iterations, 0, 0);
    }

    public void endLoop() {
        if (loopAt < 0) {
            throw new IllegalStateException("endLoop without loop");
        }
        op(OP_ENDLOOP, 0, 0, 0);
        code[loopAt + 2] = n / W;
        loopAt = -1;
    }

    /** Starts this iteration's timed window on this rank. */
    public void markStart() {
        op(OP_MARK_START, 0, 0, 0);
    }

    /** Ends it: the simulator keeps per iteration the slowest rank's window, the earliest start and the latest end. */
    public void markEnd() {
        op(OP_MARK_END, 0, 0, 0);
    }

    void seal() {
        if (!sealed) {
            if (loopAt >= 0) {
                throw new IllegalStateException("rank " + rank + ": loop without endLoop");
            }
            op(OP_END, 0, 0, 0);
            exchanges = exchangeList.toArray(new int[0][]);
            sealed = true;
        }
    }

    String describe(int pc) {
        int i = pc * W;
        String[] names = {"end", "start", "startAll", "wait", "waitAll", "exchange", "compute", "put", "poll",
            "complete", "loop", "endLoop", "markStart", "markEnd"};
        return names[code[i]] + "(" + code[i + 1] + ", " + code[i + 2] + ", " + code[i + 3] + ")";
    }
}
