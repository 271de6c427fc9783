package org.hympj.rsched;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the makespan (µs) of every policy on S3's SCALE-LES3 patterns for
 * {@link MachineModel#tofu()}, one Markdown table per pattern, rows by k, with the lower bound
 * and bl+ over the bound.
 *
 * <pre>java -cp rsched/target/classes org.hympj.rsched.Table [k,k,...]</pre>
 */
public final class Table {
    private Table() {
    }

    public static void main(String[] args) {
        List<Integer> ks = ScaleLes3.KS;
        if (args.length > 0) {
            ks = new ArrayList<>();
            for (String s : args[0].split(",")) {
                ks.add(Integer.parseInt(s.trim()));
            }
        }
        System.out.print(render(MachineModel.tofu(), ks));
    }

    /** The tables as text. */
    public static String render(MachineModel m, List<Integer> ks) {
        List<String> policies = List.of("rr:1", "rr:2", "rr:4", "bl:1", "bl:2", "bl:4", "bl+", "bl+oh");
        List<Scheduler> scheds = new ArrayList<>();
        for (String p : policies) {
            scheds.add(Schedulers.parse(p));
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Makespan in µs; machine: %d engines × %.1f GB/s, links %.1f GB/s, %.0f ns per access, %d receive engines.%n",
            m.engines(), m.engineBandwidth(), m.linkBandwidth(), m.accessOverheadNs(), m.receiveEngines()));
        for (String pattern : ScaleLes3.PATTERNS) {
            sb.append(String.format(Locale.ROOT, "%n**%s**%n%n| k |", pattern));
            for (String p : policies) {
                sb.append(' ').append(p).append(" |");
            }
            sb.append(" bound | bl+/bound | best of S3's six |\n|--:|");
            for (int i = 0; i < policies.size() + 3; i++) {
                sb.append("--:|");
            }
            sb.append('\n');
            for (int k : ks) {
                List<Put> puts = ScaleLes3.puts(k, pattern);
                sb.append("| ").append(k).append(" |");
                double[] ms = new double[scheds.size()];
                for (int i = 0; i < scheds.size(); i++) {
                    ms[i] = scheds.get(i).schedule(puts, m).makespanNs();
                    sb.append(String.format(Locale.ROOT, " %.2f |", ms[i] / 1000));
                }
                LowerBound lb = LowerBound.of(puts, m);
                double best = Double.POSITIVE_INFINITY;
                for (int i = 0; i < 6; i++) {
                    best = Math.min(best, ms[i]);
                }
                StringBuilder winners = new StringBuilder();
                for (int i = 0; i < 6; i++) {
                    if (ms[i] <= best + 1e-6) {
                        winners.append(winners.length() == 0 ? "" : " = ").append(policies.get(i));
                    }
                }
                sb.append(String.format(Locale.ROOT, " %.2f (%s) | %.3f | %s |%n", lb.valueNs() / 1000, lb.binding(),
                    ms[6] / lb.valueNs(), winners));
            }
        }
        return sb.toString();
    }
}
