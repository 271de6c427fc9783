package org.hympj.shm.topology;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.coll.Jobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cartesian communicators with periodic and non-periodic dimensions: create, coords/rankOf
 * round trips, shift with PROC_NULL at the edges and exchanges along it, PROC_NULL
 * operations completing at once, sub-grids, grids smaller than the communicator. 2D on 6 ranks
 * ({3,2} from dimsCreate, periodic × non-periodic) and 3D on 8 ranks ({2,2,2}). See
 * {@link CartesianRank}.
 */
class CartesianTest {
    @ParameterizedTest(name = "{0} ranks, {1} {2}")
    @CsvSource(delimiter = ';', value = {"6; dims=0,0; periods=1,0", "8; dims=0,0,0; periods=0,1,0"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void cartesianTopology(int np, String dims, String periods) {
        Jobs.runAndPassAll(np, CartesianRank.class, CartesianRank.SCENARIOS, dims, periods);
    }
}
