package org.hympj.shm.testing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Mixed into a subclass of a multi-rank test class: its tests run again with every job on 2
 * local hosts (each group its own job directory and media driver; ranks of different groups
 * only over the network transport). JUnit runs a superclass's tests in the subclass, after
 * these.
 */
public interface OnTwoHosts {
    @BeforeAll
    static void twoHosts() {
        MultiRank.useLocalHosts(2);
    }

    @AfterAll
    static void oneHost() {
        MultiRank.useLocalHosts(0);
    }
}
