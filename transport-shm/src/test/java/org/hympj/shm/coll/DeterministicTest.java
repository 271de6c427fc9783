package org.hympj.shm.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reductions of order-sensitive floating-point data give bit-identical results on every rank
 * (compared by the rank program through allgather, and here from each rank's printed hex) and
 * in two separate launches, the second with random delays before every call. Communicator
 * sizes 1 … 8. See {@link DeterministicRank}.
 */
class DeterministicTest {
    static final int NP = 8;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void sameBitsOnEveryRankAndInEveryLaunch() {
        JobResult first = Jobs.runAndPassAll(NP, DeterministicRank.class, DeterministicRank.SCENARIOS);
        JobResult second = Jobs.runAndPassAll(NP, DeterministicRank.class, DeterministicRank.SCENARIOS, "jitter");
        Map<String, String> a = bits(first);
        Map<String, String> b = bits(second);
        // 3 allreduce results on every member and 2 reduce results, for every size k
        assertEquals(5 * NP, a.size(), () -> "expected BITS lines for every k: " + a.keySet() + "\n"
            + MultiRank.report(first));
        List<String> differ = new ArrayList<>();
        for (String key : a.keySet()) {
            if (!a.get(key).equals(b.get(key))) {
                differ.add(key + ":\n  launch 1 " + a.get(key) + "\n  launch 2 " + b.get(key));
            }
        }
        if (!differ.isEmpty() || !a.keySet().equals(b.keySet())) {
            fail("the two launches gave different bits for " + differ.size() + " results:\n"
                + String.join("\n", differ) + "\nkeys " + a.keySet() + " vs " + b.keySet());
        }
    }

    /** (what, k) → hex, requiring every rank that printed a result to have printed the same bits. */
    static Map<String, String> bits(JobResult r) {
        Map<String, String> out = new TreeMap<>();
        Map<String, Integer> from = new TreeMap<>();
        for (int rank = 0; rank < NP; rank++) {
            for (String v : Jobs.values(r, rank, "BITS ")) {
                String[] f = v.split(" ");
                String key = f[0] + " " + f[1];
                String prev = out.putIfAbsent(key, f[2]);
                if (prev == null) {
                    from.put(key, rank);
                } else if (!prev.equals(f[2])) {
                    fail(key + ": rank " + rank + " got different bits than rank " + from.get(key) + ":\n  " + f[2]
                        + "\n  " + prev + "\n" + MultiRank.report(r));
                }
            }
        }
        return out;
    }
}
