package org.hympj.rsched;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimelineTest {

    private static double brute(List<double[]> iv, double t, double d) {
        double x = t;
        boolean moved = true;
        while (moved) {
            moved = false;
            for (double[] i : iv) {
                if (i[0] < x + d - Timeline.EPS && i[1] > x + Timeline.EPS) {
                    x = i[1];
                    moved = true;
                }
            }
        }
        return x;
    }

    @Test
    void firstFitMatchesABruteForceSearch() {
        Random rnd = new Random(11);
        for (int round = 0; round < 200; round++) {
            Timeline tl = new Timeline();
            List<double[]> iv = new ArrayList<>();
            int adds = rnd.nextInt(120);
            for (int i = 0; i < adds; i++) {
                double d = 1 + rnd.nextInt(50);
                double t = tl.firstFit(rnd.nextInt(2000), d);
                assertEquals(brute(iv, t, d), t);
                tl.add(t, t + d);
                iv.add(new double[] {t, t + d});
            }
            for (int q = 0; q < 200; q++) {
                double t = rnd.nextInt(3000);
                double d = rnd.nextInt(60);
                assertEquals(brute(iv, t, d), tl.firstFit(t, d), "t=" + t + " d=" + d);
            }
            assertEquals(iv.stream().mapToDouble(x -> x[1]).max().orElse(0), tl.lastEnd());
        }
    }
}
