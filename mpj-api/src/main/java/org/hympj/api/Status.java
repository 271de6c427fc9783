package org.hympj.api;

/**
 * What a completed receive (or probe) found: source, tag, and how much data arrived.
 * A request owns one Status and overwrites it each time it completes; copy it
 * ({@link #copy()}) to keep it across a restart.
 */
public final class Status {
    private int source = Comm.ANY_SOURCE;
    private int tag = Comm.ANY_TAG;
    private long bytes;
    private int elementBytes = 1;
    private long itemBytes = 1;
    private boolean truncated;
    private long sentBytes;
    private boolean cancelled;

    /** Rank that sent the message (in the communicator it was received on). */
    public int source() {
        return source;
    }

    /** Tag of the message. */
    public int tag() {
        return tag;
    }

    /** Bytes that were placed in the receive buffer. */
    public long bytes() {
        return bytes;
    }

    /** Bytes the sender sent; larger than {@link #bytes()} when the receive was truncated. */
    public long sentBytes() {
        return sentBytes;
    }

    /** True when the message was longer than the receive buffer (MPI_ERR_TRUNCATE). */
    public boolean isTruncated() {
        return truncated;
    }

    /**
     * Items of the receive datatype that arrived (MPI_Get_count); {@link Comm#UNDEFINED} when
     * the byte count is not a whole number of items.
     */
    public int count() {
        if (itemBytes == 0) {
            return 0;
        }
        return bytes % itemBytes == 0 ? (int) (bytes / itemBytes) : Comm.UNDEFINED;
    }

    /** Primitive elements that arrived (MPI_Get_elements). */
    public long elements() {
        return bytes / elementBytes;
    }

    /** Items of {@code type} in the data that arrived, or {@link Comm#UNDEFINED}. */
    public int count(Datatype type) {
        long sz = type.size();
        if (sz == 0) {
            return 0;
        }
        return bytes % sz == 0 ? (int) (bytes / sz) : Comm.UNDEFINED;
    }

    /**
     * Fills this status. For providers (the SPI), not for applications.
     *
     * @param itemBytes size of one item of the receive datatype
     */
    public void fill(int source, int tag, long bytes, long sentBytes, int elementBytes, long itemBytes) {
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        this.sentBytes = sentBytes;
        this.truncated = sentBytes > bytes;
        this.elementBytes = elementBytes;
        this.itemBytes = itemBytes;
        this.cancelled = false;
    }

    /** Marks the status of a receive that was cancelled before it matched (nothing arrived). */
    public void cancelled(int source, int tag) {
        fill(source, tag, 0, 0, elementBytes, itemBytes);
        this.cancelled = true;
    }

    /** True when the request was cancelled before it matched (MPI_Test_cancelled). */
    public boolean isCancelled() {
        return cancelled;
    }

    /** Copies another status into this one. */
    public void set(Status o) {
        fill(o.source, o.tag, o.bytes, o.sentBytes, o.elementBytes, o.itemBytes);
        this.cancelled = o.cancelled;
    }

    /** An independent copy. */
    public Status copy() {
        Status s = new Status();
        s.set(this);
        return s;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + bytes
            + (truncated ? ", truncated from " + sentBytes : "") + (cancelled ? ", cancelled" : "") + "]";
    }
}
