package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * --bind-to core: each rank may run on one CPU only, rank r on the r-th allowed one (modulo); the
 * library still counts the CPUs the ranks share (a bound JVM sees one: 2 bound ranks on 2 cores
 * were taken for 2 ranks sharing a core — C1 only, yielding, no single-copy pulls: 4 KB ping-pong
 * 1.17 against 0.43 µs unbound).
 */
class BindToTest {
    @Test
    void cpuListsParse() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 6, 8, 9}, CpuBinding.parseList("0-3,6,8-9"));
        assertArrayEquals(new int[] {5}, CpuBinding.parseList("5"));
        assertThrows(IllegalArgumentException.class, () -> CpuBinding.parseList(""));
        assertThrows(IllegalArgumentException.class, () -> LaunchSpec.of(2, BindRank.class).bindTo("socket"));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void eachRankRunsOnItsOwnCpu() throws Exception {
        checkBinding(LaunchSpec.of(3, BindRank.class), 3);
    }

    /**
     * --local-hosts: the groups share this machine's CPUs, so rank r still takes the r-th (each group's
     * first rank took CPU 0 before session 17: a 1 MB ping-pong between 2 groups, 1.8 ms against 0.16).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ranksOfLocalHostsBindByTheirJobRank() throws Exception {
        checkBinding(LaunchSpec.of(2, BindRank.class).localHosts(2), 2);
    }

    private static void checkBinding(LaunchSpec spec, int np) throws Exception {
        String taskset;
        try {
            taskset = CpuBinding.taskset();
        } catch (IllegalArgumentException e) {
            assumeTrue(false, "no taskset here: " + e.getMessage());
            return;
        }
        assertFalse(taskset.isEmpty());
        int[] allowed = CpuBinding.allowedCpus();
        JobResult r = Launcher.run(spec.bindTo("core")
            .output(LaunchSpec.Output.CAPTURE).timeout(Duration.ofSeconds(90)));
        assertEquals(0, r.exitCode(), () -> "job failed: " + r.message() + "\n" + r.allOutput());
        assertFalse(Files.exists(r.jobDir()), "job directory left behind");
        Pattern p = Pattern.compile("CPUS (\\d+) (\\S+)");
        for (int rank = 0; rank < np; rank++) {
            Matcher m = p.matcher(r.output(rank));
            assertTrue(m.find(), () -> "no CPU list from a rank:\n" + r.allOutput());
            int expected = allowed[Integer.parseInt(m.group(1)) % allowed.length];
            assertEquals(Integer.toString(expected), m.group(2), "rank " + m.group(1) + " may run on " + m.group(2));
            // bound to one CPU, the JVM counts 1; the library still counts the CPUs the job's ranks share
            Matcher c = Pattern.compile("CORES (\\d+) own (\\d+)").matcher(r.output(rank));
            assertTrue(c.find(), () -> "no core count from a rank:\n" + r.allOutput());
            assertEquals(allowed.length, Integer.parseInt(c.group(1)), "cores the library counts, rank " + rank);
            assertEquals(1, Integer.parseInt(c.group(2)), "the bound JVM's own count, rank " + rank);
        }
    }
}
