package org.hympj.rsched.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.hympj.rsched.MachineModel;
import org.hympj.rsched.Put;
import org.hympj.rsched.Schedule;
import org.hympj.rsched.Scheduler;
import org.hympj.rsched.Schedulers;
import org.hympj.rsched.ScaleLes3;
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
 * Time to schedule one put set (what a persistent Startall pays once; S3 excludes it from the
 * exchange time). Sets: {@code les14} = S3's SCALE-LES3 halo, all 8 directions, k = 60 (14 puts);
 * {@code random1000} = 1,000 puts, seeded, 1 B..1 MB log-uniform, 8 directions (4 diagonal),
 * 48 destinations. Targets: 14 puts &lt; 20 µs, 1,000 puts &lt; 5 ms for bl:4 and bl+.
 *
 * <pre>
 * (from the checkout)
 * mvn -B -q -pl rsched test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java -cp rsched/target/test-classes:rsched/target/classes:$(cat rsched/target/bench.cp) \
 *     org.openjdk.jmh.Main RschedBenchmark [-p policy=bl:4,bl+ -p set=les14,random1000]
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RschedBenchmark {
    @Param({"bl:4", "bl+", "bl+oh", "rr:4"})
    public String policy;

    @Param({"les14", "random1000"})
    public String set;

    private Scheduler scheduler;
    private List<Put> puts;
    private final MachineModel model = MachineModel.tofu();

    @Setup
    public void setup() {
        scheduler = Schedulers.parse(policy);
        puts = set.equals("les14") ? ScaleLes3.puts(60, "all") : random(1000, 48, 20130801L);
    }

    /** n puts, 1 B..1 MB log-uniform, 8 directions (4..7 diagonal), {@code dests} destinations. */
    public static List<Put> random(int n, int dests, long seed) {
        Random rnd = new Random(seed);
        List<Put> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int d = rnd.nextInt(8);
            long b = Math.max(1, Math.min(1L << 20, Math.round(Math.exp(rnd.nextDouble() * Math.log(1 << 20)))));
            out.add(new Put(i, rnd.nextInt(dests), d, b, d >= 4));
        }
        return out;
    }

    @Benchmark
    public Schedule schedule() {
        return scheduler.schedule(puts, model);
    }
}
