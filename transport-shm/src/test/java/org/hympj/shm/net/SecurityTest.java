package org.hympj.shm.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-job key and the bound interfaces of a job on local hosts: a sender outside the job
 * without the key is refused by every rank it connects to and the job goes on, its packet never
 * delivered; every host's media driver has UDP sockets on 127.0.0.1 only and no TCP listener. See
 * {@link SecurityRank}.
 */
class SecurityTest {
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aStraySenderWithoutTheKeyIsRefusedAndTheJobGoesOn() {
        int np = 4;
        JobResult r = MultiRank.runAndPass(MultiRank.spec(np, SecurityRank.class).localHosts(2),
            new String[] {"exchange"});
        String report = MultiRank.report(r);
        assertEquals(List.of("STRAY sent 2", "STRAY sent 3"), MultiRank.lines(r, 0, "STRAY "), report);
        for (int rank = 2; rank < np; rank++) {
            List<String> refused = MultiRank.lines(r, rank, "REFUSED ");
            int rk = rank;
            assertEquals(1, refused.size(), () -> "rank " + rk + " did not report\n" + report);
            assertTrue(Integer.parseInt(refused.get(0).substring(8)) >= 1,
                () -> "rank " + rk + " refused nothing\n" + report);
        }
        for (int rank = 0; rank < np; rank++) {
            String s = MultiRank.lines(r, rank, "SOCKETS ").get(0);
            System.out.println("rank " + rank + ": " + s + " " + MultiRank.lines(r, rank, "REFUSED "));
            assertTrue(s.contains("loopback-only=true") && s.contains("tcp-listen=0") && !s.contains("udp=0"),
                () -> "sockets of the host agent: " + s + "\n" + report);
        }
    }
}
