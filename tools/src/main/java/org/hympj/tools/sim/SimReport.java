package org.hympj.tools.sim;

import org.hympj.sim.Script;
import org.hympj.sim.Shape;
import org.hympj.sim.Sim;
import org.hympj.sim.SimConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The simulator's scale studies for docs/PERFORMANCE.md and docs/SIMULATOR.md: S4's barriers
 * against p up to 1024, S3's SCALE-LES3 at 48 ranks, S1's 3D halo at 64 ranks (4 subclusters of
 * 16), and the speed of a 1024-rank, 1000-iteration 3D halo. Prints markdown; writes PNGs.
 *
 * <pre>usage: SimReport IMGDIR [s4|s3|s1|speed]...</pre>
 */
public final class SimReport {
    private SimReport() {
    }

    public static void main(String[] args) throws IOException {
        Path img = Paths.get(args.length > 0 ? args[0] : "docs/img");
        List<String> what = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            what.add(args[i]);
        }
        if (what.isEmpty()) {
            what = List.of("s4", "s3", "s1", "speed");
        }
        for (String w : what) {
            switch (w) {
                case "s4":
                    s4(img);
                    break;
                case "s3":
                    s3(img);
                    break;
                case "s1":
                    s1(img);
                    break;
                case "speed":
                    speed(args.length > 2 ? 0 : 0);
                    break;
                default:
                    throw new IllegalArgumentException("unknown study " + w);
            }
        }
    }

    private static Map<String, String> opts(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** S4: barrier µs vs p on S4's kind of machine (ha-pacs over IB: every rank one latency away). */
    static void s4(Path img) throws IOException {
        List<Integer> ps = new ArrayList<>();
        for (int p = 2; p <= 64; p++) {
            ps.add(p);
        }
        for (int p : new int[] {96, 127, 128, 129, 192, 255, 256, 257, 384, 511, 512, 513, 768, 1023, 1024}) {
            ps.add(p);
        }
        SimPlot all = new SimPlot("S4: barrier time vs ranks (simulated, ha-pacs model over IB)", "ranks (log scale)",
            "us per barrier", true);
        SimPlot small = new SimPlot("S4: barriers, 2 to 40 ranks (simulated, ha-pacs over IB)", "ranks",
            "us per barrier", false);
        StringBuilder t = new StringBuilder("| ranks | ring | rd | dissemination | rd ÷ ring |\n|---:|---:|---:|---:|---:|\n");
        for (int p : ps) {
            Map<String, String> o = opts("--route", "ib", "--warmup", p > 64 ? "1" : "3", "--iters", p > 64 ? "4" : "20");
            double ring = SimMain.barrier(o, Script.Barrier.RING, p).value();
            double rd = SimMain.barrier(o, Script.Barrier.RD, p).value();
            double dis = SimMain.barrier(o, Script.Barrier.DISSEMINATION, p).value();
            all.add("ring", p, ring);
            all.add("recursive doubling", p, rd);
            all.add("dissemination", p, dis);
            if (p <= 40) {
                small.add("ring", p, ring);
                small.add("recursive doubling", p, rd);
                small.add("dissemination", p, dis);
            }
            if (p <= 9 || p == 15 || p == 16 || p == 17 || p == 31 || p == 32 || p == 33 || p == 63 || p == 64 || p > 64) {
                t.append(String.format(Locale.ROOT, "| %d | %.2f | %.2f | %.2f | %.2f |%n", p, ring, rd, dis, rd / ring));
            }
        }
        all.write(img.resolve("sim-s4-barrier.png"));
        small.write(img.resolve("sim-s4-barrier-small.png"));
        System.out.println("### S4: barriers vs p (ha-pacs, --route ib)\n");
        System.out.println(t);
    }

    /** S3 at its own scale: 48 ranks, 8×6 periodic, every pattern and policy, k = 60 and 872; and k swept for all / ns. */
    static void s3(Path img) throws IOException {
        String[] policies = {"none", "rr:1", "rr:2", "rr:4", "bl:1", "bl:2", "bl:4", "bl+"};
        String[] patterns = {"ew", "ns", "nsew", "diag", "all"};
        for (int np : new int[] {48, 8}) {
            StringBuilder t = new StringBuilder("| pattern | k |");
            StringBuilder sep = new StringBuilder("|---|---:|");
            for (String p : policies) {
                t.append(' ').append(p).append(" |");
                sep.append("---:|");
            }
            t.append(" best |\n").append(sep).append("---|\n");
            for (String pat : patterns) {
                for (int k : new int[] {60, 872}) {
                    t.append("| ").append(pat).append(" | ").append(k).append(" |");
                    double best = Double.MAX_VALUE;
                    String arg = "";
                    for (String pol : policies) {
                        double v = SimMain.scaleLes3(opts("--np", Integer.toString(np), "--warmup", "3", "--iters", "10"),
                            pat, pol, k).value();
                        t.append(String.format(Locale.ROOT, " %.2f |", v));
                        if (v < best - 1e-6) {
                            best = v;
                            arg = pol;
                        } else if (Math.abs(v - best) <= 1e-6) {
                            arg += " = " + pol;
                        }
                    }
                    t.append(' ').append(arg).append(" |\n");
                }
            }
            System.out.println("### S3: SCALE-LES3, " + np + " ranks (tofu), µs per exchange\n");
            System.out.println(t);
        }
        for (String pat : new String[] {"all", "ns"}) {
            SimPlot plot = new SimPlot("S3: SCALE-LES3 '" + pat + "', 48 ranks (simulated, tofu)", "k (vertical levels)",
                "us per exchange", false);
            for (String pol : policies) {
                for (int k : org.hympj.rsched.ScaleLes3.KS) {
                    plot.add(pol, k, SimMain.scaleLes3(opts("--np", "48", "--warmup", "2", "--iters", "5"), pat, pol, k)
                        .value());
                }
            }
            plot.write(img.resolve("sim-s3-" + pat + "-48.png"));
        }
    }

    /** S1 at 64 ranks (4 subclusters of 16, 4×4×4 grid): the 3D halo per route against N; and S1's own 8 ranks. */
    static void s1(Path img) throws IOException {
        int[] ns = {64, 128, 192, 256, 320, 384, 448, 512};
        String[] routes = {"ib", "tca+ib", "hybrid"};
        SimPlot plot = new SimPlot("S1: 3D halo, 64 ranks = 4 subclusters of 16 (simulated, ha-pacs)", "N",
            "us per iteration", false);
        StringBuilder t = new StringBuilder("| N | 64: IB | 64: TCA+IB | 64: hybrid | 64: IB ÷ hybrid | 64: TCA+IB ÷ hybrid"
            + " | 8: IB | 8: TCA+IB | 8: hybrid | 8: IB ÷ hybrid | 8: TCA+IB ÷ hybrid |\n"
            + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int n : ns) {
            t.append("| ").append(n).append(" |");
            for (int np : new int[] {64, 8}) {
                double[] v = new double[routes.length];
                for (int i = 0; i < routes.length; i++) {
                    v[i] = SimMain.halo(opts("--np", Integer.toString(np), "--subcluster", np == 64 ? "16" : "4",
                        "--warmup", "2", "--iters", "5"), 3, routes[i], n).value();
                    t.append(String.format(Locale.ROOT, " %.1f |", v[i]));
                    plot.add(np + " ranks: " + routes[i], n, v[i]);
                }
                t.append(String.format(Locale.ROOT, " %.2f | %.2f |", v[0] / v[2], v[1] / v[2]));
            }
            t.append('\n');
        }
        plot.write(img.resolve("sim-s1-halo3d-64.png"));
        System.out.println("### S1: 3D halo at 64 ranks (4 subclusters of 16) and at 8 (2 of 4), µs per iteration\n");
        System.out.println(t);
    }

    /** 1024 ranks × 1000 iterations of the 3D halo (N=64, hybrid, subclusters of 16): wall time and events/s. */
    static void speed(int unused) {
        for (int rep = 0; rep < 2; rep++) {
            long t0 = System.nanoTime();
            SimMain.Result r = SimMain.halo(opts("--np", "1024", "--subcluster", "16", "--warmup", "0", "--iters",
                "1000"), 3, "hybrid", 64);
            double wall = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "speed: 1024 ranks x 1000 iterations, 3D halo N=64 hybrid: %.3f us/iter "
                    + "predicted; %d events, run %.2f s (%.0f events/s), with building the scripts %.2f s%n", r.value(),
                r.events(), r.wallSeconds(), r.events() / r.wallSeconds(), wall);
        }
    }
}
