package org.hympj.perf.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where the CPU time of an 8-byte message goes, step by step, in one thread (issue 18): the
 * rank sends to itself, so every step of a one-way trip runs — argument checks, route, the
 * ring write with its header and payload, the poll of the inbound rings, matching, the copy
 * out, completion and the wait's bookkeeping — but the cache-line transfers between two
 * cores (≈34 ns each, anchors/README.md) and the scheduling do not. The differences between
 * the benchmarks attribute the time:
 * <ul>
 * <li>{@code ring}: Agrona's ring alone, claim + 8-byte payload + commit, then read: the floor;</li>
 * <li>{@code sendRecvSelf}: blocking send then blocking recv through the API (receive posted second: unexpected path);</li>
 * <li>{@code irecvFirstSelf}: irecv posted first, then send, then wait (the posted-receive match);</li>
 * <li>{@code persistentSelf}: Startall of a persistent receive and send, then Waitall;</li>
 * <li>{@code iprobeEmpty}: one progress pass with nothing to read (the poll of every ring).</li>
 * </ul>
 *
 * <pre>
 * mvn -B -q -pl perf -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java -cp perf/target/test-classes:perf/target/classes:$(cat perf/target/bench.cp) org.openjdk.jmh.Main OneWayBreakdown
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED"})
public class OneWayBreakdown {
    private OneToOneRingBuffer ring;
    private long sink;
    /** Payload bytes of every message (a multiple of 8: the messages are doubles). */
    @Param({"8", "4096"})
    public int bytes;
    private byte[] ringIn;
    private byte[] ringOut;
    private final MessageHandler drain = (int type, MutableDirectBuffer b, int index, int length) -> {
        b.getBytes(index + 24, ringOut, 0, length - 24);   // the copy out, as a receive does
        sink += ringOut[0];
    };

    private Mpj mpj;
    private Comm world;
    private double[] out;
    private double[] in;
    private PersistentRequest psend;
    private PersistentRequest precv;
    private PersistentRequest[] pset;

    @Setup(Level.Trial)
    public void setup() {
        out = new double[bytes / 8];
        out[0] = 1.0;
        in = new double[bytes / 8];
        ringIn = new byte[bytes];
        ringOut = new byte[bytes];
        ring = new OneToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect((256 << 10)
            + RingBufferDescriptor.TRAILER_LENGTH)));
        mpj = Mpj.init(new String[0]);   // a job of one rank of its own, in /dev/shm, removed at close
        world = mpj.world();
        precv = world.recvInit(in, 0, in.length, Datatype.DOUBLE, 0, 7);
        psend = world.sendInit(out, 0, out.length, Datatype.DOUBLE, 0, 7);
        pset = new PersistentRequest[] {precv, psend};
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        precv.free();
        psend.free();
        mpj.close();
    }

    @Benchmark
    public long ring() {
        int idx = ring.tryClaim(1, 24 + bytes);
        UnsafeBuffer b = (UnsafeBuffer) ring.buffer();
        b.putLong(idx, 0L);
        b.putLong(idx + 8, 7L);
        b.putLong(idx + 16, 1L);
        b.putBytes(idx + 24, ringIn, 0, bytes);
        ring.commit(idx);
        ring.read(drain); // no limit: a padding record at the wrap must not use up the read
        return sink;
    }

    @Benchmark
    public double sendRecvSelf() {
        world.send(out, 0, out.length, Datatype.DOUBLE, 0, 3);
        world.recv(in, 0, in.length, Datatype.DOUBLE, 0, 3, null);
        return in[0];
    }

    @Benchmark
    public double irecvFirstSelf() {
        Request r = world.irecv(in, 0, in.length, Datatype.DOUBLE, 0, 4);
        world.send(out, 0, out.length, Datatype.DOUBLE, 0, 4);
        r.waitFor();
        return in[0];
    }

    @Benchmark
    public double persistentSelf() {
        Request.startAll(pset);
        Request.waitAll(pset);
        return in[0];
    }

    @Benchmark
    public Object iprobeEmpty() {
        return world.iprobe(0, 99);
    }
}
