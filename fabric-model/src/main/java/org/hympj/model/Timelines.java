package org.hympj.model;

/**
 * Resource timelines: for each resource (an engine, a link direction, an adapter) the modelled
 * intervals during which it is booked, gaps kept. A transfer planned later may take an idle
 * gap before an earlier booking: the ranks of an emulated job plan in the order their calls
 * happen, not in the order their transfers run, and a single "busy until" per resource let the
 * first planner's late bookings hold every other planner's early transfers back (the
 * planning-order limit). The emulator keeps them in the job's shared memory (ranks contend for
 * real); the simulator and tests in an array.
 *
 * <p>Concurrency contract: a planner calls {@link #lock()} before reading and booking the
 * resources of one transfer and {@link #unlock()} after; between them no other planner books.
 */
public interface Timelines {
    /** The end of the last booking of {@code resource} (0 if it was never booked). */
    long busyUntil(int resource);

    /** The earliest instant at or after {@code from} at which {@code resource} is free for {@code duration}. */
    long fit(int resource, long from, long duration);

    /** Books {@code [start, end)} on {@code resource} (joined with what it overlaps or touches). */
    void book(int resource, long start, long end);

    /**
     * Work that can be split across idle gaps (a link forwarding packets): takes the free time
     * of {@code resource} from {@code from} on until {@code work} is done, books it, and returns
     * when the work ends.
     */
    long fill(int resource, long from, long work);

    /** Excludes other planners until {@link #unlock()}. */
    void lock();

    void unlock();
}
