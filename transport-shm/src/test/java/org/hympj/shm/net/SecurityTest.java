package org.hympj.shm.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * The per-job key and the bound interfaces of a job on local hosts: a sender outside the job
 * without the key is refused by every rank it connects to and the job goes on, its packet never
 * delivered; so is a stray client of a rank's bulk socket (the TCP stream of large messages);
 * every host's media driver has UDP sockets on 127.0.0.1 only, and the only TCP listeners are the
 * ranks' own bulk sockets, on 127.0.0.1. See {@link SecurityRank}.
 */
class SecurityTest {
    @ParameterizedTest(name = "media driver in the host''s {0}")
    @ValueSource(strings = {"rank", "agent"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aStraySenderWithoutTheKeyIsRefusedAndTheJobGoesOn(String driver) {
        int np = 4;
        // a longer job timeout than the suite's: a stray JVM starts and connects inside the job
        JobResult r = MultiRank.runAndPass(MultiRank.spec(np, SecurityRank.class).localHosts(2).netDriver(driver)
            .timeout(java.time.Duration.ofSeconds(150)), new String[] {"exchange"});
        String report = MultiRank.report(r);
        assertEquals(List.of("STRAY sent 2", "STRAY sent 3"), MultiRank.lines(r, 0, "STRAY "), report);
        assertEquals(List.of("STRAY bulk challenge 16 answered, then closed"), MultiRank.lines(r, 2, "STRAY bulk "),
            report);
        for (int rank = 2; rank < np; rank++) {
            List<String> refused = MultiRank.lines(r, rank, "REFUSED ");
            int rk = rank;
            assertEquals(1, refused.size(), () -> "rank " + rk + " did not report\n" + report);
            // rank 2 also refused the stray client of its bulk socket
            assertTrue(Integer.parseInt(refused.get(0).substring(8)) >= (rank == 2 ? 2 : 1),
                () -> "rank " + rk + " refused too little\n" + report);
        }
        for (int rank = 0; rank < np; rank++) {
            for (String s : MultiRank.lines(r, rank, "SOCKETS ")) {
                System.out.println("rank " + rank + ": " + s);
                boolean agent = s.startsWith("agent ");
                // a rank's one TCP listener is its bulk socket (opened by a large receive from the other host)
                assertTrue(s.contains("loopback-only=true") && s.contains("tcp-loopback-only=true")
                    && (agent ? s.contains("tcp-listen=0") : s.matches(".*tcp-listen=[01] .*")),
                    () -> "a socket not on loopback, or a TCP listener not a rank's bulk socket: " + s + "\n" + report);
            }
        }
        // the driver's process has the host's UDP sockets: each host's first rank (ranks 0 and 2), or every agent
        for (int rank : new int[] {0, 2}) {
            String holder = MultiRank.lines(r, rank, driver.equals("rank") ? "SOCKETS self " : "SOCKETS agent ").get(0);
            assertFalse(holder.contains("udp=0"), () -> "the media driver's process has no UDP socket: " + holder
                + "\n" + report);
        }
    }
}
