package org.hympj.rsched;

import java.util.Arrays;

/**
 * What a policy decides, for the {@link Simulator} to time: the ordered put list of every send
 * engine, each put's receive engine at its destination, each put's link group, a priority
 * among puts that want the same link or receive engine at the same instant (lower first), and
 * optionally a time before which a put may not start.
 *
 * <p>Link groups say who may share a link: puts of the same group may be on their link at
 * once (the link's bandwidth split among them), a put of another group waits until the link
 * is free. Round-robin puts every put of a direction in one group ({@link #SHARED}: S3's link
 * sharing); BLbased gives every put its own group ({@link #EXCLUSIVE}: S3's rule, never two
 * puts on one link at once); bl+ groups the puts it decided to run side by side.
 */
public final class Assignment {
    /** Link-group marker: every put of one direction shares its link. */
    public static final int[] SHARED = new int[0];
    /** Link-group marker: every put has its link to itself. */
    public static final int[] EXCLUSIVE = new int[0];

    final int[][] queues;
    final int[] receiveEngine;
    final int[] linkGroup;
    final int[] priority;
    final double[] notBefore;
    /** How many groups of puts a planner placed side by side on a link (0: none). */
    int sharingGroups;

    /**
     * @param queues        per send engine, the put ids it runs, in order (every put exactly once)
     * @param receiveEngine per put, its receive engine at the destination (0..receiveEngines-1)
     * @param linkGroup     per put its link group, or {@link #SHARED} / {@link #EXCLUSIVE}
     * @param priority      per put, lower wins a link or receive engine first; null = put id
     * @param notBefore     per put, the earliest start in ns; null = none
     */
    public Assignment(int[][] queues, int[] receiveEngine, int[] linkGroup, int[] priority, double[] notBefore) {
        this.queues = queues;
        this.receiveEngine = receiveEngine;
        this.linkGroup = linkGroup;
        this.priority = priority;
        this.notBefore = notBefore;
    }

    /** Per send engine, the put ids in order (copies). */
    public int[][] queues() {
        int[][] q = new int[queues.length][];
        for (int e = 0; e < q.length; e++) {
            q[e] = queues[e].clone();
        }
        return q;
    }

    @Override
    public String toString() {
        return "Assignment" + Arrays.deepToString(queues) + " recv=" + Arrays.toString(receiveEngine);
    }
}
