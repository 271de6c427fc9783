package org.hympj.perf;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.MappedByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.IoUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * {@code hympj-bench ring-pingpong [--reps R] [sizes...]}: the floor of any two-copy protocol
 * between two JVMs here — an Agrona {@link OneToOneRingBuffer} each way in one file in /dev/shm,
 * the sender copying its {@code byte[]} into the ring, the receiver copying the record out into
 * its own {@code byte[]} (Agrona then zeroes the record), both busy-spinning: nothing of HyMPJ.
 * Timed as {@code ../shared/anchors/pingpong.c} times (same warm-up and iteration counts, 5 batches,
 * the median batch, half the round trip). Prints {@code ring,pingpong-copy2,agrona,SIZE,REP,US,us}.
 * Heap buffers cannot do better than this without a single copy (which needs the peer's heap,
 * not readable from another JVM); segment buffers can, by the receiver's pull.
 */
public final class RingPingPong {
    static final String USAGE = "usage: hympj-bench ring-pingpong [--reps R] [sizes...]"
        + " (two JVMs, an Agrona ring each way, copy in and out: the two-copy floor; default sizes 8 4096 65536)";
    private static final int FLAGS = 64;

    private RingPingPong() {
    }

    static int run(String[] argv, PrintStream out) {
        int reps = 1;
        List<String> sizes = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].equals("--reps") && i + 1 < argv.length) {
                reps = Integer.parseInt(argv[++i]);
            } else if (argv[i].startsWith("-") || !argv[i].matches("\\d+")) {
                System.err.println("hympj-bench ring-pingpong: unknown argument " + argv[i]);
                System.err.println(USAGE);
                return 2;
            } else {
                sizes.add(argv[i]);
            }
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of("8", "4096", "65536"));
        }
        return ChildPair.launches("ring-pingpong", reps, out, rep -> once(sizes, rep));
    }

    /** One launch of both JVMs over every size; rank 0's rows. */
    private static List<String> once(List<String> sizes, int rep) throws IOException, InterruptedException {
        File file = new File("/dev/shm/hympj-ringpp-" + ProcessHandle.current().pid());
        try {
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file, "rw")) {
                f.setLength(fileLength(sizes)); // zero-filled
            }
            List<List<String>> cmds = new ArrayList<>();
            for (int role = 0; role < 2; role++) {
                List<String> cmd = ChildPair.java();
                cmd.addAll(List.of(RingPingPong.class.getName(), Integer.toString(role), file.getPath(), Integer.toString(rep)));
                cmd.addAll(sizes);
                cmds.add(cmd);
            }
            return ChildPair.rows(cmds, "ring,", "ring ping-pong");
        } finally {
            IoUtil.delete(file, true);
        }
    }

    /** A child: {@code ROLE FILE REP SIZES…}. Role 0 pings and prints. */
    public static void main(String[] a) throws IOException {
        int role = Integer.parseInt(a[0]);
        int rep = Integer.parseInt(a[2]);
        List<String> sizes = List.of(a).subList(3, a.length);
        MappedByteBuffer map = IoUtil.mapExistingFile(new File(a[1]), "ring ping-pong", 0, fileLength(sizes));
        try {
            UnsafeBuffer whole = new UnsafeBuffer(map);
            whole.putIntVolatile(4 * role, 1);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (whole.getIntVolatile(4 * (1 - role)) == 0) {
                if (System.nanoTime() > until) {
                    throw new IOException("the other ring ping-pong process did not start within 60 s");
                }
                Thread.onSpinWait();
            }
            int at = FLAGS;
            for (String sz : sizes) {
                // each size its own pair of rings, the smallest that hold its messages
                int size = Integer.parseInt(sz);
                int len = capacity(size) + RingBufferDescriptor.TRAILER_LENGTH;
                OneToOneRingBuffer toOne = new OneToOneRingBuffer(new UnsafeBuffer(whole, at, len));
                OneToOneRingBuffer toZero = new OneToOneRingBuffer(new UnsafeBuffer(whole, at + len, len));
                at += 2 * len;
                Side side = role == 0 ? new Side(toZero, toOne, size) : new Side(toOne, toZero, size);
                double us = side.measure(role, size);
                if (role == 0) {
                    System.out.println(Rows.row("pingpong-copy2", "agrona", size, rep, us, 3, "us")
                        .replaceFirst("^" + Rows.SYSTEM + ",", "ring,"));
                }
            }
        } finally {
            IoUtil.unmap(map);
        }
    }

    /** The flags, then for each size its two rings. */
    private static int fileLength(List<String> sizes) {
        long n = FLAGS;
        for (String size : sizes) {
            n += 2L * (capacity(Integer.parseInt(size)) + RingBufferDescriptor.TRAILER_LENGTH);
        }
        return Math.toIntExact(n);
    }

    /** Ring capacity for messages up to {@code max} bytes: Agrona caps a record at an eighth of it. */
    private static int capacity(int max) {
        return Integer.highestOneBit(Math.max(1 << 16, 8 * (max + 64)) - 1) << 1;
    }

    /** One process's end: its rings and buffers, no allocation while timed. */
    private static final class Side extends EchoSide {
        private final OneToOneRingBuffer in;
        private final OneToOneRingBuffer out;
        private final UnsafeBuffer src;
        private final byte[] dst;
        private long got;
        private final MessageHandler copyOut;

        Side(OneToOneRingBuffer in, OneToOneRingBuffer out, int max) {
            this.in = in;
            this.out = out;
            this.src = new UnsafeBuffer(new byte[Math.max(1, max)]);
            this.dst = new byte[Math.max(1, max)];
            this.copyOut = (int type, MutableDirectBuffer b, int index, int length) -> {
                b.getBytes(index, dst, 0, length);
                got++;
            };
        }

        @Override
        void send(int size) {
            while (!out.write(1, src, 0, size)) {
                Thread.onSpinWait();
            }
        }

        @Override
        void receive() {
            long g = got;
            while (got == g) {
                if (in.read(copyOut, 1) == 0) {
                    Thread.onSpinWait();
                }
            }
        }
    }
}
