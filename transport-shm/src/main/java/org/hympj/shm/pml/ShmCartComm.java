package org.hympj.shm.pml;

import org.hympj.api.CartComm;
import org.hympj.api.Topology;

/** A Cartesian communicator (row-major rank order). */
final class ShmCartComm extends ShmComm implements CartComm {
    private final int[] dims;
    private final boolean[] periods;
    private final int[] myCoords;

    ShmCartComm(Engine engine, SegmentAllocator segment, int ctx, int[] group, int[] dims, boolean[] periods,
                BarrierAlgorithm defaultBarrier, PointToPoint.Factory p2pFactory, RankLifecycle life) {
        super(engine, segment, ctx, group, defaultBarrier, p2pFactory, life);
        this.dims = dims;
        this.periods = periods;
        this.myCoords = Topology.coords(dims, rank);
    }

    @Override
    public int ndims() {
        return dims.length;
    }

    @Override
    public int[] dims() {
        return dims.clone();
    }

    @Override
    public boolean[] periods() {
        return periods.clone();
    }

    @Override
    public int[] coords() {
        return myCoords.clone();
    }

    @Override
    public int[] coords(int r) {
        if (r < 0 || r >= size) {
            throw new IllegalArgumentException("coords: rank must be 0.." + (size - 1) + ", was " + r);
        }
        return Topology.coords(dims, r);
    }

    @Override
    public int rankOf(int... coords) {
        if (coords == null || coords.length != dims.length) {
            throw new IllegalArgumentException("rankOf: expected " + dims.length + " coordinates");
        }
        int r = Topology.rank(dims, periods, coords);
        if (r < 0) {
            throw new IllegalArgumentException("rankOf: coordinates " + java.util.Arrays.toString(coords)
                + " are off the non-periodic grid " + java.util.Arrays.toString(dims));
        }
        return r;
    }

    @Override
    public Shift shift(int dim, int disp) {
        if (dim < 0 || dim >= dims.length) {
            throw new IllegalArgumentException("shift: dim must be 0.." + (dims.length - 1) + ", was " + dim);
        }
        int[] c = myCoords.clone();
        c[dim] = myCoords[dim] + disp;
        int dest = Topology.rank(dims, periods, c);
        c[dim] = myCoords[dim] - disp;
        int source = Topology.rank(dims, periods, c);
        return new Shift(source < 0 ? PROC_NULL : source, dest < 0 ? PROC_NULL : dest);
    }

    @Override
    public org.hympj.api.PersistentRequest neighborAlltoallInit(Object sendBuf, int sendOffset, int sendCount,
            org.hympj.api.Datatype sendType, Object recvBuf, int recvOffset, int recvCount,
            org.hympj.api.Datatype recvType) {
        life.enter("neighborAlltoallInit");
        try {
            engine.checkAbort();
            return nbc.neighborAlltoall(this, sendBuf, sendOffset, sendCount, sendType, recvBuf, recvOffset,
                recvCount, recvType, true, "neighborAlltoallInit");
        } finally {
            life.exit();
        }
    }

    @Override
    public org.hympj.api.Request ineighborAlltoall(Object sendBuf, int sendOffset, int sendCount,
            org.hympj.api.Datatype sendType, Object recvBuf, int recvOffset, int recvCount,
            org.hympj.api.Datatype recvType) {
        life.enter("ineighborAlltoall");
        try {
            engine.checkAbort();
            return started(nbc.neighborAlltoall(this, sendBuf, sendOffset, sendCount, sendType, recvBuf,
                recvOffset, recvCount, recvType, false, "ineighborAlltoall"));
        } finally {
            life.exit();
        }
    }

    @Override
    ShmComm copy(int context) {
        return new ShmCartComm(engine, segment, context, group.clone(), dims.clone(), periods.clone(), defaultBarrier(),
            p2pFactory(), life);
    }

    @Override
    public CartComm dup() {
        return (CartComm) super.dup();
    }

    @Override
    public CartComm dup(java.util.Map<String, String> hints) {
        return (CartComm) super.dup(hints);
    }

    @Override
    public CartComm sub(boolean... remain) {
        if (remain == null || remain.length != dims.length) {
            throw new IllegalArgumentException("sub: expected " + dims.length + " flags");
        }
        int color = 0;
        int key = 0;
        int kept = 0;
        for (int d = 0; d < dims.length; d++) {
            if (remain[d]) {
                key = key * dims[d] + myCoords[d];
                kept++;
            } else {
                color = color * dims[d] + myCoords[d];
            }
        }
        int[] colorKey = {color, key};
        int[] all = new int[2 * size];
        coll.allgather(colorKey, 0, 2, org.hympj.api.Datatype.INT, all, 0, 2, org.hympj.api.Datatype.INT);
        int context = agreeContext();
        int[] subDims = new int[Math.max(kept, 1)];
        boolean[] subPeriods = new boolean[subDims.length];
        if (kept == 0) {
            subDims[0] = 1;
        } else {
            int k = 0;
            for (int d = 0; d < dims.length; d++) {
                if (remain[d]) {
                    subDims[k] = dims[d];
                    subPeriods[k] = periods[d];
                    k++;
                }
            }
        }
        return inherit(new ShmCartComm(engine, segment, context, members(all, color), subDims, subPeriods,
            defaultBarrier(), p2pFactory(), life));
    }
}
