package mpijava;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The mpiJava-style programs and the conformance scenarios, through the real launcher. */
class MpiJavaProgramsTest {
    static final String[] SCENARIOS = {"p2p", "ssend", "cancel", "requests", "persistent", "persistent-set", "v-collectives", "scan", "ops", "objects",
        "groups", "cart", "bsend", "pack", "irregular-types", "errors", "environment", "mpj-express",
        "object-types", "irregular-collectives"};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void conformance(int np) {
        Jobs.runAndPass(np, Conformance.class, SCENARIOS);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ring(int np) {
        Jobs.runAndPass(np, Ring.class, "ring");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void masterWorker(int np) {
        JobResult r = Jobs.runAndPass(np, MasterWorker.class, "master-worker");
        assertTrue(r.output(0).contains("tasks per worker"), Jobs.report(r));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void jacobi2d(int np) {
        Jobs.runAndPass(np, Jacobi2D.class, "jacobi2d");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void monteCarloPi(int np) {
        Jobs.runAndPass(np, MonteCarloPi.class, "pi");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void matmul(int np) {
        Jobs.runAndPass(np, MatMul.class, "matmul");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void abortEndsEveryRank() {
        JobResult r = Jobs.launch(2, AbortJob.class);
        assertNotEquals(0, r.exitCode(), Jobs.report(r));
        assertNotEquals(JobResult.TIMEOUT_EXIT, r.exitCode(), "the job must end by the abort, not the timeout\n"
            + Jobs.report(r));
        assertTrue(r.allOutput().contains("aborts the job with error code 7"), Jobs.report(r));
        assertFalse(r.allOutput().contains("not reached"), Jobs.report(r));
    }
}
