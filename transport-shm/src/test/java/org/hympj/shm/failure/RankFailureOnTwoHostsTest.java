package org.hympj.shm.failure;

import org.hympj.shm.testing.OnTwoHosts;

/** {@link RankFailureTest} with every job on 2 local hosts: the same semantics over the network transport between them. */
class RankFailureOnTwoHostsTest extends RankFailureTest implements OnTwoHosts {
}
