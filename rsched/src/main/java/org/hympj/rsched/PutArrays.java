package org.hympj.rsched;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    /** Distinct links over the set (dense numbering of the puts' link ids, in id order). */
    final int links;
    /** Per put, its links in dense numbers, each as often as the put loads it. */
    final int[][] linkLoads;
    /** Per put, its distinct links in dense numbers. */
    final int[][] linksOf;
    /** Per put, its route: puts with the same links (and loads) share a number. */
    final int[] route;
    final int routes;
    /** Whether some put crosses more than its direction's link. */
    final boolean routed;

    private PutArrays(List<Put> list) {
        Puts.check(list);
        this.list = list;
        n = list.size();
        bytes = new long[n];
        dir = new int[n];
        diagonal = new boolean[n];
        int[][] raw = new int[n][];
        boolean anyRouted = false;
        for (int i = 0; i < n; i++) {
            Put p = list.get(i);
            bytes[i] = p.bytes();
            dir[i] = p.direction();
            diagonal[i] = p.diagonal();
            raw[i] = p.links();
            anyRouted |= p.routed();
        }
        routed = anyRouted;
        int[] ids = Arrays.stream(raw).flatMapToInt(Arrays::stream).sorted().distinct().toArray();
        links = ids.length;
        linkLoads = new int[n][];
        linksOf = new int[n][];
        route = new int[n];
        Map<String, Integer> routeIds = new HashMap<>();
        for (int i = 0; i < n; i++) {
            int[] l = raw[i];
            for (int j = 0; j < l.length; j++) {
                l[j] = Arrays.binarySearch(ids, l[j]);
            }
            linkLoads[i] = l;
            int[] sorted = l.clone();
            Arrays.sort(sorted);
            linksOf[i] = Arrays.stream(sorted).distinct().toArray();
            route[i] = routeIds.computeIfAbsent(Arrays.toString(sorted), k -> routeIds.size());
        }
        routes = routeIds.size();
        dest = Puts.denseDestinations(list);
        dests = Puts.count(dest);
    }

    static PutArrays of(List<Put> puts) {
        return new PutArrays(puts);
    }

    /** How many times put {@code p} loads dense link {@code l} (0 when it does not cross it). */
    int load(int p, int l) {
        int c = 0;
        for (int x : linkLoads[p]) {
            if (x == l) {
                c++;
            }
        }
        return c;
    }

    /** The most times put {@code p} loads one of its links (1 for a put over distinct links). */
    int maxLoad(int p) {
        int m = 1;
        for (int l : linksOf[p]) {
            m = Math.max(m, load(p, l));
        }
        return m;
    }
}
