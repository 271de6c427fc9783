package org.hympj.router;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hympj.spi.Layout;
import org.junit.jupiter.api.Test;

class HybridPolicyTest {
    @Test
    void thePresetHoldsS1sCrossoversAtTheMiddleOfEachRange() {
        RouteTable t = RouteTable.load("ha-pacs");
        assertEquals(8L * 288 * 288, t.tcaUpTo(Layout.CONTIGUOUS));
        assertEquals(8L * 544 * 544, t.tcaUpTo(Layout.BLOCK_STRIDE));
        assertEquals(8L * 544 * 544, t.tcaUpTo(Layout.ELEMENT_STRIDE));
        assertEquals(0, t.stripeThreshold());
    }

    @Test
    void reachabilityFirstThenTheThresholdByLayout() {
        HybridPolicy p = new HybridPolicy(new RouteTable(1000, 5000, RouteTable.ALWAYS, 0, "test"), 3.5, 3.8);
        assertEquals(HybridPolicy.IB, p.choose(false, 8, Layout.CONTIGUOUS), "outside the subcluster: IB");
        assertEquals(HybridPolicy.TCA, p.choose(true, 1000, Layout.CONTIGUOUS));
        assertEquals(HybridPolicy.IB, p.choose(true, 1001, Layout.CONTIGUOUS));
        assertEquals(HybridPolicy.TCA, p.choose(true, 5000, Layout.BLOCK_STRIDE));
        assertEquals(HybridPolicy.TCA, p.choose(true, Long.MAX_VALUE - 1, Layout.ELEMENT_STRIDE));
        HybridPolicy never = new HybridPolicy(new RouteTable(-1, -1, -1, 0, "test"), 1, 1);
        assertEquals(HybridPolicy.IB, never.choose(true, 0, Layout.CONTIGUOUS));
    }

    @Test
    void stripesOnlyLargeContiguousMessagesBothFabricsReach() {
        HybridPolicy p = new HybridPolicy(new RouteTable(1000, 1000, 1000, 1 << 20, "test"), 3.5, 3.8);
        assertTrue(p.stripe(true, 1 << 20, Layout.CONTIGUOUS));
        assertFalse(p.stripe(true, (1 << 20) - 1, Layout.CONTIGUOUS));
        assertFalse(p.stripe(false, 1 << 22, Layout.CONTIGUOUS), "IB only: nothing to stripe over");
        assertFalse(p.stripe(true, 1 << 22, Layout.BLOCK_STRIDE));
        long part = p.tcaPart(7_300_000);
        assertEquals(7_300_000 * 3.5 / 7.3, part, 1.0, "split in proportion to bandwidth");
        assertEquals(1, p.tcaPart(2), "both parts non-empty");
    }

    @Test
    void aStoredTableLoadsBackAndBadFilesAreNamed() throws Exception {
        Path f = Files.createTempFile("route", ".route");
        try {
            new RouteTable(123, RouteTable.ALWAYS, -1, 4096, "x").store(f, "test");
            RouteTable t = RouteTable.load(f.toString());
            assertEquals(123, t.tcaUpTo(Layout.CONTIGUOUS));
            assertEquals(RouteTable.ALWAYS, t.tcaUpTo(Layout.BLOCK_STRIDE));
            assertEquals(-1, t.tcaUpTo(Layout.ELEMENT_STRIDE));
            assertEquals(4096, t.stripeThreshold());
            assertTrue(t.describe().contains("always") && t.describe().contains("never"), t.describe());
            Files.writeString(f, "contiguous = lots\nblock-stride = 1\nelement-stride = 1\n");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RouteTable.load(f.toString()));
            assertTrue(e.getMessage().contains("contiguous"), e.getMessage());
        } finally {
            Files.delete(f);
        }
        assertThrows(IllegalArgumentException.class, () -> RouteTable.load("/no/such/table"));
    }

    @Test
    void statisticsCountPerFabricAndLayout() {
        RouteStatistics s = new RouteStatistics();
        s.count(HybridPolicy.TCA, Layout.CONTIGUOUS, 100);
        s.count(HybridPolicy.TCA, Layout.CONTIGUOUS, 50);
        s.count(HybridPolicy.IB, Layout.ELEMENT_STRIDE, 8);
        assertEquals(2, s.messages(HybridPolicy.TCA, Layout.CONTIGUOUS));
        assertEquals(150, s.bytes(HybridPolicy.TCA, Layout.CONTIGUOUS));
        assertEquals(Long.valueOf(8), s.asMap().get("route.ib.element-stride.bytes"));
        assertFalse(s.asMap().containsKey("route.ib.contiguous.messages"));
    }
}
