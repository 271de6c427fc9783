package org.hympj.shm.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --hostfile} with a launch agent, on two real network stacks of this machine
 * ({@link TwoNamespaces}: 10.77.0.1 and 10.77.0.2), each a "host" of the
 * hostfile; the launch agent runs a host's agent in its namespace ({@code ip netns exec}), where
 * its endpoint binds the host's address; ranks of different hosts talk across the veth pair.
 * Skipped where namespaces cannot be made (not root, no {@code ip}).
 */
class NamespaceHostsTest {
    private static final String[] ADDR = TwoNamespaces.ADDR;
    private static final TwoNamespaces HOSTS = new TwoNamespaces("ns");
    private static final String[] NS = HOSTS.ns;
    private static boolean ready;
    private static Path dir;

    @BeforeAll
    static void namespaces() throws Exception {
        ready = HOSTS.create();
        if (!ready) {
            return;
        }
        dir = Files.createTempDirectory("hympj-ns", PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
        // the launch agent: ns-agent HOST java … runs the agent in that host's namespace
        Path agent = dir.resolve("ns-agent");
        Files.writeString(agent, "#!/bin/sh\nhost=$1; shift\ncase $host in\n  " + ADDR[0] + ") ns=" + NS[0] + ";;\n  "
            + ADDR[1] + ") ns=" + NS[1] + ";;\n  *) echo \"ns-agent: unknown host $host\" >&2; exit 255;;\nesac\n"
            + "exec ip netns exec $ns \"$@\"\n");
        Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(dir.resolve("hosts"), "# two namespaces\n" + ADDR[0] + " slots=2\n" + ADDR[1] + " slots=2\n");
    }

    @AfterAll
    static void remove() throws Exception {
        HOSTS.remove();
        if (dir != null) {
            for (String f : new String[] {"ns-agent", "hosts"}) {
                Files.deleteIfExists(dir.resolve(f));
            }
            Files.deleteIfExists(dir);
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void ranksOnTwoNetworkStacksTalkAcrossTheVethPair() {
        assumeTrue(ready, "cannot create network namespaces here (not root, or no ip command)");
        assertTwoRanksOnEachHost(MultiRank.runAndPass(MultiRank.spec(4, NetRank.class).hostfile(dir.resolve("hosts"))
            .launchAgent(dir.resolve("ns-agent").toString()), new String[] {"sizes", "strided"}));
    }

    /** A {@link NetRank} job of ranks 0, 1 on one host and 2, 3 on the other: each saw who is where and counted its routes. */
    static void assertTwoRanksOnEachHost(JobResult r) {
        for (int rank = 0; rank < 4; rank++) {
            String peers = MultiRank.lines(r, rank, "PEERS ").get(0).substring(6);
            assertEquals(rank < 2 ? "LLRR" : "RRLL", peers, MultiRank.report(r));
            // each host's own ranks share its cores, not the job's 4 (--idle auto, --jit auto)
            assertEquals(List.of("SHARING 2"), MultiRank.lines(r, rank, "SHARING "), MultiRank.report(r));
            String stats = MultiRank.lines(r, rank, "STATS ").get(0);
            int n = NetRank.SIZES.length;
            assertTrue(stats.contains("net=" + 2 * n) && stats.contains("shm=" + n), stats);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anAgentThatCannotStartNamesItsHostAndLeavesNothing() throws Exception {
        assumeTrue(ready, "cannot create network namespaces here (not root, or no ip command)");
        Path hosts = dir.resolve("hosts");
        List<String> before = jobDirs();
        // the second host is not one the launch agent knows: it fails there
        Files.writeString(hosts, ADDR[0] + " slots=2\n10.77.0.9 slots=2\n");
        try {
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> org.hympj.shm.launch.Launcher.run(MultiRank.spec(4, NetRank.class).hostfile(hosts)
                    .launchAgent(dir.resolve("ns-agent").toString())));
            assertTrue(e.getMessage().contains("host 10.77.0.9") && e.getMessage().contains("unknown host"),
                e.getMessage());
        } finally {
            Files.writeString(hosts, ADDR[0] + " slots=2\n" + ADDR[1] + " slots=2\n");
        }
        Thread.sleep(200);
        assertEquals(before, jobDirs(), "a job directory was left behind");
    }

    /** Every HyMPJ job directory in /dev/shm. */
    static List<String> allDirs() throws IOException {
        List<String> out = new ArrayList<>();
        try (var s = Files.list(Path.of("/dev/shm"))) {
            s.filter(p -> p.getFileName().toString().startsWith("hympj-")).forEach(p -> out.add(p.toString()));
        }
        return out;
    }

    /** The host directories of jobs on several hosts in /dev/shm ({@code hympj-<job>-<host>}). */
    static List<String> jobDirs() throws IOException {
        List<String> out = new ArrayList<>();
        try (var s = Files.list(Path.of("/dev/shm"))) {
            s.filter(p -> p.getFileName().toString().startsWith("hympj-")
                && p.getFileName().toString().split("-").length == 4).forEach(p -> out.add(p.toString()));
        }
        out.sort(null);
        return out;
    }
}
