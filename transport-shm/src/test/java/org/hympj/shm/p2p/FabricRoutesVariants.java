package org.hympj.shm.p2p;

import org.hympj.shm.launch.LaunchSpec;

/** The fabric variants of the route tests, shared by the point-to-point and collective ones. */
public final class FabricRoutesVariants {
    private FabricRoutesVariants() {
    }

    public static LaunchSpec apply(LaunchSpec spec, String variant) {
        return FabricRoutesTest.variant(spec, variant);
    }
}
