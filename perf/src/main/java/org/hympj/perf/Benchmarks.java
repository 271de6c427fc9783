package org.hympj.perf;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmarks {@code bin/hympj-bench} and {@code bin/hympj-compare} know, by name. A new
 * benchmark is a rank program plus one {@link #register} line here.
 */
public final class Benchmarks {
    private static final Map<String, BenchDef> REGISTRY = new LinkedHashMap<>();
    private static final List<Long> LATENCY_SIZES = List.of(8L, 4096L, 65536L, 1048576L, 4194304L);
    /** The Open MPI anchors of the collective benchmarks (our own copy of the anchor runner). */
    public static final String EXTRA_ANCHOR = "perf/anchors/run-openmpi-extra.sh";
    /** The barrier algorithms, as {@code --algo} takes them (declared before the registry uses them). */
    public static final List<String> BARRIER_ALGOS = List.of("dissemination", "rd", "ring", "shm");
    /** scale-les3's columns: S3's six policies, bl+ and the unscheduled engine (--sched none). */
    public static final List<String> SCHED_POLICIES = List.of("rr:1", "rr:2", "rr:4", "bl:1", "bl:2", "bl:4", "bl+",
        "none");
    /** S3's vertical level counts, scale-les3's default sizes. */
    public static final List<Long> SCALE_LES3_KS = List.of(60L, 70L, 80L, 109L, 218L, 327L, 436L, 545L, 654L, 763L, 872L);

    /** The ping-pong program's timed loops (HotSpot method patterns), one per mode. */
    private static final String[] PING_PONG_LOOPS = {"org/hympj/perf/PingPong.blockingLoop",
        "org/hympj/perf/PingPong.persistentLoop"};

    static {
        register(new BenchDef("pingpong", "half round-trip latency, blocking send/recv, 2 ranks (us)",
            PingPong.class, List.of("blocking"), 2, "pingpong-blocking", LATENCY_SIZES, "both",
            Duration.ofSeconds(300), Benchmarks::twoBuffers).withTimedLoops(PING_PONG_LOOPS));
        register(new BenchDef("persistent", "half round-trip latency, sendInit/recvInit + startAll/waitAll, 2 ranks (us)",
            PingPong.class, List.of("persistent"), 2, "pingpong-persistent", LATENCY_SIZES, "both",
            Duration.ofSeconds(300), Benchmarks::twoBuffers).withTimedLoops(PING_PONG_LOOPS));
        register(new BenchDef("bw", "window-64 streaming bandwidth, isend/irecv + 4-byte ack, 2 ranks (MB/s)",
            Bandwidth.class, List.of(), 2, "bw-window64", List.of(4096L, 65536L, 1048576L, 4194304L), "both",
            Duration.ofSeconds(300), (sizes, kinds) -> kinds.contains(BufferKind.SEGMENT) ? max(sizes) + 4096 : 0));
        register(new BenchDef("halo3d", "3D halo exchange, 8 ranks on a 2x2x2 periodic grid, N^3 doubles, ghost mode "
            + "(us per iteration)",
            Halo3d.class, List.of("ghost"), 8, "halo3d-ghost", List.of(16L, 32L, 64L, 128L), "both",
            Duration.ofSeconds(300), Benchmarks::haloSegment));
        register(new BenchDef("jface", "halo-face ping-pong: a block-stride face vector(N,N,N^2) of N^3 doubles into a "
            + "contiguous ghost, half round trip, 2 ranks (us)",
            Faces.class, List.of("j"), 2, "face-j", List.of(16L, 32L, 64L, 128L), "both",
            Duration.ofSeconds(300), Benchmarks::facesSegment).withAnchor(EXTRA_ANCHOR));
        register(new BenchDef("kface", "halo-face ping-pong: an element-stride face vector(N^2,1,N) of N^3 doubles into a "
            + "contiguous ghost, half round trip, 2 ranks (us)",
            Faces.class, List.of("k"), 2, "face-k", List.of(16L, 32L, 64L, 128L), "both",
            Duration.ofSeconds(300), Benchmarks::facesSegment).withAnchor(EXTRA_ANCHOR));
        register(new BenchDef("allreduce", "allreduce of DOUBLE (SUM) on Java arrays, 8 ranks (us per call)",
            Collective.class, List.of("allreduce"), 8, "allreduce", List.of(8L, 65536L), "heap",
            Duration.ofSeconds(300), null).withAnchor(EXTRA_ANCHOR));
        register(new BenchDef("barrier", "barrier, one launch per rank count and algorithm (us per call); "
            + "size = number of ranks",
            Collective.class, List.of("barrier"), 8, "barrier", List.of(8L), "heap",
            Duration.ofSeconds(300), null).withRanksAsSizes().withAlgorithms(BARRIER_ALGOS).withAnchor(EXTRA_ANCHOR));
        register(new BenchDef("facade-pingpong", "what the mpiJava facade adds: 8-byte ping-pong through the core API and "
            + "through package mpi, alternating batches in one launch, 2 ranks (us; ratio = facade / core)",
            FacadeCompare.class, List.of("pingpong"), 2, "facade-pingpong", List.of(8L), "heap",
            Duration.ofSeconds(300), null));
        register(new BenchDef("facade-halo3d", "what the mpiJava facade adds: halo3d (persistent, Startall/Waitall) "
            + "through the core API and through package mpi, alternating batches in one launch, 8 ranks "
            + "(us per iteration; ratio = facade / core)",
            FacadeCompare.class, List.of("halo3d"), 8, "facade-halo3d", List.of(16L, 32L, 64L, 128L), "heap",
            Duration.ofSeconds(600), null));
        register(new BenchDef("scale-les3", "S3's SCALE-LES3 halo per RSched policy (--sched), 8 ranks 4x2 periodic (--np 9: 3x3), "
            + "pseudo-collective; size = k (modelled us per exchange)",
            ScaleLes3Bench.class, List.of("sched"), 8, "scale-les3", SCALE_LES3_KS, "segment",
            Duration.ofSeconds(3600), null).withAlgorithms(SCHED_POLICIES).withAlgorithmOption("sched")
            .withDefaultModel("tofu"));
        register(new BenchDef("onesided", "isend/irecv ping-pong latency (us) and window-64 bandwidth (MB/s), "
            + "one-sided engine vs two-sided (--p2p), S2's ideal from the model, 2 ranks",
            OneSidedBench.class, List.of("p2p"), 2, "onesided", LATENCY_SIZES, "segment",
            Duration.ofSeconds(1800), Benchmarks::oneSidedSegment).withAlgorithms(List.of("onesided", "twosided"))
            .withAlgorithmOption("p2p"));
    }

    private Benchmarks() {
    }

    /** Adds a benchmark; its name must be new. */
    public static synchronized void register(BenchDef def) {
        if (REGISTRY.putIfAbsent(def.name(), def) != null) {
            throw new IllegalStateException("benchmark " + def.name() + " is already registered");
        }
    }

    /** The benchmark of that name, or null. */
    public static synchronized BenchDef get(String name) {
        return REGISTRY.get(name);
    }

    public static synchronized Map<String, BenchDef> all() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(REGISTRY));
    }

    static long max(List<Long> sizes) {
        long m = 0;
        for (long s : sizes) {
            m = Math.max(m, s);
        }
        return m;
    }

    /** A send buffer and up to 16 pre-posted receive buffers, plus the one-sided engine's staging area. */
    private static long oneSidedSegment(List<Long> sizes, List<BufferKind> kinds) {
        return (kinds.contains(BufferKind.SEGMENT) ? 17 * max(sizes) + 4096 : 0) + (16L << 20);
    }

    private static long twoBuffers(List<Long> sizes, List<BufferKind> kinds) {
        return kinds.contains(BufferKind.SEGMENT) ? 2 * max(sizes) + 4096 : 0;
    }

    /** The segment variant allocates b (N^3) and a ghost (N^2) for every N (a bump allocator). */
    private static long facesSegment(List<Long> sizes, List<BufferKind> kinds) {
        long total = 0;
        for (long n : sizes) {
            total += (n * n * n + n * n) * 8 + 128;
        }
        return kinds.contains(BufferKind.SEGMENT) ? total : 0;
    }

    /** The segment variant allocates b (N^3) and the ghosts (6 N^2) for every N (a bump allocator). */
    private static long haloSegment(List<Long> sizes, List<BufferKind> kinds) {
        if (!kinds.contains(BufferKind.SEGMENT)) {
            return 0;
        }
        long total = 0;
        if (!sizes.isEmpty()) {
            long n = sizes.get(0); // the opt-in pre-pass allocates the first N once more
            total += (n * n * n + 6 * n * n) * 8 + 128;
        }
        for (long n : sizes) {
            total += (n * n * n + 6 * n * n) * 8 + 128;
        }
        return total;
    }
}
