package org.hympj.shm;

import org.hympj.api.Mpj;
import org.hympj.spi.MpjProvider;

/** ServiceLoader entry of the shared-memory transport. */
public final class ShmProvider implements MpjProvider {
    @Override
    public Mpj init(String[] args) {
        return ShmMpj.init();
    }
}
