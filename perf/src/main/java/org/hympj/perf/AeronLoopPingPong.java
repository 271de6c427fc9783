package org.hympj.perf;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.IoUtil;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * {@code hympj-bench aeron-loop [--reps R] [--threading invoker|shared] [sizes...]}: the floor of
 * the network transport here, nothing of HyMPJ — a UDP ping-pong over loopback written directly on
 * Aeron: two JVMs, each with its own embedded media driver (as two local hosts have), one exclusive
 * publication and one subscription each, 64 KiB frames (as HyMPJ's between local hosts). {@code shared}: each driver runs its own thread, yielding
 * when idle (as HyMPJ's host drivers do), the application polls and yields; {@code invoker}: the
 * driver's and the client's duty cycles run in the application's thread (no thread of Aeron's at
 * all), which polls without yielding. Timed as {@code ../shared/anchors/pingpong.c} (warm-up, 5
 * batches, the median batch, half the round trip). Prints
 * {@code aeron,pingpong-loop,THREADING,SIZE,REP,US,us}. Unlike Aeron's own Ping/Pong samples
 * ({@code hympj-bench aeron-pingpong}, about 2 ms per round trip here for a reason not found),
 * this is what the transport can do on this machine.
 */
public final class AeronLoopPingPong {
    static final String USAGE = "usage: hympj-bench aeron-loop [--reps R] [--threading invoker|shared] [sizes...]"
        + " (two JVMs, an embedded Aeron media driver each, UDP on loopback: the network transport's floor;"
        + " default threading shared, sizes 8 4096)";
    private static final int STREAM = 7;
    /** Frames as large as Aeron takes (as HyMPJ's between local hosts: one frame per message up to 64 KiB). */
    private static final int MTU = 65504;

    private AeronLoopPingPong() {
    }

    static int run(String[] argv, PrintStream out) {
        int reps = 1;
        String threading = "shared";
        List<String> sizes = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].equals("--reps") && i + 1 < argv.length && argv[i + 1].matches("\\d+")) {
                reps = Integer.parseInt(argv[++i]);
            } else if (argv[i].equals("--threading") && i + 1 < argv.length
                && (argv[i + 1].equals("invoker") || argv[i + 1].equals("shared"))) {
                threading = argv[++i];
            } else if (argv[i].matches("\\d+") && Integer.parseInt(argv[i]) > 0) {
                sizes.add(argv[i]);
            } else {
                System.err.println("hympj-bench aeron-loop: bad argument " + argv[i]);
                System.err.println(USAGE);
                return 2;
            }
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of("8", "4096"));
        }
        String mode = threading;
        return ChildPair.launches("aeron-loop", reps, out, rep -> once(mode, sizes, rep));
    }

    /** One launch of both JVMs over every size; the pinging side's rows. */
    private static List<String> once(String threading, List<String> sizes, int rep) throws IOException, InterruptedException {
        String base = "/dev/shm/hympj-aeronloop-" + ProcessHandle.current().pid() + "-";
        int[] ports = {freePort(), freePort()};
        try {
            List<List<String>> cmds = new ArrayList<>();
            for (int role = 0; role < 2; role++) {
                List<String> cmd = ChildPair.java("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");
                cmd.addAll(List.of(AeronLoopPingPong.class.getName(), Integer.toString(role), threading, base + role,
                    Integer.toString(ports[role]), Integer.toString(ports[1 - role]), Integer.toString(rep)));
                cmd.addAll(sizes);
                cmds.add(cmd);
            }
            return ChildPair.rows(cmds, "aeron,", "Aeron ping-pong");
        } finally {
            for (int role = 0; role < 2; role++) {
                IoUtil.delete(new File(base + role), true);
            }
        }
    }

    private static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return s.getLocalPort();
        }
    }

    /** A child: {@code ROLE THREADING DIR MY_PORT PEER_PORT REP SIZES…}. Role 0 pings and prints. */
    public static void main(String[] a) {
        int role = Integer.parseInt(a[0]);
        boolean invoker = a[1].equals("invoker");
        String dir = a[2];
        int rep = Integer.parseInt(a[5]);
        MediaDriver.Context dc = new MediaDriver.Context().aeronDirectoryName(dir).dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true).termBufferSparseFile(true).publicationTermBufferLength(4 << 20)
            .ipcTermBufferLength(1 << 20).mtuLength(MTU).socketRcvbufLength(2 << 20).socketSndbufLength(2 << 20);
        if (invoker) {
            dc.threadingMode(ThreadingMode.INVOKER);
        } else {
            dc.threadingMode(ThreadingMode.SHARED).sharedIdleStrategy(new YieldingIdleStrategy());
        }
        try (MediaDriver driver = MediaDriver.launchEmbedded(dc);
             Aeron aeron = Aeron.connect(invoker
                 ? new Aeron.Context().aeronDirectoryName(dir).useConductorAgentInvoker(true)
                     .driverAgentInvoker(driver.sharedAgentInvoker())
                 : new Aeron.Context().aeronDirectoryName(dir))) {
            Side side = new Side(aeron, invoker ? driver.sharedAgentInvoker() : null,
                invoker ? aeron.conductorAgentInvoker() : null, a[3], a[4]);
            for (int i = 6; i < a.length; i++) {
                int size = Integer.parseInt(a[i]);
                double us = side.measureChecked(role, size);
                if (role == 0) {
                    System.out.println(Rows.row("pingpong-loop", a[1], size, rep, us, 3, "us")
                        .replaceFirst("^" + Rows.SYSTEM + ",", "aeron,"));
                }
            }
            side.linger();
        }
    }

    /** One JVM's end: its publication to the peer, its subscription, and how it waits. */
    private static final class Side extends EchoSide {
        private final AgentInvoker driver;
        private final AgentInvoker client;
        private final ExclusivePublication pub;
        private final Subscription sub;
        private final UnsafeBuffer msg = new UnsafeBuffer(new byte[1 << 20]);
        private int got;
        private final FragmentHandler onMessage = new FragmentAssembler((b, o, l, h) -> got++);

        Side(Aeron aeron, AgentInvoker driver, AgentInvoker client, String myPort, String peerPort) {
            this.driver = driver;
            this.client = client;
            this.sub = aeron.addSubscription("aeron:udp?endpoint=127.0.0.1:" + myPort, STREAM);
            this.pub = aeron.addExclusivePublication("aeron:udp?endpoint=127.0.0.1:" + peerPort, STREAM);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!pub.isConnected() || !sub.isConnected()) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException("the other Aeron ping-pong process did not connect within 60 s");
                }
                idle();
            }
        }

        /** Invoker: run the duty cycles here; shared: Aeron's threads do, give them the core. */
        private void idle() {
            if (driver != null) {
                driver.invoke();
                client.invoke();
            } else {
                Thread.yield();
            }
        }

        @Override
        void send(int size) {
            while (pub.offer(msg, 0, size) < 0) {
                idle();
            }
        }

        @Override
        void receive() {
            got = 0;
            while (got == 0) {
                if (sub.poll(onMessage, 1) == 0) {
                    idle();
                }
            }
        }

        /** The pingpong.c timing of {@link EchoSide}, for sizes the message buffer holds. */
        double measureChecked(int role, int size) {
            if (size > msg.capacity()) {
                throw new IllegalArgumentException("size " + size + " above " + msg.capacity());
            }
            return measure(role, size);
        }

        /** Keeps the duty cycles going a moment, so the peer's last message is sent before this side closes. */
        void linger() {
            long until = System.nanoTime() + 200_000_000L;
            while (System.nanoTime() < until) {
                idle();
                Thread.yield();
            }
        }
    }
}
