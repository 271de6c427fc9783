package org.hympj.shm.pml;

import org.hympj.api.MpjException;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Status;
import org.hympj.spi.ProgressEngine;

/**
 * Common state of send and receive requests. Two flags: {@code active} (MPI's notion: from
 * start until a wait/test observes the completion) and {@code done} (the transfer has
 * finished). A completion error (truncation) is kept and thrown once, by the wait or test
 * that observes the completion.
 *
 * <p>A request freed while its transfer is under way is detached: inactive and unusable to the
 * user at once, completed by the engine's later progress, and recycled then (its error, if
 * any, dropped: no call is left to report it to).
 */
abstract class Req implements PersistentRequest {
    final Engine engine;
    final boolean persistent;
    final Status status = new Status();
    final Buf buf = new Buf();
    boolean active;
    boolean done = true;
    boolean freed;
    int ctx;
    int tag;
    MpjException error;
    /** Virtual time: the modelled instant this request completed (a stamp; observing it moves the rank's clock). */
    long vdone;
    /** Virtual time: the order this rank started or posted it (ties of DeferredBookings go by it). */
    long startOrder;
    /** The route and RSched policy of its communicator (its hints, or the job's), taken when it is bound. */
    org.hympj.model.FabricPolicy policy;
    private boolean used;

    Req(Engine engine, boolean persistent) {
        this.engine = engine;
        this.persistent = persistent;
    }

    @Override
    public final void start() {
        String why = whyNotStartable();
        if (why != null) {
            throw new IllegalStateException("start: " + why);
        }
        used = true;
        error = null;
        active = true;
        done = false;
        doStart();
    }

    abstract void doStart();

    final void complete() {
        done = true;
        if (freed) {
            detachedDone();
        }
    }

    final void fail(MpjException e) {
        error = e;
        done = true;
        if (freed) {
            detachedDone(); // drops the error: the user freed the request and waits for nothing
        }
    }

    /** The transfer of a request freed while active has completed: recycle it. */
    private void detachedDone() {
        engine.detachedDone(this);
        recycle();
    }

    /** Releases what a freed request holds, once nothing of its transfer is left. */
    private void recycle() {
        error = null;
        if (this instanceof SendReq) {
            engine.releasePersistent((SendReq) this);
        }
        buf.clear();
    }

    private void refuseIfFreed(String call) {
        if (freed) {
            throw new IllegalStateException(call + ": request has been freed: " + this);
        }
    }

    /** Observes a completion: the request becomes inactive; its error, if any, is thrown. */
    final void consume() {
        active = false;
        engine.observe(this);
        MpjException e = error;
        if (e != null) {
            error = null;
            throw e;
        }
    }

    @Override
    public final boolean isActive() {
        return active;
    }

    @Override
    public final void waitFor() {
        refuseIfFreed("waitFor");
        if (!active) {
            return;
        }
        engine.enterCall();
        try {
            if (!done) {
                engine.await(this);
            }
            consume();
        } finally {
            engine.exitCall();
        }
    }

    @Override
    public final boolean test() {
        refuseIfFreed("test");
        if (!active) {
            return true;
        }
        engine.enterCall();
        try {
            return testNow();
        } finally {
            engine.exitCall();
        }
    }

    private boolean testNow() {
        if (!done) {
            engine.progress();
            if (!done) {
                engine.pollFailures();
                return false;
            }
        }
        consume();
        return true;
    }

    /** Why this request cannot be started now, or null if it can. */
    final String whyNotStartable() {
        if (freed) {
            return "request has been freed: " + this;
        }
        if (active) {
            return "request is still active (complete it with wait or test first): " + this;
        }
        if (!persistent && used) {
            return "only persistent requests (sendInit/recvInit) can be restarted: " + this;
        }
        return null;
    }

    @Override
    public final void cancel() {
        refuseIfFreed("cancel");
        if (active && !done && this instanceof RecvReq) {
            engine.cancelRecv((RecvReq) this);
        }
    }

    @Override
    public final Status status() {
        refuseIfFreed("status");
        return status;
    }

    /**
     * Frees the request at once. An active one is detached: its transfer goes on (a send is
     * still delivered, a receive's data still lands in its buffer) and the engine recycles it
     * when it completes. A second free does nothing.
     */
    @Override
    public final void free() {
        if (freed) {
            return;
        }
        freed = true;
        active = false;
        if (done) {
            recycle();
        } else {
            engine.detach(this);
        }
    }

    @Override
    public final ProgressEngine engine() {
        return engine;
    }
}
