package org.hympj.shm.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.hympj.shm.launch.JobResult;
import org.hympj.shm.testing.MultiRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Messages between hosts over a network that loses datagrams: each host's media driver drops 5 %
 * of the data frames it receives and 2 % of the control frames it sends and receives (Aeron's
 * own loss generators, {@code io.aeron.driver.ext}); every byte of every message of every size
 * and of a strided layout still arrives, in order, checked at the receiver — Aeron's NAKs and
 * retransmits repair the loss below the PML — and the drivers' counters show that they did. The
 * ranks run without their bulk sockets ({@code -Dhympj.net.bulk=off}), so that every byte of the
 * large messages crosses the lossy datagrams too (with them on, large messages took TCP and a run
 * could go by with no data frame lost at all: session 14's fourth CI run failed so).
 */
class LossyNetworkTest {
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyMessageArrivesWholeAndInOrderThroughLostDatagrams() {
        JobResult r = MultiRank.runAndPass(MultiRank.spec(4, NetRank.class, "counters").localHosts(2)
            .jvmArg("-Dhympj.net.bulk=off")
            .jvmArg("-Daeron.ReceiveChannelEndpoint.supplier=io.aeron.driver.ext.DebugReceiveChannelEndpointSupplier")
            .jvmArg("-Daeron.SendChannelEndpoint.supplier=io.aeron.driver.ext.DebugSendChannelEndpointSupplier")
            .jvmArg("-Daeron.debug.receive.data.loss.rate=0.05").jvmArg("-Daeron.debug.receive.data.loss.seed=17")
            .jvmArg("-Daeron.debug.receive.control.loss.rate=0.02")
            .jvmArg("-Daeron.debug.send.control.loss.rate=0.02"), new String[] {"sizes", "strided"});
        long naks = 0;
        long retransmits = 0;
        for (int rank : new int[] {0, 2}) { // the hosts' first ranks
            String line = MultiRank.lines(r, rank, "DRIVER ").get(0);
            System.out.println("host of rank " + rank + ": " + line);
            naks += Long.parseLong(line.replaceAll(".*naks=(\\d+).*", "$1"));
            retransmits += Long.parseLong(line.replaceAll(".*retransmits=(\\d+).*", "$1"));
        }
        assertTrue(naks > 0 && retransmits > 0, "no loss was repaired (naks " + naks + ", retransmits " + retransmits
            + "): the loss generators did not run\n" + MultiRank.report(r));
    }
}
