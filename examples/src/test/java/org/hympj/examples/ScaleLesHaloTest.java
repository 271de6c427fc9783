package org.hympj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.hympj.api.CartComm;
import org.hympj.examples.ScaleLesHalo.Direction;
import org.hympj.examples.ScaleLesHalo.Message;
import org.hympj.examples.ScaleLesHalo.Pattern;
import org.hympj.shm.launch.JobResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ScaleLesHalo: every pattern on 4 and 8 ranks, each rank checking every cell of its array
 * after the timed exchanges and after a fresh round (the example fails the job on any wrong
 * value); and the message list against S3's description.
 */
class ScaleLesHaloTest {
    private static final String PATTERNS = "ew,ns,nsew,diag,all";

    @ParameterizedTest(name = "every pattern verified on {0} ranks")
    @ValueSource(ints = {4, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyPatternDeliversTheRightData(int np) {
        JobResult r = Jobs.run(np, ScaleLesHalo.class, "--k", "12", "--pattern", PATTERNS, "--iters", "40",
            "--warmup", "10");
        assertVerified(r, np, 12);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void segmentBufferAndBarriersAsInS3() {
        int np = 4;
        JobResult r = Jobs.run(np, ScaleLesHalo.class, "--k", "60", "--pattern", PATTERNS, "--iters", "20",
            "--warmup", "0", "--segment", "--sync");
        assertVerified(r, np, 60);
    }

    private static void assertVerified(JobResult r, int np, int k) {
        int[] dims = CartComm.dimsCreate(np, new int[2]);
        long cells = (long) (k + 4) * 20 * 20;
        for (Pattern p : Pattern.values()) {
            String name = p.name().toLowerCase(Locale.ROOT);
            // two checks per rank (after the timed loop, after a fresh round) of every cell
            assertEquals("verify " + name + ": OK (" + 2 * cells * np + " values checked on " + np + " ranks)",
                Jobs.line(r, "verify " + name + ":"));
            int messages = ScaleLesHalo.messages(dims, new int[2], p, k).size();
            Jobs.assertPrinted(r, "ScaleLesHalo " + name + ": " + np + " ranks as " + Blocks.format(dims)
                + " (periodic), i=j=16, halo 2, k=" + k + ": " + messages + " messages");
            Jobs.assertPrinted(r, "ScaleLesHalo " + name + ": ");
        }
    }

    /** S3: 14 puts; k = 60 gives 16384 / 8192 / 1024 B, k = 872 gives 224256 / 112128 / 14016 B. */
    @Test
    void messageListMatchesS3() {
        int[] dims = {4, 2};
        for (int k : new int[] {60, 872}) {
            List<Message> all = ScaleLesHalo.messages(dims, new int[] {0, 0}, Pattern.ALL, k);
            assertEquals(14, all.size());
            int ka = 2 + k + 2;
            for (Message m : all) {
                Direction d = m.direction();
                int want = d.dy() == 0 ? ka * 2 * 16 * 8 : d.dx() == 0 ? ka * 16 * 8 : ka * 2 * 8;
                assertEquals(want, m.bytes(), m.toString());
            }
            if (k == 60) {
                assertEquals(16384, bytesOf(all, Direction.E));
                assertEquals(8192, bytesOf(all, Direction.N));
                assertEquals(1024, bytesOf(all, Direction.NE));
            } else {
                assertEquals(224256, bytesOf(all, Direction.W));
                assertEquals(112128, bytesOf(all, Direction.S));
                assertEquals(14016, bytesOf(all, Direction.SW));
            }
        }
        assertEquals(2, ScaleLesHalo.messages(dims, new int[2], Pattern.EW, 60).size());
        assertEquals(4, ScaleLesHalo.messages(dims, new int[2], Pattern.NS, 60).size());
        assertEquals(6, ScaleLesHalo.messages(dims, new int[2], Pattern.NSEW, 60).size());
        assertEquals(8, ScaleLesHalo.messages(dims, new int[2], Pattern.DIAG, 60).size());
    }

    /** Destinations on a 4x2 periodic grid (rank = x * 2 + y), from rank (3, 1) = 7. */
    @Test
    void destinationsWrapAroundThePeriodicGrid() {
        int[] dims = {4, 2};
        List<Message> all = ScaleLesHalo.messages(dims, new int[] {3, 1}, Pattern.ALL, 60);
        List<String> seen = new ArrayList<>();
        for (Message m : all) {
            int x = Math.floorMod(3 + m.direction().dx(), 4);
            int y = Math.floorMod(1 + m.direction().dy(), 2);
            assertEquals(x * 2 + y, m.dest(), m.toString());
            seen.add(m.direction() + "/" + m.put());
            assertTrue(m.tag() >= 0);
        }
        assertEquals(List.of("E/0", "W/0", "N/0", "N/1", "S/0", "S/1", "NE/0", "NE/1", "NW/0", "NW/1", "SE/0", "SE/1",
            "SW/0", "SW/1"), seen);
        assertEquals(14, all.stream().map(Message::tag).distinct().count(), "tags must tell the messages apart");
    }

    private static int bytesOf(List<Message> all, Direction d) {
        int b = -1;
        for (Message m : all) {
            if (m.direction() == d) {
                assertTrue(b == -1 || b == m.bytes(), "all puts of one direction have one size");
                b = m.bytes();
            }
        }
        return b;
    }
}
