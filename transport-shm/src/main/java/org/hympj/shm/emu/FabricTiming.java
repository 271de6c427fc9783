package org.hympj.shm.emu;

import org.hympj.api.Datatype;
import org.hympj.shm.job.JobConfig;
import org.hympj.shm.model.DescriptorCache;
import org.hympj.shm.model.Fabric;
import org.hympj.spi.Layout;
import org.hympj.shm.model.ModelParams;
import org.hympj.shm.model.NetTopology;
import org.hympj.shm.model.Plan;
import org.hympj.shm.model.Timelines;
import org.hympj.shm.model.TimingModel;
import org.hympj.shm.model.Transfer;

/**
 * One rank's view of the timing model while emulating: turns a message into a
 * {@link Transfer}, plans it on the shared timelines, and converts between modelled time
 * and the real clock: {@code real = epoch + modelled × dilation}. Allocation-free per message.
 */
public final class FabricTiming {
    private final TimingModel model;
    private final Timelines timelines;
    private final DescriptorCache cache;
    private final long epoch;
    private final double dilation;
    private final Transfer transfer = new Transfer();
    private final Plan plan = new Plan();
    private final int[] path;
    private final int rank;
    private int persistentTcaSends;

    /** Filled by {@link #plan}: real-time instants of the last planned message. */
    public long visibleAtReal;
    public long senderDoneReal;
    public long modelledDuration;

    public FabricTiming(TimingModel model, Timelines timelines, JobConfig config, int rank, int cores) {
        this.model = model;
        this.timelines = timelines;
        ModelParams p = model.params();
        this.cache = new DescriptorCache(DescriptorCache.policy(p.string("tca.cache.policy", "lru")),
            (int) p.count("tca.cache.entries", 64), (int) p.count("tca.cache.promote.after", 4));
        this.epoch = config.epochNanos;
        this.dilation = config.effectiveDilation(cores);
        this.path = new int[Math.max(4, model.topology().maxHops() + 2)];
        this.rank = rank;
    }

    /** Builds the model and topology for a job (also used to validate --model at launch). */
    public static TimingModel modelFor(JobConfig config) {
        ModelParams p = ModelParams.load(config.model);
        return new TimingModel(p, topologyFor(p, config.size, config.subcluster));
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

    public TimingModel model() {
        return model;
    }

    public double dilation() {
        return dilation;
    }

    public long modelNow(long realNow) {
        return (long) ((realNow - epoch) / dilation);
    }

    public long toReal(long modelled) {
        return epoch + (long) (modelled * dilation);
    }

    /** Counts a persistent TCA send (its descriptors live on this rank's DMACs until it is freed). */
    public void registerPersistentTca() {
        persistentTcaSends++;
    }

    /** A persistent TCA send was freed: its descriptors leave the DMACs. */
    public void releasePersistentTca() {
        if (persistentTcaSends > 0) {
            persistentTcaSends--;
        }
    }

    /**
     * Plans one message of {@code count} items of {@code type} from this rank to {@code dst}
     * over {@code fabric}, issued now. Sets {@link #visibleAtReal} and {@link #senderDoneReal}.
     */
    public void plan(Fabric fabric, int dst, Datatype type, int count, long bytes, boolean srcInSegment,
                     boolean dstInSegment, boolean persistent, long realNow) {
        plan(fabric, dst, type, count, bytes, srcInSegment, dstInSegment, persistent, -1, -1, realNow);
    }

    /** As above, on the send and receive engines a scheduler assigned (-1: the model picks). */
    public void plan(Fabric fabric, int dst, Datatype type, int count, long bytes, boolean srcInSegment,
                     boolean dstInSegment, boolean persistent, int engine, int recvEngine, long realNow) {
        transfer.engineHint = engine;
        transfer.recvEngineHint = recvEngine;
        Layout layout = Layout.of(type, count);
        long blocks = type.isContiguous() ? 1 : type.elements() / Math.max(1, type.blockLength()) * count;
        transfer.set(fabric, rank, dst, bytes, layout, blocks, type.elements() * count);
        transfer.mode = srcInSegment ? (dstInSegment ? Transfer.Mode.MTOM : Transfer.Mode.MTOB)
            : (dstInSegment ? Transfer.Mode.BTOM : Transfer.Mode.BTOB);
        transfer.persistent = persistent;
        int engines = Math.max(1, model.topology().engines());
        transfer.chainLength = (persistentTcaSends + engines - 1) / engines;
        transfer.cacheKey = ((long) dst * 31 + bytes) * 31 + layout.ordinal() * 7L + type.hashCode();
        planTransfer(modelNow(realNow), cache);
    }

    /** Plans {@link #transfer} issued at modelled {@code now}; sets the real-time results. */
    private void planTransfer(long now, DescriptorCache descriptors) {
        model.plan(transfer, now, timelines, descriptors, path, plan);
        visibleAtReal = toReal(plan.visibleAt);
        senderDoneReal = toReal(plan.senderDone);
        modelledDuration = plan.visibleAt - now;
    }

    /** Bytes of a rendezvous control message (RTS, CTS) planned as a put under {@code --sched rndv}. */
    public static final long CONTROL_BYTES = Transfer.CONTROL_BYTES;

    /**
     * Plans a rendezvous control message (S3's original protocol: RTS and CTS are RDMA puts)
     * from this rank to {@code dst} over {@code fabric}: {@link #CONTROL_BYTES} contiguous,
     * registered at both ends, issued at the later of now and {@code notBeforeReal} (0: now). It
     * is an ordinary put: it queues on the send and receive engines behind the work booked
     * there (a clear-to-send can wait behind a bulk put), and only its links interleave, as
     * for any transfer up to {@code link.packet.limit}. Its descriptor is built by the host
     * (not looked up in the descriptor cache, which it would otherwise churn for the data
     * puts). Sets {@link #visibleAtReal} and {@link #senderDoneReal}; allocation-free.
     */
    public void planControl(Fabric fabric, int dst, long notBeforeReal, long realNow) {
        transfer.setControl(fabric, rank, dst);
        long now = modelNow(realNow);
        if (notBeforeReal != 0) {
            now = Math.max(now, modelAtOrAfter(notBeforeReal));
        }
        planTransfer(now, null);
    }

    /** The first modelled instant whose real time is at or after {@code real} (inverse of {@link #toReal}). */
    long modelAtOrAfter(long real) {
        long m = modelNow(real);
        return toReal(m) < real ? m + 1 : m;
    }

    /** Modelled instant the last planned message is visible at its destination. */
    public long lastVisibleAt() {
        return plan.visibleAt;
    }

    public String lastProtocol() {
        return plan.protocol;
    }

    /** Engine, modelled start and modelled engine end of the last planned message (for the trace). */
    public int lastEngine() {
        return plan.engine;
    }

    /** First link of the last planned message's path (-1: none); {@link NetTopology#linkName} names it. */
    public int lastLink() {
        return plan.link;
    }

    public long lastStart() {
        return plan.start;
    }

    public long lastSenderDone() {
        return plan.senderDone;
    }

    public DescriptorCache cache() {
        return cache;
    }
}
