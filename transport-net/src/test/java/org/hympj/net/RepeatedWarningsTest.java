package org.hympj.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepeatedWarningsTest {
    @Test
    void aRepeatedMessagePassesOncePerPeriodWithItsCount() {
        List<String> out = new ArrayList<>();
        RepeatedWarnings w = new RepeatedWarnings(out::add);
        long t = 1_000_000_000L;
        for (int i = 0; i < 100; i++) { // 100 failed sends in 1 s
            w.report("failed to send datagram to /10.0.0.2:4000", t + i * 10_000_000L);
        }
        w.report("another error", t + 2_000_000_000L);
        w.report("failed to send datagram to /10.0.0.2:4000", t + RepeatedWarnings.PERIOD_NS + 1);
        w.report("failed to send datagram to /10.0.0.2:4000", t + RepeatedWarnings.PERIOD_NS + 2);
        assertEquals(List.of("failed to send datagram to /10.0.0.2:4000", "another error",
            "failed to send datagram to /10.0.0.2:4000 (and 99 times more in the last 5 s)"), out);
    }
}
