package org.hympj.shm.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.emu.FabricTiming;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.model.ArrayTimelines;
import org.hympj.model.Fabric;
import org.hympj.model.TimingModel;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --sched rndv} through the real launcher, 2 ranks under the tofu model: a rendezvous
 * message (64 KiB, eager limit 8 KiB) completes later than under {@code --sched none} by about
 * its RTS and CTS control puts (derived from the preset), while the data arrives intact. The
 * figures are modelled time on the virtual clock, communication only ({@code --compute-scale 0}:
 * with the ranks' own CPU time counted, their 64 KiB fills and checks move the span by a few
 * hundred ns to a µs), the fastest of a few iterations.
 */
class RndvHandshakeTest {
    private static final int BYTES = 64 << 10;

    private static long span(String sched, String... hint) {
        String[] args = hint.length == 0 ? new String[] {Integer.toString(BYTES), "6"}
            : new String[] {Integer.toString(BYTES), "6", hint[0]};
        LaunchSpec spec = MultiRank.spec(2, RndvHandshakeRank.class, args)
            .model("tofu").route("tca").sched(sched).computeScale(0).eagerLimit(8 << 10);
        JobResult r = MultiRank.runAndPass(spec, new String[] {"rndv-handshake"});
        List<String> lines = MultiRank.lines(r, 1, "SPAN_NS ");
        assertEquals(1, lines.size(), r.output(1));
        return Long.parseLong(lines.get(0).substring("SPAN_NS ".length()).trim());
    }

    /** One control put from rank 0 to rank 1 on idle engines, as the model plans it. */
    private static long controlPutNs() {
        JobConfig d = JobConfig.defaults("rndv-expect", 2);
        JobConfig c = d.with(d.segmentBytes, d.ringBytes, d.bulkBytes, d.inlineLimit, d.eagerLimit, "tofu",
            d.subcluster, d.idle, d.coll).withTiming("auto", 1);
        TimingModel m = org.hympj.model.JobFabric.modelFor(c.fabric);
        FabricTiming t = new FabricTiming(m, new ArrayTimelines(m.topology().resources()), c.epochNanos, c.effectiveDilation(2), 0);
        t.planControl(Fabric.TCA, 1, 0, t.toReal(0));
        return t.lastVisibleAt();
    }

    /**
     * The point-to-point scenarios (unexpected rendezvous, ANY_SOURCE, persistent, truncation) under
     * rndv, on the default route: tofu has one fabric, so nothing goes to IB (before, the hybrid
     * router sent some of these messages there and they failed: "model tofu has no InfiniBand fabric").
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void pointToPointScenariosPassUnderRndv() {
        for (Class<?> main : new Class<?>[] {TransferRank.class, MatchingRank.class, PersistentRank.class,
            TruncationRank.class}) {
            String[] scenarios = main == TransferRank.class ? TransferRank.SCENARIOS : main == MatchingRank.class
                ? MatchingRank.SCENARIOS : main == PersistentRank.class ? PersistentRank.SCENARIOS
                : TruncationRank.SCENARIOS;
            MultiRank.runAndPass(MultiRank.spec(3, main).model("tofu").sched("rndv").timeDilation(2)
                .eagerLimit(8 << 10), scenarios);
        }
    }

    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void rendezvousPaysItsRtsAndCtsAsControlPuts() {
        long none = span("none");
        long rndv = span("rndv");
        long handshake = 2 * controlPutNs();
        long extra = rndv - none;
        String what = String.format(Locale.ROOT, "none %d ns, rndv %d ns: rndv later by %d ns, two control puts %d ns",
            none, rndv, extra, handshake);
        System.out.println("# " + what);
        // on virtual time the handshake costs exactly its two control puts (2% for rounding)
        assertTrue(Math.abs(extra - handshake) <= handshake / 50, what);
    }

    /** A communicator with the hint hympj.sched rndv pays the handshake in a job whose --sched is none. */
    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void theRndvHintPaysTheHandshakeAsTheJobWideSetting() {
        long jobWide = span("rndv");
        long hinted = span("none", "rndv");
        long unpaid = span("rndv", "none");
        assertEquals(jobWide, hinted, "--sched rndv vs --sched none with the hint rndv");
        assertTrue(unpaid < jobWide - controlPutNs(), "--sched rndv with the hint none: " + unpaid + " vs " + jobWide);
    }
}
