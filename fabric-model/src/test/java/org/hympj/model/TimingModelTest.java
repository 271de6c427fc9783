package org.hympj.model;

import org.hympj.spi.Layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The timing model, pure: durations, hops, protocols, contention. Expected values are derived from the parameters. */
class TimingModelTest {
    private static final ModelParams HA = ModelParams.load("ha-pacs");

    private static NetTopology rings(int size, int subcluster) {
        return new NetTopology(size, subcluster, false, null, 4, 0);
    }

    private static Plan plan(TimingModel m, Timelines tl, Transfer t, long now) {
        return m.plan(t, now, tl, null, new int[16], new Plan());
    }

    private static Transfer contiguous(Fabric f, int src, int dst, long bytes) {
        Transfer t = new Transfer().set(f, src, dst, bytes, Layout.CONTIGUOUS, 1, bytes / 8);
        t.persistent = true;
        t.chainLength = 100; // internal descriptors
        t.mode = Transfer.Mode.MTOM;
        return t;
    }

    @Test
    void ringHopsTakeTheShorterWayAndStayInsideTheSubcluster() {
        NetTopology t = rings(16, 8);
        assertEquals(0, t.hops(3, 3));
        assertEquals(1, t.hops(0, 1));
        assertEquals(1, t.hops(0, 7), "0 and 7 are neighbours on a ring of 8");
        assertEquals(4, t.hops(0, 4));
        assertEquals(3, t.hops(9, 14));
        assertTrue(t.tcaReaches(8, 15));
        assertFalse(t.tcaReaches(7, 8), "different subclusters");
        int[] path = new int[8];
        assertEquals(3, t.path(9, 14, path));
    }

    @Test
    void torusRoutesDimensionOrder() {
        NetTopology t = new NetTopology(12, 12, true, new int[] {4, 3}, 4, 4);
        assertEquals(2, t.hops(0, 4), "(0,0)->(1,1): one hop in x, one in y");
        assertEquals(1, t.hops(0, 9), "x wraps: (0,0)->(3,0)");
        assertTrue(t.tcaReaches(0, 11));
        assertEquals(2, t.path(0, 4, new int[4]));
        int[] path = new int[4];
        t.path(0, 4, path);
        assertEquals("r0.x+", t.linkName(path[0]), "x first, leaving rank 0");
        assertEquals("r3.y+", t.linkName(path[1]), "then y, leaving (1,0) = rank 3");
        t.path(0, 9, path);
        assertEquals("r0.x-", t.linkName(path[0]), "the shorter way round: -x");
        NetTopology r = rings(4, 4);
        r.path(1, 0, path);
        assertEquals("r1.-", r.linkName(path[0]));
        assertEquals("r2.ib-up", r.linkName(r.ibUp(2)));
        assertEquals("r3.ib-down", r.linkName(r.ibDown(3)));
        assertEquals("link" + r.engine(0, 1), r.linkName(r.engine(0, 1)), "an engine is no link");
    }

    @Test
    void pioForTinyPutsDmaAboveTheLimitAndTheBaseFiguresOfS5() {
        TimingModel m = new TimingModel(HA, rings(2, 2));
        ArrayTimelines tl = new ArrayTimelines(rings(2, 2).resources());
        Plan pio = plan(m, tl, contiguous(Fabric.TCA, 0, 1, 8), 0);
        assertEquals("tca-pio", pio.protocol);
        assertEquals(HA.ns("tca.pio.latency") + 8 / HA.bytesPerNs("tca.pio.bandwidth"), pio.visibleAt, 1.0);
        assertEquals(900, pio.visibleAt, 90, "S5: PIO latency 0.9 us");
        Plan dma = plan(m, new ArrayTimelines(rings(2, 2).resources()), contiguous(Fabric.TCA, 0, 1, 256), 0);
        assertEquals("tca-dma-internal", dma.protocol);
        assertEquals(2000 + 256 / 3.5, dma.visibleAt, 2.0, "S5: DMA 2.0 us with internal descriptors");
        long big = 4L << 20;
        Plan bw = plan(m, new ArrayTimelines(rings(2, 2).resources()), contiguous(Fabric.TCA, 0, 1, big), 0);
        assertEquals(3.5, (double) big / (bw.visibleAt - 2000), 0.01, "S5: DMA bandwidth 3.5 GB/s");
    }

    @Test
    void descriptorModeFollowsChainLengthForPersistentTraffic() {
        TimingModel m = new TimingModel(HA, rings(2, 2));
        Transfer t = contiguous(Fabric.TCA, 0, 1, 1024);
        t.chainLength = 16;
        assertEquals("tca-dma-register", plan(m, new ArrayTimelines(64), t, 0).protocol);
        t.chainLength = 17;
        assertEquals("tca-dma-internal", plan(m, new ArrayTimelines(64), t, 0).protocol);
        t.chainLength = 1025;
        Plan host = plan(m, new ArrayTimelines(64), t, 0);
        assertEquals("tca-dma-host", host.protocol);
        assertEquals(2200 + 1024 / 3.5, host.visibleAt, 2.0, "S5: 2.2 us with host descriptors");
    }

    @Test
    void extraHopsAddHopLatency() {
        NetTopology topo = rings(8, 8);
        TimingModel m = new TimingModel(HA, topo);
        long one = plan(m, new ArrayTimelines(topo.resources()), contiguous(Fabric.TCA, 0, 1, 4096), 0).visibleAt;
        long four = plan(m, new ArrayTimelines(topo.resources()), contiguous(Fabric.TCA, 0, 4, 4096), 0).visibleAt;
        assertEquals(3 * HA.ns("tca.hop.latency"), four - one, 1.0);
    }

    @Test
    void transfersSharingAnEngineOrLinkWaitForIt() {
        NetTopology topo = rings(4, 4);
        TimingModel m = new TimingModel(HA, topo);
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        long bytes = 1 << 20;
        Plan first = plan(m, tl, contiguous(Fabric.TCA, 0, 1, bytes), 0);
        Plan second = plan(m, tl, contiguous(Fabric.TCA, 0, 1, bytes), 0);
        // a second engine is free and starts at once; its data follows the first put's on the link
        double linkTime = bytes / HA.bytesPerNs("tca.link.bandwidth");
        assertEquals(0, second.start);
        assertTrue(second.engine != first.engine, "the second put takes another DMAC");
        assertEquals(2000 + 2 * linkTime, second.visibleAt, 2.0, "the link carries both puts back to back");
        // two engines sharing one link finish sooner than one engine doing both (S3's observation)
        long oneEngine = first.senderDone + (first.senderDone - first.start);
        assertTrue(second.senderDone < oneEngine, second.senderDone + " < " + oneEngine);
        // a transfer on disjoint resources does not wait
        Plan other = plan(m, tl, contiguous(Fabric.TCA, 2, 3, bytes), 0);
        assertEquals(0, other.start);
    }

    @Test
    void aMultiHopPutIsNoCircuitEachLinkCarriesItsOwnLoad() {
        NetTopology topo = rings(8, 8);
        TimingModel m = new TimingModel(HA, topo);
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        long bytes = 1 << 20;
        double linkTime = bytes / HA.bytesPerNs("tca.link.bandwidth");
        double hop = HA.ns("tca.hop.latency");
        Plan a = plan(m, tl, contiguous(Fabric.TCA, 0, 2, bytes), 0); // links 0+, 1+
        Plan b = plan(m, tl, contiguous(Fabric.TCA, 1, 3, bytes), 0); // links 1+, 2+: shares 1+
        Plan c = plan(m, tl, contiguous(Fabric.TCA, 2, 3, bytes), 0); // link 2+: shared with b's second hop
        assertEquals(0, b.start, "b's engine does not wait for a's path");
        assertEquals(2000 + 2 * linkTime + hop, b.visibleAt, 2.0, "b's data follows a's on link 1+ only");
        assertEquals(2000 + 2 * linkTime, c.visibleAt, 2.0, "c follows b on link 2+, no longer");
        assertEquals(a.senderDone + hop, a.visibleAt, 2.0, "a itself is not slowed");
    }

    @Test
    void aTransferPlannedLaterTakesAnIdleGapBeforeAnEarlierPlannersLateBooking() {
        NetTopology topo = rings(8, 8);
        TimingModel m = new TimingModel(HA, topo);
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        long bytes = 1 << 20;
        // rank 0 queues two puts on its engine 0: the second (to rank 2, over links 0+ and 1+)
        // runs only once the first is done, and books link 1+ that late
        Transfer x = contiguous(Fabric.TCA, 0, 1, bytes);
        x.engineHint = 0;
        Plan first = plan(m, tl, x, 0);
        Transfer y = contiguous(Fabric.TCA, 0, 2, bytes);
        y.engineHint = 0;
        Plan second = plan(m, tl, y, 0);
        assertTrue(second.start >= first.senderDone, "queued behind the first on engine 0");
        // rank 1, planning afterwards, sends over link 1+ at once: the link is idle until then
        Plan z = plan(m, tl, contiguous(Fabric.TCA, 1, 2, bytes), 0);
        Plan alone = plan(m, new ArrayTimelines(topo.resources()), contiguous(Fabric.TCA, 1, 2, bytes), 0);
        assertEquals(alone.visibleAt, z.visibleAt, 1.0, "z runs in link 1+'s idle time before y's booking");
        assertTrue(z.visibleAt <= second.start + 2000, z.visibleAt + " before y needs the link at " + second.start);
    }

    @Test
    void putsMeetingOnOneReceiveEngineShareItAndAGapTakesALaterPlannedPut() {
        ModelParams tofu = ModelParams.load("tofu");
        NetTopology topo = new NetTopology(9, 9, true, new int[] {3, 3}, 4, 1); // one receive engine per rank
        TimingModel m = new TimingModel(tofu, topo);
        long bytes = 64 << 10;
        double recvWork = bytes / tofu.bytesPerNs("tca.dma.bandwidth");
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        Plan a = plan(m, tl, contiguous(Fabric.TCA, 0, 1, bytes), 0);
        Plan b = plan(m, tl, contiguous(Fabric.TCA, 2, 1, bytes), 0); // another sender, the same receive engine
        assertEquals(0, b.start, "its own engine starts at once: the receive side does not hold it back");
        assertEquals(a.visibleAt + recvWork, b.visibleAt, 2.0, "rank 1's receive engine writes one put after the other");
        // a put planned later, issued when the receive engine is idle again, is not held behind bookings after it
        ArrayTimelines t2 = new ArrayTimelines(topo.resources());
        Transfer late = contiguous(Fabric.TCA, 0, 1, bytes);
        late.engineHint = 0;
        plan(m, t2, late, 0);
        Plan later = plan(m, t2, contiguous(Fabric.TCA, 0, 1, bytes), 0);  // rank 0 again: books rank 1's engine late
        Plan early = plan(m, t2, contiguous(Fabric.TCA, 3, 1, 1 << 10), later.visibleAt / 2);
        Plan alone = plan(m, new ArrayTimelines(topo.resources()), contiguous(Fabric.TCA, 3, 1, 1 << 10), later.visibleAt / 2);
        assertTrue(early.visibleAt <= alone.visibleAt + recvWork, early.visibleAt + " vs alone " + alone.visibleAt);
    }

    @Test
    void antipodalTrafficUsesBothDirectionsOfTheRing() {
        NetTopology t = rings(8, 8);
        int[] p0 = new int[8];
        int[] p1 = new int[8];
        assertEquals(4, t.path(0, 4, p0));
        assertEquals(4, t.path(1, 5, p1));
        assertEquals(0, t.direction(0, 4), "even positions go + at half way round");
        assertEquals(1, t.direction(1, 5), "odd positions go -");
        int[] next = new int[8];
        t.path(1, 2, next);
        assertEquals(next[0], p0[1], "0->4 goes through 1's + link");
        assertTrue(p1[0] != next[0], "1->5 leaves by 1's - link");
    }

    @Test
    void ibAdaptersDoNotIdleBehindABusyDestination() {
        NetTopology topo = rings(4, 1);
        TimingModel m = new TimingModel(HA, topo);
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        long bytes = 4 << 20;
        Plan a = plan(m, tl, contiguous(Fabric.IB, 0, 2, bytes), 0);
        Plan b = plan(m, tl, contiguous(Fabric.IB, 1, 2, bytes), 0); // shares 2's downlink
        assertEquals(0, b.start, "1's adapter starts at once");
        double link = bytes / HA.bytesPerNs("ib.link.bandwidth");
        assertTrue(b.visibleAt >= a.start + 2 * link, "2's downlink carries both: " + b.visibleAt);
        Plan c = plan(m, tl, contiguous(Fabric.IB, 3, 0, bytes), 0);
        assertEquals(a.visibleAt, c.visibleAt, 2.0, "disjoint adapter and links: c as fast as a alone");
    }

    @Test
    void aFewPacketsInterleaveWithBulkInsteadOfQueueingBehindIt() {
        NetTopology topo = rings(4, 1);
        TimingModel m = new TimingModel(HA, topo);
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        Plan big = plan(m, tl, contiguous(Fabric.IB, 0, 2, 4 << 20), 0);
        Plan tiny = plan(m, tl, contiguous(Fabric.IB, 1, 2, 8), 0);   // same downlink, then the same adapter
        Plan alone = plan(m, new ArrayTimelines(topo.resources()), contiguous(Fabric.IB, 1, 2, 8), 0);
        assertEquals(alone.visibleAt, tiny.visibleAt, 1.0, "8 bytes do not wait for 4 MiB on the downlink");
        Plan tiny2 = plan(m, tl, contiguous(Fabric.IB, 0, 3, 8), 0);  // behind the big one on 0's adapter
        assertEquals(alone.visibleAt, tiny2.visibleAt, 1.0, "nor on the adapter");
        Plan big2 = plan(m, tl, contiguous(Fabric.IB, 3, 2, 4 << 20), 0);
        assertTrue(big2.visibleAt > big.visibleAt, "bulk still queues behind bulk");
    }

    @Test
    void ibProtocolsBySize() {
        TimingModel m = new TimingModel(HA, rings(2, 2));
        Plan small = plan(m, new ArrayTimelines(64), contiguous(Fabric.IB, 0, 1, 8), 0);
        assertEquals("ib-eager-ib-direct", small.protocol);
        assertEquals(2100, small.visibleAt, 210, "S5: MPI/IB 2.1 us");
        assertEquals("ib-rndv-ib-staged", plan(m, new ArrayTimelines(64), contiguous(Fabric.IB, 0, 1, 65536), 0).protocol);
        Plan big = plan(m, new ArrayTimelines(64), contiguous(Fabric.IB, 0, 1, 64L << 20), 0);
        assertEquals("ib-rndv-ib-pipelined", big.protocol);
        double gbs = (64.0 * (1 << 20)) / big.visibleAt;
        assertTrue(gbs > 3.4 && gbs <= 3.8, "IB peak near S5's 3.8 GB/s: " + gbs);
    }

    @Test
    void ibPacksEveryNonContiguousLayoutTcaOnlyElementStride() {
        TimingModel m = new TimingModel(HA, rings(2, 2));
        Transfer block = new Transfer().set(Fabric.TCA, 0, 1, 65536, Layout.BLOCK_STRIDE, 64, 8192);
        block.persistent = true;
        block.chainLength = 100;
        assertEquals("tca-dma-internal-blockstride", plan(m, new ArrayTimelines(64), block, 0).protocol);
        block.layout = Layout.ELEMENT_STRIDE;
        assertEquals("tca-dma-internal-packed", plan(m, new ArrayTimelines(64), block, 0).protocol);
        block.fabric = Fabric.IB;
        block.layout = Layout.BLOCK_STRIDE;
        assertTrue(plan(m, new ArrayTimelines(64), block, 0).protocol.endsWith("-packed"));
    }

    @Test
    void descriptorCachePromotesAndEvictsByPolicy() {
        DescriptorCache lru = new DescriptorCache(DescriptorCache.Policy.LRU, 2, 3);
        assertEquals(DescriptorCache.Where.MISS, lru.use(1));
        assertEquals(DescriptorCache.Where.HOST, lru.use(1));
        assertEquals(DescriptorCache.Where.HOST, lru.use(1), "third use promotes, this one still from host");
        assertEquals(DescriptorCache.Where.INTERNAL, lru.use(1));
        assertEquals(DescriptorCache.Where.MISS, lru.use(2));
        lru.use(1);                                           // 2 is now least recently used
        assertEquals(DescriptorCache.Where.MISS, lru.use(3)); // evicts 2
        assertEquals(DescriptorCache.Where.INTERNAL, lru.use(1));
        assertEquals(DescriptorCache.Where.MISS, lru.use(2), "2 was evicted");

        DescriptorCache lfu = new DescriptorCache(DescriptorCache.Policy.LFU, 2, 100);
        lfu.use(1);
        lfu.use(1);
        lfu.use(2);
        lfu.use(3);                                           // evicts 2 (fewest uses)
        assertEquals(DescriptorCache.Where.HOST, lfu.use(1));
        assertEquals(DescriptorCache.Where.MISS, lfu.use(2));

        DescriptorCache fifo = new DescriptorCache(DescriptorCache.Policy.FIFO, 2, 100);
        fifo.use(1);
        fifo.use(2);
        fifo.use(1);
        fifo.use(3);                                          // evicts 1, the first in, though recently used
        assertEquals(DescriptorCache.Where.MISS, fifo.use(1));
        assertEquals(2, fifo.size());
    }

    @Test
    void aUserModelFileOverridesItsBase() throws Exception {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("model", ".properties");
        try {
            java.nio.file.Files.writeString(f, "base = ha-pacs\nname = mine\ntca.dma.bandwidth = 7.0\n");
            ModelParams p = ModelParams.load(f.toString());
            assertEquals("mine", p.name());
            assertEquals(7.0, p.bytesPerNs("tca.dma.bandwidth"));
            assertEquals(HA.ns("ib.latency"), p.ns("ib.latency"));
        } finally {
            java.nio.file.Files.delete(f);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelParams.load("no-such-model"));
        assertTrue(e.getMessage().contains("no-such-model"));
    }
}
