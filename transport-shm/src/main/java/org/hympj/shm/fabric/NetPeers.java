package org.hympj.shm.fabric;

import java.io.IOException;
import java.nio.file.Files;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.net.JobKey;
import org.hympj.net.NetBulk;
import org.hympj.net.NetEndpoint;
import org.hympj.net.NetSettings;
import org.hympj.net.RankDriver;
import org.hympj.net.Version;
import org.hympj.shm.job.HostLayout;
import org.hympj.shm.job.JobControl;
import org.hympj.shm.job.JobDirectory;

/**
 * The peers of a rank on other hosts: its network endpoint (transport-net) on the host's media
 * driver, with the job's key and every host's endpoint from the job directory. A connection
 * lost before its goodbye aborts the host's job naming the rank, as a dead process on the host
 * does: every blocked rank of the host fails with RankFailedException naming it. A rank that sees
 * its host abort naming a rank tells the peers of the other hosts ({@link #relayFailure}), whose
 * hosts abort naming the same rank: a job without a launcher (srun, mpirun) learns of a dead rank
 * at once on every host, not when a connection falls silent.
 *
 * <p>With the job's drivers in ranks ({@code mpjrun --net-driver rank}) the host's first rank runs
 * the host's media driver ({@link RankDriver}): it starts it before its endpoint, and at the end
 * keeps it until the other hosts' ranks and this host's ranks are done with it.
 */
public final class NetPeers implements RemotePeers, AutoCloseable {
    /** After the last rank that needs it finalized, the driver runs this long to send what they wrote last. */
    private static final long DRIVER_GRACE_NS = 100_000_000L;

    private final NetEndpoint endpoint;
    private final NetBulk bulk;
    private final RankDriver driver;
    private final HostLayout hosts;
    private final JobControl control;
    private final int rank;

    private NetPeers(NetEndpoint endpoint, NetBulk bulk, RankDriver driver, HostLayout hosts, JobControl control,
                     int rank) {
        this.endpoint = endpoint;
        this.bulk = bulk;
        this.driver = driver;
        this.hosts = hosts;
        this.control = control;
        this.rank = rank;
    }

    /** Opens rank {@code rank}'s endpoint of a job on several hosts. */
    public static NetPeers open(JobDirectory job, int rank, JobControl control) throws IOException {
        HostLayout hosts = job.hosts();
        String[] endpoints = hosts.endpointsByRank();
        for (int h = 0; h < hosts.hosts(); h++) {
            if (hosts.endpoint(h) == null) {
                throw new IOException("the job directory " + job.path() + " names no network endpoint for host "
                    + hosts.name(h) + " (a job on several hosts is started by its launcher)");
            }
        }
        JobKey key = JobKey.ofHex(Files.readString(job.keyFile()));
        String[] addresses = new String[endpoints.length];
        for (int r = 0; r < endpoints.length; r++) {
            if (hosts.local(r)) {
                endpoints[r] = endpoints[rank]; // the same host: shared memory, no connection
            } else {
                addresses[r] = NetSettings.address(endpoints[r]);
            }
        }
        NetBulk bulk = new NetBulk(key, rank, NetSettings.address(endpoints[rank]), addresses,
            hosts.net().socketBuffer, (peer, why) -> control.abort(peer, JobControl.CODE_CONNECTION_LOST));
        if (NativeSockets.AVAILABLE) {
            bulk.arraysVia(NativeSockets.INSTANCE); // arrays' bytes without the staging copies
        }
        RankDriver driver = hosts.net().driverInRank && rank == hosts.firstRank(hosts.host())
            ? RankDriver.launch(job.aeronDir(), hosts.net()) : null;
        try {
            NetEndpoint endpoint = endpoint(job, hosts, key, rank, endpoints, control, driver);
            endpoint.bulk(bulk);
            return new NetPeers(endpoint, bulk, driver, hosts, control, rank);
        } catch (RuntimeException e) {
            if (driver != null) {
                driver.close();
            }
            throw e;
        }
    }

    private static NetEndpoint endpoint(JobDirectory job, HostLayout hosts, JobKey key, int rank, String[] endpoints,
                                        JobControl control, RankDriver driver) {
        return new NetEndpoint(job.aeronDir().toString(), hosts.net(), key, Version.get(), rank,
            endpoints, new NetEndpoint.PeerLost() {
                @Override
                public void lost(int peer, String why) {
                    control.abort(peer, JobControl.CODE_CONNECTION_LOST);
                }

                @Override
                public void reported(int failedRank, int code, int by) {
                    control.abort(failedRank, code); // as if seen here: every blocked rank of the host names it
                }
            }, driver);
    }

    /** True when this rank runs its host's media driver (it must finalize with {@link #closeAfterGoodbyes}). */
    public boolean runsDriver() {
        return driver != null;
    }

    @Override
    public void relayFailure(int failedRank, int code) {
        endpoint.reportFailure(failedRank, code);
    }

    @Override
    public NetBulk bulk() {
        return bulk;
    }

    @Override
    public RingBuffer outbound(int peer) {
        return endpoint.outbound(peer);
    }

    @Override
    public RingBuffer inbound(int peer) {
        return endpoint.inbound(peer);
    }

    /** Connections refused so far (wrong key, not of this job), on the network transport and the bulk sockets. */
    public int refused() {
        return endpoint.refused() + bulk.refused();
    }

    /** Ends every connection with a goodbye after what was written before it, and leaves the driver. */
    @Override
    public void close() {
        bulk.close(!control.aborted());
        if (control.aborted()) {
            endpoint.abandon(); // the job failed: no goodbyes (a dead peer's connection would hold them up)
        } else {
            endpoint.close();
        }
    }

    /** As {@link #close}, after every peer of another host said goodbye (at most {@code timeoutNs}). */
    public void closeAfterGoodbyes(long timeoutNs) {
        bulk.close(!control.aborted());
        if (control.aborted()) {
            // the job failed: nobody waits for this host any more, and the dead send no goodbye
            endpoint.abandon();
            if (driver != null) {
                driver.close();
            }
            return;
        }
        endpoint.closeAfterGoodbyes(timeoutNs);
        if (driver != null) {
            try {
                awaitLocalRanks(timeoutNs);
            } finally {
                driver.close();
            }
        }
    }

    /**
     * Runs the driver until every other rank of this host finalized, failed or exited (at most
     * {@code timeoutNs}), then for {@link #DRIVER_GRACE_NS} more: their last frames (their
     * goodbyes) leave this host before the driver closes.
     */
    private void awaitLocalRanks(long timeoutNs) {
        long until = System.nanoTime() + timeoutNs;
        int first = hosts.firstRank(hosts.host());
        for (int r = first; r < first + hosts.localCount(); r++) {
            while (r != rank && control.state(r) != JobControl.STATE_FINALIZED && control.state(r) != JobControl.STATE_FAILED
                && control.rankAlive(r) && !control.aborted() && System.nanoTime() - until < 0) {
                driver.duty();
                Thread.yield();
            }
        }
        long graceEnd = System.nanoTime() + DRIVER_GRACE_NS;
        while (System.nanoTime() - graceEnd < 0) {
            driver.duty();
            Thread.yield();
        }
    }
}
