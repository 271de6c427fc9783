package mpi;

/**
 * A root's own argument, refused by the facade at the root of a rooted collective that the
 * other ranks take part in anyway (their blocks are sent, or they wait for theirs): the root
 * first makes the same core call without that buffer, which the core refuses after taking the
 * others' blocks or answering them (and, for a non-blocking call, after taking the call's tag),
 * so the communicator stays in step; then the facade's own refusal is thrown.
 */
final class RootRefusal {
    private RootRefusal() {
    }

    /** Runs {@code coreCall} (expected to be refused by the core) and returns {@code refused} to throw. */
    static RuntimeException afterCore(RuntimeException refused, Runnable coreCall) {
        try {
            coreCall.run();
        } catch (IllegalArgumentException expected) {
            return refused;
        }
        throw new IllegalStateException("the core took a collective without its root's buffer", refused);
    }
}
