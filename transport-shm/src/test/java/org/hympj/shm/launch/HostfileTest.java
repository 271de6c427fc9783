package org.hympj.shm.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hympj.shm.job.HostLayout;
import org.junit.jupiter.api.Test;

/** Hostfiles as Open MPI reads them: slots, comments, ranks filling the hosts in order, bad lines refused. */
class HostfileTest {
    private static final Path F = Path.of("hosts.txt");

    @Test
    void ranksFillTheHostsInOrderUpToTheirSlots() {
        Hostfile h = Hostfile.parse(F, List.of("# cluster", "", "a slots=2", "b slots=3  # comment", "c"));
        HostLayout l = h.layout(4);
        assertEquals(2, l.hosts(), "host c gets no rank");
        assertEquals("a", l.name(0));
        assertEquals(2, l.rankCount(0));
        assertEquals(2, l.firstRank(1));
        assertEquals(2, l.rankCount(1));
        assertEquals(3, h.layout(6).hosts());
    }

    @Test
    void fewerSlotsThanRanksIsRefusedNamingTheFileAndItsSlots() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Hostfile.parse(F, List.of("a slots=4", "b slots=2")).layout(8));
        assertTrue(e.getMessage().contains("hosts.txt has 6 slots (a slots=4, b slots=2) for -np 8"), e.getMessage());
    }

    @Test
    void badLinesAreRefusedWithTheirLineNumber() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Hostfile.parse(F, List.of("a slots=0")))
            .getMessage().contains("line 1: slots of host a must be a whole number >= 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Hostfile.parse(F, List.of("a", "b cpus=4")))
            .getMessage().contains("line 2: expected 'HOST slots=N'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Hostfile.parse(F, List.of("a", "a")))
            .getMessage().contains("host a is listed twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Hostfile.parse(F, List.of("# none")))
            .getMessage().contains("names no host"));
    }
}
