package mpi;

/** What a {@link Request} stands for: an operation of the core API, or one the facade completes itself. */
interface Pending {
    /** True while the operation has not completed. */
    boolean active();

    /** Makes progress; true (and {@code out} filled) if the operation has completed. */
    boolean test(Status out);

    /** Blocks until the operation completes; fills {@code out}. */
    void waitFor(Status out);

    /** Releases what the operation holds. */
    void free();

    /** Asks to cancel (see {@link Request#Cancel}); operations that cannot be cancelled ignore it. */
    default void cancel() {
    }
}
