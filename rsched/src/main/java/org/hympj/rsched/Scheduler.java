package org.hympj.rsched;

import java.util.List;

/**
 * Turns the puts of one persistent set (a Startall) into per-engine command lists. Every
 * implementation computes its times with {@link Simulator}, so makespans of different policies
 * are comparable. Implementations are stateless and thread-safe.
 */
public interface Scheduler {

    /** The policy's name as {@link Schedulers#parse} accepts it. */
    String name();

    /**
     * Schedules {@code puts} (ids 0..n-1 in list order) on machine {@code m}.
     *
     * @throws IllegalArgumentException when ids are not 0..n-1 in order
     */
    Schedule schedule(List<Put> puts, MachineModel m);
}
