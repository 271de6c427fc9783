package org.hympj.shm.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads the journals of a traced job: {@code DIR/rank-<r>/}, one Chronicle Queue per rank,
 * as written by {@link ChronicleTracer}.
 */
public final class TraceJournal {
    private TraceJournal() {
    }

    /** One rank's journal: its header and its events in the order they were recorded. */
    public static final class RankTrace {
        public final TraceHeader header;
        public final List<TraceEvent> events;

        RankTrace(TraceHeader header, List<TraceEvent> events) {
            this.header = header;
            this.events = events;
        }

        public int rank() {
            return header.rank;
        }
    }

    /** Every rank's journal under {@code dir}, by rank. */
    public static List<RankTrace> read(Path dir) {
        // opening a queue takes a good part of a second: open the ranks' journals side by side
        List<RankTrace> out = new ArrayList<>(TraceDirectory.rankDirs(dir).parallelStream()
            .map(TraceJournal::readRank).collect(java.util.stream.Collectors.toList()));
        out.sort(Comparator.comparingInt(RankTrace::rank));
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no journal in " + dir + " (expected " + TraceDirectory.RANK_PREFIX + "<r>/ directories)");
        }
        return out;
    }

    /**
     * Reads one rank's journal up to its last complete record (a record whose writer died
     * while writing it is left out, and so is anything after it).
     */
    public static RankTrace readRank(Path rankDir) {
        TraceHeader header = null;
        List<TraceEvent> events = new ArrayList<>();
        Map<Integer, String> strings = new HashMap<>();
        try (SingleChronicleQueue q = ChronicleTracer.queue(rankDir, true);
             ExcerptTailer tailer = q.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    Bytes<?> b = dc.wire().bytes();
                    int kind = b.readByte();
                    if (kind == ChronicleTracer.REC_HEADER) {
                        TraceHeader h = readHeader(b);
                        if (header == null) {
                            header = h;
                        }
                    } else if (kind == ChronicleTracer.REC_STRING) {
                        int id = (int) b.readStopBit();
                        strings.put(id, b.read8bit());
                    } else {
                        long nanos = b.readLong();
                        int rank = (int) b.readStopBit();
                        int peer = (int) (b.readStopBit() - 1);
                        int tag = (int) b.readStopBit();
                        long bytes = b.readStopBit();
                        int channel = (int) (b.readStopBit() - 1);
                        int engine = (int) (b.readStopBit() - 1);
                        int link = (int) (b.readStopBit() - 1);
                        long ms = b.readStopBit();
                        long me = b.readStopBit();
                        int id = (int) b.readStopBit();
                        events.add(new TraceEvent(kind, nanos, rank, peer, tag, bytes, channel, engine, link, ms, me,
                            id == 0 ? null : strings.get(id)));
                    }
                }
            }
        }
        if (header == null) {
            throw new IllegalStateException("journal " + rankDir + " has no header record");
        }
        return new RankTrace(header, events);
    }

    private static TraceHeader readHeader(Bytes<?> b) {
        int version = b.readInt();
        if (version != ChronicleTracer.VERSION) {
            throw new IllegalStateException("journal record layout version " + version + ", this reader knows "
                + ChronicleTracer.VERSION);
        }
        int rank = (int) b.readStopBit();
        int size = (int) b.readStopBit();
        long pid = b.readStopBit();
        String job = b.read8bit();
        String model = b.read8bit();
        long epoch = b.readLong();
        double dilation = b.readDouble();
        int engines = (int) b.readStopBit();
        int ibBase = (int) (b.readStopBit() - 1);
        int subcluster = (int) b.readStopBit();
        long openedNanos = b.readLong();
        long openedMillis = b.readLong();
        return new TraceHeader(version, rank, size, pid, job, model, epoch, dilation, engines, ibBase, subcluster,
            openedNanos, openedMillis);
    }
}
