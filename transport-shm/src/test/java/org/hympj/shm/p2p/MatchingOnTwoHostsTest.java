package org.hympj.shm.p2p;

import org.hympj.shm.testing.OnTwoHosts;

/** {@link MatchingTest} with every job on 2 local hosts: the same semantics over the network transport between them. */
class MatchingOnTwoHostsTest extends MatchingTest implements OnTwoHosts {
}
