package org.hympj.perf.fabric;

import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.perf.Rows;

/**
 * Rank program of {@code hympj-bench fabric-pingpong}: ping-pong between ranks 0 and 1 over
 * whatever fabric the launch forces, timed with {@link Comm#wtime()} (modelled time under a
 * model), buffers in the registered segment. Per size: a warm-up batch, then 5 timed batches
 * with a barrier before each; value = median batch of half round trips in µs; for sizes from
 * 64 KiB also the bandwidth (bytes / half round trip, GB/s).
 *
 * <pre>usage (2 ranks): FabricPingRank TEST LAYOUT REP VARIANT[,VARIANT...] SIZE...</pre>
 * Variants, run in this order within the launch:
 * <ul>
 * <li>{@code isend}: isend/irecv + wait, not persistent: on TCA the descriptors go through S5's
 * descriptor cache;</li>
 * <li>{@code blocking}: send/recv (the library plans these as persistent sends: /tmp/hympj-bugs.md);</li>
 * <li>{@code persistent}: sendInit/recvInit, startAll/waitAll; the descriptor mode follows the
 * chain of persistent TCA sends this rank has registered (register mode up to 16 per DMAC);</li>
 * <li>{@code persistent-internal}: first registers 64 more persistent sends (never started), so
 * the chain is past register mode: internal descriptors (17..1024 per DMAC);</li>
 * <li>{@code persistent-host}: first registers 4096 more: host descriptors (over 1024 per DMAC).</li>
 * </ul>
 * Layouts (sizes in bytes, multiples of 8: doubles): {@code block} (contiguous), {@code blockstride} (blocks of 64 doubles, or half
 * the message below 1 KiB, with equal gaps), {@code stride} (single doubles, stride 2). Prints
 * {@code hympj,TEST,VARIANT-LAYOUT,size,rep,value,us|GB/s} from rank 0.
 */
public final class FabricPingRank {
    static final int TAG = 77;
    static final int DUMMY_TAG = 78;

    private FabricPingRank() {
    }

    /** Warm-up and per-batch iterations for a size (the model makes large messages slow in real time). */
    static int[] iters(long size) {
        if (size <= 65536) {
            return new int[] {100, 200};
        } else if (size <= 1 << 20) {
            return new int[] {10, 20};
        }
        return new int[] {3, 5};
    }

    /** The datatype and count of a message of {@code size} bytes in a layout. */
    static Object[] shape(String layout, long size) {
        switch (layout) {
            case "block":
                if (size % 8 != 0) {
                    throw new IllegalArgumentException("sizes must be multiples of 8 (doubles), was " + size);
                }
                return new Object[] {Datatype.DOUBLE, (int) (size / 8)};
            case "blockstride": {
                if (size % 16 != 0) {
                    throw new IllegalArgumentException("blockstride needs sizes that are multiples of 16, was " + size);
                }
                int e = (int) (size / 8);
                int bl = Math.min(64, e / 2);
                return new Object[] {Datatype.DOUBLE.vector(e / bl, bl, 2 * bl), 1};
            }
            case "stride": {
                if (size % 8 != 0 || size < 16) {
                    throw new IllegalArgumentException("stride needs sizes that are multiples of 8, at least 16, was " + size);
                }
                return new Object[] {Datatype.DOUBLE.vector((int) (size / 8), 1, 2), 1};
            }
            default:
                throw new IllegalArgumentException("layout must be block, blockstride or stride, was " + layout);
        }
    }

    public static void main(String[] args) {
        String test = args[0];
        String layout = args[1];
        int rep = Integer.parseInt(args[2]);
        String[] variants = args[3].split(",");
        List<Long> sizes = new ArrayList<>();
        long max = 16;
        for (int a = 4; a < args.length; a++) {
            long s = Long.parseLong(args[a]);
            sizes.add(s);
            max = Math.max(max, s);
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (comm.size() != 2) {
                throw new IllegalStateException("fabric-pingpong needs exactly 2 ranks, the job has " + comm.size());
            }
            int rank = comm.rank();
            int peer = 1 - rank;
            // the send buffer spans twice the data for the strided layouts
            SegmentBuffer sbuf = comm.allocDoubles((int) (2 * max / 8));
            SegmentBuffer rbuf = comm.allocDoubles((int) (max / 8));
            List<PersistentRequest> dummies = new ArrayList<>();
            for (String variant : variants) {
                int extra = variant.equals("persistent-internal") ? 64 : variant.equals("persistent-host") ? 4096 : 0;
                for (int i = 0; i < extra; i++) {
                    dummies.add(comm.sendInit(sbuf, 0, 1, Datatype.DOUBLE, peer, DUMMY_TAG)); // registered, never started
                }
                for (long size : sizes) {
                    Object[] sh = shape(layout, size);
                    Datatype st = (Datatype) sh[0];
                    int sc = (Integer) sh[1];
                    Datatype rt = Datatype.DOUBLE;
                    int rc = (int) (size / 8);
                    double us = variant.equals("blocking") || variant.equals("isend")
                        ? blocking(comm, rank, sbuf, st, sc, rbuf, rt, rc, size, variant.equals("isend"))
                        : persistent(comm, rank, peer, sbuf, st, sc, rbuf, rt, rc, iters(size));
                    if (rank == 0) {
                        String v = variant + "-" + layout;
                        Rows.print(Rows.row(test, v, size, rep, us, 3, "us"));
                        if (size >= 65536) {
                            Rows.print(Rows.row(test, v, size, rep, size / us / 1000.0, 3, "GB/s"));
                        }
                    }
                }
            }
            for (PersistentRequest d : dummies) {
                d.free();
            }
        }
    }

    static double blocking(Comm comm, int rank, SegmentBuffer sbuf, Datatype st, int sc, SegmentBuffer rbuf,
                           Datatype rt, int rc, long size, boolean nonBlocking) {
        int[] wi = iters(size);
        double[] bt = new double[Rows.NBATCH];
        for (int b = -1; b < Rows.NBATCH; b++) {
            int n = b < 0 ? wi[0] : wi[1];
            comm.barrier();
            double t0 = comm.wtime();
            if (nonBlocking) {
                int peer = 1 - rank;
                for (int i = 0; i < n; i++) {
                    if (rank == 0) {
                        Request r = comm.irecv(rbuf, 0, rc, rt, peer, TAG);
                        comm.isend(sbuf, 0, sc, st, peer, TAG).waitFor();
                        r.waitFor();
                    } else {
                        comm.irecv(rbuf, 0, rc, rt, peer, TAG).waitFor();
                        comm.isend(sbuf, 0, sc, st, peer, TAG).waitFor();
                    }
                }
            } else if (rank == 0) {
                for (int i = 0; i < n; i++) {
                    comm.send(sbuf, 0, sc, st, 1, TAG);
                    comm.recv(rbuf, 0, rc, rt, 1, TAG, null);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    comm.recv(rbuf, 0, rc, rt, 0, TAG, null);
                    comm.send(sbuf, 0, sc, st, 0, TAG);
                }
            }
            double el = comm.wtime() - t0;
            if (b >= 0) {
                bt[b] = el * 1e6 / (2.0 * n);
            }
        }
        return Rows.median(bt);
    }

    /**
     * Persistent ping-pong (rank 0 starts both and waits for both; the peer receives, then
     * sends), a warm-up batch of {@code wi[0]} and {@link Rows#NBATCH} batches of {@code wi[1]}
     * round trips: the median batch's half round trip, µs (modelled under a model).
     */
    static double persistent(Comm comm, int rank, int peer, SegmentBuffer sbuf, Datatype st, int sc,
                             SegmentBuffer rbuf, Datatype rt, int rc, int[] wi) {
        double[] bt = new double[Rows.NBATCH];
        PersistentRequest rr = comm.recvInit(rbuf, 0, rc, rt, peer, TAG);
        PersistentRequest sr = comm.sendInit(sbuf, 0, sc, st, peer, TAG);
        PersistentRequest[] both = {rr, sr};
        try {
            for (int b = -1; b < Rows.NBATCH; b++) {
                int n = b < 0 ? wi[0] : wi[1];
                comm.barrier();
                double t0 = comm.wtime();
                if (rank == 0) {
                    for (int i = 0; i < n; i++) {
                        Request.startAll(both);
                        Request.waitAll(both);
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        rr.start();
                        rr.waitFor();
                        sr.start();
                        sr.waitFor();
                    }
                }
                double el = comm.wtime() - t0;
                if (b >= 0) {
                    bt[b] = el * 1e6 / (2.0 * n);
                }
            }
        } finally {
            rr.free();
            sr.free();
        }
        return Rows.median(bt);
    }
}
