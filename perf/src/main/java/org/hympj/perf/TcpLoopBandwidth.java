package org.hympj.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code hympj-bench tcp-loop-bw [--reps R] [--buffers heap|direct] [sizes...]}: what one Java
 * TCP stream over loopback carries, nothing of HyMPJ — the ceiling of a network transport written
 * on the JDK's sockets here (issue 17 asks HyMPJ between hosts for Open MPI's TCP bandwidth). Two
 * JVMs, one blocking {@code SocketChannel} (no Nagle, 4 MiB socket buffers), timed as
 * {@code ../shared/anchors/bw.c}: a window of 64 messages, then a 4-byte ack back, 5 batches, the
 * median batch, MB/s. {@code heap}: a Java array's buffer (the JDK copies it through a direct
 * buffer of its own); {@code direct}: a direct buffer (as a shared segment would be). The
 * receiver checks a byte at the start, middle and end of every message. Prints
 * {@code java-tcp,bw-window64,BUFFERS,SIZE,REP,MBPS,MB/s}.
 */
public final class TcpLoopBandwidth {
    static final String USAGE = "usage: hympj-bench tcp-loop-bw [--reps R] [--buffers heap|direct] [sizes...]"
        + " (two JVMs, one TCP stream on loopback, window of 64: a Java transport's ceiling; default heap,"
        + " sizes 65536 1048576 4194304)";
    private static final int WINDOW = 64;
    private static final int BATCHES = 5;

    private TcpLoopBandwidth() {
    }

    static int run(String[] argv, PrintStream out) {
        int reps = 1;
        String buffers = "heap";
        List<String> sizes = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].equals("--reps") && i + 1 < argv.length && argv[i + 1].matches("\\d+")) {
                reps = Integer.parseInt(argv[++i]);
            } else if (argv[i].equals("--buffers") && i + 1 < argv.length
                && (argv[i + 1].equals("heap") || argv[i + 1].equals("direct"))) {
                buffers = argv[++i];
            } else if (argv[i].matches("\\d+") && Integer.parseInt(argv[i]) >= 16) {
                sizes.add(argv[i]);
            } else {
                System.err.println("hympj-bench tcp-loop-bw: bad argument " + argv[i] + " (sizes are >= 16 bytes)");
                System.err.println(USAGE);
                return 2;
            }
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of("65536", "1048576", "4194304"));
        }
        String kind = buffers;
        return ChildPair.launches("tcp-loop-bw", reps, out, rep -> once(kind, sizes, rep));
    }

    /** One launch of both JVMs over every size; the sender's rows. */
    private static List<String> once(String buffers, List<String> sizes, int rep) throws IOException, InterruptedException {
        int port = freePort();
        List<List<String>> cmds = new ArrayList<>();
        for (int role = 0; role < 2; role++) {
            List<String> cmd = ChildPair.java();
            cmd.addAll(List.of(TcpLoopBandwidth.class.getName(), Integer.toString(role), buffers,
                Integer.toString(port), Integer.toString(rep)));
            cmd.addAll(sizes);
            cmds.add(cmd);
        }
        return ChildPair.rows(cmds, "java-tcp,", "TCP bandwidth");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A child: {@code ROLE BUFFERS PORT REP SIZES…}. Role 1 listens and receives; role 0 sends and prints. */
    public static void main(String[] a) throws IOException, InterruptedException {
        int role = Integer.parseInt(a[0]);
        boolean direct = a[1].equals("direct");
        int port = Integer.parseInt(a[2]);
        int rep = Integer.parseInt(a[3]);
        try (SocketChannel ch = role == 1 ? accept(port) : connect(port)) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            ByteBuffer ack = ByteBuffer.allocateDirect(4);
            for (int i = 4; i < a.length; i++) {
                int size = Integer.parseInt(a[i]);
                ByteBuffer buf = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
                int iters = size <= 65536 ? 100 : size <= 1048576 ? 40 : 20; // as bw.c
                int per = iters / BATCHES;
                double[] mbps = new double[BATCHES];
                for (int b = -1; b < BATCHES; b++) { // batch -1: warm-up
                    long t0 = System.nanoTime();
                    for (int it = 0; it < per; it++) {
                        for (int w = 0; w < WINDOW; w++) {
                            byte mark = (byte) (w * 31 + it);
                            if (role == 0) {
                                buf.put(0, mark).put(size / 2, mark).put(size - 1, mark).clear();
                                while (buf.hasRemaining()) {
                                    ch.write(buf);
                                }
                            } else {
                                buf.clear();
                                while (buf.hasRemaining()) {
                                    if (ch.read(buf) < 0) {
                                        throw new IOException("the sender closed the stream early");
                                    }
                                }
                                if (buf.get(0) != mark || buf.get(size / 2) != mark || buf.get(size - 1) != mark) {
                                    throw new IllegalStateException("message " + w + " of size " + size + " arrived wrong");
                                }
                            }
                        }
                        ack.clear();
                        while (ack.hasRemaining()) {
                            if ((role == 0 ? ch.read(ack) : ch.write(ack)) < 0) {
                                throw new IOException("the peer closed the stream early");
                            }
                        }
                    }
                    if (b >= 0) {
                        mbps[b] = (double) size * WINDOW * per / ((System.nanoTime() - t0) / 1e9) / 1e6;
                    }
                }
                Arrays.sort(mbps);
                if (role == 0) {
                    System.out.println(Rows.row("bw-window64", a[1], size, rep, mbps[BATCHES / 2], 1, "MB/s")
                        .replaceFirst("^" + Rows.SYSTEM + ",", "java-tcp,"));
                }
            }
        }
    }

    private static SocketChannel accept(int port) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return server.accept();
        }
    }

    private static SocketChannel connect(int port) throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 0; attempt < 100; attempt++) { // the receiver JVM may not be listening yet
            try {
                return SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            } catch (IOException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        throw new IOException("could not connect to the receiver on port " + port + ": " + last);
    }
}
