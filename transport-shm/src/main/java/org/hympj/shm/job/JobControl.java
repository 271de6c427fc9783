package org.hympj.shm.job;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The job's control file (job.ctl), mapped by the launcher and by every rank: one header
 * with the abort flag, and a 64-byte slot per rank with its pid, state and heartbeat.
 *
 * <p>Concurrency: each rank writes only its own slot; only the launcher (or a rank that
 * detects a dead peer itself) raises the abort flag, with a CAS so the first failure wins.
 * Plain {@link VarHandle} volatile access on a mapped buffer: no Agrona needed here, so the
 * launcher JVM needs no extra flags.
 */
public final class JobControl implements AutoCloseable {
    public static final int STATE_NEW = 0;
    public static final int STATE_RUNNING = 1;
    public static final int STATE_FINALIZED = 2;
    public static final int STATE_FAILED = 3;
    /** {@link #failedCode()} of a rank that exited 0 without finalizing. */
    public static final int CODE_NOT_FINALIZED = -2;
    /** {@link #failedCode()} when a rank's watchdog found the launcher gone ({@link #failedRank()} is that rank). */
    public static final int CODE_LAUNCHER_GONE = -3;
    /** {@link #failedCode()} when a rank's network connection from a rank of another host was lost before its goodbye. */
    public static final int CODE_CONNECTION_LOST = -4;

    private static final int MAGIC = 0x48594d50; // "HYMP"
    private static final int HDR_MAGIC = 0;
    private static final int HDR_SIZE = 4;
    private static final int HDR_ABORT = 8;          // 0 = running, 1 = aborted
    private static final int HDR_FAILED_RANK = 12;
    private static final int HDR_FAILED_CODE = 16;
    private static final int SLOT_BASE = 64;
    private static final int SLOT = 64;
    private static final int SLOT_PID = 0;
    private static final int SLOT_STATE = 8;
    private static final int SLOT_HEARTBEAT = 16;
    /** The rank's process start time (ms since the epoch, 0 = unknown): with the pid, who it is. */
    private static final int SLOT_START = 24;

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final MappedByteBuffer buf;
    private final int size;
    private final Path file;

    private JobControl(MappedByteBuffer buf, int size, Path file) {
        this.buf = buf;
        this.size = size;
        this.file = file;
    }

    /** The job directory this control file is in. */
    public Path directory() {
        return file.toAbsolutePath().getParent();
    }

    public static long fileSize(int ranks) {
        return SLOT_BASE + (long) SLOT * ranks;
    }

    static JobControl create(Path file, int ranks) throws IOException {
        JobControl c = map(file, ranks);
        INT.setVolatile(c.buf, HDR_SIZE, ranks);
        INT.setVolatile(c.buf, HDR_FAILED_RANK, -1);
        INT.setVolatile(c.buf, HDR_MAGIC, MAGIC);
        return c;
    }

    static JobControl open(Path file, int ranks) throws IOException {
        JobControl c = map(file, ranks);
        int magic = (int) INT.getVolatile(c.buf, HDR_MAGIC);
        if (magic != MAGIC) {
            throw new IOException("not a HyMPJ control file (bad magic): " + file);
        }
        return c;
    }

    private static JobControl map(Path file, int ranks) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileSize(ranks));
            return new JobControl(b, ranks, file);
        }
    }

    public int size() {
        return size;
    }

    private int slot(int rank) {
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " out of range 0.." + (size - 1));
        }
        return SLOT_BASE + SLOT * rank;
    }

    public void register(int rank, long pid) {
        long start = ProcessHandle.of(pid).map(JobConfig::startMillis).orElse(0L);
        LONG.setVolatile(buf, slot(rank) + SLOT_START, start);
        LONG.setVolatile(buf, slot(rank) + SLOT_PID, pid);
        setState(rank, STATE_RUNNING);
        heartbeat(rank, System.nanoTime());
    }

    public long pid(int rank) {
        return (long) LONG.getVolatile(buf, slot(rank) + SLOT_PID);
    }

    /** The start time (ms since the epoch) of the process that registered as {@code rank}, 0 if unknown. */
    public long startMillis(int rank) {
        return (long) LONG.getVolatile(buf, slot(rank) + SLOT_START);
    }

    /**
     * True while the process that registered as {@code rank} runs: same pid and, when known,
     * same start time (a reused pid is another process). False for a rank that never registered.
     */
    public boolean rankAlive(int rank) {
        long pid = pid(rank);
        if (pid == 0) {
            return false;
        }
        long start = startMillis(rank);
        return ProcessHandle.of(pid)
            .filter(ProcessHandle::isAlive)
            .filter(h -> start == 0 || JobConfig.startMillis(h) == start)
            .isPresent();
    }

    /** The ranks whose process is still running, in order. */
    public java.util.List<Integer> liveRanks() {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (rankAlive(r)) {
                out.add(r);
            }
        }
        return out;
    }

    public void setState(int rank, int state) {
        INT.setVolatile(buf, slot(rank) + SLOT_STATE, state);
    }

    public int state(int rank) {
        return (int) INT.getVolatile(buf, slot(rank) + SLOT_STATE);
    }

    public void heartbeat(int rank, long nanos) {
        LONG.setOpaque(buf, slot(rank) + SLOT_HEARTBEAT, nanos);
    }

    public long lastHeartbeat(int rank) {
        return (long) LONG.getVolatile(buf, slot(rank) + SLOT_HEARTBEAT);
    }

    /** True once the job has been aborted. Cheap: one volatile read of a mapped int. */
    public boolean aborted() {
        return (int) INT.getVolatile(buf, HDR_ABORT) != 0;
    }

    /**
     * Raises the abort flag naming the failed rank; the first caller wins.
     *
     * @return true if this call raised it
     */
    public boolean abort(int failedRank, int exitCode) {
        if (!INT.compareAndSet(buf, HDR_ABORT, 0, 2)) {
            return false;
        }
        INT.setVolatile(buf, HDR_FAILED_RANK, failedRank);
        INT.setVolatile(buf, HDR_FAILED_CODE, exitCode);
        INT.setVolatile(buf, HDR_ABORT, 1);
        return true;
    }

    /** The failed rank once {@link #aborted()}, -1 if the job was aborted for another reason. */
    public int failedRank() {
        while ((int) INT.getVolatile(buf, HDR_ABORT) == 2) {
            Thread.onSpinWait(); // the raiser is between its CAS and its writes
        }
        return (int) INT.getVolatile(buf, HDR_FAILED_RANK);
    }

    public int failedCode() {
        failedRank();
        return (int) INT.getVolatile(buf, HDR_FAILED_CODE);
    }

    @Override
    public void close() {
        // a MappedByteBuffer is unmapped by the GC; nothing else holds resources
    }
}
