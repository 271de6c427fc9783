package org.hympj.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code hympj-bench aeron-pingpong [--reps R] [--messages M] [--idle CLASS] [sizes...]}: Aeron's
 * own UDP ping-pong samples ({@code io.aeron.samples.Ping} and {@code Pong} of aeron-all, the
 * version HyMPJ uses) as the reference of the network transport's latency: two JVMs, each with its
 * own embedded media driver (its own directory in /dev/shm, as two local hosts have), over the
 * loopback interface, one driver thread each (shared mode), the same idling in drivers and
 * applications. Prints {@code aeron,pingpong-udp,embedded,SIZE,REP,HALF_RTT_MEDIAN,us}: half of
 * Ping's median round trip, comparable to {@code hympj-bench pingpong --local-hosts 2}.
 */
final class AeronPingPong {
    static final String USAGE = "usage: hympj-bench aeron-pingpong [--reps R] [--messages M] [--idle CLASS] [sizes...]"
        + " (default sizes 8 64 1024 8192; 20000 messages after 10000 of warm-up; idle org.agrona.concurrent.YieldingIdleStrategy)";

    private AeronPingPong() {
    }

    static int run(String[] argv, PrintStream out) {
        int reps = 1;
        long messages = 20_000;
        String idle = "org.agrona.concurrent.YieldingIdleStrategy";
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--reps":
                    reps = Integer.parseInt(argv[++i]);
                    break;
                case "--messages":
                    messages = Long.parseLong(argv[++i]);
                    break;
                case "--idle":
                    idle = argv[++i];
                    break;
                default:
                    if (argv[i].startsWith("-")) {
                        System.err.println("hympj-bench aeron-pingpong: unknown option " + argv[i]);
                        System.err.println(USAGE);
                        return 2;
                    }
                    sizes.add(Integer.parseInt(argv[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of(8, 64, 1024, 8192));
        }
        Path jar;
        try {
            jar = aeronAll();
        } catch (IOException e) {
            System.err.println("hympj-bench aeron-pingpong: " + e.getMessage());
            return 1;
        }
        try (Quiet lock = Quiet.lock(java.time.Duration.ofSeconds(1800), System.err)) {
            for (int rep = 1; rep <= reps; rep++) {
                for (int size : sizes) {
                    double half = once(jar, size, messages, idle);
                    out.printf("aeron,pingpong-udp,embedded,%d,%d,%.3f,us%n", size, rep, half);
                    out.flush();
                }
            }
        } catch (IOException | InterruptedException e) {
            System.err.println("hympj-bench aeron-pingpong: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /** aeron-all's jar, copied by the build next to perf's lib. */
    static Path aeronAll() throws IOException {
        Path lib = Paths.get(AeronPingPong.class.getProtectionDomain().getCodeSource().getLocation().getPath()).getParent();
        Path dir = lib.resolveSibling("aeron-all");
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("aeron-all-")).findFirst()
                .orElseThrow(() -> new IOException("no aeron-all jar in " + dir + "; run mvn -B -q package -DskipTests"));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(dir + " is missing; run mvn -B -q package -DskipTests");
        }
    }

    /** One ping-pong run: half the median round trip in µs. */
    private static double once(Path jar, int size, long messages, String idle) throws IOException, InterruptedException {
        int pingPort = freePort();
        int pongPort = freePort();
        long pid = ProcessHandle.current().pid();
        Path pongDir = Paths.get("/dev/shm", "hympj-aeronpp-" + pid + "-pong");
        Path pingDir = Paths.get("/dev/shm", "hympj-aeronpp-" + pid + "-ping");
        Process pong = start(jar, "io.aeron.samples.Pong", pongDir, pingPort, pongPort, size, messages, idle);
        try {
            Thread.sleep(1500); // Pong's driver and subscription are up
            Process ping = start(jar, "io.aeron.samples.Ping", pingDir, pingPort, pongPort, size, messages, idle);
            try (var in = ping.getOutputStream()) {
                in.write("n\n".getBytes(StandardCharsets.UTF_8)); // Ping asks "Execute again? (y/n)" at the end
            }
            CompletableFuture<String> text = CompletableFuture.supplyAsync(() -> read(ping));
            if (!ping.waitFor(300, TimeUnit.SECONDS)) {
                ping.destroyForcibly();
                throw new IOException("Aeron's Ping did not finish within 300 s");
            }
            String t;
            try {
                t = text.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IOException("Ping's output: " + e);
            }
            return median(t) / 2;
        } finally {
            pong.destroy();
            if (!pong.waitFor(5, TimeUnit.SECONDS)) {
                pong.destroyForcibly();
            }
            org.agrona.IoUtil.delete(pongDir.toFile(), true);
            org.agrona.IoUtil.delete(pingDir.toFile(), true);
        }
    }

    private static Process start(Path jar, String main, Path dir, int pingPort, int pongPort, int size, long messages,
                                 String idle) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
            ProcessHandle.current().info().command().orElse("java"),
            "-cp", jar.toString(),
            "-Daeron.dir=" + dir,
            "-Daeron.dir.delete.on.start=true",
            "-Daeron.dir.delete.on.shutdown=true",
            "-Daeron.sample.embeddedMediaDriver=true",
            "-Daeron.threading.mode=SHARED",
            "-Daeron.shared.idle.strategy=" + idle,
            "-Daeron.sample.idleStrategy=" + idle,
            "-Daeron.sample.ping.channel=aeron:udp?endpoint=127.0.0.1:" + pingPort,
            "-Daeron.sample.pong.channel=aeron:udp?endpoint=127.0.0.1:" + pongPort,
            "-Daeron.sample.messageLength=" + size,
            "-Daeron.sample.messages=" + messages,
            "-Daeron.sample.warmup.messages=" + Math.min(messages, 10_000),
            "-Daeron.sample.warmup.iterations=1",
            "-Daeron.sample.exclusive.publications=true",
            "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
            main));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /**
     * The 50th percentile of Ping's histogram ({@code outputPercentileDistribution}: "value
     * percentile count 1/(1-p)" lines, in µs).
     */
    static double median(String text) throws IOException {
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4) {
                try {
                    double p = Double.parseDouble(f[1]);
                    if (p >= 0.5) {
                        return Double.parseDouble(f[0]);
                    }
                } catch (NumberFormatException ignored) {
                    // a header line
                }
            }
        }
        throw new IOException("no latency histogram in Ping's output:\n" + text);
    }

    private static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return s.getLocalPort();
        }
    }

    private static String read(Process p) {
        try {
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
