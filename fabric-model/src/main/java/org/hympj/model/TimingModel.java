package org.hympj.model;

import org.hympj.spi.Layout;

/**
 * The physics of the emulated fabrics: given a transfer issued at a modelled time, it picks
 * the protocol, books the engines and links the transfer uses on the {@link Timelines}
 * (other transfers wait for them: contention), and says when the sender is done and when the
 * data is visible at the receiver. Pure: no I/O, no clock; the emulator and the simulator
 * run the very same instance code.
 *
 * <p>Links have their own bandwidth: a link carries {@code bytes/linkBandwidth} of a
 * transfer's time, an engine {@code overhead + bytes/engineBandwidth}. Engines are held for
 * their whole work, in the first idle gap long enough for it (a transfer planned later may run
 * before one planned earlier: ranks plan when they call, not when their transfers run); each
 * link (TCA hop, IB uplink and downlink) carries the work of its transfers in its idle time,
 * independently of the others, as packet forwarding does (no circuit through a multi-hop
 * path, no adapter idling behind a busy destination): a transfer's data has arrived when its
 * slowest link is through. Where a link carries more than one engine pushes, a second put
 * starts on another engine at once and its data follows the first's on the link (S3's link
 * sharing): two 8 KiB puts on one tofu link end at 4.28 µs, as in RSched's bandwidth-sharing
 * simulator. A plan holds the timelines' lock, so concurrent planners (the ranks of an
 * emulated job) never lose a booking.
 */
public final class TimingModel {
    private final ModelParams params;
    private final NetTopology topo;
    // TCA
    private final long pioLimit;
    private final double pioLatency;
    private final double pioBw;
    private final double dmaRegister;
    private final double dmaInternal;
    private final double dmaHost;
    private final int registerMax;
    private final int internalMax;
    private final double dmaBw;
    private final double tcaLinkBw;
    private final double hopLatency;
    private final double burstCost;
    private final double tcaPackElement;
    private final double buildCost;
    private final double bounceBw;
    // IB
    private final double ibLatency;
    private final double ibBw;
    private final long ibEagerLimit;
    private final double ibRndv;
    private final long gdrDirectLimit;
    private final long gdrPipeline;
    private final double stageBw;
    private final long chunk;
    private final double ibPackElement;
    private final double ibPackBlock;
    private final double ibPackFixed;
    private final double directBw;
    private final double ibLinkBw;
    private final boolean hasIb;
    /** Transfers up to this size interleave with what a link or adapter carries (see {@link #cutIn}). */
    private final long packetLimit;
    /** The one-sided engine's polling delay (S2), ns. */
    private final long pollDelay;

    public TimingModel(ModelParams p, NetTopology topo) {
        this.params = p;
        this.topo = topo;
        pioLimit = p.count("tca.pio.limit");
        pioLatency = p.ns("tca.pio.latency");
        pioBw = p.bytesPerNs("tca.pio.bandwidth");
        dmaRegister = p.ns("tca.dma.latency.register");
        dmaInternal = p.ns("tca.dma.latency.internal");
        dmaHost = p.ns("tca.dma.latency.host");
        registerMax = (int) p.count("tca.dma.register.max");
        internalMax = (int) p.count("tca.dma.internal.max");
        dmaBw = p.bytesPerNs("tca.dma.bandwidth");
        tcaLinkBw = p.bytesPerNs("tca.link.bandwidth");
        hopLatency = p.ns("tca.hop.latency");
        burstCost = p.ns("tca.blockstride.burst.cost");
        tcaPackElement = p.ns("tca.pack.element.cost");
        buildCost = p.ns("tca.descriptor.build.cost");
        bounceBw = p.bytesPerNs("tca.bounce.bandwidth");
        hasIb = p.string("fabrics", "tca,ib").contains("ib");
        ibLatency = hasIb ? p.ns("ib.latency") : 0;
        ibBw = hasIb ? p.bytesPerNs("ib.bandwidth") : 1;
        ibEagerLimit = hasIb ? p.count("ib.eager.limit") : 0;
        ibRndv = hasIb ? p.ns("ib.rndv.cost") : 0;
        gdrDirectLimit = hasIb ? p.count("ib.gdr.direct.limit") : 0;
        gdrPipeline = hasIb ? p.count("ib.gdr.pipeline.threshold") : 0;
        stageBw = hasIb ? p.bytesPerNs("ib.stage.bandwidth") : 1;
        chunk = hasIb ? p.count("ib.pipeline.chunk") : 1;
        ibPackElement = hasIb ? p.ns("ib.pack.element.cost") : 0;
        ibPackBlock = hasIb ? p.ns("ib.pack.block.cost") : 0;
        ibPackFixed = hasIb ? p.ns("ib.pack.fixed.cost") : 0;
        directBw = hasIb ? p.bytesPerNs("ib.gdr.direct.bandwidth") : 1;
        ibLinkBw = hasIb ? p.bytesPerNs("ib.link.bandwidth") : 1;
        packetLimit = p.count("link.packet.limit", 4096);
        pollDelay = p.has("onesided.poll.delay") ? Math.round(p.ns("onesided.poll.delay")) : 0;
    }

    public ModelParams params() {
        return params;
    }

    public NetTopology topology() {
        return topo;
    }

    public boolean hasIb() {
        return hasIb;
    }

    /**
     * The one-sided engine's polling delay (S2's polling thread; docs/ONESIDED.md), in ns: an
     * entry that lands in a rank's memory — an address in its Remote Address Buffer, a flag in its
     * complete buffer, the last write of its own put's chain — is acted on this long after it
     * lands. 0 when the model does not set {@code onesided.poll.delay}.
     */
    public long pollDelay() {
        return pollDelay;
    }

    /**
     * Plans {@code t} issued at modelled time {@code now}; books its resources on {@code tl}
     * (holding the timelines' lock while it reads and books them).
     */
    public Plan plan(Transfer t, long now, Timelines tl, DescriptorCache cache, int[] pathScratch, Plan out) {
        tl.lock();
        try {
            if (t.fabric == Fabric.IB) {
                return planIb(t, now, tl, out);
            }
            return planTca(t, now, tl, cache, pathScratch, out);
        } finally {
            tl.unlock();
        }
    }

    private Plan planTca(Transfer t, long now, Timelines tl, DescriptorCache cache, int[] path, Plan out) {
        int hops = topo.hops(t.src, t.dst);
        double extraHops = Math.max(0, hops - 1) * hopLatency;
        if (t.layout == Layout.CONTIGUOUS && t.bytes <= pioLimit) {
            // PIO: the CPU stores straight into the remote window; no engine
            long vis = now + Math.round(pioLatency + t.bytes / pioBw + extraHops);
            out.start = now;
            out.senderDone = vis;
            out.visibleAt = vis;
            out.engine = -1;
            out.link = -1;
            out.protocol = "tca-pio";
            return out;
        }
        boolean packed = t.layout == Layout.ELEMENT_STRIDE;
        double pack = packed ? t.elements * tcaPackElement : 0;
        double sendBounce = (t.mode == Transfer.Mode.BTOB || t.mode == Transfer.Mode.BTOM) ? t.bytes / bounceBw : 0;
        double recvBounce = (t.mode == Transfer.Mode.BTOB || t.mode == Transfer.Mode.MTOB) ? t.bytes / bounceBw : 0;
        double startCost;
        String proto;
        if (t.persistent) {
            if (t.chainLength <= registerMax) {
                startCost = dmaRegister;
                proto = "tca-dma-register";
            } else if (t.chainLength <= internalMax) {
                startCost = dmaInternal;
                proto = "tca-dma-internal";
            } else {
                startCost = dmaHost;
                proto = "tca-dma-host";
            }
        } else {
            DescriptorCache.Where w = cache == null ? DescriptorCache.Where.HOST : cache.use(t.cacheKey);
            if (w == DescriptorCache.Where.INTERNAL) {
                startCost = dmaInternal;
                proto = "tca-dma-internal";
            } else if (w == DescriptorCache.Where.HOST) {
                startCost = dmaHost;
                proto = "tca-dma-host";
            } else {
                startCost = dmaHost + buildCost;
                proto = "tca-dma-host-new";
            }
        }
        double bursts = t.layout == Layout.BLOCK_STRIDE ? t.blocks * burstCost : 0;
        long engineNs = Math.round(startCost + t.bytes / dmaBw + bursts);
        double linkTime = t.bytes / tcaLinkBw;
        long ready = now + Math.round(pack + sendBounce);
        int n = topo.path(t.src, t.dst, path);
        // The send engine (a scheduler's, or the first free one) is held for the put's whole work,
        // in the first idle gap that holds it.
        int sendBase = topo.engine(t.src, 0);
        int engine = t.engineHint >= 0 ? sendBase + t.engineHint % topo.engines()
            : firstFit(tl, sendBase, topo.engines(), 0, topo.engines(), ready, engineNs);
        long start = tl.fit(engine, ready, engineNs);
        // Each link of the path carries the work of its transfers independently of the others
        // (PEACH2 forwards packets; a multi-hop put is not a circuit), in whatever idle time it
        // has from the moment the data can enter it (the end of the access overhead). The engine
        // cannot push faster than its first link drains, so it is held until that link has
        // carried the data; the data is all there when the slowest link is through.
        long dataFrom = start + Math.round(startCost);
        long linkTimeNs = Math.round(linkTime);
        long arrived = 0;
        long firstLinkEnd = 0;
        boolean small = t.bytes <= packetLimit;
        for (int i = 0; i < n; i++) {
            long end = small ? cutIn(tl, path[i], dataFrom, linkTimeNs) : tl.fill(path[i], dataFrom, linkTimeNs);
            if (i == 0) {
                firstLinkEnd = end;
            }
            arrived = Math.max(arrived, end);
        }
        long engineEnd = Math.max(start + engineNs, firstLinkEnd);
        tl.book(engine, start, engineEnd);
        // Under the tofu model the destination's receive engine writes the data at engine speed.
        // Puts meeting on one receive engine share it packet by packet (its work fills its idle
        // time) rather than one waiting for the other's whole put: a put that arrives off its
        // schedule (ranks start an exchange microseconds apart) slows, it does not queue. A
        // scheduler's receive engine is taken when it is as free as any (S3: the sender picks it).
        if (topo.recvEngines() > 0) {
            int recvBase = topo.recvEngine(t.dst, 0);
            int recvFirst = t.recvEngineHint >= 0 ? t.recvEngineHint % topo.recvEngines() : 0;
            long recvWork = Math.round(t.bytes / dmaBw);
            int recvEngine = firstFit(tl, recvBase, topo.recvEngines(), recvFirst, topo.recvEngines(), dataFrom, recvWork);
            arrived = Math.max(arrived, small ? cutIn(tl, recvEngine, dataFrom, recvWork)
                : tl.fill(recvEngine, dataFrom, recvWork));
        }
        long dataEnd = Math.max(engineEnd, arrived);
        out.start = start;
        out.senderDone = engineEnd;
        out.visibleAt = dataEnd + Math.round(extraHops + (packed ? t.elements * tcaPackElement : 0) + recvBounce);
        out.engine = engine;
        out.link = n > 0 ? path[0] : -1;
        out.protocol = packed ? Names.of(proto, "-packed") : t.layout == Layout.BLOCK_STRIDE
            ? Names.of(proto, "-blockstride") : proto;
        return out;
    }

    private Plan planIb(Transfer t, long now, Timelines tl, Plan out) {
        if (!hasIb) {
            throw new IllegalStateException("model " + params.name() + " has no InfiniBand fabric");
        }
        boolean packed = t.layout != Layout.CONTIGUOUS; // MVAPICH2 packs every non-contiguous type
        double pack = packed ? ibPackFixed + t.elements * ibPackElement + t.blocks * ibPackBlock : 0;
        double rndv = t.bytes > ibEagerLimit ? ibRndv : 0;
        double stage;
        double wire;
        String proto;
        if (t.bytes <= gdrDirectLimit) {
            stage = 0;
            wire = t.bytes / directBw;  // GPUDirect RDMA reads are slow through the PCIe root (why GDR stages above 8 KB)
            proto = "ib-direct";
        } else if (t.bytes < gdrPipeline) {
            stage = 2 * t.bytes / stageBw; // device->host at the sender, host->device at the receiver
            wire = t.bytes / ibBw;
            proto = "ib-staged";
        } else {
            long c = Math.min(chunk, t.bytes);
            stage = 2 * c / stageBw;       // pipeline fill and drain; the rest overlaps the wire
            wire = t.bytes / Math.min(ibBw, stageBw);
            proto = "ib-pipelined";
        }
        long ready = now + Math.round(pack);
        int hca = topo.ibHca(t.src);
        int up = topo.ibUp(t.src);
        int down = topo.ibDown(t.dst);
        // the adapter, the sender's uplink and the receiver's downlink each carry their own work
        // (a switch buffers; a busy destination does not hold the adapter idle)
        long linkNs = Math.round(t.bytes / ibLinkBw);
        long hcaNs = Math.round(rndv + stage + wire);
        long start;
        long hcaEnd;
        long dataEnd;
        if (t.bytes <= packetLimit) {
            // a few packets: they interleave with the bulk transfers on the adapter and links
            start = ready;
            long wireFrom = start + Math.round(rndv);
            long upEnd = cutIn(tl, up, wireFrom, linkNs);
            long downEnd = cutIn(tl, down, wireFrom, linkNs);
            hcaEnd = Math.max(cutIn(tl, hca, start, hcaNs), upEnd);
            dataEnd = Math.max(hcaEnd, downEnd);
        } else {
            start = tl.fit(hca, ready, hcaNs);
            long wireFrom = start + Math.round(rndv);
            long upEnd = tl.fill(up, wireFrom, linkNs);
            long downEnd = tl.fill(down, wireFrom, linkNs);
            hcaEnd = Math.max(start + hcaNs, upEnd);
            tl.book(hca, start, hcaEnd);
            dataEnd = Math.max(hcaEnd, downEnd);
        }
        out.start = start;
        out.senderDone = hcaEnd;
        out.visibleAt = dataEnd + Math.round(ibLatency + pack);  // pack term here is the receiver's unpack
        out.engine = hca;
        out.link = up;
        out.protocol = Names.of(t.bytes > ibEagerLimit ? "ib-rndv-" : "ib-eager-", proto, packed ? "-packed" : "");
        return out;
    }

    /**
     * Of the {@code size} resources from {@code base}, looking at {@code n} of them from index
     * {@code first} round, the one free soonest at or after {@code from} for {@code d} (ties: the
     * first looked at).
     */
    private static int firstFit(Timelines tl, int base, int size, int first, int n, long from, long d) {
        int best = base + first;
        long bt = tl.fit(best, from, d);
        for (int i = 1; i < n && bt > from; i++) {
            int res = base + (first + i) % size;
            long v = tl.fit(res, from, d);
            if (v < bt) {
                bt = v;
                best = res;
            }
        }
        return best;
    }

    /**
     * A transfer of a few packets does not queue behind the bulk a resource already carries:
     * packets of different transfers interleave (a switch port, a PCIe link, an adapter's queue
     * pairs), so it takes {@code duration} from {@code from}; its time is booked (joined with
     * whatever it overlaps) so that bulk planned later does not count it as idle.
     */
    private static long cutIn(Timelines tl, int res, long from, long duration) {
        tl.book(res, from, from + duration);
        return from + duration;
    }

    /** Protocol names built once (planning allocates nothing per message). */
    private static final class Names {
        private static final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.ConcurrentHashMap<String,
            String>> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

        static String of(String a, String b) {
            java.util.concurrent.ConcurrentHashMap<String, String> m = CACHE.get(a);
            String n = m == null ? null : m.get(b);
            if (n != null) {
                return n; // the steady state: two lookups, no allocation
            }
            return CACHE.computeIfAbsent(a, k -> new java.util.concurrent.ConcurrentHashMap<>())
                .computeIfAbsent(b, k -> a + b);
        }

        static String of(String a, String b, String c) {
            return of(of(a, b), c);
        }
    }
}
