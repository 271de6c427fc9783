package org.hympj.perf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A benchmark that {@code bin/hympj-bench NAME} can run: its rank program, how many ranks,
 * its default sizes and buffer kinds. The rank program takes
 * {@code [modeArgs...] REP BUFFERS SIZE...} and prints CSV rows from rank 0.
 */
public final class BenchDef {
    /** Segment bytes a job needs for given sizes and buffer kinds (0: the default is enough). */
    @FunctionalInterface
    public interface SegmentNeed {
        long bytes(List<Long> sizes, List<BufferKind> kinds);
    }

    private final String name;
    private final String description;
    private final String rankClass;
    private final List<String> modeArgs;
    private final int np;
    private final String csvTest;
    private final List<Long> defaultSizes;
    private final String defaultBuffers;
    private final Duration defaultTimeout;
    private final SegmentNeed segmentNeed;

    public BenchDef(String name, String description, Class<?> rankClass, List<String> modeArgs, int np, String csvTest,
                    List<Long> defaultSizes, String defaultBuffers, Duration defaultTimeout, SegmentNeed segmentNeed) {
        this.name = Objects.requireNonNull(name);
        this.description = description;
        this.rankClass = rankClass.getName();
        this.modeArgs = List.copyOf(modeArgs);
        this.np = np;
        this.csvTest = csvTest;
        this.defaultSizes = List.copyOf(defaultSizes);
        this.defaultBuffers = defaultBuffers;
        this.defaultTimeout = defaultTimeout;
        this.segmentNeed = segmentNeed;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public String rankClass() {
        return rankClass;
    }

    /** Ranks the program needs. */
    public int np() {
        return np;
    }

    /** The test column of its CSV rows (the anchor's name, e.g. pingpong-blocking). */
    public String csvTest() {
        return csvTest;
    }

    public List<Long> defaultSizes() {
        return defaultSizes;
    }

    public String defaultBuffers() {
        return defaultBuffers;
    }

    public Duration defaultTimeout() {
        return defaultTimeout;
    }

    public long segmentBytes(List<Long> sizes, List<BufferKind> kinds) {
        return segmentNeed == null ? 0 : segmentNeed.bytes(sizes, kinds);
    }

    /** The rank program's arguments. */
    public List<String> rankArgs(int rep, List<BufferKind> kinds, List<Long> sizes) {
        List<String> a = new ArrayList<>(modeArgs);
        a.add(Integer.toString(rep));
        a.add(BufferKind.format(kinds));
        for (long s : sizes) {
            a.add(Long.toString(s));
        }
        return a;
    }
}
