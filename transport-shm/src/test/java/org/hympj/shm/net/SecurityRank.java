package org.hympj.shm.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.job.HostLayout;
import org.hympj.shm.launch.Launcher;

/**
 * A rank of a job on 2 local hosts while a process outside the job ({@link StraySender}, started
 * by rank 0) connects to the ranks of host 1 without the job's key: those ranks refuse it, no
 * packet of it is delivered (its packet would break the sequence of rank 0's messages), and the
 * job goes on — a ring exchange checked byte by byte. Every rank also lists the sockets of its
 * host's agent and its own (one of them runs the host's media driver): UDP only, each bound to
 * 127.0.0.1, none listening on TCP.
 */
public final class SecurityRank {
    public static void main(String[] args) throws Exception {
        try (Mpj mpj = Mpj.init(args)) {
            Comm w = mpj.world();
            int rank = w.rank();
            int size = w.size();
            HostLayout layout = HostLayout.load(Paths.get(System.getenv(ShmMpj.ENV_JOB_DIR), HostLayout.FILE));
            w.barrier();
            if (rank == 0) {
                stray(layout);
            }
            w.barrier();
            int to = (rank + 1) % size;
            int from = (rank - 1 + size) % size;
            for (int n : new int[] {8, 100_000}) {
                byte[] out = new byte[n];
                for (int i = 0; i < n; i++) {
                    out[i] = (byte) (rank + i);
                }
                byte[] in = new byte[n];
                w.sendrecv(out, 0, n, Datatype.BYTE, to, 1, in, 0, n, Datatype.BYTE, from, 1);
                for (int i = 0; i < n; i++) {
                    if (in[i] != (byte) (from + i)) {
                        throw new AssertionError("byte " + i + " of " + n + " from " + from);
                    }
                }
            }
            System.out.println("PASS exchange");
            if (layout.hostOf(rank) == 1) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (((ShmMpj) mpj).refusedConnections() == 0 && System.nanoTime() - until < 0) {
                    w.iprobe(Comm.ANY_SOURCE, 999); // progress: the connection is checked when it is read
                }
                System.out.println("REFUSED " + ((ShmMpj) mpj).refusedConnections());
            }
            // the host's driver is in its agent (this rank's parent) or in the host's first rank
            System.out.println("SOCKETS agent " + sockets(ProcessHandle.current().parent().orElseThrow().pid()));
            System.out.println("SOCKETS self " + sockets(ProcessHandle.current().pid()));
            w.barrier();
        }
        System.out.println("PASS finalize");
    }

    private static void stray(HostLayout layout) throws IOException, InterruptedException {
        StringBuilder victims = new StringBuilder();
        for (int r = layout.firstRank(1); r < layout.firstRank(1) + layout.rankCount(1); r++) {
            victims.append(victims.length() == 0 ? "" : ",").append(r);
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(Launcher.jvmFlags());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(StraySender.class.getName());
        cmd.add(layout.endpoint(1));
        cmd.add(Integer.toString(layout.size()));
        cmd.add(victims.toString());
        cmd.add(Integer.toString(layout.net().mtu));
        cmd.add(Integer.toString(layout.net().termLength));
        cmd.add(Integer.toString(layout.net().socketBuffer));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("stray sender failed:\n" + out);
        }
        for (String l : out.split("\n")) {
            if (l.startsWith("STRAY ")) {
                System.out.println(l);
            }
        }
    }

    /**
     * The sockets of process {@code pid}: "udp=N loopback-only=B tcp-listen=M", from its open
     * descriptors and the kernel's socket tables.
     */
    static String sockets(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Paths.get("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException ignored) {
                    // closed meanwhile
                }
            }
        }
        int udp = 0;
        boolean loopback = true;
        for (String table : new String[] {"udp", "udp6"}) {
            for (String[] row : rows("/proc/net/" + table)) {
                if (inodes.contains(row[9])) {
                    udp++;
                    loopback &= row[1].startsWith("0100007F:");
                }
            }
        }
        int listen = 0;
        for (String table : new String[] {"tcp", "tcp6"}) {
            for (String[] row : rows("/proc/net/" + table)) {
                if (inodes.contains(row[9]) && row[3].equals("0A")) {
                    listen++;
                }
            }
        }
        return "udp=" + udp + " loopback-only=" + loopback + " tcp-listen=" + listen;
    }

    private static List<String[]> rows(String file) throws IOException {
        List<String[]> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(Paths.get(file));
        for (int i = 1; i < lines.size(); i++) {
            out.add(lines.get(i).trim().split("\\s+"));
        }
        return out;
    }
}
