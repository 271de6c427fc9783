package org.hympj.shm.trace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The {@code --trace} journal of one rank: a Chronicle Queue (one directory per rank) to
 * which every {@link Tracer} event is appended as a compact binary record. Chronicle writes
 * into a memory-mapped file as it goes, so whatever was appended before a crash (even a
 * SIGKILL) is in the file; a record being written at that instant is left incomplete and
 * readers stop before it.
 *
 * <p>Allocation-free per event: the appender's document context and wire are reused, fields
 * are written straight into the mapped bytes; the {@code info} strings (constants, or the
 * model's protocol names) are written once each as a dictionary record and referred to by
 * number afterwards. Like the engine that calls it, an instance is used by one thread.
 *
 * <p>Records (the first byte says which; integers stop-bit encoded unless said otherwise):
 * <pre>
 * HEADER (65): int32 version, rank, size, pid, 8-bit jobId, 8-bit model, int64 epochNanos,
 *              float64 dilation, enginesPerRank, ibHcaBase+1, subcluster, int64 openedNanos, openedMillis
 * STRING (64): id, 8-bit text
 * EVENT  (kind 1..9): int64 System.nanoTime, rank, peer+1, tag, bytes, channel+1, engine+1, link+1,
 *              modelledStart, modelledEnd, info id (0 = null)
 * </pre>
 * Opening a queue costs about half a second (more on a loaded machine): ranks open their
 * journal at init only when the job is traced.
 */
public final class ChronicleTracer implements Tracer {
    /** Version of the record layout. */
    public static final int VERSION = 1;
    static final byte REC_STRING = 64;
    static final byte REC_HEADER = 65;
    /** Mapped chunk of the queue file (Chronicle's default is 64 MiB plus overlap; a trace needs far less). */
    static final long BLOCK_SIZE = 4L << 20;

    static {
        // Chronicle logs INFO lines (mappings, disk space polls) through SLF4J; a rank's output
        // is the user's: keep them to warnings unless the user asked otherwise
        String key = "org.slf4j.simpleLogger.log.net.openhft";
        if (System.getProperty(key) == null) {
            System.setProperty(key, "warn");
        }
    }

    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private final int rank;
    private final HashMap<String, Integer> ids = new HashMap<>();
    private boolean closed;

    private final Path dir;

    private ChronicleTracer(SingleChronicleQueue queue, int rank, Path dir) {
        this.dir = dir;
        this.queue = queue;
        this.appender = queue.createAppender();
        this.rank = rank;
    }

    /**
     * Opens (creating it if missing) the journal in {@code dir} and writes its header. The
     * caller holds the result as a {@link Tracer}, so code that never traces never loads
     * Chronicle's classes.
     */
    public static Tracer open(Path dir, int rank, int size, String jobId, String model, long epochNanos,
                              double dilation, int enginesPerRank, int ibHcaBase, int subcluster) {
        try {
            TraceDirectory.createRankDir(dir);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw new java.io.UncheckedIOException("cannot create trace directory " + dir + ": it already exists"
                + (Files.isSymbolicLink(dir) ? " as a symbolic link (not followed)" : "")
                + "; the launcher empties the trace directory before a job starts", e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create trace directory " + dir + ": " + e.getMessage(), e);
        }
        SingleChronicleQueue q = queue(dir, false);
        ChronicleTracer t;
        try {
            t = new ChronicleTracer(q, rank, dir);
        } catch (RuntimeException e) {
            q.close();
            throw e;
        }
        try (DocumentContext dc = t.appender.writingDocument()) {
            Bytes<?> b = dc.wire().bytes();
            b.writeByte(REC_HEADER);
            b.writeInt(VERSION);
            b.writeStopBit(rank);
            b.writeStopBit(size);
            b.writeStopBit(ProcessHandle.current().pid());
            b.write8bit(jobId);
            b.write8bit(model);
            b.writeLong(epochNanos);
            b.writeDouble(dilation);
            b.writeStopBit(enginesPerRank);
            b.writeStopBit(ibHcaBase + 1L);
            b.writeStopBit(subcluster);
            b.writeLong(System.nanoTime());
            b.writeLong(System.currentTimeMillis());
        }
        return t;
    }

    /** The queue of one rank's journal (also used by {@link TraceJournal} to read it). */
    static SingleChronicleQueue queue(Path dir, boolean readOnly) {
        return SingleChronicleQueueBuilder.binary(dir)
            .rollCycle(RollCycles.FAST_HOURLY)
            .blockSize(BLOCK_SIZE)
            .readOnly(readOnly)
            .build();
    }

    /** Where event times come from: the real clock, or a rank's virtual clock (then epoch 0, dilation 1). */
    private java.util.function.LongSupplier clock = System::nanoTime;

    @Override
    public void clock(java.util.function.LongSupplier c) {
        this.clock = c;
    }

    @Override
    public boolean enabled() {
        return !closed;
    }

    @Override
    public void event(int kind, int peer, int tag, long bytes, int channel, int engine, int link, long modelledStart,
                      long modelledEnd, String info) {
        if (closed) {
            return;
        }
        int id = info == null ? 0 : idOf(info);
        long now = clock.getAsLong();
        try (DocumentContext dc = appender.writingDocument()) {
            Bytes<?> b = dc.wire().bytes();
            b.writeByte((byte) kind);
            b.writeLong(now);
            b.writeStopBit(rank);
            b.writeStopBit(peer + 1L);
            b.writeStopBit(tag);
            b.writeStopBit(bytes);
            b.writeStopBit(channel + 1L);
            b.writeStopBit(engine + 1L);
            b.writeStopBit(link + 1L);
            b.writeStopBit(modelledStart);
            b.writeStopBit(modelledEnd);
            b.writeStopBit(id);
        }
    }

    /** The dictionary number of {@code s}, writing its definition the first time. */
    private int idOf(String s) {
        Integer known = ids.get(s);
        if (known != null) {
            return known;
        }
        int id = ids.size() + 1;
        ids.put(s, id);
        try (DocumentContext dc = appender.writingDocument()) {
            Bytes<?> b = dc.wire().bytes();
            b.writeByte(REC_STRING);
            b.writeStopBit(id);
            b.write8bit(s);
        }
        return id;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            appender.close();
        } finally {
            queue.close();
            TraceDirectory.restrictFiles(dir);
        }
    }
}
