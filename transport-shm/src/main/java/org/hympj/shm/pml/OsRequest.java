package org.hympj.shm.pml;

import org.hympj.api.MpjException;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Status;
import org.hympj.spi.ProgressEngine;

/**
 * A send or receive of the one-sided engine: issued by the application thread (enqueued,
 * returns at once), carried out by whichever thread does the polling round (a waiting
 * application thread or the polling thread), completed through {@code done} (volatile: the
 * status written in the round happens before it).
 */
final class OsRequest implements PersistentRequest {
    final OsEngine engine;
    final boolean send;
    final boolean persistent;
    final Buf buf = new Buf();
    final Status status = new Status();
    int peer;
    int tag;
    int ctx;
    int[] localOf;
    boolean active;
    volatile boolean done = true;
    boolean freed;
    private boolean used;
    MpjException error;
    // polling-thread state
    int handle = -1;
    long staging = -1;
    // virtual time (OsVirtualTime): modelled instants
    /** The rank's clock when it was issued, and the rank's count of requests issued then. */
    long issuedAt;
    long issueOrder;
    /** When it completed (a wait or test that observes it moves the rank's clock there). */
    long vdone;
    /** A send matched to its address: when its put is booked, and where it goes. */
    long bookAt;
    long dstOffset;
    long dstCapacity;
    int dstHandle;

    OsRequest(OsEngine engine, boolean send, boolean persistent) {
        this.engine = engine;
        this.send = send;
        this.persistent = persistent;
    }

    String whyNotStartable() {
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
    public void start() {
        String why = whyNotStartable();
        if (why != null) {
            throw new IllegalStateException("start: " + why);
        }
        used = true;
        error = null;
        active = true;
        done = false;
        engine.enterCall();
        try {
            engine.submit(this);
        } finally {
            engine.exitCall();
        }
    }

    /** Observes the completion: the request becomes inactive (on virtual time the rank's clock moves to it); its error is thrown. */
    void consume() {
        active = false;
        engine.observe(this);
        MpjException e = error;
        if (e != null) {
            error = null;
            throw e;
        }
    }

    @Override
    public void waitFor() {
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
    public boolean test() {
        if (!active) {
            return true;
        }
        engine.enterCall();
        try {
            if (!done) {
                engine.testRound();
                if (!done) {
                    engine.pollFailures();
                    return false;
                }
            }
            consume();
            return true;
        } finally {
            engine.exitCall();
        }
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public Status status() {
        return status;
    }

    /**
     * Not cancelled (MPI allows it): a one-sided receive has already written its address into the
     * sender's Remote Address Buffer, which the sender may be putting to; it completes as usual.
     */
    @Override
    public void cancel() {
        if (freed) {
            throw new IllegalStateException("cancel: request has been freed: " + this);
        }
    }

    @Override
    public void free() {
        if (freed) {
            return;
        }
        if (active && !done) {
            engine.enterCall();
            try {
                engine.await(this);
            } finally {
                engine.exitCall();
            }
        }
        active = false;
        error = null;
        freed = true;
    }

    @Override
    public ProgressEngine engine() {
        return engine;
    }

    @Override
    public String toString() {
        return (send ? "onesided send[dest=" : "onesided recv[source=") + peer + ", tag=" + tag + ", bytes="
            + buf.bytes + (persistent ? ", persistent" : "") + "]";
    }
}
