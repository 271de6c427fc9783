package org.hympj.net;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's side of the network: an Aeron client of its host's media driver, one subscription
 * (the rank's stream at its host's endpoint) whose images are the connections from the ranks
 * of other hosts, and one exclusive publication to each of them. {@link #outbound} and
 * {@link #inbound} are the packet rings the PML uses for a remote peer.
 *
 * <p>A new image is a connection nobody has vouched for: it is admitted only when its first
 * frame is a HELLO that verifies under the job's key, from a rank of another host, for this
 * rank and this session; anything else is rejected (Aeron tells the sender) and logged, and
 * the job goes on. A connection that goes away before its BYE — the peer's process or host died,
 * or its heartbeats stopped for the liveness timeout — is reported to the {@link PeerLost}
 * listener, which fails the job naming the rank.
 *
 * <p>Threads: everything runs in the rank's thread but the image callbacks, which run in the
 * Aeron client's conductor thread and only queue an arrival or report a loss.
 */
public final class NetEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetEndpoint.class);
    /** How long {@link #close} tries to write its BYEs behind a peer that does not read (flow control). */
    private static final long BYE_TIMEOUT_NS = 5_000_000_000L;

    /** Told when a connection from a rank is gone before its BYE. */
    public interface PeerLost {
        void lost(int rank, String why);

        /** A peer of another host (an admitted connection: the job's key) says {@code failedRank} failed. */
        default void reported(int failedRank, int code, int by) {
        }
    }

    private final int rank;
    private final JobKey key;
    private final String version;
    private final String[] endpoints;
    private final PeerLost listener;
    private final Aeron aeron;
    private final Subscription subscription;
    private final NetOutboundRing[] out;
    private final NetInboundRing[] in;
    private final ConcurrentLinkedQueue<Image> arrived = new ConcurrentLinkedQueue<>();
    private final List<Image> pending = new ArrayList<>();
    private volatile boolean arrivals;
    private volatile boolean closing;
    private final AtomicInteger refused = new AtomicInteger();
    private final HelloReader helloReader = new HelloReader();
    /** The host's driver when this rank runs it (null when the host agent does). */
    private final RankDriver driver;
    /** The bulk sockets (null: none). */
    private NetBulk bulk;
    /** Remote peers: one driver step per round of reads over their rings. */
    private final int remotePeers;
    private int reads;
    /**
     * After the driver found no work for this long, its steps from the rank's reads are spaced
     * {@link #QUIET_GAP_NS} apart: each step polls the host's UDP socket (a {@code recvfrom}),
     * which a host busy with socket traffic or computing paid in every pass for nothing.
     */
    private static final long QUIET_AFTER_NS = Long.getLong("hympj.net.driverQuietAfterNs", 50_000L);
    private static final long QUIET_GAP_NS = Long.getLong("hympj.net.driverQuietGapNs", 5_000L);
    private long lastWorkNs;
    private long lastStepNs;
    /** This rank committed a frame since the driver's last step: the next read steps it, quiet or not. */
    private boolean published;

    /**
     * Connects to the host's media driver and opens this rank's subscription and publications.
     *
     * @param aeronDir  the host's media driver directory
     * @param endpoints per rank, the {@code host:port} its host receives on; null for the ranks of this host
     * @param version   this library's version, checked against every peer's
     */
    public NetEndpoint(String aeronDir, NetSettings settings, JobKey key, String version, int rank,
                       String[] endpoints, PeerLost listener) {
        this(aeronDir, settings, key, version, rank, endpoints, listener, null);
    }

    /**
     * As above; when {@code driver} is given this rank runs its host's media driver: it does the
     * driver's work as it reads its rings, and its client does it while it waits for an answer.
     */
    public NetEndpoint(String aeronDir, NetSettings settings, JobKey key, String version, int rank,
                       String[] endpoints, PeerLost listener, RankDriver driver) {
        if (endpoints[rank] == null) {
            throw new IllegalArgumentException("rank " + rank + " has no endpoint of its own host");
        }
        this.rank = rank;
        this.key = key;
        this.version = version;
        this.endpoints = endpoints.clone();
        this.listener = listener;
        this.driver = driver;
        this.out = new NetOutboundRing[endpoints.length];
        this.in = new NetInboundRing[endpoints.length];
        String mine = endpoints[rank];
        Aeron.Context ctx = new Aeron.Context()
            .aeronDirectoryName(aeronDir)
            .driverTimeoutMs(settings.clientTimeoutNs() / 1_000_000)
            .clientName("hympj-rank-" + rank)
            .threadFactory(NetEndpoint::daemon); // a rank whose main ends (or throws) is not kept alive by it
        if (driver != null) {
            ctx.driverAgentInvoker(driver.clientInvoker()).useConductorAgentInvoker(true);
        }
        this.aeron = Aeron.connect(ctx);
        if (driver != null) {
            driver.client(aeron.conductorAgentInvoker());
        }
        int remote = 0;
        try {
            this.subscription = aeron.addSubscription(settings.subscriptionChannel(mine),
                NetSettings.STREAM_BASE + rank, this::onAvailable, this::onUnavailable);
            for (int p = 0; p < endpoints.length; p++) {
                if (p == rank || endpoints[p] == null || endpoints[p].equals(mine)) {
                    continue; // a rank of this host: shared memory
                }
                ExclusivePublication pub = aeron.addExclusivePublication(
                    settings.publicationChannel(endpoints[p], NetSettings.address(mine)), NetSettings.STREAM_BASE + p);
                byte[] hello = new byte[Hello.length(version)];
                Hello.write(new UnsafeBuffer(hello), 0, key, rank, p, pub.sessionId(), version);
                out[p] = new NetOutboundRing(pub, p, hello, this);
                in[p] = new NetInboundRing(this, p);
                remote++;
            }
        } catch (RuntimeException e) {
            closeClient();
            throw e;
        }
        this.remotePeers = Math.max(1, remote);
    }

    /**
     * Called by every ring read: when this rank runs its host's driver, one driver step per round
     * of reads over the remote peers' rings (the PML reads each peer's ring once per pass).
     */
    void readDuty() {
        if (driver != null && ++reads >= remotePeers) {
            reads = 0;
            long now = System.nanoTime();
            if (!published && now - lastWorkNs > QUIET_AFTER_NS && now - lastStepNs < QUIET_GAP_NS) {
                return;
            }
            published = false;
            lastStepNs = now;
            if (driver.duty() > 0) {
                lastWorkNs = now;
            }
        }
    }

    /** A frame of this rank's went into a publication's term: the driver's next step should send it. */
    void published() {
        published = true;
    }

    private static Thread daemon(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        return t;
    }

    /**
     * The bulk sockets beside this endpoint: large packets take them once a peer offers its port
     * ({@link NetBulk}); this endpoint carries the offers.
     */
    public void bulk(NetBulk b) {
        this.bulk = b;
        b.offerVia(this::offer);
        for (NetOutboundRing o : out) {
            if (o != null) {
                o.bulk(b);
            }
        }
    }

    /** True when a packet of {@code length} bytes from {@code peer} calls for an offer of the bulk port (none made yet). */
    boolean offerDue(int peer, int length) {
        NetBulk b = bulk;
        if (b == null || b.offered(peer)) {
            return false;
        }
        int from = b.packetsFrom();
        return from > 0 && length >= from;
    }

    /** Names this rank's bulk port to {@code peer} (the listener opened now); tried again at a later packet if it cannot go. */
    void offer(int peer) {
        int port = bulk.offerPort();
        if (port > 0 && out[peer].tryPort(port)) {
            bulk.offeredTo(peer);
        }
    }

    void portOffered(int peer, int port) {
        NetBulk b = bulk;
        if (b != null) {
            b.portOffered(peer, port);
        }
    }

    boolean bulkClosedFrom(int peer) {
        NetBulk b = bulk;
        return b == null || b.closedFrom(peer);
    }

    /** True when {@code peer} is on another host (its packets take the network). */
    public boolean remote(int peer) {
        return out[peer] != null;
    }

    /** The ring this rank's packets to a remote {@code peer} go into. */
    public NetOutboundRing outbound(int peer) {
        return ring(out, peer);
    }

    /** The ring packets from a remote {@code peer} arrive in. */
    public NetInboundRing inbound(int peer) {
        return ring(in, peer);
    }

    private static <T> T ring(T[] rings, int peer) {
        T r = rings[peer];
        if (r == null) {
            throw new IllegalArgumentException("rank " + peer + " is not on another host");
        }
        return r;
    }

    /**
     * Tells every peer of another host that {@code failedRank} failed (best effort: a connection
     * that cannot take it now is skipped). Their hosts abort naming it, as this host did.
     *
     * @return how many peers it went to
     */
    public int reportFailure(int failedRank, int code) {
        boolean[] done = new boolean[out.length];
        int told = 0;
        int remote = 0;
        for (NetOutboundRing o : out) {
            remote += o == null ? 0 : 1;
        }
        long until = System.nanoTime() + REPORT_TIMEOUT_NS;
        do {
            for (int p = 0; p < out.length; p++) {
                if (out[p] != null && !done[p] && out[p].tryFailed(failedRank, code)) {
                    done[p] = true;
                    told++;
                }
            }
            if (told < remote) {
                Thread.yield();
            }
        } while (told < remote && System.nanoTime() - until < 0);
        return told;
    }

    /** How long a failure notice may wait for connections that cannot take it at once. */
    private static final long REPORT_TIMEOUT_NS = 200_000_000L;

    void failureReported(int by, int failedRank, int code) {
        if (failedRank >= 0 && failedRank < endpoints.length) {
            listener.reported(failedRank, code, by);
        }
    }

    /** Connections refused so far (bad key, unexpected rank, not a HyMPJ sender). */
    public int refused() {
        return refused.get();
    }

    /** True when every remote peer's connection to this rank has been admitted. */
    public boolean allConnected() {
        for (NetInboundRing r : in) {
            if (r != null && r.image() == null) {
                return false;
            }
        }
        return true;
    }

    private void onAvailable(Image image) {
        arrived.add(image);
        arrivals = true;
    }

    private void onUnavailable(Image image) {
        for (NetInboundRing r : in) {
            if (r != null && r.image() == image) {
                if (!r.ended() && !closing) {
                    listener.lost(r.peer(), "its network connection from " + image.sourceIdentity()
                        + " closed without a goodbye (its process or host stopped, or it was silent for too long)");
                }
                return;
            }
        }
    }

    boolean arrivals() {
        return arrivals;
    }

    /** Checks the first frame of every connection that arrived: admitted, refused, or not there yet. */
    void admit() {
        Image img;
        while ((img = arrived.poll()) != null) {
            pending.add(img);
        }
        for (int i = pending.size() - 1; i >= 0; i--) {
            Image im = pending.get(i);
            if (im.isClosed()) {
                pending.remove(i);
                continue;
            }
            helloReader.image = im;
            helloReader.decided = false;
            im.controlledPoll(helloReader, 1);
            if (helloReader.decided) {
                pending.remove(i);
            }
        }
        arrivals = !pending.isEmpty() || !arrived.isEmpty();
        String mismatch = helloReader.versionMismatch;
        if (mismatch != null) {
            throw new IllegalStateException(mismatch);
        }
    }

    /** Reads a connection's first frame and admits or refuses it. */
    private final class HelloReader implements ControlledFragmentHandler {
        Image image;
        boolean decided;
        String versionMismatch;

        @Override
        public Action onFragment(DirectBuffer buffer, int offset, int length, Header header) {
            decided = true;
            if (header.reservedValue() != Hello.TYPE_HELLO) {
                refuse(image, "its first frame is not a HELLO");
                return Action.ABORT;
            }
            Hello.Verdict v = Hello.check(buffer, offset, length, key, rank, image.sessionId(),
                src -> src >= 0 && src < in.length && in[src] != null);
            if (v.source < 0) {
                refuse(image, v.reason);
                return Action.ABORT;
            }
            if (in[v.source].image() != null) {
                refuse(image, "rank " + v.source + " is connected already");
                return Action.ABORT;
            }
            if (!version.equals(v.version)) {
                versionMismatch = "rank " + v.source + " (on " + endpoints[v.source] + ") runs HyMPJ " + v.version
                    + ", rank " + rank + " runs " + version + ": every host of a job needs the same library";
                refuse(image, "library version " + v.version + " differs from " + version);
                return Action.ABORT;
            }
            in[v.source].attach(image);
            return Action.BREAK; // the HELLO is consumed; the packets after it are the PML's
        }
    }

    private void refuse(Image image, String reason) {
        refused.incrementAndGet();
        LOG.warn("rank {} refused a network connection from {} (session {}): {}", rank, image.sourceIdentity(),
            image.sessionId(), reason);
        image.reject(reason);
    }

    /**
     * As {@link #close}, but first waits (at most {@code timeoutNs}) until every remote peer's BYE
     * has been read: then no rank of another host needs this host any more (the rank that runs a
     * host's media driver itself, without an agent, closes it only after that).
     */
    public void closeAfterGoodbyes(long timeoutNs) {
        sendGoodbyes();
        long until = System.nanoTime() + timeoutNs;
        org.agrona.concurrent.ControlledMessageHandler drop = (t, b, i, l) ->
            org.agrona.concurrent.ControlledMessageHandler.Action.CONTINUE; // nothing but BYEs comes after finalize
        while (System.nanoTime() - until < 0) {
            boolean all = true;
            for (NetInboundRing r : in) {
                if (r != null && !r.ended()) {
                    Image img = r.image();
                    if (img != null && img.isClosed()) {
                        continue; // gone without a goodbye: nothing more can come
                    }
                    r.controlledRead(drop, 64);
                    all &= r.ended();
                }
            }
            if (all) {
                break;
            }
            Thread.yield();
        }
        StringBuilder silent = new StringBuilder();
        for (NetInboundRing r : in) {
            Image img = r == null ? null : r.image();
            if (r != null && !r.ended() && (img == null || !img.isClosed())) {
                silent.append(silent.length() == 0 ? "" : ", ").append(r.peer());
            }
        }
        if (silent.length() > 0) {
            LOG.warn("rank {} finalized without a goodbye from rank(s) {} within {} ms", rank, silent,
                timeoutNs / 1_000_000);
        }
        close();
    }

    /**
     * Ends every connection with a BYE after what was written before it (for at most a few
     * seconds behind a peer that does not read), then closes the client: the host's driver goes
     * on sending what the publications hold.
     */
    @Override
    public void close() {
        sendGoodbyes();
        closeClient();
    }

    /** Closes without goodbyes: the job failed, nobody waits for them. */
    public void abandon() {
        goodbyesSent = true;
        closing = true;
        closeClient();
    }

    private void closeClient() {
        if (driver != null) {
            driver.client(null); // the driver's guard no longer invokes the client's conductor
        }
        aeron.close();
    }

    private boolean goodbyesSent;

    private void sendGoodbyes() {
        if (goodbyesSent) {
            return;
        }
        goodbyesSent = true;
        closing = true;
        try {
            long until = System.nanoTime() + BYE_TIMEOUT_NS;
            for (NetOutboundRing r : out) {
                while (r != null && !r.tryBye() && System.nanoTime() - until < 0) {
                    if (driver != null) {
                        driver.duty(); // this rank's host driver connects the publication and sends
                    }
                    Thread.yield();
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("rank {}: goodbyes not all written: {}", rank, e.toString());
        }
    }
}
