package mpi;

/**
 * A non-blocking receive of OBJECT: the message's size is known only when it has arrived, so
 * the receive is made when a probe finds it (a test probes once; a wait probes until then).
 */
final class ObjectRecv implements Pending {
    private final org.hympj.api.Comm comm;
    private final Object[] buf;
    private final int offset;
    private final int count;
    private final int source;
    private final int tag;
    private boolean done;

    ObjectRecv(org.hympj.api.Comm comm, Object[] buf, int offset, int count, int source, int tag) {
        this.comm = comm;
        this.buf = buf;
        this.offset = offset;
        this.count = count;
        this.source = source;
        this.tag = tag;
    }

    @Override
    public boolean active() {
        return !done;
    }

    @Override
    public boolean test(Status out) {
        org.hympj.api.Status st = comm.iprobe(source, tag);
        if (st == null) {
            return false;
        }
        receive(st, out);
        return true;
    }

    @Override
    public void waitFor(Status out) {
        receive(comm.probe(source, tag), out);
    }

    private void receive(org.hympj.api.Status probed, Status out) {
        done = true;
        receive("Irecv", comm, probed, buf, offset, count, out);
    }

    /** Receives the probed object message and places its objects. */
    static void receive(String call, org.hympj.api.Comm comm, org.hympj.api.Status probed, Object[] buf, int offset,
                        int count, Status out) {
        byte[] data = new byte[Math.toIntExact(probed.bytes())];
        org.hympj.api.Status st = comm.recv(data, 0, data.length, org.hympj.api.Datatype.BYTE, probed.source(),
            probed.tag());
        out.set(st);
        out.objects = Buffers.deserialize(call, data, buf, offset, count);
    }

    @Override
    public void free() {
        done = true;
    }
}
