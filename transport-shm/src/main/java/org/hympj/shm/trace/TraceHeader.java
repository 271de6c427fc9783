package org.hympj.shm.trace;

/**
 * What a reader needs to interpret one rank's journal: written once, as the first record, by
 * {@link ChronicleTracer} (and again after a reopen). Immutable.
 *
 * <p>Engine ids in events are the model's resource ids: TCA DMA engines of rank r are
 * {@code r*enginesPerRank .. r*enginesPerRank+enginesPerRank-1}; rank r's InfiniBand host
 * adapter is {@code ibHcaBase + r}; -1 is "no engine" (PIO, or no model).
 */
public final class TraceHeader {
    /** Version of the record layout (see {@link ChronicleTracer}). */
    public final int version;
    public final int rank;
    public final int size;
    public final long pid;
    public final String jobId;
    /** Timing model name ("none" without one). */
    public final String model;
    /** The job's time origin (System.nanoTime); modelled time 0 is this instant. */
    public final long epochNanos;
    /** Modelled durations last this many times longer in real time (1 without a model). */
    public final double dilation;
    /** TCA DMA engines per rank in the model (0 without a model). */
    public final int enginesPerRank;
    /** Resource id of rank 0's IB host adapter (-1 without a model). */
    public final int ibHcaBase;
    public final int subcluster;
    /** System.nanoTime and wall clock (ms since the epoch) when the journal was opened. */
    public final long openedNanos;
    public final long openedMillis;

    public TraceHeader(int version, int rank, int size, long pid, String jobId, String model, long epochNanos,
                       double dilation, int enginesPerRank, int ibHcaBase, int subcluster, long openedNanos,
                       long openedMillis) {
        this.version = version;
        this.rank = rank;
        this.size = size;
        this.pid = pid;
        this.jobId = jobId;
        this.model = model;
        this.epochNanos = epochNanos;
        this.dilation = dilation;
        this.enginesPerRank = enginesPerRank;
        this.ibHcaBase = ibHcaBase;
        this.subcluster = subcluster;
        this.openedNanos = openedNanos;
        this.openedMillis = openedMillis;
    }

    /** Modelled ns of a real System.nanoTime instant (real ns since the epoch without a model). */
    public double modelledOf(long realNanos) {
        return (realNanos - epochNanos) / dilation;
    }

    /** The rank that owns engine id {@code e}, or -1. */
    public int engineOwner(int e) {
        if (e < 0) {
            return -1;
        }
        if (enginesPerRank > 0 && e < size * enginesPerRank) {
            return e / enginesPerRank;
        }
        if (ibHcaBase >= 0 && e >= ibHcaBase && e < ibHcaBase + size) {
            return e - ibHcaBase;
        }
        return -1;
    }

    /** A short name of engine id {@code e}: dma0..dma3 (TCA), ib (IB adapter), pio (-1 on TCA), none. */
    public String engineName(int e, int channel) {
        if (e < 0) {
            return channel == 0 && !model.equals("none") ? "pio" : "none";
        }
        if (enginesPerRank > 0 && e < size * enginesPerRank) {
            return "dma" + (e % enginesPerRank);
        }
        if (ibHcaBase >= 0 && e >= ibHcaBase && e < ibHcaBase + size) {
            return "ib";
        }
        return "engine" + e;
    }

    @Override
    public String toString() {
        return "rank " + rank + "/" + size + " pid " + pid + " job " + jobId + " model " + model + " dilation "
            + dilation + " engines/rank " + enginesPerRank;
    }
}
