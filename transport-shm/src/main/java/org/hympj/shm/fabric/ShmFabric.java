package org.hympj.shm.fabric;

import java.io.File;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.IoUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.hympj.shm.job.HostLayout;
import org.hympj.shm.job.JobDirectory;

/**
 * The native shared-memory fabric (the "BTL"): for every ordered pair of ranks a
 * single-producer single-consumer packet ring (Agrona {@link OneToOneRingBuffer}) in the
 * receiver's ring file, and every rank's registered segment mapped into every rank, so a
 * put is one copy straight into the peer's memory.
 *
 * <p>It offers what the emulated fabrics of later issues offer too: eager packets
 * ({@link #ring}, and {@link #bulkTo} for large payloads announced by a packet), puts into a peer's segment ({@link #segmentAddress}), and completion
 * notification (a packet written after the put: the ring's release store orders it after
 * the data).
 *
 * <p>A job on several hosts: the rings, bulk regions and segments are those of this host's ranks
 * (slots by their index on the host); a peer on another host has no segment and no bulk region
 * here, and its rings are the network transport's ({@link RemotePeers}), with the same
 * claim/commit/read contract (Agrona's {@link RingBuffer}): the PML's protocols run unchanged
 * over both, and never put into, pull from or stage in bulk for a remote peer ({@link #local}).
 */
public final class ShmFabric implements AutoCloseable {
    private final int rank;
    private final int size;
    private final int channels;
    /** [channel * size + peer]: shared-memory rings for this host's ranks, network rings for the others. */
    private final RingBuffer[] outbound;
    private final RingBuffer[] inbound;
    /** local[peer]: the peer runs on this host (shared memory reaches it). */
    private final boolean[] local;
    /** This rank's index among its host's ranks, their number, and the first rank of every host. */
    private final int localIndex;
    private final int localCount;
    private final int[] hostLeaders;
    private final boolean singleHost;
    private final MappedByteBuffer[] ringMaps;
    private final MappedByteBuffer[] segmentMaps;
    private final MappedByteBuffer[] bulkMaps;
    private final BulkOutbound[] bulkOut;
    private final BulkInbound[] bulkIn;
    private final MappedByteBuffer timelinesMap;
    private final long ringSlot;
    private boolean selfPending;
    private final int ringLen;
    private final MappedByteBuffer collMap;
    private final long[] segmentAddress;
    private final long segmentBytes;

    /** The sockets of large messages to and from other hosts (null on one host). */
    private final org.hympj.net.NetBulk netBulk;

    /** The fabric of a rank of a job on one host. */
    public ShmFabric(JobDirectory job, int rank) {
        this(job, rank, null);
    }

    /**
     * The fabric of a rank; {@code remote} gives the network rings of the peers on other hosts
     * (null for a job on one host).
     */
    public ShmFabric(JobDirectory job, int rank, RemotePeers remote) {
        this.rank = rank;
        this.size = job.config().size;
        this.netBulk = remote == null ? null : remote.bulk();
        HostLayout hosts = job.hosts();
        this.singleHost = !hosts.multiHost();
        if (!singleHost && remote == null) {
            throw new IllegalArgumentException("rank " + rank + " of a job on " + hosts.hosts()
                + " hosts needs the network transport");
        }
        if (!singleHost && job.config().channels() != 1) {
            throw new IllegalArgumentException("a job on several hosts runs natively (one channel), not emulating fabrics");
        }
        int localCount = hosts.localCount();
        this.localCount = localCount;
        this.localIndex = hosts.localIndex(rank);
        this.hostLeaders = new int[hosts.hosts()];
        for (int h = 0; h < hostLeaders.length; h++) {
            hostLeaders[h] = hosts.firstRank(h);
        }
        this.local = new boolean[size];
        for (int r = 0; r < size; r++) {
            local[r] = hosts.local(r);
        }
        this.segmentBytes = job.config().segmentBytes;
        int ringBytes = job.config().ringBytes;
        long slot = JobDirectory.ringSlotBytes(ringBytes);
        int ringLen = ringBytes + org.agrona.concurrent.ringbuffer.RingBufferDescriptor.TRAILER_LENGTH;
        this.ringSlot = slot;
        this.ringLen = ringLen;
        this.channels = job.config().channels();
        outbound = new RingBuffer[channels * size];
        inbound = new RingBuffer[channels * size];
        ringMaps = new MappedByteBuffer[size];
        segmentMaps = new MappedByteBuffer[size];
        segmentAddress = new long[size];
        bulkMaps = new MappedByteBuffer[size];
        bulkOut = new BulkOutbound[channels * size];
        bulkIn = new BulkInbound[channels * size];
        int bulkBytes = job.config().bulkBytes;
        long bulkSlot = JobDirectory.bulkSlotBytes(bulkBytes);
        for (int r = 0; r < size; r++) {
            if (!local[r]) {
                continue;
            }
            File rf = job.ringFile(r).toFile();
            ringMaps[r] = IoUtil.mapExistingFile(rf, "rings of rank " + r);
            File sf = job.segmentFile(r).toFile();
            segmentMaps[r] = IoUtil.mapExistingFile(sf, "segment of rank " + r);
            segmentMaps[r].order(ByteOrder.nativeOrder());
            segmentAddress[r] = BufferUtil.address(segmentMaps[r]);
            bulkMaps[r] = IoUtil.mapExistingFile(job.bulkFile(r).toFile(), "bulk regions of rank " + r);
        }
        for (int c = 0; c < channels; c++) {
            for (int peer = 0; peer < size; peer++) {
                int i = c * size + peer;
                if (!local[peer]) {
                    outbound[i] = remote.outbound(peer);
                    inbound[i] = remote.inbound(peer);
                    bulkOut[i] = BulkOutbound.NONE;
                    continue;
                }
                int me = hosts.localIndex(rank);
                int them = hosts.localIndex(peer);
                // my packets to peer live in peer's ring file, slot [c][me]
                outbound[i] = new OneToOneRingBuffer(
                    new UnsafeBuffer(ringMaps[peer], Math.toIntExact((c * localCount + me) * slot), ringLen));
                // packets from peer to me live in my ring file, slot [c][them]
                inbound[i] = new OneToOneRingBuffer(
                    new UnsafeBuffer(ringMaps[rank], Math.toIntExact((c * localCount + them) * slot), ringLen));
                bulkOut[i] = new BulkOutbound(BufferUtil.address(bulkMaps[peer]) + (c * localCount + me) * bulkSlot,
                    bulkBytes);
                bulkIn[i] = new BulkInbound(BufferUtil.address(bulkMaps[rank]) + (c * localCount + them) * bulkSlot,
                    bulkBytes);
            }
        }
        collMap = IoUtil.mapExistingFile(job.collFile().toFile(), "collective slots");
        if (job.config().emulatesFabrics()) {
            timelinesMap = IoUtil.mapExistingFile(job.timelinesFile().toFile(), "timelines");
        } else {
            timelinesMap = null;
        }
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    /** True when {@code peer} runs on this host: shared memory reaches it (its segment, bulk regions, rings). */
    public boolean local(int peer) {
        return local[peer];
    }

    /** This rank's own segment as a buffer (the memory the bulk sockets read into and write from). */
    public java.nio.ByteBuffer ownSegment() {
        return segmentMaps[rank];
    }

    /** The sockets for large payloads to and from the ranks of other hosts (null on one host). */
    public org.hympj.net.NetBulk netBulk() {
        return netBulk;
    }

    /** This rank's index among the ranks of its host. */
    public int localIndex() {
        return localIndex;
    }

    /** The ranks of this host. */
    public int localCount() {
        return localCount;
    }

    /** The first rank of every host, in host order (the hosts' leaders in hierarchical collectives). */
    public int[] hostLeaders() {
        return hostLeaders.clone();
    }

    /** True when every rank of the job runs on this host. */
    public boolean singleHost() {
        return singleHost;
    }

    /** Ring and bulk sets per ordered pair: 1 natively; 2 when emulating (0 = TCA, 1 = IB). */
    public int channels() {
        return channels;
    }

    /** The ring my packets to {@code peer} on {@code channel} go into. */
    public RingBuffer ring(int channel, int peer) {
        if (peer == rank) {
            selfPending = true; // this rank may have written to itself: read those rings too
        }
        return outbound[channel * size + peer];
    }

    /**
     * True when this rank's rings from itself may hold packets: only this rank writes them, so
     * a progress pass need not read them otherwise (one ring in two of a 2-rank job).
     */
    public boolean selfPending() {
        return selfPending;
    }

    /** The rings from this rank to itself are read empty. */
    public void selfDrained() {
        selfPending = false;
    }

    /** The ring packets from {@code peer} on {@code channel} arrive in. */
    public RingBuffer inbound(int channel, int peer) {
        return inbound[channel * size + peer];
    }

    /** The bulk region my large payloads to {@code peer} on {@code channel} go into. */
    public BulkOutbound bulkTo(int channel, int peer) {
        return bulkOut[channel * size + peer];
    }

    /** The bulk region large payloads from {@code peer} on {@code channel} arrive in. */
    public BulkInbound bulkFrom(int channel, int peer) {
        return bulkIn[channel * size + peer];
    }

    /** The job's shared collective slots (the one-wave allreduce). */
    public org.agrona.concurrent.AtomicBuffer collSlots() {
        return new UnsafeBuffer(collMap);
    }

    /** The shared engine/link timelines (null when the job emulates no fabric). */
    public org.agrona.concurrent.AtomicBuffer timelines() {
        return timelinesMap == null ? null
            : new UnsafeBuffer(timelinesMap, 0, Math.toIntExact(org.hympj.shm.job.FileLayout.floorsOffset(size)));
    }

    /** The ranks' floors of virtual time, after the timelines (null when the job emulates no fabric). */
    public org.agrona.concurrent.AtomicBuffer virtualFloors() {
        return timelinesMap == null ? null : new UnsafeBuffer(timelinesMap,
            Math.toIntExact(org.hympj.shm.job.FileLayout.floorsOffset(size)),
            Math.toIntExact(org.hympj.shm.emu.VirtualOrder.bytes(size)));
    }

    /**
     * Per rank, the buffers of its inbound rings (every channel and source), to be read without
     * taking anything (virtual time's order looks at what waits in them). Made on each call.
     */
    public org.agrona.concurrent.AtomicBuffer[][] inboundRingsOfAll() {
        long slot = ringSlot;
        org.agrona.concurrent.AtomicBuffer[][] all = new org.agrona.concurrent.AtomicBuffer[size][channels * size];
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < channels * size; k++) {
                all[r][k] = new UnsafeBuffer(ringMaps[r], Math.toIntExact(k * slot), ringLen);
            }
        }
        return all;
    }

    /** Absolute address of the first byte of {@code rank}'s segment in this process (0 for a rank of another host). */
    public long segmentAddress(int r) {
        return segmentAddress[r];
    }

    public long segmentBytes() {
        return segmentBytes;
    }

    /** My own segment's mapping, for slicing segment buffers out of it. */
    public MappedByteBuffer mySegment() {
        return segmentMaps[rank];
    }

    /** Zeroes (and so pre-touches: first touches of fresh pages are slow) part of my segment. */
    public void touch(long offset, long length) {
        UnsafeApi.setMemory(null, segmentAddress[rank] + offset, length, (byte) 0);
    }

    /**
     * Nothing is unmapped explicitly: a segment buffer an application still holds after
     * finalize would otherwise crash the JVM on its next access. The mappings go with the
     * process (the files are removed by the job's creator).
     */
    @Override
    public void close() {
        // intentionally empty, see above
    }
}
