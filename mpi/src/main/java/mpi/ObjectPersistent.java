package mpi;

import java.util.function.Supplier;

/**
 * A persistent send or receive of {@link MPI#OBJECT}, which the core cannot bind at init (a
 * message of objects has its size only once they are serialized, at each start): every start
 * makes the operation anew — the send serializes the objects as they are then and posts a
 * non-blocking send of the bytes, the receive posts an {@link ObjectRecv} — and the request
 * reports that operation until the next start.
 */
final class ObjectPersistent implements Pending {
    private final Supplier<Pending> operation;
    private Pending current;

    ObjectPersistent(Supplier<Pending> operation) {
        this.operation = operation;
    }

    /** One start (the Prequest checked it is not active). */
    void start() {
        current = operation.get();
    }

    @Override
    public boolean active() {
        return current != null && current.active();
    }

    @Override
    public boolean test(Status out) {
        return current.test(out);
    }

    @Override
    public void waitFor(Status out) {
        current.waitFor(out);
    }

    @Override
    public void cancel() {
        if (current != null) {
            current.cancel();
        }
    }

    @Override
    public void free() {
        if (current != null) {
            current.free();
        }
    }
}
