package org.hympj.shm.model;

import org.hympj.spi.Layout;

/** One message as the timing model sees it. Mutable and reused: planning allocates nothing. */
public final class Transfer {
    /** S5's transfer modes: M = a registered segment, B = a bounce buffer (a heap array). */
    public enum Mode { MTOM, BTOM, MTOB, BTOB }

    public Fabric fabric;
    public int src;
    public int dst;
    public long bytes;
    public Layout layout = Layout.CONTIGUOUS;
    /** Contiguous blocks in the layout (1 for contiguous). */
    public long blocks = 1;
    /** Primitive elements (for per-element pack costs). */
    public long elements;
    public Mode mode = Mode.BTOB;
    /** Persistent: descriptors registered once, in a mode fixed by {@link #chainLength}. */
    public boolean persistent;
    /** Descriptors in this rank's persistent chain on the engine (register mode holds 16). */
    public int chainLength = 1;
    /** Identity of a non-persistent transfer's descriptor, for the descriptor cache. */
    public long cacheKey;
    /** The send engine a scheduler (RSched) assigned, or -1: the model takes the earliest free one. */
    public int engineHint = -1;
    /** The receive engine at the destination a scheduler assigned, or -1. */
    public int recvEngineHint = -1;

    /** Bytes of a rendezvous control message (RTS, CTS) when it is planned as a put ({@code --sched rndv}). */
    public static final long CONTROL_BYTES = 64;

    /**
     * A rendezvous control message as a put (S3's original protocol): {@link #CONTROL_BYTES}
     * contiguous, registered at both ends, on the engines the model picks; its descriptor built
     * by the host (kept out of the descriptor cache, which it would churn for the data puts).
     */
    public Transfer setControl(Fabric f, int src, int dst) {
        set(f, src, dst, CONTROL_BYTES, Layout.CONTIGUOUS, 1, CONTROL_BYTES);
        engineHint = -1;
        recvEngineHint = -1;
        mode = Mode.MTOM;
        persistent = false;
        chainLength = 1;
        cacheKey = 0;
        return this;
    }

    public Transfer set(Fabric f, int src, int dst, long bytes, Layout layout, long blocks, long elements) {
        this.fabric = f;
        this.src = src;
        this.dst = dst;
        this.bytes = bytes;
        this.layout = layout;
        this.blocks = blocks;
        this.elements = elements;
        return this;
    }
}
