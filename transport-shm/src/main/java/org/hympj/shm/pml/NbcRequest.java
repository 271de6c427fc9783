package org.hympj.shm.pml;

import org.hympj.api.MpjException;

/**
 * A non-blocking or persistent collective: a {@link NbcSchedule} and how far it has got. A start
 * runs round 0 and, unless the schedule finishes at once, joins the engine's
 * {@link ActiveSchedules}, whose every progress pass moves it on ({@link #advance}); the request
 * is done after its last round. It waits, tests and joins {@code Request.waitAll} …
 * as any request of the engine. A persistent one is started again with nothing resolved or
 * allocated: its schedule and internal requests are reused.
 *
 * <p>Virtual time: each internal transfer is observed when its round completes, so the rank's
 * clock is never behind the data a later round sends on.
 */
final class NbcRequest extends Req {
    private final NbcSchedule schedule;
    private final ActiveSchedules active;
    private final String name;
    private int round;

    NbcRequest(Engine engine, ActiveSchedules active, NbcSchedule schedule, boolean persistent, String name) {
        super(engine, persistent);
        this.active = active;
        this.schedule = schedule;
        this.name = name;
    }

    @Override
    void doStart() {
        round = 0;
        if (schedule.rounds.length == 0) {
            complete();
            return;
        }
        try {
            startRound(schedule.rounds[0]);
            advance();
        } catch (RuntimeException e) {
            failWith(e);
        }
        if (!done) {
            active.add(this);
        }
    }

    /** True once the last round has completed or the schedule failed. */
    boolean finished() {
        return done;
    }

    /** Consumes completed rounds and starts the next ones; the number of rounds it moved. */
    int advance() {
        int work = 0;
        try {
            while (!done) {
                Req[] t = schedule.rounds[round].transfers;
                for (Req r : t) {
                    if (!r.done) {
                        return work;
                    }
                }
                for (Req r : t) {
                    r.consume(); // inactive again (restartable); on virtual time the clock moves to its completion
                }
                work++;
                if (++round == schedule.rounds.length) {
                    complete();
                } else {
                    startRound(schedule.rounds[round]);
                }
            }
        } catch (RuntimeException e) {
            failWith(e);
        }
        return work;
    }

    private void startRound(NbcSchedule.Round rd) {
        for (Runnable local : rd.locals) {
            local.run();
        }
        for (Req r : rd.transfers) {
            r.start();
        }
    }

    private void failWith(RuntimeException e) {
        fail(e instanceof MpjException ? (MpjException) e
            : new MpjException(name + " failed in round " + round + ": " + e, e));
    }

    @Override
    public String toString() {
        return name + "[round " + round + " of " + schedule.rounds.length + (persistent ? ", persistent" : "") + "]";
    }
}
