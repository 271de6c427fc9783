package org.hympj.model;

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

    /**
     * A message's data put from {@code src} to {@code dst}, as both the emulator and the simulator
     * plan it. Its mode follows where the data sits at each end (S5's MtoM … BtoB). A put a
     * scheduler placed on a TCA engine ({@code sendEngine >= 0}) lands straight in the receive
     * buffer, whose address S3's persistent protocol exchanged when the requests were set up: no
     * bounce buffer at the receiver, whatever the runtime carries it as. A persistent put's
     * descriptors sit in this rank's chain of {@code persistentSends} over {@code engines} engines;
     * any other is looked up in the descriptor cache by destination, size, layout and datatype.
     */
    public Transfer setMessage(Fabric f, int src, int dst, long bytes, Layout layout, long blocks, long elements,
                               long typeKey, boolean srcInSegment, boolean dstInSegment, boolean persistent,
                               int persistentSends, int engines, int sendEngine, int recvEngine) {
        set(f, src, dst, bytes, layout, blocks, elements);
        boolean tca = f == Fabric.TCA;
        this.engineHint = tca ? sendEngine : -1;
        this.recvEngineHint = tca ? recvEngine : -1;
        boolean direct = dstInSegment || engineHint >= 0;
        this.mode = srcInSegment ? (direct ? Mode.MTOM : Mode.MTOB) : (direct ? Mode.BTOM : Mode.BTOB);
        this.persistent = persistent;
        int e = Math.max(1, engines);
        this.chainLength = (persistentSends + e - 1) / e;
        this.cacheKey = ((long) dst * 31 + bytes) * 31 + layout.ordinal() * 7L + typeKey;
        return this;
    }

    /** Contiguous blocks of {@code count} items of {@code type} (1 for a contiguous type). */
    public static long blocks(org.hympj.api.Datatype type, int count) {
        return type.isContiguous() ? 1 : type.elements() / Math.max(1, type.blockLength()) * count;
    }

    /** Primitive elements of {@code count} items of {@code type} (for per-element pack costs). */
    public static long elements(org.hympj.api.Datatype type, int count) {
        return type.elements() * count;
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
