package org.hympj.perf.sim;

import org.hympj.sim.Script;
import org.hympj.tools.sim.SimMain;
import org.hympj.sim.Sim;
import org.hympj.sim.SimConfig;
import java.io.IOException;
import java.time.Duration;
import org.hympj.perf.Quiet;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.launch.Launcher;

/**
 * The barrier rows of the simulator's accuracy table: one emulated {@link BarrierRank} launch per
 * rank count and algorithm, each under the machine-wide benchmark lock ({@link Quiet#lock}, as
 * {@code bin/hympj-bench} launches are), and the simulator's figure beside it.
 *
 * <pre>usage: BarrierCheck MODEL DILATION WARMUP ITERS ALGO[,ALGO] NP...</pre>
 * Prints {@code hympj,barrier,ALGO,NP,1,us,us} (mean), the emulated remark, and
 * {@code hympj-sim,barrier,ALGO,NP,1,us,us}.
 */
public final class BarrierCheck {
    private BarrierCheck() {
    }

    public static void main(String[] args) throws IOException {
        String model = args[0];
        double dilation = Double.parseDouble(args[1]);
        String warm = args[2];
        String iters = args[3];
        for (int a = 5; a < args.length; a++) {
            int np = Integer.parseInt(args[a]);
            for (String algo : args[4].split(",")) {
                JobResult r;
                try (Quiet lock = Quiet.lock(Duration.ofSeconds(7200), System.err)) {
                    r = Launcher.run(LaunchSpec.of(np, BarrierRank.class, algo, warm, iters).model(model)
                        .timeDilation(dilation).timeout(Duration.ofSeconds(600)).output(LaunchSpec.Output.CAPTURE));
                }
                for (String line : r.output(0).split("\n")) {
                    if (line.startsWith("hympj,") || line.startsWith("# ")) {
                        System.out.println(line);
                    }
                }
                if (!r.ok()) {
                    System.out.println("# FAILED: " + r.message());
                }
                System.out.println(SimMain.barrier(java.util.Map.of("--model", model, "--warmup", warm, "--iters", iters),
                    Script.Barrier.parse(algo), np).row());
                System.out.flush();
            }
        }
    }
}
