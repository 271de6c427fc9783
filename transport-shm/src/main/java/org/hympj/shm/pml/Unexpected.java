package org.hympj.shm.pml;

/**
 * A message that arrived before a matching receive was posted: an eager one with its data
 * copied out of the ring, or a rendezvous request (RTS) waiting for its receive. Pooled.
 */
final class Unexpected {
    /** The stamp the eager data became visible (virtual time: the receive completes no earlier). */
    long visibleAt;
    int kind;
    int channel;
    int source;
    int tag;
    long total;
    int sendId;
    long srcSegOffset;
    /** An RTS's strided layout at srcSegOffset (null: one contiguous run) and its item count. */
    org.hympj.api.Datatype srcType;
    int srcCount;
    /** Real instant an RTS arrived (its control put, --sched rndv); 0 otherwise. */
    long rtsVisibleAt;
    /** Where an EAGER_BULK payload waits in the sender's bulk region (not copied out). */
    long bulkStart;
    /** An EAGER_BULK payload announced before it was packed ({@link Packets#EAGER_BULK_PIPED}). */
    boolean piped;
    byte[] data = new byte[0];
    /** Bytes of a bufferable pulled message copied into {@link #data} (counted against its source's budget). */
    long buffered;
    Unexpected prev;
    Unexpected next;
}
