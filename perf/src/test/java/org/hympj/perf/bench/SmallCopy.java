package org.hympj.perf.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.BufferUtil;
import org.hympj.shm.fabric.Packer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where {@link Packer#copy} should switch from primitive moves to {@code Unsafe.copyMemory}
 * (a heap array into shared memory, as packing a halo face's blocks does), under C2 and under
 * C1 alone — 8 ranks on 2 cores run C1 ({@code mpjrun --jit auto}), where copyMemory is a call
 * into the VM:
 * <pre>
 * java -cp … org.openjdk.jmh.Main SmallCopy                                   # C2
 * java -cp … org.openjdk.jmh.Main SmallCopy -jvmArgsAppend -XX:TieredStopAtLevel=1   # C1
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"})
public class SmallCopy {
    @Param({"64", "128", "256", "512", "1024", "2048"})
    public int bytes;
    private final double[] src = new double[512];
    private long dst;
    private static final long BASE = org.agrona.UnsafeApi.arrayBaseOffset(double[].class);

    @Setup
    public void setup() {
        dst = BufferUtil.address(ByteBuffer.allocateDirect(8192));
    }

    @Benchmark
    public void moves() {
        for (long i = 0; i < bytes; i += 8) {
            org.agrona.UnsafeApi.putLong(null, dst + i, org.agrona.UnsafeApi.getLong(src, BASE + i));
        }
    }

    /** As {@code Packer.copySmall}: four 8-byte loads, then four stores (C1 does not unroll). */
    @Benchmark
    public void moves4() {
        long i = 0;
        for (; i + 32 <= bytes; i += 32) {
            long a = org.agrona.UnsafeApi.getLong(src, BASE + i);
            long b = org.agrona.UnsafeApi.getLong(src, BASE + i + 8);
            long c = org.agrona.UnsafeApi.getLong(src, BASE + i + 16);
            long d = org.agrona.UnsafeApi.getLong(src, BASE + i + 24);
            org.agrona.UnsafeApi.putLong(null, dst + i, a);
            org.agrona.UnsafeApi.putLong(null, dst + i + 8, b);
            org.agrona.UnsafeApi.putLong(null, dst + i + 16, c);
            org.agrona.UnsafeApi.putLong(null, dst + i + 24, d);
        }
    }

    @Benchmark
    public void copyMemory() {
        org.agrona.UnsafeApi.copyMemory(src, BASE, null, dst, bytes);
    }
}
