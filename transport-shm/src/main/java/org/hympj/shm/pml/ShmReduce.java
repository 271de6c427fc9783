package org.hympj.shm.pml;

import java.lang.reflect.Array;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.hympj.api.Op;
import org.hympj.api.Primitive;

/**
 * Allreduce of small counts for the world communicator in one wave through shared memory:
 * every rank writes its contribution into its slot (stamped with the call number, written last
 * with release), waits until every slot carries the call number, and folds the slots in rank
 * order — x0 op x1 op … op x(p-1): the same bits on every rank and in every run, non-commutative
 * operations included. Instead of log2(p) dependent exchanges (each one a scheduling round when
 * ranks outnumber cores), a rank needs every other rank to have run once.
 *
 * <p>Two slot sets alternate by call parity: a rank writing call c+1 has seen all slots of call
 * c, so every rank has finished reading call c-1 from the set it overwrites.
 */
final class ShmReduce {
    /** Bytes of data per slot: the largest allreduce this path takes. */
    static final int DATA = 256;
    static final int SLOT = 64 + DATA;

    private final AtomicBuffer region;
    private final int rank;
    private final int size;
    private long call;
    private final Object[] scratch = new Object[Primitive.values().length * 2];

    /** Counts above the slot (predefined operations): in chunks, a share of each folded by each rank. */
    private final ShmChunkedReduce chunked;

    ShmReduce(AtomicBuffer region, int rank, int size) {
        this.region = region;
        this.rank = rank;
        this.size = size;
        int chunk = org.hympj.shm.job.JobDirectory.collChunk(size);
        this.chunked = region.capacity() >= bytes(size) + ShmChunkedReduce.bytes(size, chunk)
            ? new ShmChunkedReduce(region, (int) bytes(size), rank, size, chunk) : null;
    }

    /** True when an allreduce of {@code bytes} with {@code op} goes through shared memory. */
    boolean takes(long bytes, Op op) {
        return fits(bytes) || (chunked != null && ShmChunkedReduce.takes(op));
    }

    static long bytes(int ranks) {
        return 2L * ranks * SLOT;
    }

    static boolean fits(long bytes) {
        return bytes <= DATA;
    }

    private int slot(int set, int r) {
        return (set * size + r) * SLOT;
    }

    /** acc (count elements of p, from src at srcOffset) reduced over all ranks into dst at dstOffset. */
    void allreduce(Object src, int srcOffset, Object dst, int dstOffset, int count, Primitive p, Op op,
                   Engine engine) {
        if (!fits((long) count * p.bytes())) {
            chunked.allreduce(src, srcOffset, dst, dstOffset, count, p, op, engine);
            return;
        }
        long c = ++call;
        int set = (int) (c & 1);
        int e = p.bytes();
        long base = PrimitiveArrays.base(p);
        int mine = slot(set, rank);
        int bytes = count * e;
        copy(src, base + (long) srcOffset * e, null, region.addressOffset() + mine + 64, bytes);
        region.putLongRelease(mine, c);
        Object acc = scratch(p, 0, count);
        Object tmp = scratch(p, 1, count);
        engine.resetIdle();
        for (int j = 0; j < size; j++) {
            int s = slot(set, j);
            while (region.getLongVolatile(s) != c) {
                engine.idleStep(engine.progress()); // keeps point-to-point moving and checks for failures
            }
            copy(null, region.addressOffset() + s + 64, j == 0 ? acc : tmp, base, bytes);
            if (j > 0) {
                op.apply(acc, 0, tmp, 0, count, p);        // tmp = acc op x_j (rank order)
                Object t = acc;                              // the running result is now in tmp
                acc = tmp;
                tmp = t;
            }
        }
        System.arraycopy(acc, 0, dst, dstOffset, count);
    }

    /**
     * A barrier in the same wave: stamp this rank's slot, wait until every slot carries the
     * stamp. It shares the call numbers (and so the alternating slot sets) with allreduce: both
     * are collectives of the world communicator, which every rank calls in the same order.
     */
    void barrier(Engine engine) {
        long c = ++call;
        int set = (int) (c & 1);
        region.putLongRelease(slot(set, rank), c);
        engine.resetIdle();
        for (int j = 0; j < size; j++) {
            int s = slot(set, j);
            while (region.getLongVolatile(s) != c) {
                engine.idleStep(engine.progress()); // keeps point-to-point moving and checks for failures
            }
        }
    }

    /**
     * Copies at most {@link #DATA} bytes with plain 8- and 1-byte moves: on C1 (oversubscribed
     * ranks) {@code Unsafe.copyMemory} is a call into the VM, which 9 copies per 8-rank allreduce
     * felt.
     */
    private static void copy(Object src, long srcOff, Object dst, long dstOff, int bytes) {
        int i = 0;
        for (; i + 8 <= bytes; i += 8) {
            UnsafeApi.putLong(dst, dstOff + i, UnsafeApi.getLong(src, srcOff + i));
        }
        for (; i < bytes; i++) {
            UnsafeApi.putByte(dst, dstOff + i, UnsafeApi.getByte(src, srcOff + i));
        }
    }

    private Object scratch(Primitive p, int which, int count) {
        int i = p.ordinal() * 2 + which;
        Object a = scratch[i];
        if (a == null || PrimitiveArrays.length(a) < count) {
            a = Array.newInstance(p.arrayClass().getComponentType(), Math.max(count, DATA / p.bytes()));
            scratch[i] = a;
        }
        return a;
    }
}
