package org.hympj.shm.fabric;

import org.agrona.UnsafeApi;
import org.hympj.api.Datatype;

/**
 * Copies between a typed layout (a {@link Datatype} over a Java array or mapped memory) and
 * its packed, contiguous image — any byte range of it, so one message can be packed into
 * ring records or streamed in fragments. Memory is named Unsafe-style: a base object (an
 * array, or null for off-heap) and an offset (array offset, or absolute address).
 *
 * <p>Not thread-safe: one per progress engine (it keeps an odometer scratch array so no
 * call allocates).
 */
public final class Packer {
    private long[] idx = new long[8];

    /**
     * Copies bytes {@code [from, from+len)} of the packed image of {@code count} items of
     * {@code type} at (base, addr) into the contiguous (dstBase, dstAddr).
     */
    public void pack(Object base, long addr, Datatype type, int count, long from,
                     Object dstBase, long dstAddr, long len) {
        if (type.isContiguous()) {
            copy(base, addr + from, dstBase, dstAddr, len);
        } else {
            walk(base, addr, type, from, dstBase, dstAddr, len, true);
        }
    }

    /**
     * Copies {@code len} contiguous bytes at (srcBase, srcAddr) into bytes
     * {@code [from, from+len)} of the packed image of the typed layout at (base, addr).
     */
    public void unpack(Object srcBase, long srcAddr, long len, Object base, long addr, Datatype type,
                       int count, long from) {
        if (type.isContiguous()) {
            copy(srcBase, srcAddr, base, addr + from, len);
        } else {
            walk(base, addr, type, from, srcBase, srcAddr, len, false);
        }
    }

    /**
     * Set (to {@code true}) by the launcher when it runs the ranks on C1 alone
     * ({@code -XX:TieredStopAtLevel=1}: {@code --jit c1}, or {@code auto} with more ranks than cores).
     */
    public static final String C1_PROPERTY = "hympj.jit.c1";

    /**
     * Below this many bytes a copy is a loop of primitive moves, not {@code Unsafe.copyMemory}.
     * On C1 copyMemory is a call into the VM of 35–50 ns whatever its length (C2: 4–6 ns up to
     * 128 B) — its argument checks ask {@code Class.isArray}, which C1 does not inline — so the
     * moves (four per iteration) win up to ~768 B there (JMH {@code SmallCopy}, heap to off-heap,
     * C1: moves 12 / 23 / 47 ns at 256 / 512 / 1024 B against copyMemory's 35 / 36 / 39 ns).
     */
    static final long SMALL_COPY = Boolean.getBoolean(C1_PROPERTY) ? 768 : 128;

    /**
     * Plain copy; small sizes by primitive moves the JIT inlines ({@code Unsafe.copyMemory}
     * checks its arguments in Java on every call — a few percent of an 8-rank halo's CPU went to
     * those checks on the j-faces' 128-byte blocks — before its native copy).
     */
    public static void copy(Object srcBase, long src, Object dstBase, long dst, long len) {
        if (len == 8) {
            UnsafeApi.putLong(dstBase, dst, UnsafeApi.getLong(srcBase, src));
        } else if (len >= SMALL_COPY) {
            if (len >= NativeCopy.FROM && dstBase == null && NativeCopy.AVAILABLE) {
                NativeCopy.toOffHeap(srcBase, src, dst, len); // into shared memory: whole lines, no read for ownership
            } else {
                UnsafeApi.copyMemory(srcBase, src, dstBase, dst, len);
            }
        } else if (len > 0) {
            copySmall(srcBase, src, dstBase, dst, len);
        }
    }

    /**
     * {@code len} bytes (below {@link #SMALL_COPY}) by 8-byte moves four at a time, then 8-, 4- and
     * 1-byte moves, front to back. Unrolled by hand because C1, which 8 ranks on 2 cores run,
     * does not unroll: the four loads before the four stores copy a 512-byte block of a halo's
     * j-face in 23 ns under C1, one move per iteration in 36, copyMemory in 35 (JMH {@code SmallCopy}).
     */
    static void copySmall(Object srcBase, long src, Object dstBase, long dst, long len) {
        long i = 0;
        for (; i + 32 <= len; i += 32) {
            long a = UnsafeApi.getLong(srcBase, src + i);
            long b = UnsafeApi.getLong(srcBase, src + i + 8);
            long c = UnsafeApi.getLong(srcBase, src + i + 16);
            long d = UnsafeApi.getLong(srcBase, src + i + 24);
            UnsafeApi.putLong(dstBase, dst + i, a);
            UnsafeApi.putLong(dstBase, dst + i + 8, b);
            UnsafeApi.putLong(dstBase, dst + i + 16, c);
            UnsafeApi.putLong(dstBase, dst + i + 24, d);
        }
        for (; i + 8 <= len; i += 8) {
            UnsafeApi.putLong(dstBase, dst + i, UnsafeApi.getLong(srcBase, src + i));
        }
        if (i + 4 <= len) {
            UnsafeApi.putInt(dstBase, dst + i, UnsafeApi.getInt(srcBase, src + i));
            i += 4;
        }
        for (; i < len; i++) {
            UnsafeApi.putByte(dstBase, dst + i, UnsafeApi.getByte(srcBase, src + i));
        }
    }

    /**
     * Visits the blocks of the typed layout that overlap packed bytes [from, from+len), with
     * an odometer over the dimensions, copying each piece to (packing) or from (unpacking)
     * the contiguous side. Runs of whole blocks along the innermost dimension go through
     * {@link #copyBlocks} (a tight strided loop: the element-strided faces of a halo exchange
     * spent a third of their time in the per-block odometer); partial blocks (a range that
     * starts or ends inside one) one at a time.
     */
    private void walk(Object base, long addr, Datatype type, long from, Object flatBase, long flatAddr,
                      long len, boolean packing) {
        final int e = type.primitive().bytes();
        final long blockBytes = (long) type.blockLength() * e;
        final long itemBytes = type.size();
        final int dims = type.dimensions();
        if (idx.length < dims) {
            idx = new long[dims];
        }
        final long[] ix = idx;
        long item = from / itemBytes;
        long inItem = from % itemBytes;
        long block = inItem / blockBytes;
        long inBlock = inItem % blockBytes;
        // element offset of the current block: item * extent + sum(idx[d] * stride[d])
        long off = item * type.extent();
        for (int d = dims - 1; d >= 0; d--) {
            int c = type.count(d);
            ix[d] = block % c;
            block /= c;
            off += ix[d] * type.stride(d);
        }
        final int last = dims - 1;
        final int innerCount = dims > 0 ? type.count(last) : 1;
        final long innerStride = dims > 0 ? type.stride(last) : 0;
        long remaining = len;
        long flat = flatAddr;
        while (remaining > 0) {
            if (inBlock == 0 && dims > 0 && remaining >= blockBytes) {
                long k = Math.min(innerCount - ix[last], remaining / blockBytes);
                copyBlocks(base, addr + off * e, innerStride * e, flatBase, flat, blockBytes, k, packing);
                long n = k * blockBytes;
                flat += n;
                remaining -= n;
                ix[last] += k;
                off += k * innerStride;
                if (ix[last] == innerCount) {
                    ix[last] = 0;
                    off -= innerCount * innerStride;
                    off += next(ix, type, last - 1);
                }
                continue;
            }
            long n = Math.min(blockBytes - inBlock, remaining);
            long typed = addr + off * e + inBlock;
            if (packing) {
                copy(base, typed, flatBase, flat, n);
            } else {
                copy(flatBase, flat, base, typed, n);
            }
            flat += n;
            remaining -= n;
            inBlock += n;
            if (inBlock == blockBytes) {
                inBlock = 0;
                off += next(ix, type, last);
            }
        }
    }

    /**
     * Moves the odometer to the next block, counting from dimension {@code d} outwards (an
     * exhausted dimension wraps to 0 and carries; when all wrap, the next item); returns the
     * change of the element offset.
     */
    private static long next(long[] ix, Datatype type, int d) {
        long delta = 0;
        while (d >= 0) {
            ix[d]++;
            delta += type.stride(d);
            if (ix[d] < type.count(d)) {
                return delta;
            }
            delta -= (long) type.count(d) * type.stride(d);
            ix[d] = 0;
            d--;
        }
        return delta + type.extent();
    }

    /**
     * Copies {@code k} blocks of {@code blockBytes} spaced {@code strideBytes} apart on the typed
     * side (typedBase, typed) to or from the contiguous side; single elements by primitive moves.
     */
    private static void copyBlocks(Object typedBase, long typed, long strideBytes, Object flatBase, long flat,
                                   long blockBytes, long k, boolean packing) {
        if (blockBytes == 8) {
            // one element per iteration: unrolled by four (loads first or interleaved) it was
            // slower under C1 (JMH FacePack, N = 64 k-face: 4.1-4.5 against 3.8 us)
            if (packing) {
                for (long i = 0; i < k; i++, typed += strideBytes, flat += 8) {
                    UnsafeApi.putLong(flatBase, flat, UnsafeApi.getLong(typedBase, typed));
                }
            } else {
                for (long i = 0; i < k; i++, typed += strideBytes, flat += 8) {
                    UnsafeApi.putLong(typedBase, typed, UnsafeApi.getLong(flatBase, flat));
                }
            }
        } else if (blockBytes == 4) {
            if (packing) {
                for (long i = 0; i < k; i++, typed += strideBytes, flat += 4) {
                    UnsafeApi.putInt(flatBase, flat, UnsafeApi.getInt(typedBase, typed));
                }
            } else {
                for (long i = 0; i < k; i++, typed += strideBytes, flat += 4) {
                    UnsafeApi.putInt(typedBase, typed, UnsafeApi.getInt(flatBase, flat));
                }
            }
        } else if (packing) {
            for (long i = 0; i < k; i++, typed += strideBytes, flat += blockBytes) {
                copy(typedBase, typed, flatBase, flat, blockBytes);
            }
        } else {
            for (long i = 0; i < k; i++, typed += strideBytes, flat += blockBytes) {
                copy(flatBase, flat, typedBase, typed, blockBytes);
            }
        }
    }
}
