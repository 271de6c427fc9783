package org.hympj.perf.bench;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.agrona.IoUtil;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * What reading on after a message costs: an 8-byte ping-pong between two processes over two
 * bare Agrona rings in /dev/shm (no HyMPJ code), the waiting side reading with a message limit
 * of 1 (it stops after the message it waited for, as {@code Inbound} now does after a packet
 * that completed a request) or of 64 (it first looks at the next record's header, a line the
 * sender wrote last). Rounds alternate the two limits in one pair of processes.
 *
 * <pre>
 * mvn -B -q -pl perf test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp perf/target/test-classes:$(cat perf/target/bench.cp) \
 *     org.hympj.perf.bench.RingReadLimit [iterations]
 * </pre>
 *
 * Prints {@code limit,round,half round trip in µs}; the second process is started and ended by
 * the first, and the ring file is removed at the end.
 */
public final class RingReadLimit {
    private static final int CAPACITY = 256 * 1024;
    private static final int ROUNDS = 10;
    private static long sink;

    private RingReadLimit() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("--peer")) {
            run(1, new File(args[1]), Integer.parseInt(args[2]));
            return;
        }
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        File file = new File("/dev/shm/hympj-ringreadlimit-" + ProcessHandle.current().pid());
        int length = CAPACITY + RingBufferDescriptor.TRAILER_LENGTH;
        IoUtil.createEmptyFile(file, 2L * length, true);
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()); // Agrona's exports
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(RingReadLimit.class.getName());
        cmd.add("--peer");
        cmd.add(file.getPath());
        cmd.add(Integer.toString(iterations));
        Process peer = new ProcessBuilder(cmd).inheritIO().start();
        try {
            run(0, file, iterations);
            if (!peer.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the peer process did not end");
            }
        } finally {
            peer.destroyForcibly();
            IoUtil.delete(file, true);
        }
    }

    private static void run(int me, File file, int iterations) {
        int length = CAPACITY + RingBufferDescriptor.TRAILER_LENGTH;
        MappedByteBuffer map = IoUtil.mapExistingFile(file, "ring-read-limit");
        try {
            OneToOneRingBuffer to = new OneToOneRingBuffer(new UnsafeBuffer(map, (1 - me) * length, length));
            OneToOneRingBuffer from = new OneToOneRingBuffer(new UnsafeBuffer(map, me * length, length));
            MessageHandler handler = (type, buffer, index, len) -> sink += buffer.getLong(index);
            for (int round = 0; round < ROUNDS; round++) {
                int limit = round % 2 == 0 ? 1 : 64;
                long t0 = System.nanoTime();
                for (int i = 0; i < iterations; i++) {
                    if (me == 0) {
                        send(to, i);
                        while (from.read(handler, limit) == 0) {
                            Thread.onSpinWait();
                        }
                    } else {
                        while (from.read(handler, limit) == 0) {
                            Thread.onSpinWait();
                        }
                        send(to, i);
                    }
                }
                if (me == 0) {
                    System.out.printf(Locale.ROOT, "%d,%d,%.3f%n", limit, round, (System.nanoTime() - t0) / 1e3 / iterations / 2);
                }
            }
        } finally {
            IoUtil.unmap(map);
        }
    }

    private static void send(OneToOneRingBuffer ring, long value) {
        int index;
        while ((index = ring.tryClaim(1, 8)) < 0) {
            Thread.onSpinWait();
        }
        ring.buffer().putLong(index, value);
        ring.commit(index);
    }
}
