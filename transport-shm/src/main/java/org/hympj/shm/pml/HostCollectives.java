package org.hympj.shm.pml;

import java.lang.reflect.Array;
import org.agrona.concurrent.AtomicBuffer;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Op;
import org.hympj.api.Primitive;
import org.hympj.shm.fabric.Packer;
import org.hympj.shm.fabric.ShmFabric;

/**
 * The hierarchical collectives of the world communicator of a job on several hosts: inside
 * each host first, through its shared memory in one wave (every rank of the host writes its slot
 * and folds the host's slots in rank order, as {@link ShmReduce} does for a job on one host), then
 * one rank per host — the host's first, its leader — across the network (the flat algorithms over
 * a communicator of the leaders), then the leader's result back to the host's ranks in one wave.
 * An 8-byte allreduce on 2 hosts of 4 ranks is then one network exchange between two leaders
 * instead of every rank's exchange with a partner on the other host.
 *
 * <p>Slots: three sets, by call number mod 3. A host's wave of call c (reduce, barrier) waits for
 * every rank's stamp c; the leader's release (call c+1) is read by the others without an answer,
 * so before it writes a set again (call c+3) every rank has stamped the wave between (c+2), which
 * it does only after it read the release.
 */
final class HostCollectives {
    /** Bytes of data per slot: the largest allreduce this path takes. */
    static final int DATA = 256;
    static final int SLOT = 64 + DATA;
    static final int SETS = 3;

    private final AtomicBuffer region;
    private final int index;
    private final int count;
    private final Engine engine;
    /** The leaders' communicator (host order = rank order), on leaders only; else null. */
    private final ShmComm leaders;
    private long call;
    private final Object[] scratch = new Object[Primitive.values().length * 2];

    private HostCollectives(AtomicBuffer region, int index, int count, Engine engine, ShmComm leaders) {
        this.region = region;
        this.index = index;
        this.count = count;
        this.engine = engine;
        this.leaders = leaders;
    }

    /** Context ids the leaders' communicator takes (after the world's 0 and 1), reserved on every rank. */
    static final int LEADERS_CONTEXT = 2;

    /** The hierarchy of {@code world} (ctx 0) of a job on several hosts. */
    static HostCollectives of(ShmComm world) {
        ShmFabric f = world.engine.fabric();
        world.engine.reserveContexts(LEADERS_CONTEXT + 2); // every rank, leader or not: later communicators agree
        int[] heads = f.hostLeaders();
        ShmComm leaders = null;
        if (f.localIndex() == 0) {
            leaders = new ShmComm(world.engine, world.segment, LEADERS_CONTEXT, heads, Comm.BarrierAlgorithm.DISSEMINATION,
                ShmComm.TWO_SIDED, world.life);
        }
        return new HostCollectives(f.collSlots(), f.localIndex(), f.localCount(), world.engine, leaders);
    }

    /** Bytes of the slots of a host of {@code ranks} ranks. */
    static long bytes(int ranks) {
        return (long) SETS * ranks * SLOT;
    }

    static boolean fits(long bytes) {
        return bytes <= DATA;
    }

    private int slot(int set, int r) {
        return (set * count + r) * SLOT;
    }

    /** allreduce of {@code n} elements of {@code p}: the host's wave, the leaders' allreduce, the leader's release. */
    void allreduce(Object src, int srcOffset, Object dst, int dstOffset, int n, Primitive p, Op op) {
        Object acc = scratch(p, 0, n);
        reduceHost(src, srcOffset, acc, n, p, op);
        if (leaders != null) {
            Object all = scratch(p, 1, n);
            leaders.coll.allreduceArrays(acc, 0, all, 0, n, Datatype.of(p), op);
            release(all, n, p);
            System.arraycopy(all, 0, dst, dstOffset, n);
        } else {
            awaitRelease(dst, dstOffset, n, p);
        }
    }

    /** barrier: the host's wave, the leaders' barrier, the leader's release. */
    void barrier() {
        wave(null, 0, 0, null);
        if (leaders != null) {
            leaders.coll.barrier(Comm.BarrierAlgorithm.DISSEMINATION);
            release(null, 0, null);
        } else {
            awaitRelease(null, 0, 0, null);
        }
    }

    /** The host's wave: every rank's contribution folded in rank order into {@code acc} (null: a barrier). */
    private void reduceHost(Object src, int srcOffset, Object acc, int n, Primitive p, Op op) {
        wave(src, srcOffset, n, p);
        long c = call;
        int set = (int) (c % SETS);
        int e = p.bytes();
        long base = PrimitiveArrays.base(p);
        Object tmp = scratch(p, 1, n);
        for (int j = 0; j < count; j++) {
            Object into = j == 0 ? acc : tmp;
            Packer.copy(null, region.addressOffset() + slot(set, j) + 64, into, base, (long) n * e);
            if (j > 0) {
                op.apply(acc, 0, tmp, 0, n, p);        // tmp = acc op x_j (rank order)
                System.arraycopy(tmp, 0, acc, 0, n);
            }
        }
    }

    /** Writes this rank's slot of a new call (data, then its stamp with release) and waits for every rank's. */
    private void wave(Object src, int srcOffset, int n, Primitive p) {
        long c = ++call;
        int set = (int) (c % SETS);
        int mine = slot(set, index);
        if (src != null) {
            Packer.copy(src, PrimitiveArrays.base(p) + (long) srcOffset * p.bytes(), null,
                region.addressOffset() + mine + 64, (long) n * p.bytes());
        }
        region.putLongRelease(mine, c);
        engine.resetIdle();
        for (int j = 0; j < count; j++) {
            int s = slot(set, j);
            while (region.getLongVolatile(s) != c) {
                engine.idleStep(engine.progress()); // keeps point-to-point moving and checks for failures
            }
        }
    }

    /** The leader's release of a new call: the result (if any) in its slot, then the stamp. */
    private void release(Object data, int n, Primitive p) {
        long c = ++call;
        int mine = slot((int) (c % SETS), 0);
        if (data != null) {
            Packer.copy(data, PrimitiveArrays.base(p), null, region.addressOffset() + mine + 64,
                (long) n * p.bytes());
        }
        region.putLongRelease(mine, c);
    }

    /** Waits for the leader's release of the next call and copies its result (if any) to {@code dst}. */
    private void awaitRelease(Object dst, int dstOffset, int n, Primitive p) {
        long c = ++call;
        int s = slot((int) (c % SETS), 0);
        engine.resetIdle();
        while (region.getLongVolatile(s) != c) {
            engine.idleStep(engine.progress());
        }
        if (dst != null) {
            Packer.copy(null, region.addressOffset() + s + 64, dst,
                PrimitiveArrays.base(p) + (long) dstOffset * p.bytes(), (long) n * p.bytes());
        }
    }

    private Object scratch(Primitive p, int which, int n) {
        int i = p.ordinal() * 2 + which;
        Object a = scratch[i];
        if (a == null || PrimitiveArrays.length(a) < n) {
            a = Array.newInstance(p.arrayClass().getComponentType(), Math.max(n, DATA / p.bytes()));
            scratch[i] = a;
        }
        return a;
    }
}
