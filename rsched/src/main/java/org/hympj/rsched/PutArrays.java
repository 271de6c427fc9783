package org.hympj.rsched;

import java.util.List;

/** A checked put list as arrays, built once per scheduling call and shared by planners and the simulator. */
final class PutArrays {
    final List<Put> list;
    final int n;
    final long[] bytes;
    final int[] dir;
    /** Destination index among the distinct destinations. */
    final int[] dest;
    final boolean[] diagonal;
    final int dests;
    final int links;

    private PutArrays(List<Put> list) {
        Puts.check(list);
        this.list = list;
        n = list.size();
        bytes = new long[n];
        dir = new int[n];
        diagonal = new boolean[n];
        int l = 0;
        for (int i = 0; i < n; i++) {
            Put p = list.get(i);
            bytes[i] = p.bytes();
            dir[i] = p.direction();
            diagonal[i] = p.diagonal();
            l = Math.max(l, dir[i] + 1);
        }
        links = l;
        dest = Puts.denseDestinations(list);
        dests = Puts.count(dest);
    }

    static PutArrays of(List<Put> puts) {
        return new PutArrays(puts);
    }
}
