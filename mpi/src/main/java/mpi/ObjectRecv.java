package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * A non-blocking receive of OBJECT: the message's size is known only when it has arrived, so
 * the receive is made when a probe finds it (a test probes once; a wait probes until then;
 * any other blocking wait of the facade probes too, {@link #progress}).
 */
final class ObjectRecv implements Pending {
    /**
     * The object receives of this rank posted and not yet received, in the order they were
     * posted. A blocking wait of the facade polls them while it waits ({@link #progress}), so a
     * synchronous send to one of them completes however the program orders its waits — as a
     * posted MPI receive matches whether or not its request is being waited for.
     */
    private static final List<ObjectRecv> POSTED = new ArrayList<>();

    private final org.hympj.api.Comm comm;
    private final ObjectItems items;
    private final int source;
    private final int tag;
    /** The status of the message once received (its objects are in place). */
    private final Status result = new Status();
    private boolean received;
    private boolean reported;
    /** The message could not be placed (an empty one: refused at its sender); thrown by this request's test or wait. */
    private MPIException failed;

    ObjectRecv(org.hympj.api.Comm comm, ObjectItems items, int source, int tag) {
        this.comm = comm;
        this.items = items;
        this.source = source;
        this.tag = tag;
        POSTED.add(this);
    }

    /** True while some object receive of this rank waits for its message. */
    static boolean anyPosted() {
        return !POSTED.isEmpty();
    }

    /** One probe for each posted object receive, oldest first; receives what has arrived. */
    static void progress() {
        for (int i = 0; i < POSTED.size(); ) {
            ObjectRecv r = POSTED.get(i);
            if (!r.tryReceive()) {
                i++; // still waiting (a received one left the list: the same index is the next one)
            }
        }
    }

    @Override
    public boolean active() {
        return !reported;
    }

    @Override
    public boolean test(Status out) {
        if (!received) {
            progress(); // older posted receives first: they match first
        }
        if (!received) {
            return false;
        }
        report(out);
        return true;
    }

    @Override
    public void waitFor(Status out) {
        if (!received && POSTED.size() == 1) {
            receive(comm.probe(source, tag)); // the only one: block in the probe
        }
        Request.Idle idle = new Request.Idle();
        while (!received) {
            progress();
            if (!received) {
                idle.idle();
            }
        }
        report(out);
    }

    private boolean tryReceive() {
        org.hympj.api.Status st = comm.iprobe(source, tag);
        if (st == null) {
            return false;
        }
        receive(st);
        return true;
    }

    private void receive(org.hympj.api.Status probed) {
        POSTED.remove(this);
        received = true;
        try {
            receive("Irecv", comm, probed, items, result);
        } catch (MPIException e) {
            failed = e; // thrown by this request's own test or wait, not by whichever call progressed it
        }
    }

    private void report(Status out) {
        reported = true;
        if (failed != null) {
            throw failed;
        }
        out.copy(result);
    }

    /** Receives the probed object message and places its objects. */
    static void receive(String call, org.hympj.api.Comm comm, org.hympj.api.Status probed, ObjectItems items,
                        Status out) {
        byte[] data = new byte[Math.toIntExact(probed.bytes())];
        org.hympj.api.Status st = comm.recv(data, 0, data.length, org.hympj.api.Datatype.BYTE, probed.source(),
            probed.tag());
        out.set(st);
        out.objects = items.deserialize(call, data);
    }

    @Override
    public void free() {
        POSTED.remove(this);
        reported = true;
    }
}
