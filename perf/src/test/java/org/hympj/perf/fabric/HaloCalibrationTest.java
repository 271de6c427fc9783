package org.hympj.perf.fabric;

import org.hympj.examples.Face;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hympj.router.RouteTable;
import org.hympj.model.ModelParams;
import org.hympj.spi.Layout;
import org.junit.jupiter.api.Test;

/** The route table calibrated on S1's halo itself: pure, on the timing model. */
class HaloCalibrationTest {
    private static final ModelParams HA = ModelParams.load("ha-pacs");

    @Test
    void theHaloCalibratedTableIsNeverWorseThanEitherSingleFabricNorThanThePingPongTable() {
        List<Long> ns = List.of(64L, 256L, 448L);
        RouteTable preset = RouteTable.load("ha-pacs");
        HaloCalibration.Result r = HaloCalibration.calibrate(HA, 3, ns, preset);
        for (long n : ns) {
            double tca = HaloModel.iteration(HA, 3, (int) n, "tca", 8, null);
            double ib = HaloModel.iteration(HA, 3, (int) n, "ib", 8, null);
            double pingPong = HaloModel.iteration(HA, 3, (int) n, "hybrid", 8, preset);
            double cal = HaloModel.iteration(HA, 3, (int) n, "hybrid", 8, r.table);
            assertTrue(cal <= Math.min(tca, ib) + 1e-9, "N=" + n + ": " + cal + " vs tca " + tca + ", ib " + ib);
            assertTrue(cal <= pingPong + 1e-9, "N=" + n + ": " + cal + " vs the ping-pong table's " + pingPong);
        }
        // S1's x faces (contiguous) travel four hops round the 8-rank ring: IB pays off at every N
        assertTrue(r.table.tcaUpTo(Layout.CONTIGUOUS) < Face.D3_BLOCK.bytes(64), r.table.describe());
        assertEquals(ns.size() + 1, r.lines.size(), "one line per N and a summary");
    }
}
