package org.hympj.api;

import java.util.Iterator;
import java.util.ServiceLoader;
import org.hympj.spi.MpjProvider;

/**
 * Entry point: {@code try (Mpj mpj = Mpj.init(args)) { Comm world = mpj.world(); … }}.
 * Closing it is MPI_Finalize. The transport is found with {@link ServiceLoader}
 * ({@link MpjProvider}); a rank started by {@code bin/mpjrun} joins its job, a program
 * started alone runs as a job of one rank.
 */
public abstract class Mpj implements AutoCloseable {

    /** Initialises this rank. Call once per process. */
    public static Mpj init(String[] args) {
        Iterator<MpjProvider> it = ServiceLoader.load(MpjProvider.class).iterator();
        if (!it.hasNext()) {
            throw new MpjException("no HyMPJ transport on the class path (expected transport-shm)");
        }
        return it.next().init(args == null ? new String[0] : args);
    }

    /** The communicator of all ranks of the job. */
    public abstract Comm world();

    /** Seconds on a clock shared by all ranks of the machine (System.nanoTime based). */
    public static double wtime() {
        return System.nanoTime() * 1e-9;
    }

    /** Resolution of {@link #wtime()} in seconds. */
    public static double wtick() {
        return 1e-9;
    }

    /**
     * Counters of this rank (e.g. {@code route.tca.contiguous.messages}): the hybrid router's
     * decisions per fabric and layout. Empty when there is nothing to count.
     */
    public java.util.Map<String, Long> statistics() {
        return java.util.Collections.emptyMap();
    }

    /** Finalize: releases this rank's resources. Requests must be complete. Idempotent. */
    @Override
    public abstract void close();
}
