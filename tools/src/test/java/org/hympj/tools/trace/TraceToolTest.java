package org.hympj.tools.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.trace.TraceEvent;
import org.hympj.shm.trace.TraceJournal;
import org.hympj.shm.trace.TraceJournal.RankTrace;
import org.hympj.shm.trace.Tracer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The --trace journal end to end, through the launcher: a traced job under the ha-pacs model
 * writes one journal per rank that the tools read back (every send paired with the receive it
 * completed at the peer, puts with engines and modelled times, Chrome JSON that parses, the
 * exchange picture); a rank killed with SIGKILL leaves a readable journal up to the kill.
 * Two jobs only: opening a Chronicle Queue costs ~0.5-2 s per rank.
 */
class TraceToolTest {
    static final int EXCHANGES = 6;

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void tracedJobWritesJournalsTheToolsReadBack() throws Exception {
        Path dir = tmp.resolve("trace"); // created by the launcher
        JobResult r = run(LaunchSpec.of(4, TraceRank.class, Integer.toString(EXCHANGES))
            .model("ha-pacs").timeDilation(2).trace(dir));
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());

        List<RankTrace> ranks = TraceJournal.read(dir);
        assertEquals(4, ranks.size());
        TraceAnalysis a = new TraceAnalysis(ranks);
        long sendPosts = 0;
        for (RankTrace t : ranks) {
            assertEquals("ha-pacs", t.header.model);
            // virtual time (the default under a model): the journal's times are modelled nanoseconds
            assertEquals(1.0, t.header.dilation);
            assertEquals(0L, t.header.epochNanos);
            assertEquals(4, t.header.size);
            assertEquals(4, t.header.enginesPerRank);
            long waits = 0;
            long bigPuts = 0;
            long starts = 0;
            long completedSends = 0;
            Map<Integer, Long> routes = new LinkedHashMap<>();   // tag -> route events
            Map<String, Long> puts = new LinkedHashMap<>();      // a put (tag, engine, link, modelled times) -> issued - completed
            for (TraceEvent e : t.events) {
                if (e.tag >= 10 && e.tag <= 13 && (e.kind == Tracer.PUT_ISSUED || e.kind == Tracer.PUT_COMPLETED)) {
                    String key = e.tag + "/" + e.engine + "/" + e.link + "/" + e.modelledStart + "/" + e.modelledEnd;
                    puts.merge(key, e.kind == Tracer.PUT_ISSUED ? 1L : -1L, Long::sum);
                }
                if (e.kind == Tracer.ROUTE && e.tag >= 10 && e.tag <= 13) {
                    routes.merge(e.tag, 1L, Long::sum);
                    assertTrue(e.channel >= 0 && e.info != null && e.peer >= 0, () -> "route event " + e);
                } else if (e.kind == Tracer.START) {
                    starts++;
                    assertEquals(8, e.bytes, () -> "requests of the startAll " + e);
                } else if (e.kind == Tracer.COMPLETE_SEND && e.tag >= 10 && e.tag <= 13) {
                    completedSends++;
                }
                assertEquals(t.rank(), e.rank, () -> "event of another rank in rank " + t.rank() + "'s journal: " + e);
                if (e.kind == Tracer.POST_SEND) {
                    sendPosts++;
                } else if (e.kind == Tracer.WAIT_END) {
                    waits++;
                } else if (e.kind == Tracer.PUT_ISSUED) {
                    assertTrue(e.modelledStart > 0 && e.modelledEnd > e.modelledStart, () -> "modelled times of " + e);
                    assertNotNull(e.info, () -> "protocol of " + e);
                    if (e.bytes == 16384) {
                        bigPuts++;
                        assertTrue(e.engine >= 0 && t.header.engineOwner(e.engine) == t.rank()
                            && t.header.engineName(e.engine, e.channel).startsWith("dma"), () -> "engine of " + e);
                        String link = a.linkName(e.link);
                        assertTrue(link.equals("r" + t.rank() + ".+") || link.equals("r" + t.rank() + ".-"),
                            () -> "first link of " + e + ": " + link + " (a ring link leaving rank " + t.rank() + ")");
                    }
                }
            }
            assertTrue(waits >= EXCHANGES, "rank " + t.rank() + " recorded " + waits + " waitAll calls");
            assertEquals(Map.of(10, 1L, 11, 1L, 12, 1L, 13, 1L), routes, "rank " + t.rank() + ": one route decision per"
                + " persistent send, at its init");
            assertEquals(EXCHANGES, starts, "rank " + t.rank() + " startAll events");
            assertEquals(4L * EXCHANGES, completedSends, "rank " + t.rank() + " send completions");
            assertFalse(puts.isEmpty());
            puts.forEach((put, open) -> assertEquals(0L, open, "rank " + t.rank() + ": put " + put
                + " issued and completed a different number of times"));
            assertTrue(bigPuts >= 2L * EXCHANGES, "rank " + t.rank() + " recorded " + bigPuts + " 16 KB puts");
        }
        long sends = sendPosts;
        assertTrue(a.unmatchedSends().isEmpty(), () -> "send posts without a receive completion at the peer: "
            + a.unmatchedSends());
        assertTrue(a.unmatchedRecvCompletions().isEmpty(), () -> "receive completions without a send post: "
            + a.unmatchedRecvCompletions());
        assertEquals(sends, a.sends().size());
        assertTrue(a.unmatchedRecvPosts().isEmpty(), () -> "receive posts never completed: " + a.unmatchedRecvPosts());

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Path prefix = tmp.resolve("out/t");
        TraceTool.Result res = TraceTool.run(new String[] {dir.toString(), "--out", prefix.toString(), "--width", "900",
            "--exchange", "3"}, new PrintStream(text, true, StandardCharsets.UTF_8));
        String summary = Files.readString(res.summary);
        assertTrue(summary.contains("post_send") && summary.contains("put_issued") && summary.contains("dma0"), summary);
        assertTrue(summary.contains("0 send post(s) without a receive completion"), summary);
        assertTrue(summary.contains("first link") && (summary.contains("r0.+") || summary.contains("r0.-")), summary);
        assertTrue(summary.contains("put_completed") && summary.contains("route") && summary.contains("start"), summary);
        // the exchange: 4 sends per rank, 2 of them 16 KB on DMA engines, from every rank
        assertEquals(3, res.exchange.number);
        assertTrue(res.exchange.of >= EXCHANGES, "exchanges found: " + res.exchange.of);
        assertEquals(16, res.exchange.puts.size(), () -> "puts of the exchange: " + res.exchange.puts);
        for (int rank = 0; rank < 4; rank++) {
            int rk = rank;
            assertEquals(4, res.exchange.puts.stream().filter(e -> e.rank == rk).count(), "puts of rank " + rank);
        }
        TraceAnalysis.Exchange quiet = a.shortestExchange(0);
        assertEquals(16, quiet.puts.size());
        for (int n = 1; n <= quiet.of; n++) {
            assertTrue(a.span(quiet) <= a.span(a.exchange(n, 0)), "shortest exchange is not the shortest");
        }
        // JSON: parses; one complete event per put, one per waitAll
        Object json = new Json(Files.readString(res.json)).parse();
        @SuppressWarnings("unchecked")
        List<Object> events = (List<Object>) ((Map<String, Object>) json).get("traceEvents");
        long puts = ranks.stream().flatMap(t -> t.events.stream()).filter(e -> e.kind == Tracer.PUT_ISSUED).count();
        long waitAlls = ranks.stream().flatMap(t -> t.events.stream()).filter(e -> e.kind == Tracer.WAIT_END).count();
        long complete = 0;
        for (Object o : events) {
            @SuppressWarnings("unchecked")
            Map<String, Object> ev = (Map<String, Object>) o;
            if ("X".equals(ev.get("ph"))) {
                complete++;
                assertTrue(ev.get("ts") instanceof Double && ev.get("dur") instanceof Double && ev.get("pid") instanceof Double
                    && ev.get("tid") instanceof Double, () -> "complete event " + ev);
            }
        }
        assertEquals(puts + waitAlls, complete);
        // PNG: 4 ranks x 4 DMA engines (+ PIO rows if the 1 KB puts went by PIO)
        BufferedImage png = ImageIO.read(res.png.toFile());
        assertNotNull(png);
        assertEquals(900, png.getWidth());
        assertEquals(res.plot.height, png.getHeight());
        assertTrue(res.plot.rows >= 16 && res.plot.rows <= 20, "rows " + res.plot.rows);
        assertEquals(ExchangePlot.height(res.plot.rows, 4, 900), png.getHeight());
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void rankKilledWhileExchangingLeavesAReadableJournal() throws Exception {
        Path dir = tmp.resolve("killed");
        JobResult r = run(LaunchSpec.of(2, TraceRank.class, Integer.toString(EXCHANGES), "1")
            .model("ha-pacs").timeDilation(2).trace(dir).abortGrace(Duration.ofSeconds(1)));
        assertEquals(1, r.failedRank(), () -> r.message() + "\n" + r.allOutput());
        assertEquals(128 + 9, r.exitCode(), () -> r.message() + "\n" + r.allOutput());
        assertTrue(r.output(1).contains("EXCHANGES " + EXCHANGES), () -> r.allOutput());

        List<RankTrace> ranks = TraceJournal.read(dir);
        assertEquals(2, ranks.size());
        for (RankTrace t : ranks) {
            long waits = t.events.stream().filter(e -> e.kind == Tracer.WAIT_END).count();
            System.out.println("[trace] rank " + t.rank() + ": " + t.events.size() + " events, " + waits
                + " waitAll ends, last: " + (t.events.isEmpty() ? "-" : t.events.get(t.events.size() - 1)));
            assertTrue(waits >= EXCHANGES, "rank " + t.rank() + " journal has " + waits + " waitAll ends");
        }
        // the killed rank's events go up to the kill: every exchange before it is complete, and
        // every send of rank 1 that rank 0 received is in rank 1's journal (events are written as they happen)
        TraceAnalysis a = new TraceAnalysis(ranks);
        long victimSends = a.sends().stream().filter(p -> p.post.rank == 1 && p.post.tag >= 10).count();
        assertTrue(victimSends >= 4L * EXCHANGES, "sends of rank 1 received by rank 0: " + victimSends);
        assertTrue(a.unmatchedRecvCompletions().isEmpty(), () -> "rank 0 received sends rank 1's journal lacks: "
            + a.unmatchedRecvCompletions());
        TraceTool.Result res = TraceTool.run(new String[] {dir.toString(), "--out", tmp.resolve("k").toString()},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertTrue(res.exchange.puts.stream().filter(e -> e.rank == 0).count() == 4, () -> "puts of the last exchange: "
            + res.exchange.puts);
        assertTrue(Files.size(res.png) > 0);
    }

    /** Runs the job (60 s timeout, output captured) and checks its directory in /dev/shm is gone. */
    private static JobResult run(LaunchSpec spec) throws IOException {
        JobResult r = Launcher.run(spec.output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(60)));
        assertFalse(Files.exists(r.jobDir()), () -> "job directory " + r.jobDir() + " left behind");
        return r;
    }

    /** No job directory of this JVM's launches is left in /dev/shm (other jobs may run meanwhile). */
    @AfterAll
    static void nothingLeftInDevShm() throws IOException {
        String mine = JobDirectory.PREFIX + Long.toString(ProcessHandle.current().pid(), 36) + "-";
        List<Path> left = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(JobDirectory.root(), mine + "*")) {
            ds.forEach(left::add);
        }
        assertTrue(left.isEmpty(), () -> "left in /dev/shm: " + left);
    }

    /** A small JSON parser (objects, arrays, strings, numbers as Double, true/false/null); fails on bad input. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object parse() {
            Object v = value();
            ws();
            if (i != s.length()) {
                throw error("trailing characters");
            }
            return v;
        }

        private Object value() {
            ws();
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (peek('}')) {
                        i++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        ws();
                        expect(':');
                        m.put(k, value());
                        ws();
                        if (peek(',')) {
                            i++;
                        } else {
                            expect('}');
                            return m;
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (peek(']')) {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        if (peek(',')) {
                            i++;
                        } else {
                            expect(']');
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    return word("true", Boolean.TRUE);
                case 'f':
                    return word("false", Boolean.FALSE);
                case 'n':
                    return word("null", null);
                default: {
                    int st = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    if (st == i) {
                        throw error("unexpected '" + c + "'");
                    }
                    return Double.parseDouble(s.substring(st, i));
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    if (e == 'u') {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    } else {
                        b.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
                    }
                } else if (c < 0x20) {
                    throw error("control character in string");
                } else {
                    b.append(c);
                }
            }
        }

        private Object word(String w, Object v) {
            if (!s.startsWith(w, i)) {
                throw error("bad literal");
            }
            i += w.length();
            return v;
        }

        private boolean peek(char c) {
            return i < s.length() && s.charAt(i) == c;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
            i++;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private IllegalStateException error(String what) {
            return new IllegalStateException("bad JSON at " + i + ": " + what);
        }
    }
}
