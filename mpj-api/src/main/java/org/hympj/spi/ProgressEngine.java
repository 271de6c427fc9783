package org.hympj.spi;

import org.hympj.api.PersistentRequest;
import org.hympj.api.Request;

/**
 * Drives communication forward for one rank. HyMPJ makes progress only inside library calls
 * (no background thread spins), so every wait loops over {@link #progress()} and idles
 * (spin, then yield, then park) when nothing moved.
 */
public interface ProgressEngine {
    /** Polls every inbound channel and pending operation once; returns the work done. */
    int progress();

    /** Waits for every non-null request; throws the first error after all have completed. */
    void waitAll(Request[] requests);

    /** Waits until one active request completes and returns its index, or Request.UNDEFINED. */
    int waitAny(Request[] requests);

    /** See {@link Request#testAll}. */
    boolean testAll(Request[] requests);

    /** See {@link Request#testAny}. */
    int testAny(Request[] requests);

    /** See {@link Request#startAll}: checks every request before starting any. */
    void startAll(PersistentRequest[] requests);
}
