package org.hympj.perf.fabric;

import org.hympj.examples.Face;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hympj.model.ArrayTimelines;
import org.hympj.model.Fabric;
import org.hympj.model.ModelParams;
import org.hympj.model.NetTopology;
import org.hympj.model.Plan;
import org.hympj.model.TimingModel;
import org.hympj.model.Transfer;
import org.hympj.spi.Layout;

/**
 * The analytic sweep: S1's crossover ping-pong evaluated on the very same {@link TimingModel}
 * the emulation runs, without processes. One message of a face, alone on fresh timelines, as
 * the emulated crossover ping-pong sends it: persistent, descriptors in internal memory
 * (the rank program registers enough persistent sends for that), segment to segment (MtoM:
 * the ping-pong runs rendezvous into registered memory). Pure and fast (microseconds per
 * point), so it finds crossovers at every N and drives the fit of the preset.
 */
public final class Analytic {
    /** Persistent chain length per DMAC that the emulated ping-pong reaches (internal descriptors: 17..1024). */
    public static final int CHAIN = 100;

    private final TimingModel model;
    private final NetTopology topo;
    private final Plan plan = new Plan();
    private final Transfer t = new Transfer();
    private final int[] path = new int[8];

    public Analytic(ModelParams p) {
        this.topo = new NetTopology(2, 2, false, null, (int) p.count("tca.dma.engines", 4), 0);
        this.model = new TimingModel(p, topo);
    }

    public TimingModel model() {
        return model;
    }

    /** Modelled one-way time (µs) of {@code bytes} in {@code layout} over {@code f}, alone. */
    public double oneWay(Fabric f, long bytes, Layout layout, long blocks, long elements) {
        t.set(f, 0, 1, bytes, layout, blocks, elements);
        t.mode = Transfer.Mode.MTOM;
        t.persistent = true;
        t.chainLength = CHAIN;
        t.cacheKey = 0;
        t.engineHint = -1;
        t.recvEngineHint = -1;
        model.plan(t, 0, new ArrayTimelines(topo.resources()), null, path, plan);
        return plan.visibleAt / 1000.0;
    }

    /**
     * Modelled one-way time (µs) of a message alone, as a given variant of the fabric
     * ping-pong sends it: persistent with a chain length (register ≤ 16, internal ≤ 1024, host
     * above), or not persistent through a descriptor cache in its steady state (the same
     * descriptor used {@code uses} times before; promotion after {@code promoteAfter} uses).
     */
    public double oneWay(Fabric f, long bytes, Layout layout, long blocks, long elements, boolean persistent, int chain,
                         Transfer.Mode mode, int promoteAfter, int uses) {
        t.set(f, 0, 1, bytes, layout, blocks, elements);
        t.mode = mode;
        t.persistent = persistent;
        t.chainLength = chain;
        t.cacheKey = 1;
        t.engineHint = -1;
        t.recvEngineHint = -1;
        org.hympj.model.DescriptorCache cache = new org.hympj.model.DescriptorCache(
            org.hympj.model.DescriptorCache.Policy.LRU, 64, promoteAfter);
        for (int i = 0; i < uses; i++) {
            cache.use(1);
        }
        model.plan(t, 0, new ArrayTimelines(topo.resources()), cache, path, plan);
        return plan.visibleAt / 1000.0;
    }

    /** The protocol of the last planned message. */
    public String lastProtocol() {
        return plan.protocol;
    }

    /** Modelled one-way time (µs) of one face of an array of side {@code n}. */
    public double face(Fabric f, Face face, long n) {
        return oneWay(f, face.bytes(n), face.layout, face.blocks(n), face.elements(n));
    }

    /** The protocol the model picks for a face (for the sweep's printout). */
    public String protocol(Fabric f, Face face, long n) {
        face(f, face, n);
        return plan.protocol;
    }

    /**
     * The N at which IB first becomes faster than TCA, searching N = from..to in steps of
     * {@code step} and interpolating linearly between the last N where TCA won and the first
     * where IB won; NaN when TCA wins throughout.
     */
    public double crossover(Face face, int from, int to, int step) {
        double prevN = Double.NaN;
        double prevD = Double.NaN;
        for (int n = from; n <= to; n += step) {
            double d = face(Fabric.TCA, face, n) - face(Fabric.IB, face, n); // > 0: IB faster
            if (d > 0) {
                if (Double.isNaN(prevD)) {
                    return n; // IB already faster at the first N
                }
                return prevN + (n - prevN) * (-prevD) / (d - prevD);
            }
            prevN = n;
            prevD = d;
        }
        return Double.NaN;
    }

    /** The crossover of a face searched over the range the analytic sweep uses for it (steps of 1 in 3D, 16 in 2D). */
    public double crossover(Face face) {
        return face.dims == 2 ? crossover(face, 16, 4 * 16384, 16) : crossover(face, 8, 2048, 1);
    }

    /** The byte size at which IB first beats TCA for a layout, searching sizes of doubles (bytes 8..to). */
    public long crossoverBytes(Layout layout, long blockElements, long toBytes) {
        // sizes on a geometric grid refined by bisection on the first sign change
        long prev = 8;
        for (double s = 8; s <= toBytes; s *= 1.02) {
            long b = ((long) s + 7) / 8 * 8;
            if (b == prev && b != 8) {
                continue;
            }
            if (ibFaster(layout, blockElements, b)) {
                long lo = prev;
                long hi = b;
                while (hi - lo > 8) {
                    long mid = (lo + hi) / 16 * 8;
                    if (ibFaster(layout, blockElements, mid)) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return lo; // TCA up to lo bytes
            }
            prev = b;
        }
        return Long.MAX_VALUE;
    }

    private boolean ibFaster(Layout layout, long blockElements, long bytes) {
        long e = bytes / 8;
        long blocks = layout == Layout.CONTIGUOUS ? 1 : layout == Layout.BLOCK_STRIDE ? Math.max(1, e / blockElements) : e;
        return oneWay(Fabric.IB, bytes, layout, blocks, e) < oneWay(Fabric.TCA, bytes, layout, blocks, e);
    }

    /** TCA time minus IB time (µs) of a face: positive where IB is faster. */
    public double lead(Face face, long n) {
        return face(Fabric.TCA, face, n) - face(Fabric.IB, face, n);
    }

    /**
     * The values of two parameters (file units) that put the crossovers of two faces exactly
     * at {@code n1} and {@code n2}, the other parameters as in {@code p}. Both faces' TCA−IB
     * differences must be affine in both parameters (true of the pack costs, which change no
     * protocol choice); solved from three evaluations. Used to show which value S1's 2D-stride
     * and 3D-stride rows would need together. (A negative solution is what the costs, affine in
     * the parameters, would need; the model itself cannot even take it: it starts a transfer no
     * earlier than it is issued.)
     */
    public static double[] solve(ModelParams p, String k1, String k2, Face f1, int n1, Face f2, int n2) {
        double v1 = Double.parseDouble(p.raw().getProperty(k1).trim());
        double v2 = Double.parseDouble(p.raw().getProperty(k2).trim());
        double h1 = Math.max(1e-6, Math.abs(v1) * 0.5);
        double h2 = Math.max(1e-6, Math.abs(v2) * 0.5);
        Analytic a0 = new Analytic(p);
        Analytic a1 = new Analytic(p.with(k1, Double.toString(v1 + h1)));
        Analytic a2 = new Analytic(p.with(k2, Double.toString(v2 + h2)));
        double d1 = a0.lead(f1, n1);
        double d2 = a0.lead(f2, n2);
        double j11 = (a1.lead(f1, n1) - d1) / h1;
        double j12 = (a2.lead(f1, n1) - d1) / h2;
        double j21 = (a1.lead(f2, n2) - d2) / h1;
        double j22 = (a2.lead(f2, n2) - d2) / h2;
        double det = j11 * j22 - j12 * j21;
        if (Math.abs(det) < 1e-12) {
            return new double[] {Double.NaN, Double.NaN};
        }
        // J * (dx1, dx2) = -(d1, d2)
        double dx1 = (-d1 * j22 + d2 * j12) / det;
        double dx2 = (-d2 * j11 + d1 * j21) / det;
        return new double[] {v1 + dx1, v2 + dx2};
    }

    /** One line per face: crossover N, S1's range, agreement. */
    public List<String[]> crossoverTable() {
        List<String[]> rows = new ArrayList<>();
        for (Face f : Face.values()) {
            double x = crossover(f);
            rows.add(new String[] {f.title, Double.isNaN(x) ? "none (TCA to " + (f.dims == 2 ? 4 * 16384 : 2048) + ")"
                : String.format(Locale.ROOT, "%.0f", x), f.s1Text(), f.agrees(x) ? "yes" : "no"});
        }
        return rows;
    }

    /** {@code java ... Analytic [MODEL] [key=value ...]}: prints the crossover table and a sweep. */
    public static void main(String[] args) {
        ModelParams p = ModelParams.load(args.length > 0 && !args[0].contains("=") ? args[0] : "ha-pacs");
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq > 0) {
                p = p.with(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
            }
        }
        Analytic an = new Analytic(p);
        System.out.println("| face | IB overtakes TCA at N | S1 | in S1's range? |");
        System.out.println("|---|---:|---|---|");
        for (String[] r : an.crossoverTable()) {
            System.out.println("| " + String.join(" | ", r) + " |");
        }
    }
}
