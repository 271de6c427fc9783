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

    /**
     * Where the block and the packed face live: {@code heap} (Java arrays), {@code shm} (both in a mapped
     * file in /dev/shm, as a segment buffer packed into a ring record), or {@code heap-shm} (the block an
     * array, the face in the mapped file: a heap field packed into a ring record, as halo3d from arrays).
     */
    @Param({"heap", "shm", "heap-shm"})
    public String memory;

    private final Packer packer = new Packer();
    private double[] block;
    private double[] flat;
    /** The block and face as {@link Packer} addresses them: an array and its base offset, or null and an address. */
    private Object blockBase;
    private long blockAddr;
    private Object flatBase;
    private long flatAddr;
    private java.nio.MappedByteBuffer mapped;
    private java.nio.file.Path file;
    private Datatype jFace;
    private Datatype kFace;

    @Setup
    public void setUp() {
        block = new double[n * n * n];
        for (int i = 0; i < block.length; i++) {
            block[i] = i;
        }
        flat = new double[n * n];
        if (!memory.equals("heap")) {
            long bytes = 8L * block.length + 8L * flat.length;
            try {
                file = java.nio.file.Files.createTempFile(java.nio.file.Path.of("/dev/shm"), "hympj-facepack-", ".seg");
                try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                        java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
                    mapped = ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, bytes);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            long mappedAddr = org.agrona.BufferUtil.address(mapped);
            flatBase = null;
            flatAddr = mappedAddr + 8L * block.length;
            if (memory.equals("shm")) {
                blockBase = null;
                blockAddr = mappedAddr;
                for (int i = 0; i < block.length; i++) {
                    UnsafeApi.putDouble(blockAddr + 8L * i, i);
                }
            } else {
                blockBase = block;
                blockAddr = DOUBLE_BASE;
            }
        } else {
            blockBase = block;
            blockAddr = DOUBLE_BASE;
            flatBase = flat;
            flatAddr = DOUBLE_BASE;
        }
        jFace = Datatype.DOUBLE.vector(n, n, n * n);
        kFace = Datatype.DOUBLE.vector(n * n, 1, n);
    }

    @Benchmark
    public double packBlockStride() {
        packer.pack(blockBase, blockAddr, jFace, 1, 0, flatBase, flatAddr, 8L * n * n);
        return UnsafeApi.getDouble(flatBase, flatAddr + 8L * n);
    }

    /** The i-face: N*N contiguous doubles, as the eager send copies a contiguous face. */
    @Benchmark
    public double copyContiguous() {
        packer.copy(blockBase, blockAddr + 8L * (n - 1) * n * n, flatBase, flatAddr, 8L * n * n);
        return UnsafeApi.getDouble(flatBase, flatAddr + 8L * n);
    }

    @Benchmark
    public double packElementStride() {
        packer.pack(blockBase, blockAddr, kFace, 1, 0, flatBase, flatAddr, 8L * n * n);
        return UnsafeApi.getDouble(flatBase, flatAddr + 8L * n);
    }

    @Benchmark
    public double unpackElementStride() {
        packer.unpack(flatBase, flatAddr, 8L * n * n, blockBase, blockAddr, kFace, 1, 0);
        return UnsafeApi.getDouble(blockBase, blockAddr + 8L * n);
    }

    @org.openjdk.jmh.annotations.TearDown
    public void tearDown() throws java.io.IOException {
        if (file != null) {
            java.nio.file.Files.deleteIfExists(file);
        }
    }
}
