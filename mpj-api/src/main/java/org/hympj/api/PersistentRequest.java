package org.hympj.api;

/**
 * A request made once by {@code sendInit}/{@code recvInit} and started many times: the
 * peer, the route and the buffer are resolved at init, so a start allocates nothing.
 */
public interface PersistentRequest extends Request {
    /**
     * Starts the operation once more (MPI_Start).
     *
     * @throws IllegalStateException if it is still active (started and not completed) or freed
     */
    void start();
}
