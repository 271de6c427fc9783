package org.hympj.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hympj.shm.launch.JobResult;

/** The CSV rows a benchmark launched with {@code --buffers both} printed on rank 0, checked field by field. */
final class BenchRows {
    private BenchRows() {
    }

    /** Rank 0's {@code hympj,…} rows, in order. */
    static List<String> ofRankZero(JobResult r) {
        List<String> rows = new ArrayList<>();
        for (String line : r.output(0).split("\n")) {
            if (line.startsWith("hympj,")) {
                rows.add(line.trim());
            }
        }
        return rows;
    }

    /**
     * One row per buffer kind (heap, then segment) and size, in that order: test name, kind, size,
     * a positive figure, unit.
     */
    static void assertOnePerKindAndSize(JobResult r, String test, String unit, String... sizes) {
        List<String> rows = ofRankZero(r);
        assertEquals(2 * sizes.length, rows.size(), r.output(0));
        int i = 0;
        for (String kind : new String[] {"heap", "segment"}) {
            for (String n : sizes) {
                String[] f = rows.get(i++).split(",");
                assertEquals(test, f[1]);
                assertEquals(kind, f[2]);
                assertEquals(n, f[3]);
                assertTrue(Double.parseDouble(f[5]) > 0, String.join(",", f));
                assertEquals(unit, f[6]);
            }
        }
    }
}
