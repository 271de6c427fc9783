package org.hympj.model;

/** The model's answer for one transfer (modelled ns). Mutable and reused. */
public final class Plan {
    /** When the transfer started on its engine/link (after packing and waiting for resources). */
    public long start;
    /** When the sender's buffer is free again (its engine finished). */
    public long senderDone;
    /** When the data (and its completion notice) is visible and unpacked at the receiver. */
    public long visibleAt;
    /** Engine used (-1: none, e.g. PIO). */
    public int engine;
    /** First link of the path (a TCA link, an IB uplink; -1: none, e.g. PIO). */
    public int link;
    /** What the transfer did, for statistics and traces. */
    public String protocol = "";

    public long duration(long issuedAt) {
        return visibleAt - issuedAt;
    }
}
