package org.hympj.shm.p2p;

import org.hympj.shm.testing.OnTwoHosts;

/** {@link TruncationTest} with every job on 2 local hosts: the same semantics over the network transport between them. */
class TruncationOnTwoHostsTest extends TruncationTest implements OnTwoHosts {
}
