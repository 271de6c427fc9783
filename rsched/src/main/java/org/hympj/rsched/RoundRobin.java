package org.hympj.rsched;

import java.util.List;

/**
 * S3's RoundRobin(k): put i goes to send engine {@code i mod k} and to receive engine
 * {@code (i mod k) mod receiveEngines}, in request order. Puts of one direction share the link
 * when they meet on it (S3's RR(4) link sharing). k larger than the machine's engine count is
 * clamped to it.
 */
public final class RoundRobin implements Scheduler {
    private final int k;
    private final String name;

    public RoundRobin(int k) {
        this(k, "rr:" + k);
    }

    /** RoundRobin(k) reporting itself as {@code name} (e.g. "none" for rr:1). */
    public RoundRobin(int k, String name) {
        if (k < 1) {
            throw new IllegalArgumentException("RoundRobin needs k >= 1, was " + k);
        }
        this.k = k;
        this.name = name;
    }

    public int k() {
        return k;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schedule schedule(List<Put> puts, MachineModel m) {
        PutArrays in = PutArrays.of(puts);
        int n = in.n;
        int engines = m.engines();
        int use = Math.min(k, engines);
        int[] count = new int[engines];
        for (int i = 0; i < n; i++) {
            count[i % use]++;
        }
        int[][] queues = new int[engines][];
        for (int e = 0; e < engines; e++) {
            queues[e] = new int[count[e]];
        }
        int[] fill = new int[engines];
        int[] recv = new int[n];
        for (int i = 0; i < n; i++) {
            int e = i % use;
            queues[e][fill[e]++] = i;
            recv[i] = e % m.receiveEngines();
        }
        return Simulator.run(name(), in, m, new Assignment(queues, recv, Assignment.SHARED, null, null));
    }
}
