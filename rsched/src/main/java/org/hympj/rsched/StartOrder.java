package org.hympj.rsched;

import java.util.Arrays;
import java.util.List;

/**
 * How a Startall set's puts are issued under a scheduler: in order of their scheduled start,
 * each on the send engine its slot names. S3: the sender also picks the destination's receive
 * engine, and takes the one of its send engine's number: when every rank runs the same schedule
 * (a translation-symmetric exchange), the puts arriving at a rank at any instant are the
 * schedule's puts running at that instant, one per send engine, so they land on distinct
 * receive engines. The emulator's engine and the simulator both issue sets through this.
 */
public final class StartOrder {
    private final Schedule schedule;
    private final int[] byStart;

    private StartOrder(Schedule schedule, int[] byStart) {
        this.schedule = schedule;
        this.byStart = byStart;
    }

    /** Schedules {@code puts} (ids 0..n-1 in list order) on {@code machine} with {@code scheduler}. */
    public static StartOrder of(Scheduler scheduler, MachineModel machine, List<Put> puts) {
        Schedule sch = scheduler.schedule(puts, machine);
        Integer[] order = new Integer[puts.size()];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        // stable: puts starting together keep their order in the set
        Arrays.sort(order, (a, b) -> Double.compare(sch.slotOf(a).startNs(), sch.slotOf(b).startNs()));
        int[] ids = new int[order.length];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = order[k];
        }
        return new StartOrder(sch, ids);
    }

    /** The schedule behind the order. */
    public Schedule schedule() {
        return schedule;
    }

    /** Puts in the set. */
    public int size() {
        return byStart.length;
    }

    /** The id of the {@code k}-th put to issue. */
    public int put(int k) {
        return byStart[k];
    }

    /** The send engine of the {@code k}-th put to issue. */
    public int sendEngine(int k) {
        return schedule.slotOf(byStart[k]).engine();
    }

    /** The destination's receive engine the {@code k}-th put asks for (its send engine's number; see above). */
    public int receiveEngine(int k) {
        return sendEngine(k);
    }
}
