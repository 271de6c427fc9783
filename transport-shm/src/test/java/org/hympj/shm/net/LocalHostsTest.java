package org.hympj.shm.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.fabric.NativeSockets;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --local-hosts K}: the ranks split into K groups on this machine, each its own job
 * directory and media driver; ranks of a group reach each other through shared memory, the
 * others only through the network transport (Aeron UDP on loopback) — every message size and a
 * strided layout arrive intact, the route statistics count each transport, and nothing is left.
 */
class LocalHostsTest {
    @ParameterizedTest(name = "{0} ranks on {1} local hosts, media driver in the host''s {2}")
    @CsvSource({"2, 2, rank", "4, 2, rank", "5, 3, rank", "4, 2, agent", "5, 3, agent"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void ranksOfDifferentGroupsTalkOverTheNetworkOnly(int np, int hosts, String driver) {
        JobResult r = MultiRank.runAndPass(MultiRank.spec(np, NetRank.class, "order").localHosts(hosts)
            .netDriver(driver), new String[] {"sizes", "strided", "segment", "arrays", "order", "late"});
        assertEquals(hosts, r.jobDirs().size(), "one job directory per local host");
        for (int rank = 0; rank < np; rank++) {
            String peers = MultiRank.lines(r, rank, "PEERS ").get(0).substring(6);
            int myHost = hostOf(rank, np, hosts);
            for (int p = 0; p < np; p++) {
                char want = hostOf(p, np, hosts) == myHost ? 'L' : 'R';
                assertEquals(want, peers.charAt(p), "rank " + rank + " sees rank " + p + " as " + peers.charAt(p));
            }
            // every group runs on this one machine: all the job's ranks share its cores
            assertEquals(List.of("SHARING " + np), MultiRank.lines(r, rank, "SHARING "), MultiRank.report(r));
            String stats = MultiRank.lines(r, rank, "STATS ").get(0);
            int remote = (int) peers.chars().filter(c -> c == 'R').count();
            int local = np - 1 - remote;
            // per size one message to each other rank, plus the strided one (not contiguous)
            int n = NetRank.SIZES.length;
            assertTrue(stats.contains("net=" + remote * n) && stats.contains("shm=" + local * n),
                () -> "rank " + 0 + ": " + stats + "\n" + MultiRank.report(r));
            // the order scenario's messages of 1 KiB and more to the other host took the sockets (its
            // peer offered its port at the first large frame of the sizes before it)
            String packets = MultiRank.lines(r, rank, "SOCKET-PACKETS ").get(0);
            int sent = Integer.parseInt(packets.replaceAll(".*sent=(-?\\d+).*", "$1"));
            int received = Integer.parseInt(packets.replaceAll(".*received=(-?\\d+).*", "$1"));
            int large = NetRank.ORDER_COUNT / NetRank.ORDER_SIZES.length * 4;
            int me = rank;
            assertTrue(sent >= large && received >= large, () -> "rank " + me + ": " + packets + ", expected at least "
                + large + " each way\n" + MultiRank.report(r));
            // large messages from and into arrays went through the kernel alone where the native socket
            // I/O is built (every rank has a peer on another host), else all were staged
            String arrays = MultiRank.lines(r, rank, "ARRAY-BYTES ").get(0);
            long arraySent = Long.parseLong(arrays.replaceAll(".*sent=(-?\\d+).*", "$1"));
            long arrayReceived = Long.parseLong(arrays.replaceAll(".*received=(-?\\d+).*", "$1"));
            if (NativeSockets.AVAILABLE) {
                assertTrue(arraySent > 3 << 20 && arrayReceived > 3 << 20, () -> "rank " + me + ": " + arrays
                    + ", expected more than the 4 MiB message each way\n" + MultiRank.report(r));
            } else {
                assertEquals("ARRAY-BYTES sent=0 received=0", arrays, MultiRank.report(r));
            }
        }
    }

    /**
     * {@code -Dhympj.native.sockets=off}: arrays' bytes between hosts are staged in direct buffers
     * on both sides (the path of a machine where the native library is not built), every size,
     * offset and layout intact, and none goes straight from or into an array.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void withoutTheNativeSocketsArraysAreStaged() {
        JobResult r = MultiRank.runAndPass(MultiRank.spec(2, NetRank.class).localHosts(2)
            .jvmArg("-D" + NativeSockets.PROPERTY + "=off"), new String[] {"sizes", "strided", "segment", "arrays"});
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(List.of("ARRAY-BYTES sent=0 received=0"), MultiRank.lines(r, rank, "ARRAY-BYTES "),
                MultiRank.report(r));
        }
    }


    private static int hostOf(int rank, int np, int hosts) {
        int first = 0;
        for (int h = 0; h < hosts; h++) {
            int count = np / hosts + (h < np % hosts ? 1 : 0);
            if (rank < first + count) {
                return h;
            }
            first += count;
        }
        throw new IllegalArgumentException();
    }

    /** A term whose window (half of it) is above the default socket buffers: they grow with it (Aeron refused it). */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aLargeTermRunsItsSocketBuffersGrowWithIt() {
        MultiRank.runAndPass(MultiRank.spec(2, NetRank.class).localHosts(2).netTermBytes(8 << 20),
            new String[] {"sizes", "strided", "segment"});
    }

    /**
     * {@code -Dhympj.net.bulk=off}: no bulk socket; large messages between hosts stream in Aeron's
     * frames (the path a sender also takes when a receiver's bulk socket cannot be reached), every
     * size, the strided layout and the segment buffers intact.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void withoutTheBulkSocketsLargeMessagesStreamInTheNetworksFrames() {
        JobResult r = MultiRank.runAndPass(MultiRank.spec(4, NetRank.class, "order").localHosts(2)
            .jvmArg("-Dhympj.net.bulk=off"), new String[] {"sizes", "strided", "segment", "arrays", "order", "late"});
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(List.of("SOCKET-PACKETS sent=0 received=0"), MultiRank.lines(r, rank, "SOCKET-PACKETS "),
                MultiRank.report(r));
            assertEquals(List.of("ARRAY-BYTES sent=0 received=0"), MultiRank.lines(r, rank, "ARRAY-BYTES "),
                MultiRank.report(r));
        }
    }

    /**
     * The JIT warm-up that runs before every program by default (the suite turns it off to save
     * time): on 8 ranks of 2 hosts, ranks whose ring neighbours are both on their host and ranks on
     * a host boundary exchange the same messages (in session 14 a warm-up step taken only by the
     * boundary ranks truncated a 1 MiB message into a 64 KiB receive at start-up). Each host's ranks
     * also exchange in a ring of their own (WarmUp.HostRing): hosts of 4, 3 and 2 ranks and a host of
     * one, which has none.
     */
    @ParameterizedTest(name = "{0} ranks on {1} local hosts")
    @CsvSource({"8, 2", "7, 2", "5, 3"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theWarmUpRunsOnSeveralHosts(int np, int hosts) {
        MultiRank.runAndPass(MultiRank.spec(np, NetRank.class).localHosts(hosts).warmUp("on"),
            new String[] {"sizes", "strided", "segment"});
    }

    /**
     * {@code --net-mtu 1408}, frames that 1500-byte Ethernet carries unfragmented: messages up to
     * the inline limit (8 KiB) no longer fit one frame and go to the other host by rendezvous in
     * 1.4 KiB pieces (they failed at the claim before the eager path asked the ring), every size
     * intact.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void framesOfStandardEthernetCarryEveryMessageSize() {
        MultiRank.runAndPass(MultiRank.spec(4, NetRank.class).localHosts(2).netMtu(1408),
            new String[] {"sizes", "strided", "segment"});
    }

    @Test
    void anMtuAeronDoesNotTakeIsRefusedAtTheCall() {
        for (int bad : new int[] {1000, 1500, 65536}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MultiRank.spec(4, NetRank.class).netMtu(bad));
            assertTrue(e.getMessage().contains("--net-mtu must be a multiple of 32 in 1408..65504")
                && e.getMessage().endsWith("was " + bad), e.getMessage());
        }
    }

    @Test
    void moreLocalHostsThanRanksIsRefusedBeforeAnythingStarts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Launcher.run(MultiRank.spec(2, NetRank.class).localHosts(3)));
        assertTrue(e.getMessage().contains("--local-hosts"), e.getMessage());
    }

    @Test
    void aTimingModelNeedsOneHost() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Launcher.run(MultiRank.spec(4, NetRank.class).localHosts(2).model("ha-pacs")));
        assertTrue(e.getMessage().contains("--model"), e.getMessage());
    }

}
