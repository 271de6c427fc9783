package org.hympj.shm.pml;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkIncompleteFor;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.selected;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.testing.Mem;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Pattern;
import org.hympj.shm.testing.Protocol;

/**
 * Rank program, pairs (0,1), (2,3) …: strided data in a segment buffer, which a receiver pulls
 * reading the sender's layout in place when every rank has a core ({@link RemoteLayouts}), and
 * which goes as before otherwise. Layouts: blocks of 64 doubles 100 apart (block-stride) and
 * single doubles 3 apart (element-stride); sizes from below {@link JobConfig#PULL_ABOVE} to
 * beyond the eager limit.
 * <ul>
 * <li>{@code contiguous}: into a heap array, by isend and by issend; every element checked;</li>
 * <li>{@code strided}: into a strided heap layout (blocks of 32 doubles 40 apart), through the
 *     receiver's scratch in pieces; the gaps keep their sentinels;</li>
 * <li>{@code late}: the receive is posted only after the sender's isend (the RTS waits as
 *     unexpected, with its layout): up to the eager limit the send completes first and the
 *     sender's later writes are not seen; beyond it, the send waits for the receive;</li>
 * <li>{@code pulled}: a strided send between the pull threshold and the eager limit stays
 *     incomplete while its receiver is outside the library when strided pulls are on (every rank
 *     has a core), and completes on its own otherwise (packed eagerly).</li>
 * </ul>
 */
public final class StridedPullRank {
    static final String[] SCENARIOS = {"contiguous", "strided", "late", "pulled"};
    private static final int GO = 99;
    private static final int BLOCK = 64;
    private static final int BLOCK_STRIDE = 100;
    private static final int ELEMENT_STRIDE = 3;

    public static void main(String[] args) {
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            Protocol proto = Protocol.of(mpj);
            int peer = c.rank() ^ 1;
            boolean paired = peer < c.size();
            int[] sizes = {512, JobConfig.PULL_ABOVE + 512, 4096, proto.inlineLimit, proto.eagerLimit,
                2 * proto.eagerLimit};
            if (selected(args, "contiguous")) {
                if (paired) {
                    int tag = 1;
                    for (boolean element : new boolean[] {false, true}) {
                        for (int bytes : sizes) {
                            toContiguous(c, peer, element, bytes / 8, false, tag++);
                        }
                        toContiguous(c, peer, element, 4096 / 8, true, tag++);
                    }
                }
                c.barrier();
                pass("contiguous");
            }
            if (selected(args, "strided")) {
                if (paired) {
                    int tag = 20;
                    for (boolean element : new boolean[] {false, true}) {
                        for (int bytes : new int[] {4096, 40 << 10, 2 * proto.eagerLimit}) {
                            toStrided(c, peer, element, bytes / 8, tag++);
                        }
                    }
                }
                c.barrier();
                pass("strided");
            }
            if (selected(args, "late")) {
                if (paired) {
                    int tag = 40;
                    for (boolean element : new boolean[] {false, true}) {
                        late(c, peer, element, 4096 / 8, true, tag++);
                        late(c, peer, element, proto.eagerLimit / 8, true, tag++);
                        late(c, peer, element, 2 * proto.eagerLimit / 8, false, tag++);
                    }
                }
                c.barrier();
                pass("late");
            }
            if (selected(args, "pulled")) {
                if (paired) {
                    boolean typedPulls = !Idler.sharesCores(((ShmMpj) mpj).config(),
                        org.hympj.shm.job.Cores.sharing(((ShmMpj) mpj).config().size));
                    pulledOnlyWhenEveryRankHasACore(c, peer, typedPulls, 60);
                }
                c.barrier();
                pass("pulled");
            }
        }
        pass(MultiRank.FINALIZED);
    }

    /** The sender's layout of {@code n} doubles. */
    private static Datatype layout(boolean element, int n) {
        return element ? Datatype.DOUBLE.vector(n, 1, ELEMENT_STRIDE) : Datatype.DOUBLE.vector(n / BLOCK, BLOCK, BLOCK_STRIDE);
    }

    /** Elements of the sender's buffer that {@code n} doubles of {@link #layout} span. */
    private static int span(boolean element, int n) {
        return element ? (n - 1) * ELEMENT_STRIDE + 1 : (n / BLOCK - 1) * BLOCK_STRIDE + BLOCK;
    }

    /** Where the k-th double of the message is in the sender's buffer. */
    private static int position(boolean element, int k) {
        return element ? k * ELEMENT_STRIDE : (k / BLOCK) * BLOCK_STRIDE + k % BLOCK;
    }

    private static String what(boolean element, int n) {
        return (element ? "element-stride" : "block-stride") + " message of " + n + " doubles";
    }

    /** Element k of {@code in} (from {@code at}) holds the sender's double at position(k). */
    private static void checkData(Mem in, int at, int n, int source, int salt, boolean element, String what) {
        for (int k = 0; k < n; k++) {
            long want = Pattern.canon(Primitive.DOUBLE, Pattern.value(source, salt, position(element, k)));
            long got = in.get(at + k);
            check(got == want, "%s: element %d is %d, expected %d (the sender's element %d)", what, k, got, want,
                position(element, k));
        }
    }

    private static Mem sender(Comm c, boolean element, int n, int salt) {
        Mem out = Mem.segment(c, Primitive.DOUBLE, span(element, n));
        out.fill(0, out.length, c.rank(), salt);
        return out;
    }

    private static void toContiguous(Comm c, int peer, boolean element, int n, boolean synchronous, int tag) {
        String w = what(element, n) + (synchronous ? " (issend)" : "") + " into a contiguous array";
        if (c.rank() % 2 == 0) {
            Mem out = sender(c, element, n, tag);
            Request r = synchronous ? c.issend(out.buffer(), 0, 1, layout(element, n), peer, tag)
                : c.isend(out.buffer(), 0, 1, layout(element, n), peer, tag);
            r.waitFor();
        } else {
            Mem in = Mem.array(Primitive.DOUBLE, n + 4);
            in.fillSentinel(tag);
            Status st = c.recv(in.buffer(), 0, n + 4, Datatype.DOUBLE, peer, tag);
            checkData(in, 0, n, peer, tag, element, w);
            in.checkSentinel(n, n + 4, tag, w);
            checkStatus(st, peer, tag, 8L * n, w);
        }
    }

    private static void toStrided(Comm c, int peer, boolean element, int n, int tag) {
        String w = what(element, n) + " into blocks of 32 doubles 40 apart";
        if (c.rank() % 2 == 0) {
            Mem out = sender(c, element, n, tag);
            c.send(out.buffer(), 0, 1, layout(element, n), peer, tag);
        } else {
            int blocks = n / 32;
            Mem in = Mem.array(Primitive.DOUBLE, blocks * 40);
            in.fillSentinel(tag);
            Status st = c.recv(in.buffer(), 0, 1, Datatype.DOUBLE.vector(blocks, 32, 40), peer, tag);
            for (int b = 0; b < blocks; b++) {
                for (int k = 0; k < 32; k++) {
                    long want = Pattern.canon(Primitive.DOUBLE, Pattern.value(peer, tag, position(element, b * 32 + k)));
                    long got = in.get(b * 40 + k);
                    check(got == want, "%s: message double %d (block %d) is %d, expected %d", w, b * 32 + k, b, got, want);
                }
                in.checkSentinel(b * 40 + 32, b * 40 + 40, tag, w + ", gap after block " + b);
            }
            checkStatus(st, peer, tag, 8L * n, w);
        }
    }

    /**
     * The receive is posted after the send started (the receiver waits for GO first). Buffered
     * (up to the eager limit): the send completes before GO, then the sender overwrites its
     * buffer; otherwise the send is still incomplete when GO is given.
     */
    private static void late(Comm c, int peer, boolean element, int n, boolean buffered, int tag) {
        String w = what(element, n) + " received late";
        if (c.rank() % 2 == 0) {
            Mem out = sender(c, element, n, tag);
            Request r = c.isend(out.buffer(), 0, 1, layout(element, n), peer, tag);
            if (buffered) {
                r.waitFor(); // the receiver is in a receive only GO's reply matches
                out.fill(0, out.length, c.rank(), -1);
                c.send(new int[1], 0, 1, Datatype.INT, peer, GO);
            } else {
                checkIncompleteFor(r, 50, "%s: the send completed before its receive was posted", w);
                c.send(new int[1], 0, 1, Datatype.INT, peer, GO);
                r.waitFor();
            }
        } else {
            c.recv(new int[1], 0, 1, Datatype.INT, peer, GO, null);
            Mem in = Mem.array(Primitive.DOUBLE, n);
            Status st = c.recv(in.buffer(), 0, n, Datatype.DOUBLE, peer, tag);
            checkData(in, 0, n, peer, tag, element, w);
            checkStatus(st, peer, tag, 8L * n, w);
        }
    }

    /**
     * A 4 KB strided isend while the receiver sleeps outside the library for 100 ms: pulled, it
     * cannot complete before the receiver's engine runs; packed eagerly, it completes at once.
     */
    private static void pulledOnlyWhenEveryRankHasACore(Comm c, int peer, boolean typedPulls, int tag) {
        int n = 4096 / 8;
        for (boolean element : new boolean[] {false, true}) {
            String w = what(element, n) + (typedPulls ? " (strided pulls on)" : " (strided pulls off)");
            if (c.rank() % 2 == 0) {
                Mem out = sender(c, element, n, tag);
                c.recv(new int[1], 0, 1, Datatype.INT, peer, GO, null); // the receiver is about to sleep
                Request r = c.isend(out.buffer(), 0, 1, layout(element, n), peer, tag);
                long until = System.nanoTime() + 100_000_000L;
                boolean done = false;
                while (!done && System.nanoTime() < until) {
                    done = r.test();
                    Thread.yield();
                }
                check(done != typedPulls, "%s: the send %s while its receiver was outside the library", w,
                    done ? "completed" : "did not complete");
                r.waitFor();
            } else {
                c.send(new int[1], 0, 1, Datatype.INT, peer, GO);
                sleep(200);
                Mem in = Mem.array(Primitive.DOUBLE, n);
                Status st = c.recv(in.buffer(), 0, n, Datatype.DOUBLE, peer, tag);
                checkData(in, 0, n, peer, tag, element, w);
                checkStatus(st, peer, tag, 8L * n, w);
            }
            tag++;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
