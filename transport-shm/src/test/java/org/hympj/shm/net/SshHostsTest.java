package org.hympj.shm.net;

import static org.hympj.shm.testing.Waits.read;
import static org.hympj.shm.testing.Waits.within;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hympj.shm.launch.HostAgent;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.MpjRun;
import org.hympj.shm.testing.MultiRank;
import org.hympj.shm.testing.Waits;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --hostfile} through the default kind of launch agent, a real ssh: an OpenSSH server in
 * each of two network namespaces ({@link TwoNamespaces}), key authentication with a key made for
 * the test, and {@code --launch-agent "ns-ssh -F <config>"}: a wrapper that runs ssh in the first
 * namespace, whence both hosts are reached (the config names the key and trusts the servers'
 * keys; the launcher treats an agent named like ssh as it treats ssh). Skipped
 * where namespaces cannot be made or OpenSSH's server is not installed ({@code .ci/run} installs it).
 */
class SshHostsTest {
    private static final String SSHD = "/usr/sbin/sshd";
    private static final Pattern READY = Pattern.compile("READY rank (\\d+) pid (\\d+)");
    private static final TwoNamespaces HOSTS = new TwoNamespaces("ssh");
    private static String skip;
    private static Path dir;
    private static String agent;

    @BeforeAll
    static void servers() throws Exception {
        if (!Files.isExecutable(Path.of(SSHD)) || !hasKeygen()) {
            skip = "OpenSSH's server is not installed here (" + SSHD + ")";
            return;
        }
        if (!HOSTS.create()) {
            skip = "cannot create network namespaces here (not root, or no ip command)";
            return;
        }
        dir = Files.createTempDirectory("hympj-ssh", PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
        Files.createDirectories(Path.of("/run/sshd")); // the server's privilege separation directory
        if (!TwoNamespaces.run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("host_key").toString())
            || !TwoNamespaces.run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("id").toString())) {
            skip = "ssh-keygen failed";
            return;
        }
        Files.copy(dir.resolve("id.pub"), dir.resolve("authorized_keys"));
        for (int i = 0; i < 2; i++) {
            Path cfg = dir.resolve("sshd_config" + i);
            Files.writeString(cfg, String.join("\n",
                "ListenAddress " + TwoNamespaces.ADDR[i] + ":22",
                "HostKey " + dir.resolve("host_key"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                "PermitRootLogin prohibit-password",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM no",
                "StrictModes no",
                "PidFile " + dir.resolve("sshd" + i + ".pid"), ""));
            if (!TwoNamespaces.run(HOSTS.in(i, SSHD, "-f", cfg.toString()))) {
                skip = "the ssh server did not start in " + HOSTS.ns[i];
                return;
            }
        }
        Path client = dir.resolve("ssh_config");
        Files.writeString(client, String.join("\n", "Host *",
            "  IdentityFile " + dir.resolve("id"),
            "  IdentitiesOnly yes",
            "  StrictHostKeyChecking no",
            "  UserKnownHostsFile /dev/null",
            "  LogLevel ERROR",
            "  BatchMode yes",
            "  ConnectTimeout 10", ""));
        // the launcher's namespace has no route to the hosts: its ssh runs in the first host's
        // namespace, through a wrapper named like ssh (as a site's ssh wrapper would be)
        Path wrapper = dir.resolve("ns-ssh");
        Files.writeString(wrapper, "#!/bin/sh\nexec ip netns exec " + HOSTS.ns[0] + " ssh \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        agent = wrapper + " -F " + client;
        Files.writeString(dir.resolve("hosts"),
            TwoNamespaces.ADDR[0] + " slots=2\n" + TwoNamespaces.ADDR[1] + " slots=2\n");
        for (int i = 0; i < 2; i++) { // the servers are up when ssh gets in
            int host = i;
            if (!within(10, () -> sshWorks(host))) {
                skip = "ssh to " + TwoNamespaces.ADDR[i] + " did not work within 10 s";
                return;
            }
        }
    }

    private static boolean hasKeygen() {
        return Files.isExecutable(Path.of("/usr/bin/ssh-keygen"));
    }

    private static boolean sshWorks(int host) {
        try {
            return TwoNamespaces.run(HOSTS.in(host == 0 ? 1 : 0, "ssh", "-F", dir.resolve("ssh_config").toString(),
                TwoNamespaces.ADDR[host], "true"));
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (int i = 0; dir != null && i < 2; i++) {
            Path pid = dir.resolve("sshd" + i + ".pid");
            if (Files.exists(pid)) {
                long p = Long.parseLong(Files.readString(pid).trim());
                ProcessHandle.of(p).ifPresent(ProcessHandle::destroy);
                ProcessHandle.of(p).ifPresent(h -> h.onExit().orTimeout(5, TimeUnit.SECONDS).join());
            }
        }
        HOSTS.remove();
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void ranksOfTwoHostsStartedThroughSshTalkAcrossTheLink() {
        assumeTrue(skip == null, skip);
        NamespaceHostsTest.assertTwoRanksOnEachHost(MultiRank.runAndPass(MultiRank.spec(4, NetRank.class)
            .hostfile(dir.resolve("hosts")).launchAgent(agent), new String[] {"sizes", "strided"}));
    }

    /**
     * The launcher killed (SIGKILL: no hook of its runs) while the ranks compute: ssh carries the
     * end of the launcher's pipe to each host's agent, which ends its ranks and removes its files;
     * no rank, agent or ssh is left. The launcher's class path goes through a directory whose name
     * has a space, so the agent's command only starts if it reaches the remote shell quoted.
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void killingTheLauncherEndsEveryHostsPartThroughSsh() throws Exception {
        assumeTrue(skip == null, skip);
        try (Job job = new Job("launcher.log", classPathWithASpace(), "org.hympj.shm.failure.MisbehavingRank", "compute",
            "100")) {
            job.awaitReady();
            assertEquals(2, NamespaceHostsTest.jobDirs().size() - job.before.size(), "a job directory per host while it runs");
            job.launcher.destroyForcibly();
            assertTrue(job.launcher.waitFor(10, TimeUnit.SECONDS));
            job.assertNothingLeft();
        }
    }

    /**
     * The link between the hosts cut while every rank waits for a message from the other host
     * (the hosts stay up: for the launcher, as a host that died whole, since nothing ends there):
     * with the default timeouts the launcher hears no heartbeat from the cut-off host's agent for
     * 4 s and aborts the job naming a rank of it, so the other host's ranks fail within 5 s of the
     * cut (issue 17's bound); the cut-off agent, which hears nothing from the launcher either,
     * stops its ranks and removes its files; on both sides no rank, agent, ssh or file is left.
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void aCutLinkFailsTheJobOnBothSidesAndLeavesNothing() throws Exception {
        assumeTrue(skip == null, skip);
        try (Job job = new Job("partition.log", System.getProperty("java.class.path"), PartitionRank.class.getName())) {
            job.awaitReady();
            try {
                long cut = System.nanoTime();
                assertTrue(HOSTS.link(0, false), "could not take the link down");
                job.assertAbortedNamingTheSecondHost("cut link", cut);
                job.assertNothingLeft();
            } finally {
                HOSTS.link(0, true);
            }
        }
    }

    /**
     * A host that hangs (its agent and ranks stopped with SIGSTOP; the link and ssh stay up): the
     * launcher hears no heartbeat for 4 s and aborts the job naming a rank of it; once the host
     * runs again its agent finds the launcher gone, stops its ranks and removes its files.
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void aHungHostFailsTheJobWithin5sAndCleansUpWhenItWakes() throws Exception {
        assumeTrue(skip == null, skip);
        try (Job job = new Job("hang.log", System.getProperty("java.class.path"), PartitionRank.class.getName())) {
            Map<Integer, Long> ranks = job.awaitReady();
            List<Long> stopped = new ArrayList<>(List.of(ranks.get(2), ranks.get(3)));
            for (ProcessHandle a : agentsOfThisTest()) {
                if (HOSTS.ns[1].equals(namespaceOf(a.pid()))) {
                    stopped.add(a.pid());
                }
            }
            assertEquals(3, stopped.size(), "two ranks and an agent on the second host: " + stopped);
            try {
                long hang = System.nanoTime();
                assertTrue(TwoNamespaces.run(signal("STOP", stopped)), "could not stop the second host's processes");
                job.assertAbortedNamingTheSecondHost("hung host", hang);
            } finally {
                TwoNamespaces.run(signal("CONT", stopped));
            }
            job.assertNothingLeft();
        }
    }

    /**
     * A job of 4 ranks on the two hosts, its launcher a process of its own (so that it can be
     * killed) writing to a log; every rank prints {@code READY rank <r> pid <pid>}. Closing it
     * kills whatever of it is left.
     */
    private static final class Job implements AutoCloseable {
        final List<String> before;
        final Process launcher;
        private final Path log;
        private final Map<Integer, Long> ranks = new TreeMap<>();

        Job(String logName, String classPath, String... main) throws IOException {
            this.before = NamespaceHostsTest.jobDirs();
            this.log = dir.resolve(logName);
            List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                classPath, MpjRun.class.getName(), "-np", "4", "--hostfile", dir.resolve("hosts").toString(),
                "--launch-agent", agent, "--timeout", "120", "--tag-output"));
            cmd.addAll(List.of(main));
            this.launcher = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }

        /** Every rank's pid, once all four said READY. */
        Map<Integer, Long> awaitReady() throws InterruptedException {
            assertTrue(within(90, () -> ready().size() == 4 || !launcher.isAlive()),
                () -> "the ranks did not all report ready: " + read(log));
            assertTrue(launcher.isAlive(), () -> "the launcher ended: " + read(log));
            ranks.putAll(ready());
            return ranks;
        }

        private Map<Integer, Long> ready() {
            Map<Integer, Long> out = new TreeMap<>();
            Matcher m = READY.matcher(read(log));
            while (m.find()) {
                out.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            }
            return out;
        }

        /**
         * The launcher exits non-zero within 6 s of {@code since} (4 s of the second host's
         * silence, then the first host's ranks fail at once), saying the second host went silent;
         * each rank of the first host names a rank of the second.
         */
        void assertAbortedNamingTheSecondHost(String what, long since) throws InterruptedException {
            assertTrue(launcher.waitFor(30, TimeUnit.SECONDS), () -> "the launcher still runs 30 s after the " + what + ": "
                + read(log));
            double took = (System.nanoTime() - since) / 1e9;
            String out = read(log);
            System.out.printf("%s: the launcher exited %d after %.1f s%n%s%n", what, launcher.exitValue(), took, out);
            assertTrue(launcher.exitValue() != 0 && out.contains("host " + TwoNamespaces.ADDR[1] + " went silent"), out);
            assertTrue(took < 6, () -> "the launcher took " + took + " s after the " + what + "\n" + out);
            for (int rank = 0; rank < 2; rank++) { // the first host's ranks still reach the launcher
                Matcher m = Pattern.compile("\\[" + rank + "\\] CAUGHT (\\d+) (.*)").matcher(out);
                assertTrue(m.find(), "rank " + rank + " did not report the failure\n" + out);
                int named = Integer.parseInt(m.group(1));
                assertTrue(named >= 2 && m.group(2).contains("rank " + named), "rank " + rank + ": " + m.group());
            }
        }

        /** No rank, host agent, ssh client or job directory of the job is left on either host. */
        void assertNothingLeft() throws InterruptedException {
            assertTrue(within(20, () -> ranks.values().stream().noneMatch(Waits::alive)),
                () -> "ranks still running 20 s after the job ended: " + read(log));
            assertTrue(within(20, () -> before.equals(dirs())), () -> "job directories left: " + dirs());
            assertTrue(within(10, () -> agentsOfThisTest().isEmpty()), () -> "host agents left: " + agentsOfThisTest());
            assertTrue(within(10, () -> sshClientsOfThisTest().isEmpty()),
                () -> "ssh clients still running: " + sshClientsOfThisTest());
        }

        @Override
        public void close() {
            launcher.destroyForcibly();
            for (long pid : ranks.values()) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            agentsOfThisTest().forEach(ProcessHandle::destroyForcibly);
            sshClientsOfThisTest().forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static List<String> signal(String sig, List<Long> pids) {
        List<String> c = new ArrayList<>(List.of("kill", "-" + sig));
        pids.forEach(p -> c.add(Long.toString(p)));
        return c;
    }

    /** The name of the network namespace process {@code pid} runs in ("" for the machine's own). */
    private static String namespaceOf(long pid) {
        try {
            Process p = new ProcessBuilder("ip", "netns", "identify", Long.toString(pid)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            p.waitFor(10, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** This JVM's class path, each entry reached through a symbolic link in a directory named "class path". */
    private static String classPathWithASpace() throws IOException {
        Path links = Files.createDirectories(dir.resolve("class path"));
        List<String> out = new ArrayList<>();
        String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
        for (int i = 0; i < entries.length; i++) {
            Path target = Path.of(entries[i]).toAbsolutePath();
            String name = i + (entries[i].endsWith(".jar") ? ".jar" : "");
            Path link = links.resolve(name);
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
            out.add(link.toString());
        }
        return String.join(File.pathSeparator, out);
    }

    private static List<ProcessHandle> sshClientsOfThisTest() {
        String config = dir.resolve("ssh_config").toString();
        List<ProcessHandle> out = new ArrayList<>();
        ProcessHandle.allProcesses().filter(p -> {
            String c = cmdline(p.pid());
            return c.contains("ssh ") && c.contains(config);
        }).forEach(out::add);
        return out;
    }

    /** HostAgent JVMs (the tests of this class run one job at a time). */
    private static List<ProcessHandle> agentsOfThisTest() {
        List<ProcessHandle> out = new ArrayList<>();
        ProcessHandle.allProcesses().filter(p -> cmdline(p.pid()).contains(" " + HostAgent.class.getName()))
            .forEach(out::add);
        return out;
    }

    /**
     * A process's whole command line from /proc (the JDK's {@code ProcessHandle.Info} cuts a long
     * one short: a class path of the test's jars hides the main class behind it).
     */
    private static String cmdline(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException | RuntimeException e) {
            return ""; // gone, or not readable
        }
    }

    private static List<String> dirs() {
        try {
            return NamespaceHostsTest.jobDirs();
        } catch (IOException e) {
            return List.of("(cannot list /dev/shm: " + e + ")");
        }
    }
}
