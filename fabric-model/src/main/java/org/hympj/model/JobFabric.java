package org.hympj.model;

import org.hympj.router.HybridPolicy;
import org.hympj.router.RouteChoice;
import org.hympj.router.RouteTable;
import org.hympj.rsched.MachineModel;
import org.hympj.rsched.Put;
import org.hympj.rsched.Scheduler;
import org.hympj.rsched.Schedulers;

/**
 * A job's fabric as both clocks see it: the timing model and topology built from its
 * {@link FabricOptions}, and every decision made on them — the route of each message (the
 * hybrid router or the forced route), RSched's scheduler and its machine model, whether the
 * rendezvous handshake is paid for as control puts. The emulator's engine (one per rank) and
 * the simulator (one per run) each hold one and ask it the same questions, so they cannot
 * drift apart. Immutable after construction.
 */
public final class JobFabric {
    private final FabricOptions options;
    private final TimingModel model;
    private final MachineModel machine;
    private final FabricPolicy policy;
    /** Policies of communicators' hints, by "sched|route" (built once each; a job uses a few). */
    private final java.util.Map<String, FabricPolicy> policies = new java.util.concurrent.ConcurrentHashMap<>();

    private JobFabric(FabricOptions options, TimingModel model) {
        this.options = options;
        this.model = model;
        if (model != null) {
            ModelParams p = model.params();
            int engines = (int) p.count("tca.dma.engines", 4);
            this.machine = new MachineModel(engines, p.bytesPerNs("tca.dma.bandwidth"),
                p.bytesPerNs("tca.link.bandwidth"), p.ns("tca.dma.latency.register"),
                (int) Math.max(1, p.count("tca.dma.recv.engines", engines)));
        } else {
            this.machine = null;
        }
        this.policy = build(options.sched, options.route);
        policies.put(options.sched + "|" + options.route, policy);
    }

    /** The decisions under {@code sched} and {@code route} (values as checked by FabricOptions). */
    private FabricPolicy build(String sched, String route) {
        NetTopology topo = model == null ? null : model.topology();
        int sub = options.subcluster;
        RouteChoice.Reach reach = topo != null ? topo::tcaReaches : (a, b) -> a / sub == b / sub;
        // a model with one fabric (tofu) leaves nothing to route: every message takes it
        boolean hybrid = route.equals("hybrid") || route.equals("auto") && options.modelled();
        HybridPolicy hp = hybrid && (model == null || model.hasIb()) ? policy(options, model) : null;
        RouteChoice routes = new RouteChoice(hp, route, reach, options.channels(), sub);
        boolean rsched = !sched.equals("none") && !sched.equals(FabricOptions.SCHED_RNDV);
        Scheduler scheduler = model != null && rsched ? Schedulers.parse(sched) : null;
        boolean handshake = model != null && sched.equals(FabricOptions.SCHED_RNDV);
        return new FabricPolicy(sched, route, routes, scheduler, handshake);
    }

    /** The job's fabric; its model is loaded unless the options say none. */
    public static JobFabric of(FabricOptions options) {
        return new JobFabric(options, options.modelled() ? modelFor(options) : null);
    }

    /** Builds the timing model and topology of a job (also how the launcher validates --model). */
    public static TimingModel modelFor(FabricOptions options) {
        ModelParams p = ModelParams.load(options.model);
        return new TimingModel(p, topologyFor(p, options.size, options.subcluster));
    }

    /** The topology a job of {@code size} ranks has under model parameters {@code p}. */
    public static NetTopology topologyFor(ModelParams p, int size, int subcluster) {
        boolean torus = p.string("topology", "rings").equals("torus2d");
        int[] dims = torus ? torusDims(p, size) : null;
        int engines = (int) p.count("tca.dma.engines", 4);
        int recv = (int) p.count("tca.dma.recv.engines", 0);
        return new NetTopology(size, subcluster, torus, dims, engines, recv);
    }

    private static int[] torusDims(ModelParams p, int size) {
        String t = p.string("model.torus", "");
        if (!t.isEmpty()) {
            String[] xy = t.split("x");
            return new int[] {Integer.parseInt(xy[0].trim()), Integer.parseInt(xy[1].trim())};
        }
        return org.hympj.api.Topology.dimsCreate(size, new int[2]);
    }

    /** The hybrid router's policy: the job's table, striped in proportion to the fabrics' bandwidths. */
    private static HybridPolicy policy(FabricOptions o, TimingModel model) {
        RouteTable table = RouteTable.load(o.routeTableName());
        if (o.stripe >= 0) {
            table = table.withStripeThreshold(o.stripe);
        }
        double tcaBw = 1;
        double ibBw = 1;
        if (model != null && model.hasIb()) {
            tcaBw = model.params().bytesPerNs("tca.dma.bandwidth");
            ibBw = model.params().bytesPerNs("ib.bandwidth");
        }
        return new HybridPolicy(table, tcaBw, ibBw);
    }

    public FabricOptions options() {
        return options;
    }

    /** The timing model, or null natively. */
    public TimingModel model() {
        return model;
    }

    /** The route of every message under the job's own policy. */
    public RouteChoice routes() {
        return policy.routes();
    }

    /** RSched's scheduler for persistent TCA sets under the job's --sched, or null (no model, or --sched none/rndv). */
    public Scheduler scheduler() {
        return policy.scheduler();
    }

    /** RSched's view of a rank's DMA engines and links (null without a model). */
    public MachineModel machine() {
        return machine;
    }

    /** Under --sched rndv with a model: RTS and CTS are planned as control puts. */
    public boolean handshakePuts() {
        return policy.handshakePuts();
    }

    /** The job's own policy: its --sched and --route. */
    public FabricPolicy policy() {
        return policy;
    }

    /**
     * The policy of a communicator whose hints say {@code sched} and {@code route} (null: the
     * job's), built once per pair by the same code as the job's own.
     *
     * @param what the name to give a bad value in the error (e.g. "hint hympj.sched")
     * @throws IllegalArgumentException for a value the option does not take, or a route on a
     *         job without emulated fabrics (natively there is one channel: nothing to route)
     */
    public FabricPolicy policy(String sched, String route, String schedWhat, String routeWhat) {
        String s = sched == null ? options.sched : FabricOptions.checkSched(schedWhat, sched);
        String r = route == null ? options.route : FabricOptions.checkRoute(routeWhat, route);
        if (route != null && !options.emulatesFabrics() && !route.equals("auto")) {
            throw new IllegalArgumentException(routeWhat + " " + route + " needs emulated fabrics (a --model, or "
                + "--route at launch); this job runs natively on one channel");
        }
        return policies.computeIfAbsent(s + "|" + r, k -> build(s, r));
    }

    /** A Startall put from {@code src} to {@code dst} as RSched sees it: see {@link #put(NetTopology, int, int, int, long)}. */
    public Put put(int id, int src, int dst, long bytes) {
        return put(model.topology(), id, src, dst, bytes);
    }

    /**
     * A put from {@code src} to {@code dst} on {@code topo} as RSched sees it: its direction, its
     * size, and the links its route crosses ({@link NetTopology#routeLinks}), so that the
     * schedule keeps every link of the route to one put and times the links the model books.
     */
    public static Put put(NetTopology topo, int id, int src, int dst, long bytes) {
        int direction = topo.direction(src, dst);
        int[] route = new int[Math.max(1, topo.maxHops() + 1)];
        int hops = topo.routeLinks(src, dst, route);
        int[] links = hops == 0 ? new int[] {direction} : java.util.Arrays.copyOf(route, hops);
        return new Put(id, dst, direction, Math.max(1, bytes), topo.diagonal(src, dst), links);
    }

    /** A rank's descriptor cache, as the model's parameters size it. */
    public DescriptorCache newDescriptorCache() {
        return DescriptorCache.of(model.params());
    }

    /** The fabric of a channel: 0 = TCA, 1 = IB. */
    public static Fabric fabricOf(int channel) {
        return channel == 0 ? Fabric.TCA : Fabric.IB;
    }
}
