package org.hympj.shm.pml;

/**
 * An engine the two-sided engine's progress passes also drive. On virtual time the one-sided
 * engine ({@link OsEngine}) has no polling thread of its own: every pass of the rank — inside a
 * collective, a wait, a send waiting for its turn to book — takes its entries and makes its
 * bookings, since what waits there bounds the rank for every other rank's bookings.
 */
interface DrivenEngine {
    /** One round of its work, inside a pass; the work done. */
    int round();

    /** True while it holds bookings deferred to their turn. */
    boolean hasDeferred();
}
