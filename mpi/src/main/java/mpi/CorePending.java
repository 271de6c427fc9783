package mpi;

/**
 * A core request, with an optional step run once when it completes (copying a BOOLEAN buffer
 * back from its bytes, releasing buffered-send space).
 */
final class CorePending implements Pending {
    /** Runs when the core request completes. */
    interface After {
        void done(org.hympj.api.Status status, Status out);
    }

    final org.hympj.api.Request core;
    private final After after;

    CorePending(org.hympj.api.Request core, After after) {
        this.core = core;
        this.after = after;
    }

    @Override
    public void cancel() {
        core.cancel();
    }

    @Override
    public boolean active() {
        return core.isActive();
    }

    @Override
    public boolean test(Status out) {
        if (!core.test()) {
            return false;
        }
        complete(out);
        return true;
    }

    @Override
    public void waitFor(Status out) {
        core.waitFor();
        complete(out);
    }

    /**
     * The core request has completed and a wait or test of the core consumed it: fills
     * {@code out} (and runs the after-step) without another call into the core's wait.
     */
    void completed(Status out) {
        complete(out);
    }

    private void complete(Status out) {
        org.hympj.api.Status s = core.status();
        out.set(s);
        out.objects = -1;
        if (after != null) {
            after.done(s, out);
        }
    }

    @Override
    public void free() {
        core.free();
    }
}
