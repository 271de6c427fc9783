package org.hympj.perf;

import java.util.List;
import java.util.Locale;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.SegmentBuffer;
import org.hympj.model.ArrayTimelines;
import org.hympj.model.DescriptorCache;
import org.hympj.model.Fabric;
import org.hympj.model.ModelParams;
import org.hympj.model.OneSidedTiming;
import org.hympj.model.Plan;
import org.hympj.model.TimingModel;
import org.hympj.model.Transfer;
import org.hympj.spi.Layout;

/**
 * Rank program of {@code bin/hympj-bench onesided} (S2): isend/irecv ping-pong latency and
 * window bandwidth between ranks 0 and 1, run by whichever point-to-point engine the job has
 * ({@code --p2p onesided} or the default two-sided one; the label comes from the launcher).
 *
 * <pre>usage (2 ranks): OneSidedBench p2p[=onesided|twosided] REP heap|segment SIZE...</pre>
 *
 * <p><b>Latency</b>, per size: with {@code hympj.bench.preposted} K = 0 (default) each side posts
 * its receive only when it needs it — rank 0: isend(ping), wait, irecv(pong), wait; rank 1:
 * irecv(ping), wait, isend(pong), wait — so under the one-sided engine every message waits for
 * its receiver's address notify, as S2's ping-pong: the ideal half round trip is one notify
 * plus one data put. With K &gt; 0 each side keeps K receives posted ahead (K buffers), so the
 * address is there before the send: the ideal is one put. Warm-up, then {@link Rows#NBATCH}
 * batches with a barrier before each; value = median batch of the half round trip in µs, timed
 * by {@link Comm#wtime} (modelled time under a model). The last message of every size is
 * checked (first and last byte). On virtual time (the default under a model) the one-sided
 * engine adds the model's polling delay per notice (docs/ONESIDED.md): pre-posted, one put plus
 * one delay; on demand, the ideal plus two.
 *
 * <p><b>Bandwidth</b>, sizes of 4 KiB and more: rank 0 isends a window of 64, rank 1 irecvs 64
 * (one buffer), both wait, rank 1 returns a 4-byte ack; MB/s (10^6 B/s), median batch.
 *
 * <p>Rows: {@code hympj,onesided-lat,ENGINE[-preK],SIZE,REP,us,us} and
 * {@code hympj,onesided-bw,ENGINE,SIZE,REP,MB/s,MB/s} (plus {@code -heap}/{@code -segment} when
 * both kinds run). Under a model rank 0 also prints S2's ideal from the model
 * ({@link #ideal}): {@code hympj,onesided-ideal,notify|put|ideal,SIZE,REP,us,us}.
 * Properties: {@code hympj.bench.iters} / {@code hympj.bench.warmup} override the counts;
 * {@code hympj.bench.bw=false} skips the bandwidth part.
 */
public final class OneSidedBench {
    static final int WINDOW = 64;
    static final int TAG = 7;
    static final int ACK_TAG = 8;
    /** {@code -Dhympj.bench.bw=false}: latency only. */
    static final boolean BANDWIDTH = !"false".equals(System.getProperty("hympj.bench.bw"));

    private OneSidedBench() {
    }

    /**
     * {warm-up, timed} half-round-trip iterations: the anchors' counts natively, fewer timed under
     * a model. The warm-up under a model is long for small sizes: the first sizes that take the
     * model's DMA path run its planning code for the first time, and with 100 warm-up iterations
     * their timed loop still ran before C2 had compiled it (4 KB at dilation 10: 8.5 modelled µs
     * against 5.0 after 2000; the real time of a slow round counts 1/dilation).
     */
    static int[] itersFor(long size, boolean model) {
        if (!model) {
            return PingPong.itersFor(size);
        }
        if (size <= 8192) {
            return new int[] {2000, 1000};
        } else if (size <= 65536) {
            return new int[] {200, 200};
        } else if (size <= 1048576) {
            return new int[] {5, 50};
        }
        return new int[] {2, 20};
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: OneSidedBench p2p[=onesided|twosided] REP heap|segment SIZE...");
        }
        String engineLabel = args[0].contains("=") ? args[0].substring(args[0].indexOf('=') + 1) : "default";
        int rep = Integer.parseInt(args[1]);
        List<BufferKind> kinds = BufferKind.parse(args[2]);
        int[] sizes = new int[args.length - 3];
        int maxsz = 1;
        for (int a = 3; a < args.length; a++) {
            sizes[a - 3] = Integer.parseInt(args[a]);
            maxsz = Math.max(maxsz, sizes[a - 3]);
        }
        int pre = Integer.getInteger("hympj.bench.preposted", 0);
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (comm.size() != 2) {
                throw new IllegalStateException("onesided needs exactly 2 ranks, the job has " + comm.size());
            }
            int rank = comm.rank();
            org.hympj.shm.emu.FabricTiming timing = mpj instanceof org.hympj.shm.ShmMpj
                ? ((org.hympj.shm.ShmMpj) mpj).engine().timing() : null;
            boolean model = timing != null;
            if (rank == 0) {
                // on virtual time no dilation applies; the one-sided engine's polling delay is the model's
                System.out.printf(Locale.ROOT, "# onesided: engine %s, preposted %d, model %s, %s%n",
                    engineLabel, pre, model ? timing.model().params().name() : "none",
                    !model ? "real time" : timing.virtual() ? String.format(Locale.ROOT,
                        "virtual clock, polling delay %.3f us", timing.model().pollDelay() / 1000.0)
                        : String.format(Locale.ROOT, "time dilation %.0f", timing.dilation()));
            }
            for (BufferKind kind : kinds) {
                String variant = engineLabel + (pre > 0 ? "-pre" + pre : "") + (kinds.size() > 1 ? "-" + kind.label() : "");
                int nbuf = Math.max(1, pre);
                Object sbuf = buffer(comm, kind, maxsz, (byte) 'a');
                Object[] rbufs = new Object[nbuf];
                for (int b = 0; b < nbuf; b++) {
                    rbufs[b] = buffer(comm, kind, maxsz, (byte) 'b');
                }
                if (Rows.PREPASS) {
                    latency(comm, rank, sbuf, rbufs, sizes[0], pre, model);
                }
                for (int size : sizes) {
                    double us = latency(comm, rank, sbuf, rbufs, size, pre, model);
                    if (rank == 0) {
                        Rows.print(Rows.row("onesided-lat", variant, size, rep, us, 3, "us"));
                        if (model) {
                            double[] id = ideal(timing.model(), kind, size);
                            Rows.print(Rows.row("onesided-ideal", "notify", size, rep, id[0] / 1000, 3, "us"));
                            Rows.print(Rows.row("onesided-ideal", "put", size, rep, id[1] / 1000, 3, "us"));
                            Rows.print(Rows.row("onesided-ideal", "ideal", size, rep, (id[0] + id[1]) / 1000, 3, "us"));
                        }
                    }
                }
                Object ack = kind == BufferKind.HEAP ? new int[1] : comm.alloc(Primitive.INT, 1);
                for (int size : sizes) {
                    if (size < 4096 || !BANDWIDTH) {
                        continue;
                    }
                    double mbs = bandwidth(comm, rank, rank == 0 ? sbuf : rbufs[0], ack, size, model);
                    if (rank == 0) {
                        Rows.print(Rows.row("onesided-bw", engineLabel + (kinds.size() > 1 ? "-" + kind.label() : ""),
                            size, rep, mbs, 1, "MB/s"));
                    }
                }
            }
        }
    }

    static Object buffer(Comm comm, BufferKind kind, int n, byte v) {
        if (kind == BufferKind.HEAP) {
            byte[] b = new byte[n];
            java.util.Arrays.fill(b, v);
            return b;
        }
        SegmentBuffer b = comm.alloc(Primitive.BYTE, n);
        PingPong.fill(b, v);
        return b;
    }

    private static byte byteAt(Object buf, int i) {
        return buf instanceof byte[] ? ((byte[]) buf)[i] : ((SegmentBuffer) buf).bytes().get(i);
    }

    private static void setByte(Object buf, int i, byte v) {
        if (buf instanceof byte[]) {
            ((byte[]) buf)[i] = v;
        } else {
            ((SegmentBuffer) buf).bytes().put(i, v);
        }
    }

    /** Median batch of the half round trip in µs; the receive buffers are checked after the last message. */
    static double latency(Comm comm, int rank, Object sbuf, Object[] rbufs, int size, int pre, boolean model) {
        int[] wi = itersFor(size, model);
        int warm = Integer.getInteger("hympj.bench.warmup", wi[0]);
        int per = Math.max(1, Integer.getInteger("hympj.bench.iters", wi[1]) / Rows.NBATCH);
        int peer = 1 - rank;
        int n = Math.max(1, size);
        for (Object r : rbufs) {
            setByte(r, 0, (byte) 'b');
            setByte(r, n - 1, (byte) 'b');
        }
        double[] bt = new double[Rows.NBATCH];
        Request[] posted = new Request[Math.max(1, pre)];
        int slot = 0;
        if (pre > 0) {
            for (int k = 0; k < pre; k++) {
                posted[k] = comm.irecv(rbufs[k], 0, size, Datatype.BYTE, peer, TAG);
            }
        }
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int iters = bch < 0 ? warm : per;
            comm.barrier();
            double t0 = comm.wtime();
            for (int i = 0; i < iters; i++) {
                if (pre == 0) {
                    if (rank == 0) {
                        comm.isend(sbuf, 0, size, Datatype.BYTE, peer, TAG).waitFor();
                        comm.irecv(rbufs[0], 0, size, Datatype.BYTE, peer, TAG).waitFor();
                    } else {
                        comm.irecv(rbufs[0], 0, size, Datatype.BYTE, peer, TAG).waitFor();
                        comm.isend(sbuf, 0, size, Datatype.BYTE, peer, TAG).waitFor();
                    }
                } else {
                    if (rank == 0) {
                        comm.isend(sbuf, 0, size, Datatype.BYTE, peer, TAG).waitFor();
                        posted[slot].waitFor();
                        posted[slot] = comm.irecv(rbufs[slot], 0, size, Datatype.BYTE, peer, TAG);
                    } else {
                        posted[slot].waitFor();
                        posted[slot] = comm.irecv(rbufs[slot], 0, size, Datatype.BYTE, peer, TAG);
                        comm.isend(sbuf, 0, size, Datatype.BYTE, peer, TAG).waitFor();
                    }
                    slot = (slot + 1) % pre;
                }
            }
            double el = comm.wtime() - t0;
            if (bch >= 0) {
                bt[bch] = el * 1e6 / (2.0 * iters);
            }
        }
        if (pre > 0) {
            // drain the receives still posted: K more messages each way (untimed)
            for (int k = 0; k < pre; k++) {
                if (rank == 0) {
                    comm.isend(sbuf, 0, size, Datatype.BYTE, peer, TAG).waitFor();
                    posted[slot].waitFor();
                } else {
                    posted[slot].waitFor();
                    comm.isend(sbuf, 0, size, Datatype.BYTE, peer, TAG).waitFor();
                }
                slot = (slot + 1) % pre;
            }
        }
        for (Object r : rbufs) {
            if (byteAt(r, 0) != 'a' || byteAt(r, n - 1) != 'a') {
                throw new IllegalStateException("onesided: rank " + rank + " size " + size
                    + ": the received data is wrong (first/last byte " + byteAt(r, 0) + "/" + byteAt(r, n - 1) + ")");
            }
        }
        return Rows.median(bt);
    }

    /** Median batch rate in MB/s of a window of 64 messages plus a 4-byte ack. */
    static double bandwidth(Comm comm, int rank, Object buf, Object ack, int size, boolean model) {
        int warm = size <= 65536 ? 2 : 1;
        int iters = model ? (size <= 65536 ? 10 : 5) : (size <= 65536 ? 100 : (size <= 1048576 ? 40 : 20));
        int per = Math.max(1, iters / Rows.NBATCH);
        double[] bt = new double[Rows.NBATCH];
        Request[] req = new Request[WINDOW];
        for (int bch = -1; bch < Rows.NBATCH; bch++) {
            int n = bch < 0 ? warm : per;
            comm.barrier();
            double t0 = comm.wtime();
            for (int i = 0; i < n; i++) {
                if (rank == 0) {
                    for (int w = 0; w < WINDOW; w++) {
                        req[w] = comm.isend(buf, 0, size, Datatype.BYTE, 1, TAG);
                    }
                    Request.waitAll(req);
                    comm.irecv(ack, 0, 1, Datatype.INT, 1, ACK_TAG).waitFor();
                } else {
                    for (int w = 0; w < WINDOW; w++) {
                        req[w] = comm.irecv(buf, 0, size, Datatype.BYTE, 0, TAG);
                    }
                    Request.waitAll(req);
                    comm.isend(ack, 0, 1, Datatype.INT, 0, ACK_TAG).waitFor();
                }
            }
            double el = comm.wtime() - t0;
            if (bch >= 0) {
                bt[bch] = (double) size * WINDOW * n / el / 1e6;
            }
        }
        return Rows.median(bt);
    }

    /**
     * S2's ideal from the model, in modelled ns: {notify, put} = the duration of a 32-byte
     * address write (over TCA, or IB when ranks 0 and 1 are in different subclusters) from rank 1 to rank 0 (as the one-sided engine plans it: segment to segment)
     * and of the {@code size}-byte data put from rank 0 to rank 1 (a non-persistent isend, its
     * descriptor already in the cache: planned until the cache has promoted it; from the heap
     * into the receiver's staging area for heap buffers, segment to segment otherwise), each on
     * empty {@link ArrayTimelines}.
     */
    public static double[] ideal(TimingModel model, BufferKind kind, long size) {
        ModelParams p = model.params();
        Plan plan = new Plan();
        int[] path = new int[Math.max(4, model.topology().maxHops() + 2)];
        // the fabric the one-sided engine takes: TCA inside a subcluster, IB across
        Fabric f = OneSidedTiming.fabric(model.topology(), 0, 1);
        Transfer notify = OneSidedTiming.address(new Transfer(), f, 1, 0);
        model.plan(notify, 0, new ArrayTimelines(model.topology().resources()), null, path, plan);
        double n = plan.visibleAt;
        DescriptorCache cache = new DescriptorCache(DescriptorCache.policy(p.string("tca.cache.policy", "lru")),
            (int) p.count("tca.cache.entries", 64), (int) p.count("tca.cache.promote.after", 4));
        Transfer put = new Transfer().set(f, 0, 1, size, Layout.CONTIGUOUS, 1, size);
        put.mode = kind == BufferKind.HEAP ? Transfer.Mode.BTOM : Transfer.Mode.MTOM;
        put.persistent = false;
        put.cacheKey = (1L * 31 + size) * 31 + 7;
        double d = 0;
        for (int i = 0; i < 16; i++) { // until the descriptor is promoted (and stays): the steady state
            model.plan(put, 0, new ArrayTimelines(model.topology().resources()), cache, path, plan);
            d = plan.visibleAt;
        }
        return new double[] {n, d};
    }
}
