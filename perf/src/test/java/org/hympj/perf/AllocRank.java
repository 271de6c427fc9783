package org.hympj.perf;

import java.lang.management.ManagementFactory;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;

/**
 * Rank program of {@link AllocationTest} (2 ranks): measures the bytes this thread allocates
 * per iteration of the eager-size hot paths, after a warm-up that lets the JIT compile them.
 * For each buffer kind (heap, segment) and each case (blocking send/recv of 8 B and 4 KB with
 * a preallocated Status; persistent start/wait of 8 B and 4 KB with Request.startAll +
 * Request.waitAll over a preallocated array), and (heap only) persistent collectives (an 8-byte
 * allreduceInit and a 4 KB bcastInit, start + waitFor) prints
 * {@code alloc,<kind>,<case>,<rank>,<window>,<bytes>,<iterations>} for {@link #WINDOWS} windows.
 *
 * <pre>usage: AllocRank WARMUP ITERATIONS</pre>
 */
public final class AllocRank {
    static final int WINDOWS = 2;

    private AllocRank() {
    }

    public static void main(String[] args) {
        int warm = Integer.parseInt(args[0]);
        int iters = Integer.parseInt(args[1]);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!mx.isThreadAllocatedMemorySupported() || !mx.isThreadAllocatedMemoryEnabled()) {
            throw new IllegalStateException("this JVM does not measure per-thread allocation");
        }
        long tid = Thread.currentThread().getId();
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            int rank = comm.rank();
            int peer = 1 - rank;
            for (BufferKind kind : BufferKind.values()) {
                Object sbuf = kind == BufferKind.HEAP ? new byte[4096] : comm.alloc(Primitive.BYTE, 4096);
                Object rbuf = kind == BufferKind.HEAP ? new byte[4096] : comm.alloc(Primitive.BYTE, 4096);
                Status status = new Status();
                for (int size : new int[] {8, 4096}) {
                    String name = "blocking-" + size;
                    for (int w = -1; w < WINDOWS; w++) {
                        int n = w < 0 ? warm : iters;
                        comm.barrier();
                        long a0 = mx.getThreadAllocatedBytes(tid);
                        if (rank == 0) {
                            for (int i = 0; i < n; i++) {
                                comm.send(sbuf, 0, size, Datatype.BYTE, peer, 7);
                                comm.recv(rbuf, 0, size, Datatype.BYTE, peer, 7, status);
                            }
                        } else {
                            for (int i = 0; i < n; i++) {
                                comm.recv(rbuf, 0, size, Datatype.BYTE, peer, 7, status);
                                comm.send(sbuf, 0, size, Datatype.BYTE, peer, 7);
                            }
                        }
                        long a1 = mx.getThreadAllocatedBytes(tid);
                        if (w >= 0) {
                            report(kind, name, rank, w, a1 - a0, n);
                        }
                    }
                    if (status.bytes() != size || status.source() != peer) {
                        throw new IllegalStateException(name + ": wrong status " + status);
                    }
                }
                for (int size : new int[] {8, 4096}) {
                    String name = "persistent-" + size;
                    PersistentRequest[] req = {
                        comm.recvInit(rbuf, 0, size, Datatype.BYTE, peer, 9),
                        comm.sendInit(sbuf, 0, size, Datatype.BYTE, peer, 9)
                    };
                    for (int w = -1; w < WINDOWS; w++) {
                        int n = w < 0 ? warm : iters;
                        comm.barrier();
                        long a0 = mx.getThreadAllocatedBytes(tid);
                        for (int i = 0; i < n; i++) {
                            Request.startAll(req);
                            Request.waitAll(req);
                        }
                        long a1 = mx.getThreadAllocatedBytes(tid);
                        if (w >= 0) {
                            report(kind, name, rank, w, a1 - a0, n);
                        }
                    }
                    if (req[0].status().bytes() != size) {
                        throw new IllegalStateException(name + ": wrong status " + req[0].status());
                    }
                    req[0].free();
                    req[1].free();
                }
            }
            persistentCollectives(comm, rank, warm, iters, mx, tid);
        }
    }

    /**
     * Persistent collectives (MPI-4), heap buffers: start + wait of an 8-byte allreduce and of a
     * 4 KB broadcast, each made once by its init; the data change at every start. The broadcast's
     * root alternates between two persistent requests (root 0, root 1): with one root, the root's
     * eager sends complete at once and it runs ahead of its receiver without bound, and the
     * receiver's queue of unexpected messages grows — its growth allocates (a record and its copy
     * per message beyond the deepest queue so far), not the path of a message. Between 2 local
     * hosts that growth showed in both measured windows (CI, session 16: 64–137 bytes per
     * iteration at the receiver); alternating the root keeps the two ranks in step.
     */
    static void persistentCollectives(Comm comm, int rank, int warm, int iters,
                                      com.sun.management.ThreadMXBean mx, long tid) {
        double[] in = new double[1];
        double[] out = new double[1];
        byte[] data = new byte[4096];
        PersistentRequest allreduce = comm.allreduceInit(in, 0, out, 0, 1, Datatype.DOUBLE, org.hympj.api.Op.SUM);
        PersistentRequest[] bcast = {
            comm.bcastInit(data, 0, data.length, Datatype.BYTE, 0),
            comm.bcastInit(data, 0, data.length, Datatype.BYTE, 1 % comm.size())
        };
        PersistentRequest[][] cases = {{allreduce, allreduce}, bcast};
        String[] names = {"coll-allreduce-8", "coll-bcast-4096"};
        for (int c = 0; c < cases.length; c++) {
            for (int w = -1; w < WINDOWS; w++) {
                int n = w < 0 ? warm : iters;
                comm.barrier();
                long a0 = mx.getThreadAllocatedBytes(tid);
                for (int i = 0; i < n; i++) {
                    in[0] = i;
                    data[0] = (byte) i;
                    PersistentRequest r = cases[c][i & 1];
                    r.start();
                    r.waitFor();
                }
                long a1 = mx.getThreadAllocatedBytes(tid);
                if (w >= 0) {
                    report(BufferKind.HEAP, names[c], rank, w, a1 - a0, n);
                }
            }
        }
        if (out[0] != 2.0 * (iters - 1) || data[0] != (byte) (iters - 1)) {
            throw new IllegalStateException("persistent collectives: wrong result " + out[0] + ", " + data[0]);
        }
        allreduce.free();
        bcast[0].free();
        bcast[1].free();
    }

    static void report(BufferKind kind, String name, int rank, int window, long bytes, int n) {
        System.out.println("alloc," + kind.label() + "," + name + "," + rank + "," + window + "," + bytes + "," + n);
        System.out.flush();
    }
}
