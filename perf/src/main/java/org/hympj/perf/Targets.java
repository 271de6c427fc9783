package org.hympj.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The performance targets, as ratios HyMPJ ÷ Open MPI measured side by side: for latencies
 * (lower is better) the ratio must be at most the bound, for bandwidth (higher is better)
 * at least the bound.
 */
public final class Targets {
    /** One target: a bound on the ratio of one buffer kind (null: any kind). */
    public static final class Target {
        public final BufferKind kind;
        public final double bound;
        public final boolean lowerIsBetter;

        Target(BufferKind kind, double bound, boolean lowerIsBetter) {
            this.kind = kind;
            this.bound = bound;
            this.lowerIsBetter = lowerIsBetter;
        }

        public boolean appliesTo(BufferKind k) {
            return kind == null || kind == k;
        }

        public boolean met(double ratio) {
            return lowerIsBetter ? ratio <= bound : ratio >= bound;
        }

        String bound() {
            return (lowerIsBetter ? "≤ " : "≥ ") + String.format(Locale.ROOT, "%.1f", bound);
        }
    }

    private Targets() {
    }

    /** True when smaller figures are better for this benchmark (latencies, time per iteration). */
    public static boolean lowerIsBetter(String bench) {
        return !bench.equals("bw");
    }

    /** The targets of one (benchmark, size); empty when there is none. */
    public static List<Target> of(String bench, long size) {
        List<Target> t = new ArrayList<>();
        switch (bench) {
            case "pingpong":
                if (size == 8) {
                    t.add(new Target(null, 1.0, true));
                } else if (size == 4096) {
                    t.add(new Target(null, 0.5, true));
                } else if (size == 65536) {
                    t.add(new Target(null, 1.0, true));
                } else if (size == 1048576 || size == 4194304) {
                    t.add(new Target(BufferKind.HEAP, 1.3, true));
                    t.add(new Target(BufferKind.SEGMENT, 1.0, true));
                }
                break;
            case "persistent":
                if (size == 8) {
                    t.add(new Target(null, 1.0, true));
                }
                break;
            case "bw":
                if (size >= 65536 && size <= 4194304) {
                    t.add(new Target(BufferKind.SEGMENT, 1.0, false));
                }
                break;
            case "allreduce":
                if (size == 8) {
                    t.add(new Target(null, 1.0, true));   // 8 B over 8 ranks (the benchmark's default np)
                }
                break;
            case "halo3d":
                if (size == 16 || size == 32 || size == 64 || size == 128) {
                    t.add(new Target(null, 1.0, true));
                }
                break;
            default:
                break;
        }
        return t;
    }

    /** The "target" cell: "≤ 1.0", "heap ≤ 1.3, segment ≤ 1.0", "segment ≥ 1.0" or "—". */
    public static String describe(List<Target> ts) {
        if (ts.isEmpty()) {
            return "—";
        }
        StringBuilder b = new StringBuilder();
        for (Target t : ts) {
            if (b.length() > 0) {
                b.append(", ");
            }
            if (t.kind != null) {
                b.append(t.kind.label()).append(' ');
            }
            b.append(t.bound());
        }
        return b.toString();
    }
}
