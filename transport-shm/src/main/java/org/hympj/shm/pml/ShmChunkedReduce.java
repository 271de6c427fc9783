package org.hympj.shm.pml;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.hympj.api.Op;
import org.hympj.api.Primitive;

/**
 * Allreduce of counts above {@link ShmReduce}'s slot, for the world communicator, through
 * shared memory in chunks (as Open MPI's {@code coll/sm} does): per chunk every rank copies its
 * contribution into its slot and stamps it; each rank then folds one share of the chunk over
 * every slot, in rank order, into the result area and stamps that; every rank copies the whole
 * result out. Each rank reads its share of every slot instead of every slot entirely, and the
 * ranks meet in two waves per chunk instead of log2(p) rounds of messages. The fold order is
 * x0 op x1 op … op x(p-1) whichever rank folds a share, so the bits are those of the one-wave
 * path and the same on every rank and in every run.
 *
 * <p>Only the predefined operations take this path: it splits the vector into shares, and a
 * user function may rely on seeing whole groups of elements.
 *
 * <p>Reuse without a third wave: a rank writes its slot for the next chunk only after it saw
 * every rank's fold stamp of this one (so nobody still reads the slots), and a rank folds into
 * the result area only after every rank stamped its next contribution, which each does after it
 * copied the result out.
 *
 * <pre>
 * region, from its offset: stamps (contribution, fold) of rank r on their own 64-byte lines,
 * 2 * size * 64 bytes; then one chunk per rank; then the result chunk
 * </pre>
 */
final class ShmChunkedReduce {
    private static final int LINE = 64;

    private final AtomicBuffer region;
    private final int base;
    private final int rank;
    private final int size;
    private final int chunk;
    private long call;
    /** The running fold and the next slot's share, one array per primitive each (Collectives.scratch). */
    private final Object[] acc = new Object[Primitive.values().length];
    private final Object[] next = new Object[Primitive.values().length];

    /** The region's bytes from {@code base} on: see {@link #bytes}. */
    ShmChunkedReduce(AtomicBuffer region, int base, int rank, int size, int chunk) {
        if (chunk % LINE != 0) {
            throw new IllegalArgumentException("chunk must be a multiple of " + LINE + ", was " + chunk);
        }
        this.region = region;
        this.base = base;
        this.rank = rank;
        this.size = size;
        this.chunk = chunk;
    }

    /** Bytes this path needs for {@code ranks} ranks and chunks of {@code chunk} bytes. */
    static long bytes(int ranks, int chunk) {
        return 2L * ranks * LINE + (ranks + 1L) * chunk;
    }

    static boolean takes(Op op) {
        return op.isPredefined();
    }

    private int stamp(int kind, int r) {
        return base + (kind * size + r) * LINE;
    }

    private long slot(int r) {
        return region.addressOffset() + base + 2L * size * LINE + (long) r * chunk;
    }

    private long result() {
        return slot(size);
    }

    void allreduce(Object src, int srcOffset, Object dst, int dstOffset, int count, Primitive p, Op op, Engine engine) {
        int e = p.bytes();
        long arrayBase = PrimitiveArrays.base(p);
        int perChunk = chunk / e;
        int align = LINE / e; // shares start on cache lines: no two ranks write one line of the result
        engine.resetIdle();
        for (int done = 0; done < count; done += perChunk) {
            int n = Math.min(perChunk, count - done);
            long c = ++call;
            UnsafeApi.copyMemory(src, arrayBase + (long) (srcOffset + done) * e, null, slot(rank), (long) n * e);
            region.putLongRelease(stamp(0, rank), c);
            awaitAll(0, c, engine);
            int lo = share(n, rank, align);
            int hi = share(n, rank + 1, align);
            if (hi > lo) {
                fold(p, op, lo, hi - lo, arrayBase, e);
            }
            region.putLongRelease(stamp(1, rank), c);
            awaitAll(1, c, engine);
            UnsafeApi.copyMemory(null, result(), dst, arrayBase + (long) (dstOffset + done) * e, (long) n * e);
        }
    }

    /** Where rank r's share of n elements starts (shares on multiples of {@code align}; the last ends at n). */
    private int share(int n, int r, int align) {
        if (r >= size) {
            return n;
        }
        long at = (long) n * r / size;
        return (int) Math.min(n, (at + align - 1) / align * align);
    }

    private void awaitAll(int kind, long c, Engine engine) {
        for (int j = 0; j < size; j++) {
            int s = stamp(kind, j);
            while (region.getLongVolatile(s) != c) {
                engine.idleStep(engine.progress()); // keeps point-to-point moving and checks for failures
            }
        }
    }

    /** result[lo, lo+len) = slot0 op slot1 op … in rank order. */
    private void fold(Primitive p, Op op, int lo, int len, long arrayBase, int e) {
        Object acc = Collectives.scratch(this.acc, p, len);
        Object next = Collectives.scratch(this.next, p, len);
        long from = (long) lo * e;
        UnsafeApi.copyMemory(null, slot(0) + from, acc, arrayBase, (long) len * e);
        for (int j = 1; j < size; j++) {
            UnsafeApi.copyMemory(null, slot(j) + from, next, arrayBase, (long) len * e);
            op.apply(acc, 0, next, 0, len, p); // next = acc op x_j
            Object t = acc;
            acc = next;
            next = t;
        }
        UnsafeApi.copyMemory(acc, arrayBase, null, result() + from, (long) len * e);
    }
}
