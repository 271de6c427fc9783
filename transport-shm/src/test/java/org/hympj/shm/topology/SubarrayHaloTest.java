package org.hympj.shm.topology;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.coll.Jobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The six faces of a 3D block with two ghost layers, described by subarray datatypes, sent
 * to and received from the Cartesian neighbours (isend/irecv on heap arrays, sendrecv on
 * segment buffers, persistent requests): ghost faces hold the neighbours' faces, the gaps
 * (interior, ghost edges and corners, faces towards PROC_NULL) are untouched. 1 rank (every
 * neighbour is itself), 6 ranks ({3,2,1}: periodic, non-periodic, periodic of extent 1), 8
 * ranks ({2,2,2} periodic: both neighbours the same rank). See {@link SubarrayHaloRank}.
 */
class SubarrayHaloTest {
    @ParameterizedTest(name = "{0} ranks, {1} {2}")
    @CsvSource(delimiter = ';', value = {"1; dims=0,0,0; periods=1,1,1", "6; dims=0,0,0; periods=1,0,1",
        "8; dims=0,0,0; periods=1,1,1"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void subarrayFacesOfA3dHalo(int np, String dims, String periods) {
        Jobs.runAndPassAll(np, SubarrayHaloRank.class, SubarrayHaloRank.SCENARIOS, dims, periods);
    }
}
