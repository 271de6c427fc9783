package org.hympj.shm.datatype;

import java.util.Random;
import org.hympj.api.Primitive;
import org.hympj.shm.testing.Layout;

/** Random small constructions of contiguous / vector / vector-of-vector layouts. */
public final class RandomLayouts {
    private RandomLayouts() {
    }

    /**
     * A random layout of 0–3 constructor steps with small parameters. {@code tiny}: parameters
     * from a very small range, so the same layout is often built in different ways.
     */
    public static Layout next(Random rnd, boolean tiny) {
        Primitive[] ps = Primitive.values();
        Layout l = Layout.of(tiny ? Primitive.DOUBLE : ps[rnd.nextInt(ps.length)]);
        int steps = rnd.nextInt(4);
        for (int s = 0; s < steps; s++) {
            int max = tiny ? 3 : 5;
            if (rnd.nextInt(4) == 0) {
                l = l.contiguous(rnd.nextInt(max) + (tiny ? 1 : 0));
            } else {
                int count = rnd.nextInt(max) + (tiny ? 1 : 0);
                int block = rnd.nextInt(max) + (tiny ? 1 : 0);
                int stride = 1 + rnd.nextInt(tiny ? 4 : 7);
                l = l.vector(count, block, stride);
            }
        }
        return l;
    }
}
