package org.hympj.shm.coll;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.launch.LaunchSpec;
import org.hympj.shm.testing.MultiRank;

/**
 * JUnit-side helpers of the collective and topology tests: run a job and report every
 * scenario any rank did not pass (not only the first), with the ranks' output.
 */
public final class Jobs {
    private Jobs() {
    }

    /** Launches the spec; requires exit 0, every scenario and finalize on every rank. */
    public static JobResult runAndPassAll(LaunchSpec spec, String... scenarios) {
        JobResult r = MultiRank.launch(spec);
        assertAllPassed(r, spec.np(), scenarios);
        return r;
    }

    public static JobResult runAndPassAll(int np, Class<?> main, String[] scenarios, String... args) {
        return runAndPassAll(MultiRank.spec(np, main, args), scenarios);
    }

    /** Fails listing every (rank, scenario) without a PASS line, and the job's outcome. */
    public static void assertAllPassed(JobResult r, int np, String... scenarios) {
        List<String> missing = new ArrayList<>();
        List<String> all = new ArrayList<>(Arrays.asList(scenarios));
        all.add(MultiRank.FINALIZED);
        for (String s : all) {
            List<Integer> ranks = new ArrayList<>();
            for (int rank = 0; rank < np; rank++) {
                if (!Arrays.asList(r.output(rank).split("\n")).contains("PASS " + s)) {
                    ranks.add(rank);
                }
            }
            if (!ranks.isEmpty()) {
                missing.add("'" + s + "' not passed by rank" + (ranks.size() > 1 ? "s " : " ") + ranks);
            }
        }
        if (!missing.isEmpty() || r.exitCode() != 0) {
            fail("job " + (r.exitCode() == 0 ? "succeeded" : "failed (" + r.message() + ")") + "; "
                + String.join("; ", missing) + "\n" + MultiRank.report(r));
        }
        assertTrue(r.ok(), () -> MultiRank.report(r));
    }

    /** The text after {@code prefix} on each of a rank's lines that start with it. */
    public static List<String> values(JobResult r, int rank, String prefix) {
        List<String> out = new ArrayList<>();
        for (String line : r.output(rank).split("\n")) {
            if (line.startsWith(prefix)) {
                out.add(line.substring(prefix.length()));
            }
        }
        return out;
    }
}
