package org.hympj.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two "hosts" (two media drivers, each its own directory and UDP port on the loopback
 * interface) and a rank on each: packets through the ring contract arrive intact and in order,
 * a full publication makes the claim fail instead of dropping anything, a connection with the
 * wrong key is refused and the job's connection goes on, BYE ends a connection (a connection
 * lost without one is reported: the multi-host failure tests of transport-shm kill ranks and hosts).
 */
class NetEndpointTest {
    private static final NetSettings SETTINGS = new NetSettings(NetSettings.mtuFor(8192 + 32), 256 << 10, 1 << 20,
        2_000_000_000L);
    private Path root;
    private HostDriver hostA;
    private HostDriver hostB;
    private final JobKey key = JobKey.generate();
    private final List<String> lost = new CopyOnWriteArrayList<>();

    @BeforeEach
    void drivers() throws Exception {
        root = Files.createDirectories(Paths.get("/dev/shm", "hympj-nettest-" + ProcessHandle.current().pid()));
        hostA = HostDriver.launch(root.resolve("a"), SETTINGS, new SleepingMillisIdleStrategy(0), "127.0.0.1", 0);
        hostB = HostDriver.launch(root.resolve("b"), SETTINGS, new SleepingMillisIdleStrategy(0), "127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        hostA.close();
        hostB.close();
        org.agrona.IoUtil.delete(root.toFile(), true);
        assertFalse(Files.exists(root));
    }

    private String[] endpoints() {
        return new String[] {hostA.endpoint(), hostB.endpoint()};
    }

    private NetEndpoint rank(int r, JobKey k) {
        return new NetEndpoint((r == 0 ? hostA : hostB).directory(), SETTINGS, k, Version.get(), r, endpoints(),
            (peer, why) -> lost.add(peer + ": " + why));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void packetsArriveInOrderAndIntact() {
        try (NetEndpoint r0 = rank(0, key); NetEndpoint r1 = rank(1, key)) {
            assertTrue(r0.remote(1) && r1.remote(0));
            int n = 20_000;
            List<Long> got = new ArrayList<>();
            int sent = 0;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            ControlledMessageHandler h = (type, buffer, index, length) -> {
                assertEquals(7, type);
                long v = buffer.getLong(index);
                assertEquals(length, 8 + (int) (v % 1000));
                for (int i = 8; i < length; i++) {
                    assertEquals((byte) (v + i), buffer.getByte(index + i));
                }
                got.add(v);
                return ControlledMessageHandler.Action.CONTINUE;
            };
            while (got.size() < n) {
                if (sent < n) {
                    int len = 8 + sent % 1000;
                    int idx = r0.outbound(1).tryClaim(7, len);
                    if (idx >= 0) {
                        r0.outbound(1).buffer().putLong(idx, sent);
                        for (int i = 8; i < len; i++) {
                            r0.outbound(1).buffer().putByte(idx + i, (byte) (sent + i));
                        }
                        r0.outbound(1).commit(idx);
                        sent++;
                    }
                }
                r1.inbound(0).controlledRead(h, 64);
                assertTrue(System.nanoTime() - until < 0, "only " + got.size() + " of " + n + " arrived");
            }
            for (int i = 0; i < n; i++) {
                assertEquals(i, got.get(i));
            }
            assertEquals(0, r1.refused());
        }
        assertTrue(lost.isEmpty(), lost::toString);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anAbortedPacketIsReadAgain() {
        try (NetEndpoint r0 = rank(0, key); NetEndpoint r1 = rank(1, key)) {
            for (int v = 0; v < 2; ) {
                int idx = r0.outbound(1).tryClaim(3, 8);
                if (idx >= 0) {
                    r0.outbound(1).buffer().putLong(idx, v++);
                    r0.outbound(1).commit(idx);
                }
            }
            List<Long> got = new ArrayList<>();
            boolean[] held = {false};
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (got.size() < 2 && System.nanoTime() - until < 0) {
                r1.inbound(0).controlledRead((type, buffer, index, length) -> {
                    if (!held[0]) {
                        held[0] = true;
                        return ControlledMessageHandler.Action.ABORT; // as a packet ahead of its turn
                    }
                    got.add(buffer.getLong(index));
                    return ControlledMessageHandler.Action.CONTINUE;
                }, 64);
            }
            assertEquals(List.of(0L, 1L), got);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSenderWithTheWrongKeyIsRefusedAndTheJobGoesOn() {
        try (NetEndpoint r1 = rank(1, key); NetEndpoint stray = rank(0, JobKey.generate())) {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int idx = -1;
            while (idx < 0 && System.nanoTime() - until < 0) {
                idx = stray.outbound(1).tryClaim(1, 8);
                r1.inbound(0).controlledRead((t, b, i, l) -> ControlledMessageHandler.Action.CONTINUE, 8);
            }
            assertTrue(idx >= 0, "the stray sender never connected");
            stray.outbound(1).buffer().putLong(idx, 666);
            stray.outbound(1).commit(idx);
            while (r1.refused() == 0 && System.nanoTime() - until < 0) {
                r1.inbound(0).controlledRead((t, b, i, l) -> {
                    throw new AssertionError("a packet of the stray sender was delivered");
                }, 8);
            }
            assertEquals(1, r1.refused());
            // the job's own rank 0 connects and its packets arrive
            try (NetEndpoint r0 = rank(0, key)) {
                long[] got = {-1};
                while (got[0] < 0 && System.nanoTime() - until < 0) {
                    int j = r0.outbound(1).tryClaim(1, 8);
                    if (j >= 0) {
                        r0.outbound(1).buffer().putLong(j, 42);
                        r0.outbound(1).commit(j);
                    }
                    r1.inbound(0).controlledRead((t, b, i, l) -> {
                        got[0] = b.getLong(i);
                        return ControlledMessageHandler.Action.CONTINUE;
                    }, 8);
                }
                assertEquals(42, got[0]);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aPeerOfAnotherLibraryVersionIsAnErrorNamingBoth() {
        try (NetEndpoint r1 = rank(1, key);
             NetEndpoint other = new NetEndpoint(hostA.directory(), SETTINGS, key, "9.9.9", 0, endpoints(),
                 (peer, why) -> { })) {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            IllegalStateException caught = null;
            while (caught == null && System.nanoTime() - until < 0) {
                int idx = other.outbound(1).tryClaim(1, 8);
                if (idx >= 0) {
                    other.outbound(1).commit(idx);
                }
                try {
                    r1.inbound(0).controlledRead((t, b, i, l) -> ControlledMessageHandler.Action.CONTINUE, 8);
                } catch (IllegalStateException e) {
                    caught = e;
                }
            }
            assertTrue(caught != null, "no error for a peer of another version");
            String m = caught.getMessage();
            assertTrue(m.contains("rank 0") && m.contains("9.9.9") && m.contains(Version.get()), m);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void byeEndsAConnectionWithoutReportingItLost() throws Exception {
        try (NetEndpoint r1 = rank(1, key)) {
            NetEndpoint r0 = rank(0, key);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!r1.allConnected() && System.nanoTime() - until < 0) {
                int idx = r0.outbound(1).tryClaim(1, 8); // a claim sends the HELLO once connected
                if (idx >= 0) {
                    r0.outbound(1).abort(idx);
                }
                r1.inbound(0).controlledRead((t, b, i, l) -> ControlledMessageHandler.Action.CONTINUE, 8);
            }
            assertTrue(r1.allConnected());
            r0.close();
            while (!r1.inbound(0).ended() && System.nanoTime() - until < 0) {
                r1.inbound(0).controlledRead((t, b, i, l) -> ControlledMessageHandler.Action.CONTINUE, 8);
            }
            assertTrue(r1.inbound(0).ended());
            assertEquals(0, r1.inbound(0).size());
            Thread.sleep(500);
            assertTrue(lost.isEmpty(), lost::toString);
        }
    }
}
