package org.hympj.shm.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Cores#sharing}: the launcher's count of the ranks sharing a host's cores, else the host's ranks. */
class CoresTest {
    @AfterEach
    void clear() {
        System.clearProperty(Cores.RANKS_PROPERTY);
    }

    @Test
    void withoutTheLaunchersWordTheHostsOwnRanksShareItsCores() {
        System.clearProperty(Cores.RANKS_PROPERTY);
        assertEquals(8, Cores.sharing(8), "a rank started by srun or mpirun: its host's ranks, not the job's size");
    }

    @Test
    void theLaunchersCountWins() {
        System.setProperty(Cores.RANKS_PROPERTY, "12");
        assertEquals(12, Cores.sharing(4), "--local-hosts: every group on this machine");
    }

    @Test
    void aCountThatIsNotPositiveIsIgnored() {
        System.setProperty(Cores.RANKS_PROPERTY, "0");
        assertEquals(4, Cores.sharing(4));
    }
}
