package org.hympj.shm.coll;

import org.hympj.shm.testing.OnTwoHosts;

/** {@link CollectivesTest} with every job on 2 local hosts: the same semantics over the network transport between them. */
class CollectivesOnTwoHostsTest extends CollectivesTest implements OnTwoHosts {
}
