package org.hympj.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hympj.rsched.Put;
import org.junit.jupiter.api.Test;

/** The puts JobFabric hands RSched carry the links the model routes them over (NetTopology#routeLinks). */
class RschedPutTest {
    /** The tofu 3×3 torus (rank = x·3 + y). */
    private static final NetTopology TORUS = new NetTopology(9, 9, true, new int[] {3, 3}, 4, 4);

    @Test
    void axisPutsCrossTheirOwnLink() {
        // rank 4 = (1,1): E (2,1) = 7, W (0,1) = 1, N (1,2) = 5, S (1,0) = 3
        int[] dests = {7, 1, 5, 3};
        for (int d = 0; d < 4; d++) {
            Put p = JobFabric.put(TORUS, 0, 4, dests[d], 1000);
            assertEquals(d, p.direction());
            assertArrayEquals(new int[] {d}, p.links(), "direction " + d);
            assertFalse(p.diagonal());
            assertFalse(p.routed());
        }
    }

    @Test
    void diagonalPutsCrossTheirXLinkThenTheirYLink() {
        // NE (2,2) = 8, NW (0,2) = 2, SE (2,0) = 6, SW (0,0) = 0: x first (the model's dimension order)
        int[] dests = {8, 2, 6, 0};
        int[][] links = {{0, 2}, {1, 2}, {0, 3}, {1, 3}};
        for (int i = 0; i < 4; i++) {
            Put p = JobFabric.put(TORUS, 3, 4, dests[i], 14016);
            assertEquals(4 + i, p.direction());
            assertTrue(p.diagonal());
            assertArrayEquals(links[i], p.links(), "direction " + (4 + i));
            assertEquals(3, p.id());
            assertEquals(14016, p.bytes());
        }
        // the model books the same links: the sender's x link, then its x neighbour's y link
        int[] path = new int[4];
        assertEquals(2, TORUS.path(4, 8, path));
        assertEquals("r4.x+", TORUS.linkName(path[0]));
        assertEquals("r7.y+", TORUS.linkName(path[1]));
    }

    @Test
    void aLongerRouteLoadsItsLinksOncePerHop() {
        // a ring of 8 (ha-pacs subcluster): 0 -> 3 goes + three hops, 1 -> 5 (half way, odd) goes -
        NetTopology ring = new NetTopology(8, 8, false, null, 4, 0);
        assertArrayEquals(new int[] {0, 0, 0}, JobFabric.put(ring, 0, 0, 3, 8).links());
        assertArrayEquals(new int[] {1, 1, 1, 1}, JobFabric.put(ring, 0, 1, 5, 8).links());
        assertEquals(1, JobFabric.put(ring, 0, 1, 5, 8).direction());
        // a zero-byte put is still one byte to RSched; a put to oneself keeps its direction as its link
        assertEquals(1, JobFabric.put(ring, 0, 1, 2, 0).bytes());
        Put self = JobFabric.put(TORUS, 0, 4, 4, 8);
        assertArrayEquals(new int[] {self.direction()}, self.links());
    }
}
