package org.hympj.shm.pml;

import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Op;
import org.hympj.api.Primitive;

/**
 * A collective compiled into rounds, as Open MPI's libnbc does: each round first runs its local
 * steps (copies, reductions of what the previous rounds received), then starts its receives and
 * its sends; the next round starts when every transfer of this one has completed. The sends and
 * receives are internal persistent requests bound once, here, on the communicator's collective
 * context with the collective's own tags; starting the schedule again (a persistent collective)
 * binds, resolves and allocates nothing.
 *
 * <p>The builder takes the steps in program order: a local step after a transfer closes the round
 * (it needs the transfer's data, or must not overwrite what is being sent); {@link Builder#round()}
 * closes it explicitly (a send of data a receive of the same round brings).
 */
final class NbcSchedule {
    /** One round: local steps, then transfers (receives first). */
    static final class Round {
        final Runnable[] locals;
        final Req[] transfers;

        Round(Runnable[] locals, Req[] transfers) {
            this.locals = locals;
            this.transfers = transfers;
        }
    }

    final Round[] rounds;

    private NbcSchedule(Round[] rounds) {
        this.rounds = rounds;
    }

    /** Compiles a collective of {@code comm} (local ranks; PROC_NULL peers are left out). */
    static final class Builder {
        private final ShmComm comm;
        private final List<Round> rounds = new ArrayList<>();
        private final List<Runnable> locals = new ArrayList<>();
        private final List<Req> recvs = new ArrayList<>();
        private final List<Req> sends = new ArrayList<>();

        Builder(ShmComm comm) {
            this.comm = comm;
        }

        Builder send(Object buf, int offset, int count, Datatype type, int dest, int tag) {
            if (dest != Comm.PROC_NULL) {
                sends.add(comm.twoSided.bind(new SendReq(comm.engine, true), buf, offset, count, type, dest, tag,
                    comm.collCtx));
            }
            return this;
        }

        Builder recv(Object buf, int offset, int count, Datatype type, int source, int tag) {
            if (source != Comm.PROC_NULL) {
                recvs.add(comm.twoSided.bind(new RecvReq(comm.engine, true), buf, offset, count, type, source, tag,
                    comm.collCtx));
            }
            return this;
        }

        /** {@code count} elements from {@code src} to {@code dst} (arrays of one primitive). */
        Builder copy(Object src, int srcOffset, Object dst, int dstOffset, int count) {
            return local(() -> System.arraycopy(src, srcOffset, dst, dstOffset, count));
        }

        /** {@code inout = in op inout}, element-wise over {@code count} elements. */
        Builder reduce(Op op, Object in, int inOffset, Object inout, int inoutOffset, int count, Primitive p) {
            return local(() -> op.apply(in, inOffset, inout, inoutOffset, count, p));
        }

        private Builder local(Runnable step) {
            if (!recvs.isEmpty() || !sends.isEmpty()) {
                round();
            }
            locals.add(step);
            return this;
        }

        /** Closes the current round: what follows starts once its transfers have completed. */
        Builder round() {
            if (locals.isEmpty() && recvs.isEmpty() && sends.isEmpty()) {
                return this;
            }
            Req[] t = new Req[recvs.size() + sends.size()];
            int k = 0;
            for (Req r : recvs) {
                t[k++] = r;
            }
            for (Req s : sends) {
                t[k++] = s;
            }
            rounds.add(new Round(locals.toArray(new Runnable[0]), t));
            locals.clear();
            recvs.clear();
            sends.clear();
            return this;
        }

        NbcSchedule build() {
            round();
            return new NbcSchedule(rounds.toArray(new Round[0]));
        }
    }
}
