package org.hympj.spi;

import org.hympj.api.Mpj;

/** A transport implementation, found by {@link java.util.ServiceLoader}. */
public interface MpjProvider {
    /** Initialises this process as a rank of its job (from the environment the launcher set). */
    Mpj init(String[] args);
}
