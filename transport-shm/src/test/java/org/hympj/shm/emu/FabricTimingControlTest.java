package org.hympj.shm.emu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hympj.api.Datatype;
import org.hympj.shm.job.JobConfig;
import org.hympj.model.ArrayTimelines;
import org.hympj.model.Fabric;
import org.hympj.model.ModelParams;
import org.hympj.model.TimingModel;
import org.junit.jupiter.api.Test;

/**
 * {@link FabricTiming#planControl}: the rendezvous control put of {@code --sched rndv} under the
 * tofu model (9 ranks, a 3×3 torus, time dilation 1 so real and modelled nanoseconds agree).
 * Expected values come from the preset's parameters.
 */
class FabricTimingControlTest {
    private static final ModelParams TOFU = ModelParams.load("tofu");
    private static final int RANKS = 9;

    /** Rank {@code rank}'s timing over shared timelines (all ranks of one job plan on the same ones). */
    private static FabricTiming timing(JobConfig config, TimingModel model, ArrayTimelines tl, int rank) {
        return new FabricTiming(model, tl, config.epochNanos, config.effectiveDilation(2), rank);
    }

    private static JobConfig config() {
        JobConfig d = JobConfig.defaults("rndv-test", RANKS);
        return d.with(d.segmentBytes, d.ringBytes, d.bulkBytes, d.inlineLimit, d.eagerLimit, "tofu", d.subcluster,
            d.idle, d.coll).withTiming("auto", 1).withSched("rndv", false);
    }

    /** A lone control put to a neighbour: one engine access, then 64 bytes at the engine's rate (links faster). */
    static long controlPutNs(ModelParams p) {
        double access = p.ns("tca.dma.latency.host");
        long engine = Math.round(access + FabricTiming.CONTROL_BYTES / p.bytesPerNs("tca.dma.bandwidth"));
        long link = Math.round(access) + Math.round(FabricTiming.CONTROL_BYTES / p.bytesPerNs("tca.link.bandwidth"));
        return Math.max(engine, link);
    }

    @Test
    void aLoneControlPutTakesOneEngineAccessAndItsBytes() {
        JobConfig config = config();
        TimingModel model = org.hympj.model.JobFabric.modelFor(config.fabric);
        ArrayTimelines tl = new ArrayTimelines(model.topology().resources());
        FabricTiming t = timing(config, model, tl, 0);
        long now = 5_000;
        t.planControl(Fabric.TCA, 1, 0, t.toReal(now));
        assertEquals("tca-dma-host", t.lastProtocol(), "a DMA put (tofu has no PIO), not a cut-in");
        assertEquals(now + controlPutNs(TOFU), t.lastVisibleAt());
        assertEquals(t.toReal(t.lastVisibleAt()), t.visibleAtReal);
        // issued no earlier than notBefore (the RTS's arrival), even when the clock is behind it
        t.planControl(Fabric.TCA, 3, t.toReal(now + 50_000), t.toReal(now));
        assertEquals(now + 50_000 + controlPutNs(TOFU), t.lastVisibleAt());
    }

    /**
     * The receiver (rank 1) has a bulk put booked on each of its 4 send engines (its own halo
     * going out); its CTS to rank 0 is a put like any other: it waits for the first engine to
     * free, and does not cut in ahead of the bulk as a link's small packets do.
     */
    @Test
    void aClearToSendQueuesBehindBulkPutsOnTheReceiversEngines() {
        JobConfig config = config();
        TimingModel model = org.hympj.model.JobFabric.modelFor(config.fabric);
        ArrayTimelines tl = new ArrayTimelines(model.topology().resources());
        FabricTiming receiver = timing(config, model, tl, 1);
        int engines = model.topology().engines();
        assertEquals(4, engines);
        long bulk = 224256; // S3's east-west put at k=872
        long firstFree = Long.MAX_VALUE;
        int[] dests = {2, 4, 7, 5};
        for (int e = 0; e < engines; e++) {
            receiver.plan(Fabric.TCA, dests[e], Datatype.BYTE, (int) bulk, bulk, true, true, true, receiver.toReal(0));
            firstFree = Math.min(firstFree, receiver.lastSenderDone());
        }
        double bulkAlone = TOFU.ns("tca.dma.latency.register") + bulk / TOFU.bytesPerNs("tca.dma.bandwidth");
        assertTrue(firstFree >= Math.round(bulkAlone), "every engine holds a bulk put: " + firstFree);

        receiver.planControl(Fabric.TCA, 0, receiver.toReal(1_000), receiver.toReal(1_000));
        assertEquals(firstFree + controlPutNs(TOFU), receiver.lastVisibleAt(),
            "the CTS starts when the first of the receiver's engines frees");

        // on idle engines the same CTS would have arrived a control put after its issue
        ArrayTimelines idle = new ArrayTimelines(model.topology().resources());
        FabricTiming fresh = timing(config, model, idle, 1);
        fresh.planControl(Fabric.TCA, 0, fresh.toReal(1_000), fresh.toReal(1_000));
        assertEquals(1_000 + controlPutNs(TOFU), fresh.lastVisibleAt());
    }

    @Test
    void rndvIsAcceptedAndSchedulesNothingWhileABadPolicyNamesTheChoices() {
        JobConfig c = config();
        assertTrue(c.rendezvousHandshakePuts());
        assertTrue(!c.rsched(), "rndv creates no RSched scheduler");
        assertTrue(c.withSched("bl:4", false).rsched());
        assertTrue(!c.withSched("none", false).rsched());
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> c.withSched("bogus", false));
        assertTrue(e.getMessage().contains("--sched") && e.getMessage().contains("rndv")
            && e.getMessage().contains("bl:4") && e.getMessage().contains("bogus"), e.getMessage());
    }
}
