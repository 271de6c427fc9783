package org.hympj.shm.pml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Handles of requests in a rendezvous: distinct while in use, lowest free first, growing past the first table. */
class HandleTableTest {
    @Test
    void handlesAreDistinctAndGrowPastTheInitialTable() {
        HandleTable<String> t = new HandleTable<>();
        int n = HandleTable.INITIAL * 2 + 3;
        String[] values = new String[n];
        int[] ids = new int[n];
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            values[i] = "r" + i;
            ids[i] = t.add(values[i]);
            assertTrue(seen.add(ids[i]), "handle " + ids[i] + " given twice");
        }
        assertEquals(n, t.inUse());
        for (int i = 0; i < n; i++) {
            assertSame(values[i], t.get(ids[i]));
        }
    }

    @Test
    void aReleasedHandleIsGoneAndComesBackFirst() {
        HandleTable<String> t = new HandleTable<>();
        assertEquals(0, t.add("a"));
        assertEquals(1, t.add("b"));
        t.release(0);
        assertEquals(1, t.inUse());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.get(0));
        assertEquals("internal: no request with handle 0", e.getMessage());
        assertThrows(IllegalStateException.class, () -> t.get(-1));
        assertThrows(IllegalStateException.class, () -> t.get(HandleTable.INITIAL));
        assertEquals(0, t.add("c"));
        assertEquals("c", t.get(0));
        assertEquals("b", t.get(1));
    }
}
