package org.hympj.shm.pml;

/** Something waiting to be written to a peer's ring, kept in order per peer. */
interface Outbound {
    /** Writes as much as fits now; true when nothing of it is left to write. */
    boolean emit();
}
