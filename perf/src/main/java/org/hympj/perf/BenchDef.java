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
    /** The size column holds the rank count: one launch per size, with that many ranks. */
    private final boolean sizeIsRanks;
    /** Variants chosen by {@code --algo} (passed as {@code MODE=ALGO}); empty: none. */
    private final List<String> algorithms;
    /** The Open MPI anchor script, relative to HYMPJ_HOME; null: the shared anchors' script. */
    private final String anchorScript;
    /**
     * The launcher option an {@code --algo} value also sets: null (none; the rank program alone
     * gets it), {@code "sched"} ({@code --sched ALGO}, "none" = no scheduler) or {@code "p2p"}
     * ({@code --p2p ALGO}).
     */
    private String algoOption;
    /** The timing model when no {@code --model} is given (null: native). */
    private String defaultModel;
    /**
     * The rank program's methods that hold its timed loops, as HotSpot's method patterns
     * ({@code package/Class.method}): compiled during their warm-up batch (see {@link #withTimedLoops}).
     */
    private List<String> timedLoops = List.of();

    public BenchDef(String name, String description, Class<?> rankClass, List<String> modeArgs, int np, String csvTest,
                    List<Long> defaultSizes, String defaultBuffers, Duration defaultTimeout, SegmentNeed segmentNeed) {
        this(name, description, rankClass.getName(), modeArgs, np, csvTest, defaultSizes, defaultBuffers, defaultTimeout,
            segmentNeed, false, List.of(), null);
    }

    private BenchDef(String name, String description, String rankClass, List<String> modeArgs, int np, String csvTest,
                     List<Long> defaultSizes, String defaultBuffers, Duration defaultTimeout, SegmentNeed segmentNeed,
                     boolean sizeIsRanks, List<String> algorithms, String anchorScript) {
        this.name = Objects.requireNonNull(name);
        this.description = description;
        this.rankClass = rankClass;
        this.modeArgs = List.copyOf(modeArgs);
        this.np = np;
        this.csvTest = csvTest;
        this.defaultSizes = List.copyOf(defaultSizes);
        this.defaultBuffers = defaultBuffers;
        this.defaultTimeout = defaultTimeout;
        this.segmentNeed = segmentNeed;
        this.sizeIsRanks = sizeIsRanks;
        this.algorithms = List.copyOf(algorithms);
        this.anchorScript = anchorScript;
    }

    /** The same benchmark whose sizes are rank counts (one launch per size, that many ranks). */
    public BenchDef withRanksAsSizes() {
        BenchDef d = new BenchDef(name, description, rankClass, modeArgs, np, csvTest, defaultSizes, defaultBuffers,
            defaultTimeout, segmentNeed, true, algorithms, anchorScript);
        return carry(d);
    }

    /** The same benchmark with variants chosen by {@code --algo} (the rank program gets {@code MODE=ALGO}). */
    public BenchDef withAlgorithms(List<String> algos) {
        BenchDef d = new BenchDef(name, description, rankClass, modeArgs, np, csvTest, defaultSizes, defaultBuffers,
            defaultTimeout, segmentNeed, sizeIsRanks, algos, anchorScript);
        return carry(d);
    }

    /** The same benchmark compared against another anchor script (a path relative to HYMPJ_HOME). */
    public BenchDef withAnchor(String script) {
        BenchDef d = new BenchDef(name, description, rankClass, modeArgs, np, csvTest, defaultSizes, defaultBuffers,
            defaultTimeout, segmentNeed, sizeIsRanks, algorithms, script);
        return carry(d);
    }

    /** The same benchmark whose {@code --algo} values also set a launcher option: "sched" or "p2p". */
    public BenchDef withAlgorithmOption(String option) {
        if (!option.equals("sched") && !option.equals("p2p")) {
            throw new IllegalArgumentException("algorithm option must be sched or p2p, was " + option);
        }
        BenchDef d = copy();
        d.algoOption = option;
        return d;
    }

    /** The same benchmark run under {@code model} unless {@code --model} says otherwise. */
    public BenchDef withDefaultModel(String model) {
        BenchDef d = copy();
        d.defaultModel = model;
        return d;
    }

    private BenchDef copy() {
        BenchDef d = new BenchDef(name, description, rankClass, modeArgs, np, csvTest, defaultSizes, defaultBuffers,
            defaultTimeout, segmentNeed, sizeIsRanks, algorithms, anchorScript);
        return carry(d);
    }

    /**
     * The same benchmark whose timed loops sit in {@code methods} (HotSpot method patterns,
     * {@code package/Class.method}). A loop that runs a few thousand times per batch stays in the
     * interpreter until HotSpot compiles it after 60,000 back-edges: a whole 8-byte ping-pong size
     * (55,000 iterations) would then time the loop's bytecodes between the library's compiled calls,
     * about 20 ns of a 100 ns one-way trip, where the C anchor's loop is compiled code. So, unless
     * {@code --loop-compile lazy}, these methods are compiled within the warm-up batch that precedes
     * the timed ones (their compile thresholds scaled down, the compile awaited by the running thread);
     * what is timed and how often stays the anchor's.
     */
    public BenchDef withTimedLoops(String... methods) {
        BenchDef d = copy();
        d.timedLoops = List.of(methods);
        return d;
    }

    /** The methods holding the rank program's timed loops (empty: none named). */
    public List<String> timedLoops() {
        return timedLoops;
    }

    /** {@code d} with this definition's settings that the constructor does not take. */
    private BenchDef carry(BenchDef d) {
        d.algoOption = algoOption;
        d.defaultModel = defaultModel;
        d.timedLoops = timedLoops;
        return d;
    }

    /** The launcher option an {@code --algo} value sets (null, "sched" or "p2p"). */
    public String algorithmOption() {
        return algoOption;
    }

    /** The model used when {@code --model} is not given (null: native). */
    public String defaultModel() {
        return defaultModel;
    }

    public boolean sizeIsRanks() {
        return sizeIsRanks;
    }

    /** The {@code --algo} variants (empty when the benchmark has none). */
    public List<String> algorithms() {
        return algorithms;
    }

    /** The anchor script relative to HYMPJ_HOME, or null for the shared anchors' script. */
    public String anchorScript() {
        return anchorScript;
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
        return rankArgs(rep, kinds, sizes, null);
    }

    /** The rank program's arguments; {@code algo} (may be null) is appended to the first mode argument as "=ALGO". */
    public List<String> rankArgs(int rep, List<BufferKind> kinds, List<Long> sizes, String algo) {
        List<String> a = new ArrayList<>(modeArgs);
        if (algo != null) {
            if (algorithms.isEmpty() || a.isEmpty()) {
                throw new IllegalArgumentException("--algo applies to " + name + " only if it has algorithms");
            }
            a.set(0, a.get(0) + "=" + algo);
        }
        a.add(Integer.toString(rep));
        a.add(BufferKind.format(kinds));
        for (long s : sizes) {
            a.add(Long.toString(s));
        }
        return a;
    }
}
