package org.hympj.rsched;

/**
 * What the schedulers know of the node: {@code engines} send engines (RDMA engines that each
 * push {@code engineBandwidth} bytes/ns), links of {@code linkBandwidth} bytes/ns each (one per
 * direction), {@code accessOverheadNs} charged on the engine for every put started on it, and
 * {@code receiveEngines} receive engines at every destination, each serving one put at a time.
 *
 * <p>When {@code linkBandwidth > engineBandwidth} two engines can push into one link at once
 * and both gain from it (S3's RR(4) link sharing); a put alone is limited by the slower of its
 * engine and its link.
 */
public record MachineModel(int engines, double engineBandwidth, double linkBandwidth, double accessOverheadNs,
                           int receiveEngines) {

    public MachineModel {
        if (engines < 1) {
            throw new IllegalArgumentException("engines must be >= 1, was " + engines);
        }
        if (receiveEngines < 1) {
            throw new IllegalArgumentException("receiveEngines must be >= 1, was " + receiveEngines);
        }
        if (!(engineBandwidth > 0) || Double.isInfinite(engineBandwidth)) {
            throw new IllegalArgumentException("engineBandwidth must be a positive number of bytes/ns, was " + engineBandwidth);
        }
        if (!(linkBandwidth > 0) || Double.isInfinite(linkBandwidth)) {
            throw new IllegalArgumentException("linkBandwidth must be a positive number of bytes/ns, was " + linkBandwidth);
        }
        if (!(accessOverheadNs >= 0) || Double.isInfinite(accessOverheadNs)) {
            throw new IllegalArgumentException("accessOverheadNs must be >= 0, was " + accessOverheadNs);
        }
    }

    /**
     * The K computer / ToFu preset (transport-shm's {@code tofu.properties}): 4 send and 4
     * receive engines, engines push 3.5 GB/s, links carry 5 GB/s, 1 µs per engine access.
     */
    public static MachineModel tofu() {
        return new MachineModel(4, 3.5, 5.0, 1000.0, 4);
    }

    /** Bytes per ns of one put running alone: the slower of an engine and a link. */
    public double aloneBandwidth() {
        return Math.min(engineBandwidth, linkBandwidth);
    }

    /** Time on the wire of {@code bytes} pushed alone (no access overhead). */
    public double dataNs(long bytes) {
        return bytes / aloneBandwidth();
    }

    /** A put alone: the access overhead plus its bytes at the alone bandwidth. */
    public double durationNs(Put p) {
        return accessOverheadNs + dataNs(p.bytes());
    }

    /**
     * How many puts can usefully share one link: the number of engines it takes to fill it
     * ({@code ceil(link/engine)}, at most {@link #engines}); 1 when one engine fills a link.
     */
    public int linkShare() {
        if (linkBandwidth <= engineBandwidth) {
            return 1;
        }
        return (int) Math.min(engines, Math.ceil(linkBandwidth / engineBandwidth - 1e-12));
    }
}
