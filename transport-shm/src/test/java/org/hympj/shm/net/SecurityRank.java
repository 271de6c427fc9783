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
 * job goes on — a ring exchange checked byte by byte. Then a stray TCP client connects to the
 * bulk socket of a rank of host 1 (the socket its 100 KB receive from host 0 opened) and answers
 * the challenge without the key: refused, and the next large exchange arrives intact. Every rank
 * also lists the sockets of its host's agent and its own (one of them runs the host's media
 * driver): UDP bound to 127.0.0.1, and no TCP listener but a rank's own bulk socket, on 127.0.0.1.
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
                exchange(w, rank, to, from, n);
            }
            int strayAt = layout.firstRank(1);
            Thread strayClient = null;
            if (rank == strayAt) {
                int port = ((ShmMpj) mpj).engine().fabric().netBulk().port();
                strayClient = new Thread(() -> strayBulk(port, rank), "stray bulk client");
                strayClient.start();
                Thread.sleep(200); // connected before the exchange below makes the rank accept
            }
            w.barrier();
            exchange(w, rank, to, from, 300_000); // the bulk socket is read again: the stray's hello is checked then
            if (strayClient != null) {
                // passes go on meanwhile: the stray's hello may come after the exchange, and is read in a pass
                // (the rank reads its connections in every pass once it offered its port for packets)
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (strayClient.isAlive() && System.nanoTime() - until < 0) {
                    w.iprobe(Comm.ANY_SOURCE, 999);
                    strayClient.join(1);
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

    private static void exchange(Comm w, int rank, int to, int from, int n) {
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

    /**
     * A client outside the job at {@code port} (rank {@code rank}'s bulk socket), on a thread of
     * its own (the rank's thread answers it, in its progress passes): it reads the challenge,
     * answers as rank 0 with a MAC made without the key and sends a piece; the rank must close
     * the connection without taking the piece.
     */
    private static void strayBulk(int port, int rank) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            byte[] challenge = s.getInputStream().readNBytes(16);
            java.nio.ByteBuffer hello = java.nio.ByteBuffer.allocate(44 + 16 + 64);
            hello.putInt(0x4842554c).putInt(0).putInt(rank).put(new byte[32]); // the magic, "rank 0", a made-up MAC
            hello.order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0).putInt(64).putLong(0).put(new byte[64]);
            s.getOutputStream().write(hello.array());
            s.getOutputStream().flush();
            int after;
            try {
                after = s.getInputStream().read(); // the rank refuses: it closes the connection
            } catch (java.net.SocketException reset) {
                after = -1; // closed with the stray's piece unread: a reset
            }
            System.out.println("STRAY bulk challenge " + challenge.length + " answered, then " + (after < 0
                ? "closed" : "read " + after));
        } catch (IOException e) {
            System.out.println("STRAY bulk failed: " + e);
        }
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
        boolean listenLoopback = true;
        for (String table : new String[] {"tcp", "tcp6"}) {
            for (String[] row : rows("/proc/net/" + table)) {
                if (inodes.contains(row[9]) && row[3].equals("0A")) {
                    listen++;
                    // 127.0.0.1, in the IPv4 table or IPv4-mapped in the IPv6 one (Java's sockets are dual-stack)
                    listenLoopback &= row[1].startsWith("0100007F:") || row[1].startsWith("0000000000000000FFFF00000100007F:");
                }
            }
        }
        return "udp=" + udp + " loopback-only=" + loopback + " tcp-listen=" + listen + " tcp-loopback-only="
            + listenLoopback;
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
