package org.hympj.shm.trace;

/** One event read back from a journal (see {@link Tracer#event} for the fields). Immutable. */
public final class TraceEvent {
    public final int kind;
    /** Real time, System.nanoTime (one clock for every process of the machine). */
    public final long nanos;
    public final int rank;
    public final int peer;
    public final int tag;
    public final long bytes;
    public final int channel;
    public final int engine;
    public final int link;
    public final long modelledStart;
    public final long modelledEnd;
    /** The info string, or null. */
    public final String info;

    public TraceEvent(int kind, long nanos, int rank, int peer, int tag, long bytes, int channel, int engine, int link,
                      long modelledStart, long modelledEnd, String info) {
        this.kind = kind;
        this.nanos = nanos;
        this.rank = rank;
        this.peer = peer;
        this.tag = tag;
        this.bytes = bytes;
        this.channel = channel;
        this.engine = engine;
        this.link = link;
        this.modelledStart = modelledStart;
        this.modelledEnd = modelledEnd;
        this.info = info;
    }

    /** The name of an event kind: post_send, post_recv, route, put_issued, put_completed, wait_begin, … */
    public static String kindName(int kind) {
        switch (kind) {
            case Tracer.POST_SEND:
                return "post_send";
            case Tracer.POST_RECV:
                return "post_recv";
            case Tracer.ROUTE:
                return "route";
            case Tracer.PUT_ISSUED:
                return "put_issued";
            case Tracer.PUT_COMPLETED:
                return "put_completed";
            case Tracer.WAIT_BEGIN:
                return "wait_begin";
            case Tracer.WAIT_END:
                return "wait_end";
            case Tracer.COMPLETE_SEND:
                return "complete_send";
            case Tracer.COMPLETE_RECV:
                return "complete_recv";
            case Tracer.START:
                return "start";
            default:
                return "kind" + kind;
        }
    }

    public String kindName() {
        return kindName(kind);
    }

    @Override
    public String toString() {
        return kindName() + " t=" + nanos + " rank=" + rank + " peer=" + peer + " tag=" + tag + " bytes=" + bytes
            + " ch=" + channel + " engine=" + engine + (modelledEnd != 0 ? " model=[" + modelledStart + "," + modelledEnd + "]" : "")
            + (info != null ? " " + info : "");
    }
}
