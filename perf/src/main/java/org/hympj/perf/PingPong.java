package org.hympj.perf;

import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;

/**
 * Rank program: OSU-latency-style ping-pong between ranks 0 and 1, timed exactly as the
 * anchor {@code pingpong.c}: per size a warm-up batch and 5 timed batches, a barrier before
 * each batch, value = median batch of half round trips in µs.
 *
 * <pre>usage (2 ranks): PingPong blocking|persistent REP heap|segment|both SIZE...</pre>
 *
 * <p>blocking: rank 0 {@code send} then {@code recv}, rank 1 the reverse (status ignored:
 * the allocation-free {@code recv(..., Status)} with null). persistent: rank 0
 * {@code Request.startAll} + {@code Request.waitAll} over {recvInit, sendInit}; rank 1 starts and
 * waits its receive, then its send. BYTE messages. Prints
 * {@code hympj,pingpong-<mode>,<heap|segment>,size,rep,us,us} from rank 0.
 */
public final class PingPong {
    private PingPong() {
    }

    /** Warm-up and timed iteration counts per size, as {@code iters_for} in pingpong.c. */
    static int[] itersFor(long size) {
        if (size <= 8192) {
            return new int[] {5000, 50000};
        } else if (size <= 65536) {
            return new int[] {200, 5000};
        } else if (size <= 1048576) {
            return new int[] {50, 1000};
        }
        return new int[] {10, 200};
    }

    /**
     * The warm-up batch calls the timed loop on this many iterations at a time (the same iterations
     * in all). Why: HotSpot moves a loop that runs long in one call into code compiled for it on the
     * stack (OSR), and that code does not count the loop's exits; the method's own C2 compilation then
     * took the exit for a branch never taken, and the first timed batch's exit threw that code away
     * and compiled the loop again inside the next size's timed batches (docs/PERFORMANCE.md, session
     * 25). Calls this short end before HotSpot moves them on the stack (with {@code --loop-compile
     * warm-up} it looks every few dozen back-edges; 250-iteration calls were still moved), so their
     * exits are counted and C2 compiles the loop as a method within the warm-up batch (no on-stack
     * compile, no deoptimization of the loop under JFR since); each timed batch is one call, as the
     * anchor's loop.
     */
    static final int WARM_CHUNK = 16;

    /** Before the first size the JIT is idle this long ({@link Rows#settleJit}) ... */
    static final long SETTLE_STILL_MS = 30;
    /** ... or the rank has waited this long for it. */
    static final long SETTLE_MAX_MS = 1000;

    /** The warm-up batch: {@code n} iterations of the timed loop, {@link #WARM_CHUNK} per call. */
    static void warmBlocking(Comm comm, int rank, Object sbuf, Object rbuf, int size, int n) {
        for (int done = 0; done < n; done += WARM_CHUNK) {
            blockingLoop(comm, rank, sbuf, rbuf, size, Math.min(WARM_CHUNK, n - done));
        }
    }

    /** The persistent warm-up batch, as {@link #warmBlocking}. */
    static void warmPersistent(int rank, PersistentRequest[] req, int n) {
        for (int done = 0; done < n; done += WARM_CHUNK) {
            persistentLoop(rank, req, Math.min(WARM_CHUNK, n - done));
        }
    }

    /** A blocking ping-pong's timed loop: rank 0 sends then receives, rank 1 the reverse. */
    static void blockingLoop(Comm comm, int rank, Object sbuf, Object rbuf, int size, int n) {
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                comm.send(sbuf, 0, size, Datatype.BYTE, 1, 1);
                comm.recv(rbuf, 0, size, Datatype.BYTE, 1, 1, null);
            }
        } else {
            for (int i = 0; i < n; i++) {
                comm.recv(rbuf, 0, size, Datatype.BYTE, 0, 1, null);
                comm.send(sbuf, 0, size, Datatype.BYTE, 0, 1);
            }
        }
    }

    /** A persistent ping-pong's timed loop over {receive, send} requests. */
    static void persistentLoop(int rank, PersistentRequest[] req, int n) {
        if (rank == 0) {
            // pre-post the reply receive, start the send: Startall/Waitall
            for (int i = 0; i < n; i++) {
                Request.startAll(req);
                Request.waitAll(req);
            }
        } else {
            // the echo side must receive before it sends
            PersistentRequest rr = req[0];
            PersistentRequest sr = req[1];
            for (int i = 0; i < n; i++) {
                rr.start();
                rr.waitFor();
                sr.start();
                sr.waitFor();
            }
        }
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: PingPong blocking|persistent REP heap|segment|both SIZE...");
        }
        String mode = args[0];
        boolean persistent;
        if (mode.equals("persistent")) {
            persistent = true;
        } else if (mode.equals("blocking")) {
            persistent = false;
        } else {
            throw new IllegalArgumentException("mode must be blocking or persistent, was " + mode);
        }
        int rep = Integer.parseInt(args[1]);
        List<BufferKind> kinds = BufferKind.parse(args[2]);
        int[] sizes = new int[args.length - 3];
        int maxsz = 1;
        for (int a = 3; a < args.length; a++) {
            sizes[a - 3] = Integer.parseInt(args[a]);
            maxsz = Math.max(maxsz, sizes[a - 3]);
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (comm.size() != 2) {
                throw new IllegalStateException("pingpong needs exactly 2 ranks, the job has " + comm.size());
            }
            int rank = comm.rank();
            int peer = 1 - rank;
            double[][] figures = new double[kinds.size()][sizes.length];
            for (int k = 0; k < kinds.size(); k++) {
                BufferKind kind = kinds.get(k);
                Object sbuf;
                Object rbuf;
                if (kind == BufferKind.HEAP) {
                    byte[] s = new byte[maxsz];
                    byte[] r = new byte[maxsz];
                    java.util.Arrays.fill(s, (byte) 'a');
                    java.util.Arrays.fill(r, (byte) 'b');
                    sbuf = s;
                    rbuf = r;
                } else {
                    org.hympj.api.SegmentBuffer s = comm.alloc(Primitive.BYTE, maxsz);
                    org.hympj.api.SegmentBuffer r = comm.alloc(Primitive.BYTE, maxsz);
                    fill(s, (byte) 'a');
                    fill(r, (byte) 'b');
                    sbuf = s;
                    rbuf = r;
                }
                Rows.settleJit(SETTLE_STILL_MS, SETTLE_MAX_MS);
                if (Rows.PREPASS) {
                    // untimed JIT pre-pass (opt-in): the first size's whole measurement, discarded
                    if (persistent) {
                        persistent(comm, rank, peer, sbuf, rbuf, sizes[0]);
                    } else {
                        blocking(comm, rank, sbuf, rbuf, sizes[0]);
                    }
                }
                for (int j = 0; j < sizes.length; j++) {
                    figures[k][j] = persistent ? persistent(comm, rank, peer, sbuf, rbuf, sizes[j])
                        : blocking(comm, rank, sbuf, rbuf, sizes[j]);
                }
                checkReceived(rbuf, sizes[sizes.length - 1], kind);
            }
            // Printed after the last size, not between sizes: formatting a row runs enough JDK code
            // (the Formatter, string concatenation's first bootstrap) for HotSpot to compile some of it
            // in the background, on a core a rank needs, during the next size's timed batches (13 ms of
            // compiles in rank 0 inside the 4 KB batches of one launch; docs/PERFORMANCE.md, session 25).
            if (rank == 0) {
                for (int k = 0; k < kinds.size(); k++) {
                    for (int j = 0; j < sizes.length; j++) {
                        Rows.print(Rows.row("pingpong-" + mode, kinds.get(k).label(), sizes[j], rep, figures[k][j], 3,
                            "us"));
                    }
                }
            }
            Rows.printBatches();
        }
    }

    /**
     * After the last size (nothing timed follows): the receive buffer, filled with 'b' at the start,
     * holds the peer's 'a' in the last message's {@code size} bytes and 'b' after them.
     */
    static void checkReceived(Object rbuf, int size, BufferKind kind) {
        java.nio.ByteBuffer got = rbuf instanceof byte[] ? java.nio.ByteBuffer.wrap((byte[]) rbuf)
            : ((org.hympj.api.SegmentBuffer) rbuf).bytes();
        byte[] want = new byte[got.capacity()];
        java.util.Arrays.fill(want, 0, size, (byte) 'a');
        java.util.Arrays.fill(want, size, want.length, (byte) 'b');
        got.clear(); // the whole buffer (a view of its own)
        int at = got.mismatch(java.nio.ByteBuffer.wrap(want));
        if (at >= 0) {
            throw new IllegalStateException(kind.label() + " receive buffer wrong at byte " + at + " after a " + size
                + "-byte message: '" + (char) got.get(at) + "' where '" + (char) want[at] + "' was expected");
        }
    }

    static void fill(org.hympj.api.SegmentBuffer b, byte v) {
        java.nio.ByteBuffer bb = b.bytes();
        for (int i = 0; i < b.length(); i++) {
            bb.put(i, v);
        }
    }

    /** Median over the 5 batches of the half round trip in µs. */
    static double blocking(Comm comm, int rank, Object sbuf, Object rbuf, int size) {
        int[] wi = itersFor(size);
        int warm = wi[0];
        int per = wi[1] / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int n = bch < 0 ? warm : per;
            comm.barrier();
            long jit = Rows.BATCHES ? Rows.batchStart() : 0;
            long t0 = System.nanoTime();
            if (bch < 0) {
                warmBlocking(comm, rank, sbuf, rbuf, size, n);
            } else {
                blockingLoop(comm, rank, sbuf, rbuf, size, n);
            }
            long el = System.nanoTime() - t0;
            if (bch >= 0) {
                bt[bch] = el * 1e-3 / (2.0 * per);
            }
            Rows.batch("blocking", size, bch, el * 1e-3 / (2.0 * n), jit);
        }
        return Rows.median(bt);
    }

    static double persistent(Comm comm, int rank, int peer, Object sbuf, Object rbuf, int size) {
        int[] wi = itersFor(size);
        int warm = wi[0];
        int per = wi[1] / Rows.NBATCH;
        double[] bt = new double[Rows.NBATCH];
        PersistentRequest[] req = {
            comm.recvInit(rbuf, 0, size, Datatype.BYTE, peer, 1),
            comm.sendInit(sbuf, 0, size, Datatype.BYTE, peer, 1)
        };
        try {
            for (int bch = -1; bch < Rows.NBATCH; bch++) {
                int n = bch < 0 ? warm : per;
                comm.barrier();
                long jit = Rows.BATCHES ? Rows.batchStart() : 0;
                long t0 = System.nanoTime();
                if (bch < 0) {
                    warmPersistent(rank, req, n);
                } else {
                    persistentLoop(rank, req, n);
                }
                long el = System.nanoTime() - t0;
                if (bch >= 0) {
                    bt[bch] = el * 1e-3 / (2.0 * per);
                }
                Rows.batch("persistent", size, bch, el * 1e-3 / (2.0 * n), jit);
            }
        } finally {
            req[0].free();
            req[1].free();
        }
        return Rows.median(bt);
    }
}
