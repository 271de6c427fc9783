package org.hympj.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hympj.examples.ScaleLesHalo;
import org.hympj.examples.ScaleLesHalo.Message;
import org.hympj.examples.ScaleLesHalo.Pattern;
import org.hympj.rsched.MachineModel;
import org.hympj.rsched.Put;
import org.hympj.rsched.Schedule;
import org.hympj.rsched.Scheduler;
import org.hympj.rsched.Schedulers;
import org.hympj.model.ArrayTimelines;
import org.hympj.model.Fabric;
import org.hympj.model.ModelParams;
import org.hympj.model.NetTopology;
import org.hympj.model.Plan;
import org.hympj.model.TimingModel;
import org.hympj.model.Transfer;
import org.hympj.spi.Layout;

/**
 * Pure computations behind the scale-les3 report, no job: what RSched's simulator says of the
 * put set the engine hands it on the 8-rank 4×2 torus, and a <b>replay</b> of the emulator's
 * own timing model ({@link TimingModel} on {@link ArrayTimelines}) for one exchange in which
 * all 8 ranks issue at the same modelled instant: every rank's puts in the engine's order
 * (RSched's start order on the assigned send engines; request order and the earliest free
 * engine under {@code none}), the ranks one after the other ({@link Order#RANKS}: what 8
 * processes sharing 2 cores do, each issuing its Startall in one burst) or put by put in turn
 * ({@link Order#INTERLEAVED}). The emulator reserves engines, receive engines and links in
 * the order its ranks plan, so the replay shows what the measured figure converges to when the
 * time dilation removes the cost of the Java code, and how much the order matters.
 */
public final class ScaleLes3Model {
    /** The 4×2 periodic grid of 8 ranks (dimsCreate(8, 2)), the torus of the tofu model (default). */
    public static final int[] DIMS = {4, 2};

    /** In which order the ranks' puts are planned on the shared timelines. */
    public enum Order { RANKS, INTERLEAVED }

    private ScaleLes3Model() {
    }

    static NetTopology topology(int[] dims) {
        int n = dims[0] * dims[1];
        return new NetTopology(n, n, true, dims, 4, 4);
    }

    /** RSched's machine as the engine builds it from the tofu model. */
    public static MachineModel machine() {
        ModelParams p = ModelParams.load("tofu");
        int engines = (int) p.count("tca.dma.engines", 4);
        return new MachineModel(engines, p.bytesPerNs("tca.dma.bandwidth"), p.bytesPerNs("tca.link.bandwidth"),
            p.ns("tca.dma.latency.register"), (int) Math.max(1, p.count("tca.dma.recv.engines", engines)));
    }

    static int[] coords(int[] dims, int rank) {
        return new int[] {rank / dims[1], rank % dims[1]};
    }

    /** The messages of one rank (ScaleLesHalo's order). */
    static List<Message> messages(int[] dims, int rank, String pattern, int k) {
        return ScaleLesHalo.messages(dims, coords(dims, rank), Pattern.parse(pattern), k);
    }

    /**
     * The puts the engine gives RSched for {@code rank}: direction and diagonal flag from the
     * torus ({@link NetTopology#direction}; on a ring of 2 ranks, N and S are one neighbour and
     * one link, and so are NE/SE and NW/SW).
     */
    public static List<Put> enginePuts(int rank, String pattern, int k) {
        return enginePuts(DIMS, rank, pattern, k);
    }

    /** As above on a {@code dims} periodic grid. */
    public static List<Put> enginePuts(int[] dims, int rank, String pattern, int k) {
        NetTopology topo = topology(dims);
        List<Put> puts = new ArrayList<>();
        for (Message m : messages(dims, rank, pattern, k)) {
            puts.add(org.hympj.model.JobFabric.put(topo, puts.size(), rank, m.dest(), m.bytes()));
        }
        return puts;
    }

    /**
     * The same puts with each message's own direction (N and S, NE and SE, NW and SW kept apart
     * as if the two ways round the 2-rank y ring were two links): what RSched would schedule if
     * the engine told it the direction of travel instead of the first link of the route.
     */
    public static List<Put> travelDirectionPuts(int rank, String pattern, int k) {
        NetTopology topo = topology(DIMS);
        List<Put> puts = new ArrayList<>();
        for (Message m : messages(DIMS, rank, pattern, k)) {
            puts.add(new Put(puts.size(), m.dest(), m.direction().ordinal(), Math.max(1, m.bytes()),
                topo.diagonal(rank, m.dest())));
        }
        return puts;
    }

    /** RSched's schedule of rank 0's set with the travel directions ({@link #travelDirectionPuts}). */
    public static Schedule scheduleTravelDirections(String policy, String pattern, int k) {
        return Schedulers.parse(policy).schedule(travelDirectionPuts(0, pattern, k), machine());
    }

    /** RSched's schedule of rank 0's set on the 4×2 torus (policy "none": rr:1, RSched's reading of it). */
    public static Schedule schedule(String policy, String pattern, int k) {
        return schedule(DIMS, policy, pattern, k);
    }

    /** As above on a {@code dims} periodic grid. */
    public static Schedule schedule(int[] dims, String policy, String pattern, int k) {
        return Schedulers.parse(policy).schedule(enginePuts(dims, 0, pattern, k), machine());
    }

    /** The modelled time (ns) of one exchange replayed on the emulator's model: the latest visibility. */
    public static double replay(String policy, String pattern, int k, Order order) {
        return replay(DIMS, policy, pattern, k, order);
    }

    /** As above on a {@code dims} periodic grid. */
    public static double replay(int[] dims, String policy, String pattern, int k, Order order) {
        ModelParams p = ModelParams.load("tofu");
        NetTopology topo = topology(dims);
        int ranks = dims[0] * dims[1];
        TimingModel model = new TimingModel(p, topo);
        ArrayTimelines tl = new ArrayTimelines(topo.resources());
        Scheduler sched = policy.equals("none") ? null : Schedulers.parse(policy);
        MachineModel machine = machine();
        List<List<Transfer>> perRank = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            List<Message> ms = messages(dims, r, pattern, k);
            Integer[] ord = new Integer[ms.size()];
            int[] engine = new int[ms.size()];
            Arrays.fill(engine, -1);
            for (int i = 0; i < ord.length; i++) {
                ord[i] = i;
            }
            if (sched != null) {
                Schedule s = sched.schedule(enginePuts(dims, r, pattern, k), machine);
                Arrays.sort(ord, (a, b) -> Double.compare(s.slotOf(a).startNs(), s.slotOf(b).startNs()));
                for (int i = 0; i < ord.length; i++) {
                    engine[i] = s.slotOf(i).engine();
                }
            }
            List<Transfer> ts = new ArrayList<>();
            for (int i : ord) {
                Message m = ms.get(i);
                boolean ew = m.direction().dy() == 0;
                Transfer t = new Transfer();
                // E/W: DOUBLE.vector(16, KA*2, KA*IA), a block-stride face of 16 blocks; the others contiguous
                t.set(Fabric.TCA, r, m.dest(), m.bytes(), ew ? Layout.BLOCK_STRIDE : Layout.CONTIGUOUS, ew ? 16 : 1,
                    m.bytes() / 8);
                // segment buffer; an unscheduled eager put lands in the receiver's bounce buffer, a
                // scheduled one straight in the receive buffer (S3's persistent protocol; Engine#plan)
                t.mode = sched != null ? Transfer.Mode.MTOM : Transfer.Mode.MTOB;
                t.persistent = true;
                t.chainLength = 1;
                t.engineHint = engine[i];
                t.recvEngineHint = engine[i]; // as the engine does: the receive engine of the send engine's number
                ts.add(t);
            }
            perRank.add(ts);
        }
        Plan plan = new Plan();
        int[] path = new int[Math.max(4, topo.maxHops() + 2)];
        long last = 0;
        if (order == Order.RANKS) {
            for (List<Transfer> ts : perRank) {
                for (Transfer t : ts) {
                    model.plan(t, 0, tl, null, path, plan);
                    last = Math.max(last, plan.visibleAt);
                }
            }
        } else {
            int n = perRank.get(0).size();
            for (int i = 0; i < n; i++) {
                for (List<Transfer> ts : perRank) {
                    model.plan(ts.get(i), 0, tl, null, path, plan);
                    last = Math.max(last, plan.visibleAt);
                }
            }
        }
        return last;
    }

    /** Prints the replay and RSched's figures: {@code [policies [patterns [ks [XxY]]]]}, comma-separated lists. */
    public static void main(String[] args) {
        List<String> policies = args.length > 0 ? List.of(args[0].split(",")) : Benchmarks.SCHED_POLICIES;
        List<String> patterns = args.length > 1 ? List.of(args[1].split(",")) : org.hympj.rsched.ScaleLes3.PATTERNS;
        List<Integer> ks = new ArrayList<>();
        if (args.length > 2) {
            for (String s : args[2].split(",")) {
                ks.add(Integer.parseInt(s));
            }
        } else {
            ks.addAll(org.hympj.rsched.ScaleLes3.KS);
        }
        int[] dims = args.length > 3 ? new int[] {Integer.parseInt(args[3].split("x")[0]),
            Integer.parseInt(args[3].split("x")[1])} : DIMS;
        String g = dims[0] + "x" + dims[1];
        System.out.println("pattern,k,policy,replay_ranks_us,replay_interleaved_us,rsched_" + g + "_us,bound_" + g
            + "_us,rsched_s3_us");
        for (String pat : patterns) {
            for (int k : ks) {
                for (String pol : policies) {
                    Schedule s = schedule(dims, pol.equals("none") ? "rr:1" : pol, pat, k);
                    double s3 = Schedulers.parse(pol.equals("none") ? "rr:1" : pol)
                        .schedule(org.hympj.rsched.ScaleLes3.puts(k, pat), MachineModel.tofu()).makespanNs();
                    System.out.printf(java.util.Locale.ROOT, "%s,%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f%n", pat, k, pol,
                        replay(dims, pol, pat, k, Order.RANKS) / 1000, replay(dims, pol, pat, k, Order.INTERLEAVED) / 1000,
                        s.makespanNs() / 1000, s.lowerBoundNs() / 1000, s3 / 1000);
                }
            }
        }
    }
}
