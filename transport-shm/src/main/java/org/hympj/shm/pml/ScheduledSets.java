package org.hympj.shm.pml;

import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.PersistentRequest;
import org.hympj.model.FabricPolicy;
import org.hympj.model.JobFabric;
import org.hympj.rsched.Put;
import org.hympj.rsched.Schedule;
import org.hympj.rsched.Scheduler;
import org.hympj.rsched.StartOrder;
import org.hympj.shm.job.JobConfig;

/**
 * Startall of persistent requests. Under a model with an RSched policy — the one of the set's
 * sends' communicator ({@code hympj.sched}, or the job's {@code --sched}) — the TCA puts of a set
 * start in RSched's order, each on its assigned engines; the order is computed once per set and
 * cached while the same set is started again (its cost stays out of the per-iteration time, as
 * in S3). S3's pseudo-collective mode brackets the exchange with a job-wide barrier.
 */
final class ScheduledSets {
    private final JobConfig config;
    private final JobFabric jobFabric;
    private final TraceEvents events;
    private final int rank;
    private final boolean modelled;
    private final org.hympj.rsched.MachineModel machine;
    private PersistentRequest[] cachedSet;
    private PersistentRequest[] cachedMembers;
    private int[] cachedOrder;
    private Schedule cachedSchedule;
    private Schedule lastSchedule;
    private Runnable barrier;
    private boolean pseudoCollective;

    ScheduledSets(JobConfig config, JobFabric jobFabric, boolean modelled, TraceEvents events, int rank) {
        this.config = config;
        this.jobFabric = jobFabric;
        this.events = events;
        this.rank = rank;
        this.modelled = modelled;
        this.machine = jobFabric.machine();
    }

    /**
     * Starts every non-null request in order, after checking them all: a request that cannot
     * be started (active, freed) fails the call before any other is started.
     */
    void startAll(PersistentRequest[] requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null) {
                String why = Progress.req(requests[i]).whyNotStartable();
                if (why != null) {
                    throw new IllegalStateException("startAll: request " + i + ": " + why + "; none was started");
                }
            }
        }
        FabricPolicy policy = policyOf(requests);
        Scheduler scheduler = modelled && policy != null ? policy.scheduler() : null;
        events.startAll(requests.length, scheduler == null ? "startAll" : policy.sched());
        if (scheduler == null) {
            lastSchedule = null;
            for (PersistentRequest q : requests) {
                if (q != null) {
                    q.start();
                }
            }
            return;
        }
        if (config.schedBarrier && barrier != null) {
            barrier.run();            // S3's pseudo-collective mode: the exchange starts together
            pseudoCollective = true;
        }
        int[] order = scheduledOrder(requests, scheduler);
        for (PersistentRequest q : requests) {
            if (q != null && !(q instanceof SendReq && ((SendReq) q).channel == 0)) {
                q.start();            // receives (and IB sends) first, in the given order
            }
        }
        for (int i : order) {
            requests[i].start();      // TCA puts in schedule order, each on its assigned engines
        }
    }

    /** After a waitAll: a pseudo-collective exchange also ends together. */
    void endTogether() {
        if (pseudoCollective) {
            pseudoCollective = false;
            barrier.run();
        }
    }

    /** The TCA sends of a Startall set in RSched's order (by scheduled start), with their engines assigned. */
    private int[] scheduledOrder(PersistentRequest[] requests, Scheduler scheduler) {
        if (requests == cachedSet && sameSet(requests)) {
            lastSchedule = cachedSchedule;
            return cachedOrder;
        }
        List<Put> puts = new ArrayList<>();
        List<Integer> index = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] instanceof SendReq && ((SendReq) requests[i]).channel == 0
                && ((SendReq) requests[i]).dest != Comm.PROC_NULL) {
                SendReq s = (SendReq) requests[i];
                puts.add(jobFabric.put(puts.size(), rank, s.dest, s.buf.bytes));
                index.add(i);
            }
        }
        int[] order = new int[puts.size()];
        lastSchedule = null;
        if (!puts.isEmpty()) {
            StartOrder so = StartOrder.of(scheduler, machine, puts);
            for (int k = 0; k < order.length; k++) {
                SendReq s = (SendReq) requests[index.get(so.put(k))];
                s.engineHint = so.sendEngine(k);
                s.recvEngineHint = so.receiveEngine(k);
                order[k] = index.get(so.put(k));
            }
            lastSchedule = so.schedule();
        }
        cachedSet = requests;
        cachedMembers = requests.clone();
        cachedOrder = order;
        cachedSchedule = lastSchedule;
        return order;
    }

    /**
     * The policy of the set's sends (null: none): their communicators' hints must agree on the
     * RSched policy, which schedules the set as one (checked before anything starts).
     */
    private static FabricPolicy policyOf(PersistentRequest[] requests) {
        FabricPolicy p = null;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] instanceof SendReq) {
                FabricPolicy q = ((SendReq) requests[i]).policy;
                if (p == null) {
                    p = q;
                } else if (q != null && !q.sched().equals(p.sched())) {
                    throw new IllegalArgumentException("startAll: request " + i + " is of a communicator with hint "
                        + org.hympj.api.Comm.HINT_SCHED + " " + q.sched() + ", an earlier send of the set has "
                        + p.sched() + ": a set is scheduled under one policy; none was started");
                }
            }
        }
        return p;
    }

    private boolean sameSet(PersistentRequest[] requests) {
        if (cachedMembers == null || cachedMembers.length != requests.length) {
            return false;
        }
        for (int i = 0; i < requests.length; i++) {
            if (cachedMembers[i] != requests[i]) {
                return false;
            }
        }
        return true;
    }

    /** The schedule of the last Startall's set (null if it was not scheduled). */
    Schedule lastSchedule() {
        return lastSchedule;
    }

    /** Installs the job-wide barrier used by the pseudo-collective mode. */
    void barrier(Runnable b) {
        this.barrier = b;
    }
}
