package org.hympj.shm.net;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.hympj.net.HostDriver;
import org.hympj.net.JobKey;
import org.hympj.net.NetEndpoint;
import org.hympj.net.NetSettings;
import org.hympj.net.Version;

/**
 * A process outside the job that knows everything but the key: it runs its own media driver,
 * claims to be rank 0 and connects to the given ranks at their host's endpoint (the right
 * streams, the right library version), its HELLO signed with a key of its own, then writes a
 * packet as rank 0's first message would be. Arguments: {@code endpoint np rank,rank,… mtu term
 * socket}. Prints {@code STRAY sent <rank>} per connection it wrote on.
 */
public final class StraySender {
    public static void main(String[] args) throws Exception {
        String target = args[0];
        int np = Integer.parseInt(args[1]);
        NetSettings settings = new NetSettings(Integer.parseInt(args[3]), Integer.parseInt(args[4]),
            Integer.parseInt(args[5]), 3_000_000_000L);
        Path dir = Paths.get("/dev/shm", "hympj-stray-" + ProcessHandle.current().pid());
        try (HostDriver driver = HostDriver.launch(dir, settings, new SleepingMillisIdleStrategy(1), "127.0.0.1", 0)) {
            String[] endpoints = new String[np];
            endpoints[0] = driver.endpoint();
            String[] victims = args[2].split(",");
            for (String v : victims) {
                endpoints[Integer.parseInt(v)] = target;
            }
            try (NetEndpoint fake = new NetEndpoint(driver.directory(), settings, JobKey.generate(), Version.get(), 0,
                endpoints, (r, why) -> { })) {
                for (String v : victims) {
                    int victim = Integer.parseInt(v);
                    long until = System.nanoTime() + 15_000_000_000L;
                    int idx;
                    while ((idx = fake.outbound(victim).tryClaim(1, 32)) < 0) {
                        if (System.nanoTime() - until > 0) {
                            throw new IllegalStateException("could not connect to rank " + victim + " at " + target);
                        }
                        Thread.sleep(1);
                    }
                    // an EAGER packet as rank 0's first message to it: context 0, tag 0, sequence 0
                    fake.outbound(victim).buffer().setMemory(idx, 32, (byte) 0);
                    fake.outbound(victim).buffer().putLong(idx + 24, 0x5ADBADL);
                    fake.outbound(victim).commit(idx);
                    System.out.println("STRAY sent " + victim);
                }
                Thread.sleep(1500); // the receivers see the frames and refuse the connection
                // done: a stray has no goodbyes to give, and an orderly close (BYEs behind refused connections, the
                // driver's shutdown) took most of a loaded CI run's 60 s job timeout once; its files go, then it stops
                System.out.flush();
                org.agrona.IoUtil.delete(dir.toFile(), true);
                Runtime.getRuntime().halt(0);
            }
        }
    }
}
