package org.hympj.rsched.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import org.hympj.rsched.MachineModel;
import org.hympj.rsched.Put;
import org.hympj.rsched.ScaleLes3;
import org.hympj.rsched.Scheduler;
import org.hympj.rsched.Schedulers;

/**
 * The sets of {@link RschedBenchmark}, timed by this thread's CPU time rather than the wall
 * clock: a check of the JMH figures on a machine shared with other work, where wall time
 * includes the time the thread waited for a core. Prints the best of 5 rounds per policy and
 * set, after 3 rounds of warm-up.
 *
 * <pre>java -cp rsched/target/test-classes:rsched/target/classes org.hympj.rsched.bench.CpuTime</pre>
 */
public final class CpuTime {
    private CpuTime() {
    }

    public static void main(String[] args) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        MachineModel m = MachineModel.tofu();
        List<Put> les = ScaleLes3.puts(60, "all");
        List<Put> random = RschedBenchmark.random(1000, 48, 20130801L);
        for (String policy : List.of("bl:4", "bl+", "bl+oh", "rr:4")) {
            Scheduler s = Schedulers.parse(policy);
            for (int set = 0; set < 2; set++) {
                List<Put> puts = set == 0 ? les : random;
                int reps = set == 0 ? 50_000 : 100;
                double bestCpu = Double.MAX_VALUE;
                double bestWall = Double.MAX_VALUE;
                for (int round = 0; round < 8; round++) {
                    long c0 = mx.getCurrentThreadCpuTime();
                    long w0 = System.nanoTime();
                    for (int i = 0; i < reps; i++) {
                        s.schedule(puts, m);
                    }
                    long c1 = mx.getCurrentThreadCpuTime();
                    long w1 = System.nanoTime();
                    if (round >= 3) {
                        bestCpu = Math.min(bestCpu, (c1 - c0) / 1e3 / reps);
                        bestWall = Math.min(bestWall, (w1 - w0) / 1e3 / reps);
                    }
                }
                System.out.printf(Locale.ROOT, "%-6s %-10s cpu %10.2f us/op   wall %10.2f us/op%n", policy,
                    set == 0 ? "les14" : "random1000", bestCpu, bestWall);
            }
        }
    }
}
