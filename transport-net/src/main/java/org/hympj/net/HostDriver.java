package org.hympj.net;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.RegistrationException;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Path;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The media driver of one host, embedded in the process that runs the host's part of a job
 * (the host agent), shared by the host's ranks. Its directory is in the job's files (removed
 * with them); one thread (Aeron's shared mode) does the conductor's, sender's and receiver's
 * work, idling as told. It binds the host's UDP endpoint on the address it is given — never on
 * every interface — and holds it with a subscription of its own while the job runs, so the
 * ranks' subscriptions (same URI) share that socket.
 */
public final class HostDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HostDriver.class);
    private static final int BIND_TRIES = 5;

    private final MediaDriver driver;
    private final Aeron client;
    private final String endpoint;

    private HostDriver(MediaDriver driver, Aeron client, String endpoint) {
        this.driver = driver;
        this.client = client;
        this.endpoint = endpoint;
    }

    /**
     * Starts the driver in {@code dir} and binds {@code address:port} (port 0: a free port).
     *
     * @throws IllegalStateException naming the address when it cannot be bound (not an address of
     *     this host, or the port is taken)
     */
    public static HostDriver launch(Path dir, NetSettings settings, IdleStrategy idle, String address, int port) {
        MediaDriver.Context ctx = context(dir, settings)
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(idle);
        MediaDriver driver = MediaDriver.launchEmbedded(ctx);
        Aeron client = null;
        try {
            client = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
                .driverTimeoutMs(settings.clientTimeoutNs() / 1_000_000).clientName("hympj-host"));
            String ep = bind(client, settings, address, port);
            return new HostDriver(driver, client, ep);
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            driver.close();
            throw e;
        }
    }

    /** How often a host driver's conductor checks its timeouts (liveness of images and clients). */
    static final long TIMER_INTERVAL_NS = 100_000_000L;

    /** The settings of a host's driver in {@code dir}, whoever runs it (threading left to the caller). */
    static MediaDriver.Context context(Path dir, NetSettings settings) {
        RepeatedWarnings warnings = new RepeatedWarnings(m -> LOG.warn("media driver in {}: {}", dir, m));
        return new MediaDriver.Context()
            .aeronDirectoryName(dir.toString())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .warnIfDirectoryExists(false)
            .termBufferSparseFile(true)
            .imageLivenessTimeoutNs(settings.livenessNs)
            // the conductor checks its timeouts this often (Aeron's default: once a second, which put
            // up to 2 s on top of the liveness before a dead host's images were dropped)
            // (an image that fell silent then drains for 5 status-message timeouts, 1 s, before it is
            // dropped; a shorter status-message timeout cut that but cost a third of the 64 KB window
            // bandwidth between hosts, so the liveness timeout itself is what to shorten)
            .timerIntervalNs(TIMER_INTERVAL_NS)
            .clientLivenessTimeoutNs(settings.clientTimeoutNs())
            .publicationConnectionTimeoutNs(settings.clientTimeoutNs())
            .publicationUnblockTimeoutNs(2 * settings.clientTimeoutNs()) // Aeron requires it above the client liveness
            .socketRcvbufLength(settings.socketBuffer)
            .socketSndbufLength(settings.socketBuffer)
            .initialWindowLength(settings.window())
            .mtuLength(settings.mtu)
            .publicationTermBufferLength(settings.termLength)
            .errorHandler(e -> warnings.report(e.toString(), System.nanoTime()));
    }

    /**
     * The endpoint {@code address:port} a driver run by a rank ({@link RankDriver}) will receive
     * on: port 0 picks a port free now (the rank's bind catches a race with another process).
     *
     * @throws IllegalStateException naming the address when it is not one of this host
     */
    public static String reserve(String address, int port) {
        InetAddress ip = resolve(address);
        return format(ip, freePort(ip, port));
    }

    private static InetAddress resolve(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (IOException e) {
            throw new IllegalStateException("cannot resolve the network address " + address + ": " + e.getMessage());
        }
    }

    private static String format(InetAddress ip, int port) {
        return (ip.getHostAddress().contains(":") ? "[" + ip.getHostAddress() + "]" : ip.getHostAddress()) + ":" + port;
    }

    private static String bind(Aeron client, NetSettings settings, String address, int port) {
        InetAddress ip = resolve(address);
        RuntimeException last = null;
        for (int t = 0; t < (port == 0 ? BIND_TRIES : 1); t++) {
            int p = port == 0 ? freePort(ip, 0) : port;
            String ep = format(ip, p);
            try {
                Subscription s = client.addSubscription(settings.subscriptionChannel(ep), NetSettings.HOST_STREAM);
                LOG.debug("host endpoint {} bound (subscription {})", ep, s.registrationId());
                return ep;
            } catch (RegistrationException e) {
                last = new IllegalStateException("cannot receive on " + ep + ": " + e.getMessage()
                    + (port != 0 ? " (port " + port + " in use, or " + address + " is not an address of this host)"
                        : ""), e);
            }
        }
        throw last;
    }

    /**
     * {@code port}, or with 0 a port, free on {@code ip} now (a race with another process is
     * caught by the bind after it).
     */
    private static int freePort(InetAddress ip, int port) {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(ip, port))) {
            return s.getLocalPort();
        } catch (SocketException e) {
            throw new IllegalStateException("cannot bind a UDP socket on " + ip.getHostAddress() + ":" + port
                + (port == 0 ? " (is it an address of this host?)"
                    : " (port " + port + " in use, or " + ip.getHostAddress() + " is not an address of this host)")
                + ": " + e.getMessage(), e);
        }
    }

    /** The {@code address:port} this host receives on. */
    public String endpoint() {
        return endpoint;
    }

    public String directory() {
        return driver.aeronDirectoryName();
    }

    /** Closes the endpoint and the driver, and removes the driver's directory. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            driver.close();
        }
    }

}
