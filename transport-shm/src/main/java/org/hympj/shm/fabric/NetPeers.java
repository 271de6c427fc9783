package org.hympj.shm.fabric;

import java.io.IOException;
import java.nio.file.Files;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.net.JobKey;
import org.hympj.net.NetEndpoint;
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
 */
public final class NetPeers implements RemotePeers, AutoCloseable {
    private final NetEndpoint endpoint;

    private NetPeers(NetEndpoint endpoint) {
        this.endpoint = endpoint;
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
        for (int r = 0; r < endpoints.length; r++) {
            if (hosts.local(r)) {
                endpoints[r] = endpoints[rank]; // the same host: shared memory, no connection
            }
        }
        return new NetPeers(new NetEndpoint(job.aeronDir().toString(), hosts.net(), key, Version.get(), rank,
            endpoints, new NetEndpoint.PeerLost() {
                @Override
                public void lost(int peer, String why) {
                    control.abort(peer, JobControl.CODE_CONNECTION_LOST);
                }

                @Override
                public void reported(int failedRank, int code, int by) {
                    control.abort(failedRank, code); // as if seen here: every blocked rank of the host names it
                }
            }));
    }

    @Override
    public void relayFailure(int failedRank, int code) {
        endpoint.reportFailure(failedRank, code);
    }

    @Override
    public RingBuffer outbound(int peer) {
        return endpoint.outbound(peer);
    }

    @Override
    public RingBuffer inbound(int peer) {
        return endpoint.inbound(peer);
    }

    /** Connections refused so far (wrong key, not of this job). */
    public int refused() {
        return endpoint.refused();
    }

    /** Ends every connection with a goodbye after what was written before it, and leaves the driver. */
    @Override
    public void close() {
        endpoint.close();
    }

    /** As {@link #close}, after every peer of another host said goodbye (at most {@code timeoutNs}). */
    public void closeAfterGoodbyes(long timeoutNs) {
        endpoint.closeAfterGoodbyes(timeoutNs);
    }
}
