package org.hympj.shm.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal in one JVM: events round-trip field by field (negative ids, null and repeated
 * info strings, the header), appending allocates nothing per event, and the cost per event is
 * printed (a figure for the docs, not asserted: the machine is shared). Preparing a trace
 * directory replaces an earlier job's journals and refuses a directory holding other files.
 */
class ChronicleTracerTest {
    static final int WARMUP = 200_000;
    static final int WINDOW = 100_000;
    static final int WINDOWS = 3;

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void eventsRoundTripWithoutAllocation() {
        Path dir = tmp.resolve("rank-3");
        long epoch = System.nanoTime();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        double bestAlloc = Double.MAX_VALUE;
        double bestNs = Double.MAX_VALUE;
        String[] protocols = {"tca-dma-register", "tca-pio", "ib-eager-ib-direct"};
        try (Tracer t = ChronicleTracer.open(dir, 3, 8, "job-x", "ha-pacs", epoch, 2.5, 4, 64, 4)) {
            assertTrue(t.enabled());
            t.event(Tracer.POST_RECV, -1, -1, 0, -1, -1, -1, 0, 0, null);           // ANY_SOURCE, ANY_TAG
            t.event(Tracer.POST_RECV, -2, 7, 0, -1, -1, -1, 0, 0, null);            // PROC_NULL
            t.event(Tracer.PUT_ISSUED, 5, Integer.MAX_VALUE, 1L << 40, 1, 69, 130, 123_456_789_012L, 123_456_799_012L,
                "ib-rndv-ib-pipelined-packed");
            for (int w = -1; w < WINDOWS; w++) {
                int n = w < 0 ? WARMUP : WINDOW;
                long a0 = mx.getThreadAllocatedBytes(tid);
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    t.event(Tracer.PUT_ISSUED, i & 7, 100 + (i & 15), 16384, 0, i & 3, -1, 1000L * i, 1000L * i + 700,
                        protocols[i % 3]);
                }
                long ns = System.nanoTime() - t0;
                long bytes = mx.getThreadAllocatedBytes(tid) - a0;
                if (w >= 0) {
                    bestAlloc = Math.min(bestAlloc, (double) bytes / n);
                    bestNs = Math.min(bestNs, (double) ns / n);
                    System.out.println(String.format(Locale.ROOT, "[trace] window %d: %.1f ns/event, %.4f bytes allocated/event",
                        w, (double) ns / n, (double) bytes / n));
                }
            }
        }
        System.out.println(String.format(Locale.ROOT, "[trace] best window: %.1f ns/event", bestNs));
        assertTrue(bestAlloc < 1.0, "appending allocates " + bestAlloc + " bytes per event in its best window");

        TraceJournal.RankTrace r = TraceJournal.readRank(dir);
        TraceHeader h = r.header;
        assertEquals(3, h.rank);
        assertEquals(8, h.size);
        assertEquals("job-x", h.jobId);
        assertEquals("ha-pacs", h.model);
        assertEquals(epoch, h.epochNanos);
        assertEquals(2.5, h.dilation);
        assertEquals(4, h.enginesPerRank);
        assertEquals(64, h.ibHcaBase);
        assertEquals(ProcessHandle.current().pid(), h.pid);
        assertEquals("dma1", h.engineName(13, 0));
        assertEquals(3, h.engineOwner(13));
        assertEquals("ib", h.engineName(67, 1));
        assertEquals(3, h.engineOwner(67));
        assertEquals("pio", h.engineName(-1, 0));
        assertEquals(3 + WARMUP + WINDOWS * WINDOW, r.events.size());
        TraceEvent any = r.events.get(0);
        assertEquals(Tracer.POST_RECV, any.kind);
        assertEquals(-1, any.peer);
        assertEquals(-1, any.tag);
        assertEquals(-1, any.channel);
        assertEquals(-1, any.engine);
        assertNull(any.info);
        assertEquals(-2, r.events.get(1).peer);
        TraceEvent big = r.events.get(2);
        assertEquals(3, big.rank);
        assertEquals(5, big.peer);
        assertEquals(Integer.MAX_VALUE, big.tag);
        assertEquals(1L << 40, big.bytes);
        assertEquals(1, big.channel);
        assertEquals(69, big.engine);
        assertEquals(130, big.link);
        assertEquals(123_456_789_012L, big.modelledStart);
        assertEquals(123_456_799_012L, big.modelledEnd);
        assertEquals("ib-rndv-ib-pipelined-packed", big.info);
        long last = Long.MIN_VALUE;
        for (int k = 3; k < r.events.size(); k++) {
            TraceEvent e = r.events.get(k);
            int i = (k - 3) < WARMUP ? k - 3 : (k - 3 - WARMUP) % WINDOW;
            assertEquals(i & 7, e.peer);
            assertEquals(100 + (i & 15), e.tag);
            assertEquals(i & 3, e.engine);
            assertEquals(1000L * i + 700, e.modelledEnd);
            assertEquals(protocols[i % 3], e.info);
            assertTrue(e.nanos >= last && e.nanos > epoch, "real times in order");
            last = e.nanos;
        }
    }

    @Test
    void prepareReplacesJournalsAndRefusesOtherFiles() throws IOException {
        Path dir = tmp.resolve("t");
        TraceDirectory.prepare(dir);
        assertTrue(Files.isDirectory(dir));
        Files.createDirectories(dir.resolve("rank-0"));
        Files.writeString(dir.resolve("rank-0/20260101-00F.cq4"), "x");
        Files.writeString(dir.resolve("rank-0/metadata.cq4t"), "x");
        Files.writeString(dir.resolve("trace.json"), "{}");
        TraceDirectory.prepare(dir);
        assertTrue(TraceDirectory.rankDirs(dir).isEmpty());
        assertTrue(Files.exists(dir.resolve("trace.json")), "other files of the directory are kept");
        Files.createDirectories(dir.resolve("rank-1"));
        Files.writeString(dir.resolve("rank-1/notes.txt"), "mine");
        IOException e = assertThrows(IOException.class, () -> TraceDirectory.prepare(dir));
        assertTrue(e.getMessage().contains("notes.txt"), e.getMessage());
        assertTrue(Files.exists(dir.resolve("rank-1/notes.txt")));
        assertEquals(List.of(dir.resolve("rank-1")), TraceDirectory.rankDirs(dir));
        Path file = tmp.resolve("plain");
        Files.writeString(file, "x");
        IOException notDir = assertThrows(IOException.class, () -> TraceDirectory.prepare(file));
        assertTrue(notDir.getMessage().contains("not a directory"), notDir.getMessage());
    }
}
