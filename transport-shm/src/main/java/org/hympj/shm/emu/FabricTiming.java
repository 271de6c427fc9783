package org.hympj.shm.emu;

import org.hympj.api.Datatype;
import org.hympj.model.DescriptorCache;
import org.hympj.model.Fabric;
import org.hympj.spi.Layout;
import org.hympj.model.Plan;
import org.hympj.model.Timelines;
import org.hympj.model.TimingModel;
import org.hympj.model.Transfer;

/**
 * One rank's view of the timing model while emulating: turns a message into a
 * {@link Transfer}, plans it on the shared timelines, and keeps the rank's clock. Instants in
 * packets and requests are <em>stamps</em>: on the wall clock real nanoseconds
 * ({@code real = epoch + modelled × dilation}), on virtual time the modelled nanoseconds
 * themselves ({@link VirtualClock}). Allocation-free per message.
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
    /** The rank's modelled clock under virtual time; null on the wall clock. */
    private final VirtualClock virtual;

    /** Filled by {@link #plan}: real-time instants of the last planned message. */
    public long visibleAtReal;
    public long senderDoneReal;
    public long modelledDuration;

    /**
     * @param epochNanos the job's time origin (System.nanoTime, one clock for the machine)
     * @param dilation   modelled durations last this many times longer in real time
     */
    public FabricTiming(TimingModel model, Timelines timelines, long epochNanos, double dilation, int rank) {
        this(model, timelines, epochNanos, dilation, rank, null);
    }

    /** As above; with {@code virtual} non-null the rank runs on virtual time (epoch and dilation unused). */
    public FabricTiming(TimingModel model, Timelines timelines, long epochNanos, double dilation, int rank,
                        VirtualClock virtual) {
        this.virtual = virtual;
        this.model = model;
        this.timelines = timelines;
        this.cache = DescriptorCache.of(model.params());
        this.epoch = epochNanos;
        this.dilation = dilation;
        this.path = new int[Math.max(4, model.topology().maxHops() + 2)];
        this.rank = rank;
    }

    public TimingModel model() {
        return model;
    }

    public double dilation() {
        return dilation;
    }

    /** The modelled instant of a stamp. */
    public long modelNow(long stamp) {
        return virtual != null ? stamp : (long) ((stamp - epoch) / dilation);
    }

    /** The stamp of a modelled instant. */
    public long toReal(long modelled) {
        return virtual != null ? modelled : epoch + (long) (modelled * dilation);
    }

    /** The stamp of now: the rank's modelled clock on virtual time, else the real clock. */
    public long stamp() {
        return virtual != null ? virtual.now() : System.nanoTime();
    }

    /** True on virtual time: nothing waits in real time; completions carry modelled instants. */
    public boolean virtual() {
        return virtual != null;
    }

    /** The rank's virtual clock (null on the wall clock). */
    public VirtualClock clock() {
        return virtual;
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
        Layout layout = Layout.of(type, count);
        transfer.setMessage(fabric, rank, dst, bytes, layout, Transfer.blocks(type, count), Transfer.elements(type, count),
            type.hashCode(), srcInSegment, dstInSegment, persistent, persistentTcaSends, model.topology().engines(),
            engine, recvEngine);
        planTransfer(modelNow(realNow), cache);
    }

    /** Plans {@link #transfer} issued at modelled {@code now}; sets the real-time results. */
    private void planTransfer(long now, DescriptorCache descriptors) {
        model.plan(transfer, now, timelines, descriptors, path, plan);
        visibleAtReal = toReal(plan.visibleAt);
        senderDoneReal = toReal(plan.senderDone);
        modelledDuration = plan.visibleAt - now;
    }

    /**
     * Plans the one-sided engine's address write from this rank to {@code dst} (S2's address
     * notify, {@link org.hympj.model.OneSidedTiming#address}) issued at {@code stamp}; sets
     * {@link #visibleAtReal} and {@link #senderDoneReal}.
     */
    public void planAddress(int dst, long stamp) {
        org.hympj.model.OneSidedTiming.address(transfer, org.hympj.model.OneSidedTiming.fabric(model.topology(), rank,
            dst), rank, dst);
        planTransfer(modelNow(stamp), cache);
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

    /** First link of the last planned message's path (-1: none); {@link org.hympj.model.NetTopology#linkName} names it. */
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
