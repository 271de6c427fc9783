package org.hympj.shm.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The settings every rank of a job shares, written once by whoever creates the job
 * (job.properties in the job directory) and read by each rank at init.
 */
public final class JobConfig {
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
    /**
     * Packet ring per ordered rank pair. 1 MiB lets a 64 KiB eager message (one copy in, one
     * out, no handshake: 2.2 us against 7.4 us by rendezvous, measured) fit in a record
     * (Agrona caps records at capacity/8). Large jobs get smaller rings: there are size² of them.
     */
    public static final int DEFAULT_RING_BYTES = 1 << 20;
    public static final int DEFAULT_EAGER_LIMIT = 64 << 10;

    /** The default ring size for a job of {@code ranks}: 1 MiB up to 16 ranks, then 256 KiB. */
    public static int defaultRingBytes(int ranks) {
        return ranks <= 16 ? DEFAULT_RING_BYTES : 256 << 10;
    }

    /** The default eager limit for a ring size: 64 KiB, or less when records must be smaller. */
    public static int defaultEagerLimit(int ringBytes) {
        return Math.min(DEFAULT_EAGER_LIMIT, ringBytes / 8 - 64);
    }

    public final String jobId;
    public final int size;
    public final long launcherPid;
    /** Launcher start time in ms since the epoch (guards against pid reuse), 0 if unknown. */
    public final long launcherStartMillis;
    public final long segmentBytes;
    public final int ringBytes;
    public final int eagerLimit;
    public final String model;
    public final int subcluster;
    /** Idle policy: "auto", "spin", "yield" or "backoff". */
    public final String idle;

    public JobConfig(String jobId, int size, long launcherPid, long launcherStartMillis, long segmentBytes,
                     int ringBytes, int eagerLimit, String model, int subcluster, String idle) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1, was " + size);
        }
        if (Integer.bitCount(ringBytes) != 1 || ringBytes < 64 << 10) {
            throw new IllegalArgumentException("ring size must be a power of two of at least 64 KiB, was " + ringBytes);
        }
        if (eagerLimit < 0 || eagerLimit > ringBytes / 8 - 64) {
            throw new IllegalArgumentException("eager limit must be 0 .. ring size/8 - 64 (" + (ringBytes / 8 - 64)
                + "), was " + eagerLimit);
        }
        if (segmentBytes < 4096) {
            throw new IllegalArgumentException("segment size must be at least 4 KiB, was " + segmentBytes);
        }
        this.jobId = jobId;
        this.size = size;
        this.launcherPid = launcherPid;
        this.launcherStartMillis = launcherStartMillis;
        this.segmentBytes = segmentBytes;
        this.ringBytes = ringBytes;
        this.eagerLimit = eagerLimit;
        this.model = model;
        this.subcluster = subcluster <= 0 ? size : subcluster;
        this.idle = idle;
    }

    public static JobConfig defaults(String jobId, int size) {
        ProcessHandle me = ProcessHandle.current();
        int ring = defaultRingBytes(size);
        return new JobConfig(jobId, size, me.pid(), startMillis(me), DEFAULT_SEGMENT_BYTES, ring,
            defaultEagerLimit(ring), "none", size, "auto");
    }

    public JobConfig withSize(int n) {
        return new JobConfig(jobId, n, launcherPid, launcherStartMillis, segmentBytes, ringBytes, eagerLimit, model,
            subcluster == size ? n : subcluster, idle);
    }

    public JobConfig with(long segment, int ring, int eager, String model, int subcluster, String idle) {
        return new JobConfig(jobId, size, launcherPid, launcherStartMillis, segment, ring, eager, model, subcluster, idle);
    }

    static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
    }

    void store(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("job", jobId);
        p.setProperty("size", Integer.toString(size));
        p.setProperty("launcher.pid", Long.toString(launcherPid));
        p.setProperty("launcher.start", Long.toString(launcherStartMillis));
        p.setProperty("segment.bytes", Long.toString(segmentBytes));
        p.setProperty("ring.bytes", Integer.toString(ringBytes));
        p.setProperty("eager.limit", Integer.toString(eagerLimit));
        p.setProperty("model", model);
        p.setProperty("subcluster", Integer.toString(subcluster));
        p.setProperty("idle", idle);
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, "HyMPJ job");
        }
    }

    static JobConfig load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return new JobConfig(p.getProperty("job"), Integer.parseInt(p.getProperty("size")),
            Long.parseLong(p.getProperty("launcher.pid")), Long.parseLong(p.getProperty("launcher.start", "0")),
            Long.parseLong(p.getProperty("segment.bytes")), Integer.parseInt(p.getProperty("ring.bytes")),
            Integer.parseInt(p.getProperty("eager.limit")), p.getProperty("model", "none"),
            Integer.parseInt(p.getProperty("subcluster", p.getProperty("size"))), p.getProperty("idle", "auto"));
    }

    /** True while the process that created the job is alive (same pid and start time). */
    public boolean launcherAlive() {
        return ProcessHandle.of(launcherPid)
            .filter(ProcessHandle::isAlive)
            .filter(h -> launcherStartMillis == 0 || startMillis(h) == launcherStartMillis)
            .isPresent();
    }
}
