package org.hympj.shm.net;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.Launcher;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * Bad input to a job on several hosts: a taken port and an address that is not this machine's
 * fail the job before any rank runs, naming the host, and leave no host directory behind.
 */
class NetBadInputTest {
    @ParameterizedTest(name = "media driver in the host''s {0}")
    @ValueSource(strings = {"rank", "agent"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aTakenPortNamesTheHostAndLeavesNothing(String driver) throws Exception {
        List<String> before = NamespaceHostsTest.jobDirs();
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            int port = taken.getLocalPort();
            IOException e = assertThrows(IOException.class,
                () -> Launcher.run(MultiRank.spec(2, NetRank.class).localHosts(2).netPort(port).netDriver(driver)));
            assertTrue(e.getMessage().contains("host group-") && e.getMessage().contains("port " + port + " in use"),
                e.getMessage());
        }
        Thread.sleep(200);
        org.junit.jupiter.api.Assertions.assertEquals(before, NamespaceHostsTest.jobDirs());
    }

    @ParameterizedTest(name = "media driver in the host''s {0}")
    @ValueSource(strings = {"rank", "agent"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anAddressOfNoInterfaceHereNamesTheHost(String driver) throws Exception {
        List<String> before = NamespaceHostsTest.jobDirs();
        IOException e = assertThrows(IOException.class,
            () -> Launcher.run(MultiRank.spec(2, NetRank.class).localHosts(2).iface("192.0.2.1").netDriver(driver)));
        assertTrue(e.getMessage().contains("host group-") && e.getMessage().contains("192.0.2.1"), e.getMessage());
        Thread.sleep(200);
        org.junit.jupiter.api.Assertions.assertEquals(before, NamespaceHostsTest.jobDirs());
    }
}
