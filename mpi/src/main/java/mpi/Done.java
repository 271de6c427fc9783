package mpi;

/** An operation that completed at its call (a buffered send, a send to PROC_NULL of objects). */
final class Done implements Pending {
    private final Status status;
    private boolean reported;

    Done(Status status) {
        this.status = status;
    }

    @Override
    public boolean active() {
        return !reported;
    }

    @Override
    public boolean test(Status out) {
        waitFor(out);
        return true;
    }

    @Override
    public void waitFor(Status out) {
        reported = true;
        out.source = status.source;
        out.tag = status.tag;
        out.bytes = status.bytes;
        out.objects = status.objects;
    }

    @Override
    public void free() {
        reported = true;
    }
}
