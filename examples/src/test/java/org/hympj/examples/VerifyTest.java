package org.hympj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stencil examples with {@code --verify} on several rank counts: rank 0 gathers the
 * distributed field and checks it is bit-identical to a serial run of the whole grid (the
 * example throws, and the job fails, on any difference). Grid sizes are chosen so that some
 * splits are uneven.
 */
class VerifyTest {

    @ParameterizedTest(name = "Jacobi2D --verify on {0} ranks")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void jacobi2d(int np) {
        JobResult r = Jobs.run(np, Jacobi2D.class, "--n", "61", "--iters", "30", "--verify");
        Jobs.assertPrinted(r, "Jacobi2D: " + np + " ranks as ");
        assertEquals("verify: distributed field is bit-identical to the serial run (" + 61 * 61 + " points)",
            Jobs.line(r, "verify:"));
    }

    @ParameterizedTest(name = "Heat3D --verify on {0} ranks")
    @ValueSource(ints = {1, 2, 4, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void heat3d(int np) {
        JobResult r = Jobs.run(np, Heat3D.class, "--grid", "13x10x11", "--iters", "12", "--verify");
        Jobs.assertPrinted(r, "Heat3D: " + np + " ranks as ");
        assertEquals("verify: distributed field is bit-identical to the serial run (" + 13 * 10 * 11 + " points)",
            Jobs.line(r, "verify:"));
    }

    @ParameterizedTest(name = "Heat3D --no-overlap --verify on {0} ranks")
    @ValueSource(ints = {4})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void heat3dWithoutOverlap(int np) {
        JobResult r = Jobs.run(np, Heat3D.class, "--grid", "13x10x11", "--iters", "12", "--no-overlap", "--verify");
        Jobs.assertPrinted(r, "Heat3D: " + np + " ranks as ");
        assertEquals("verify: distributed field is bit-identical to the serial run (" + 13 * 10 * 11 + " points)",
            Jobs.line(r, "verify:"));
    }

    @ParameterizedTest(name = "Jacobi3D --verify on {0} ranks")
    @ValueSource(ints = {1, 2, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void jacobi3d(int np) {
        JobResult r = Jobs.run(np, Jacobi3D.class, "--n", "8", "--iters", "12", "--verify");
        Jobs.assertPrinted(r, "Jacobi3D: " + np + " ranks as ");
        assertEquals("verify: distributed field is bit-identical to the serial run (" + 512 * np + " points)",
            Jobs.line(r, "verify:"));
    }
}
