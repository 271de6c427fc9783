package org.hympj.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.hympj.api.CartComm;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;
import org.hympj.examples.ScaleLesHalo;
import org.hympj.examples.ScaleLesHalo.Message;
import org.hympj.examples.ScaleLesHalo.Pattern;

/**
 * Rank program of {@code bin/hympj-bench scale-les3}: S3's SCALE-LES3 halo exchange (the
 * messages, datatypes and request order of {@code org.hympj.examples.ScaleLesHalo}: 14
 * persistent sends to the 8 neighbours, receives started first) timed per exchange in S3's
 * pseudo-collective mode, for RSched's tables.
 *
 * <pre>usage: ScaleLes3Bench sched[=POLICY] REP heap|segment K...</pre>
 *
 * POLICY only labels the rows (the launcher's {@code --sched} sets the policy), unless
 * {@code hympj.bench.policies} lists the policies: then every one runs in this job, each on a
 * duplicate of the grid with the {@code hympj.sched} hint ({@link Comm#HINT_SCHED}; "default":
 * the grid itself, the launcher's {@code --sched}), its rows labelled with it. Properties
 * (set by {@code hympj-bench} from its options): {@code hympj.bench.patterns} (default
 * {@code ew,ns,nsew,diag,all}), {@code hympj.bench.iters} (timed exchanges per pattern and k,
 * default 100, split into {@link Rows#NBATCH} batches), {@code hympj.bench.warmup} (untimed
 * exchanges before them, default 10), {@code hympj.bench.sync}:
 * <ul>
 * <li>{@code program} (default): S3's barriers at the start of every Startall and the end of every
 *     Waitall are called by this program ({@code world.barrier()}, the very barrier the engine's
 *     {@code --sched-barrier} calls), outside the timed window: an exchange is timed from the end
 *     of its start barrier to the return of its Waitall. Works alike for every {@code --sched},
 *     {@code none} included (where the engine's {@code --sched-barrier} does nothing);</li>
 * <li>{@code engine}: no barrier here; run with {@code --sched-barrier}; the window then holds
 *     the engine's two barriers too (their real cost divided by the time dilation).</li>
 * </ul>
 *
 * <p>Per exchange, the span is the latest end over the ranks minus the earliest start (modelled
 * time under a model: {@link Comm#wtime}); the row is the median over all timed exchanges, in µs:
 * {@code hympj,scale-les3-PATTERN,POLICY,K,REP,us,us} (not the median batch mean, as elsewhere: with
 * 9 rank JVMs on 2 cores an exchange whose ranks the OS scheduler started milliseconds apart runs
 * tens of modelled µs late, and one such exchange in a batch of five moved the whole batch; the
 * batch means stay in the remark line).
 * Rank 0 also prints RSched's own figures for its put set when the engine scheduled one
 * ({@code hympj,scale-les3-PATTERN-sched,POLICY,K,REP,makespan,us} and {@code ...-bound}),
 * and remarks (lines starting with {@code #}): the per-exchange median and minimum, the time
 * dilation. After the timed exchanges every rank checks every cell of its array (owned cells
 * unchanged, halo cells of the pattern's directions hold the neighbour's values, the others the
 * sentinel), then a fresh round of values is exchanged once and checked again; a wrong value
 * fails the job.
 */
public final class ScaleLes3Bench {
    private static final int HALO = ScaleLesHalo.HALO;

    private ScaleLes3Bench() {
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: ScaleLes3Bench sched[=POLICY] REP heap|segment K...");
        }
        String label = args[0].contains("=") ? args[0].substring(args[0].indexOf('=') + 1) : "default";
        String hinted = System.getProperty("hympj.bench.policies");
        List<String> policies = hinted != null ? List.of(hinted.split(",")) : List.of(label);
        int rep = Integer.parseInt(args[1]);
        List<BufferKind> kinds = BufferKind.parse(args[2]);
        int[] ks = new int[args.length - 3];
        int kmax = 1;
        for (int a = 3; a < args.length; a++) {
            ks[a - 3] = Integer.parseInt(args[a]);
            if (ks[a - 3] < 1 || ks[a - 3] + 2 * HALO >= 4096) {
                throw new IllegalArgumentException("k must be 1..4091, was " + ks[a - 3]);
            }
            kmax = Math.max(kmax, ks[a - 3]);
        }
        List<Pattern> patterns = new ArrayList<>();
        for (String p : System.getProperty("hympj.bench.patterns", "ew,ns,nsew,diag,all").split(",")) {
            patterns.add(Pattern.parse(p));
        }
        int iters = Integer.getInteger("hympj.bench.iters", 100);
        int warmup = Integer.getInteger("hympj.bench.warmup", 10);
        String sync = System.getProperty("hympj.bench.sync", "program");
        if (!sync.equals("program") && !sync.equals("engine")) {
            throw new IllegalArgumentException("hympj.bench.sync must be program or engine, was " + sync);
        }
        int per = Math.max(1, iters / Rows.NBATCH);
        try (Mpj mpj = Mpj.init(args)) {
            Comm world = mpj.world();
            CartComm cart = world.createCart(CartComm.dimsCreate(world.size(), new int[2]), new boolean[] {true, true},
                false);
            org.hympj.shm.pml.Engine engine = mpj instanceof org.hympj.shm.ShmMpj
                ? ((org.hympj.shm.ShmMpj) mpj).engine() : null;
            if (cart.rank() == 0) {
                double d = engine != null && engine.timing() != null ? engine.timing().dilation() : 1;
                System.out.printf(Locale.ROOT, "# scale-les3: %d ranks as %s periodic, %s %s, sync %s, %d warm-up"
                        + " + %d x %d timed exchanges per cell, time dilation %.0f%n", cart.size(),
                    Arrays.toString(cart.dims()), hinted != null ? "policies by hint" : "policy", String.join(",",
                        policies), sync, warmup, Rows.NBATCH, per, d);
            }
            for (BufferKind kind : kinds) {
                int kaMax = kmax + 2 * HALO;
                Object buf = kind == BufferKind.SEGMENT ? cart.allocDoubles(ScaleLesHalo.cells(kaMax))
                    : new double[ScaleLesHalo.cells(kaMax)];
                for (String policy : policies) {
                    CartComm comm = hinted == null || policy.equals("default") ? cart
                        : cart.dup(java.util.Map.of(Comm.HINT_SCHED, policy));
                    cells(comm, engine, kind, kinds.size() > 1, patterns, ks, per, warmup, sync, policy, rep, buf);
                }
            }
        }
    }

    /** Every (k, pattern) cell of one policy and buffer kind on {@code cart}; rank 0 prints the rows. */
    private static void cells(CartComm cart, org.hympj.shm.pml.Engine engine, BufferKind kind, boolean labelKind,
                              List<Pattern> patterns, int[] ks, int per, int warmup, String sync, String policy, int rep,
                              Object buf) {
        if (Rows.PREPASS) {
            cell(cart, engine, buf, patterns.get(0), ks[0], per, warmup, sync); // untimed, discarded
        }
        for (int k : ks) {
            for (Pattern p : patterns) {
                Result r = cell(cart, engine, buf, p, k, per, warmup, sync);
                if (cart.rank() == 0) {
                    String test = "scale-les3-" + p.name().toLowerCase(Locale.ROOT);
                    String variant = policy + (labelKind ? "-" + kind.label() : "");
                    Rows.print(Rows.row(test, variant, k, rep, r.exchangeMedian, 3, "us"));
                    if (r.makespanUs > 0) {
                        Rows.print(Rows.row(test + "-sched", variant, k, rep, r.makespanUs, 3, "us"));
                        Rows.print(Rows.row(test + "-bound", variant, k, rep, r.boundUs, 3, "us"));
                    }
                    System.out.printf(Locale.ROOT, "# %s k=%d %s: median batch %.3f us; per exchange median"
                            + " %.3f min %.3f; batches %s%s%n", test, k, variant, r.median, r.exchangeMedian,
                        r.exchangeMin, fmt(r.batches), r.makespanUs > 0
                            ? String.format(Locale.ROOT, "; rsched makespan %.3f bound %.3f", r.makespanUs,
                                r.boundUs) : "");
                }
            }
        }
    }

    /** What one (pattern, k) cell measured. */
    static final class Result {
        double median;
        double[] batches;
        double exchangeMedian;
        double exchangeMin;
        double makespanUs;
        double boundUs;
    }

    private static String fmt(double[] v) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", v[i]));
        }
        return b.append(']').toString();
    }

    /** Warm-up, NBATCH batches of {@code per} timed exchanges, then the checks. */
    static Result cell(CartComm cart, org.hympj.shm.pml.Engine engine, Object buf, Pattern pattern, int k, int per,
                       int warmup, String sync) {
        int ka = k + 2 * HALO;
        List<Message> sends = org.hympj.examples.ScaleLesHalo.messages(cart.dims(), cart.coords(), pattern, k);
        PersistentRequest[] reqs = ScaleLesHalo.requests(cart, buf, pattern, sends, ka);
        boolean program = sync.equals("program");
        ScaleLesHalo.fill(buf, cart.rank(), 0, ka);
        if (engine != null && engine.clock() != null) {
            CellStart.alignClocks(cart);
        }
        cart.barrier();
        for (int it = 0; it < warmup; it++) {
            exchange(cart, reqs, program, null, null, 0);
        }
        int n = per * Rows.NBATCH;
        double[] start = new double[n];
        double[] end = new double[n];
        for (int it = 0; it < n; it++) {
            exchange(cart, reqs, program, start, end, it);
        }
        Result r = new Result();
        org.hympj.rsched.Schedule s = engine == null ? null : engine.lastSchedule();
        if (s != null) {
            r.makespanUs = s.makespanNs() / 1000;
            r.boundUs = s.lowerBoundNs() / 1000;
        }
        cart.allreduce(Comm.IN_PLACE, 0, start, 0, n, Datatype.DOUBLE, Op.MIN);
        cart.allreduce(Comm.IN_PLACE, 0, end, 0, n, Datatype.DOUBLE, Op.MAX);
        double[] span = new double[n];
        for (int i = 0; i < n; i++) {
            span[i] = (end[i] - start[i]) * 1e6;
        }
        r.batches = new double[Rows.NBATCH];
        for (int b = 0; b < Rows.NBATCH; b++) {
            double sum = 0;
            for (int i = b * per; i < (b + 1) * per; i++) {
                sum += span[i];
            }
            r.batches[b] = sum / per;
        }
        r.median = Rows.median(r.batches);
        r.exchangeMedian = Rows.median(span);
        r.exchangeMin = Arrays.stream(span).min().orElse(0);

        long[] checked = {0, 0};
        ScaleLesHalo.check(cart, buf, pattern, 0, ka, checked);
        ScaleLesHalo.fill(buf, cart.rank(), 1, ka);       // a new round: only a fresh exchange can deliver these values
        cart.barrier();
        Request.startAll(reqs);
        Request.waitAll(reqs);
        ScaleLesHalo.check(cart, buf, pattern, 1, ka, checked);
        for (PersistentRequest q : reqs) {
            q.free();
        }
        cart.allreduce(Comm.IN_PLACE, 0, checked, 0, 2, Datatype.LONG, Op.SUM);
        if (checked[1] != 0) {
            throw new IllegalStateException("scale-les3: verify FAILED for pattern " + pattern + " k=" + k + ": "
                + checked[1] + " of " + checked[0] + " values wrong");
        }
        return r;
    }

    private static void exchange(CartComm cart, PersistentRequest[] reqs, boolean program, double[] start,
                                 double[] end, int i) {
        if (program) {
            cart.barrier();
        }
        double t0 = cart.wtime();
        Request.startAll(reqs);
        Request.waitAll(reqs);
        double t1 = cart.wtime();
        if (program) {
            cart.barrier();
        }
        if (start != null) {
            start[i] = t0;
            end[i] = t1;
        }
    }
}
