package org.hympj.perf.bench;

import java.util.concurrent.TimeUnit;
import org.agrona.UnsafeApi;
import org.hympj.api.Datatype;
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
 * Packing and unpacking one face of the halo3d benchmark (issue 18): an N³ block of doubles,
 * the j-face {@code vector(N, N, N*N)} (block-strided) and the k-face {@code vector(N*N, 1, N)}
 * (element-strided), whole, as an eager send packs it into its ring record. ns per face.
 *
 * <pre>
 * mvn -B -q -pl perf -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java -cp perf/target/test-classes:perf/target/classes:$(cat perf/target/bench.cp) org.openjdk.jmh.Main FacePack
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"})
public class FacePack {
    private static final long DOUBLE_BASE = UnsafeApi.arrayBaseOffset(double[].class);

    @Param({"16", "64"})
    public int n;

    private final Packer packer = new Packer();
    private double[] block;
    private double[] flat;
    private Datatype jFace;
    private Datatype kFace;

    @Setup
    public void setUp() {
        block = new double[n * n * n];
        for (int i = 0; i < block.length; i++) {
            block[i] = i;
        }
        flat = new double[n * n];
        jFace = Datatype.DOUBLE.vector(n, n, n * n);
        kFace = Datatype.DOUBLE.vector(n * n, 1, n);
    }

    @Benchmark
    public double packBlockStride() {
        packer.pack(block, DOUBLE_BASE, jFace, 1, 0, flat, DOUBLE_BASE, 8L * n * n);
        return flat[n];
    }

    @Benchmark
    public double packElementStride() {
        packer.pack(block, DOUBLE_BASE, kFace, 1, 0, flat, DOUBLE_BASE, 8L * n * n);
        return flat[n];
    }

    @Benchmark
    public double unpackElementStride() {
        packer.unpack(flat, DOUBLE_BASE, 8L * n * n, block, DOUBLE_BASE, kFace, 1, 0);
        return block[n];
    }
}
