package org.hympj.shm.testing;

import java.util.TreeSet;
import org.hympj.api.Mpj;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.job.JobConfig;

/**
 * The message sizes where the engine switches protocol, read from the job's configuration
 * (so the tests follow the defaults and any launch options): up to {@link #inlineLimit}
 * bytes a message is copied into the packet ring, up to {@link #eagerLimit} it is sent
 * without handshake, above that it is a rendezvous; segment data above {@link JobConfig#PULL_ABOVE}
 * is pulled by the receiver.
 */
public final class Protocol {
    /** The eager limit of the first design (16 KiB): sizes around it stay in every test. */
    public static final int HISTORIC_EAGER = 16384;

    public final int inlineLimit;
    public final int eagerLimit;

    private Protocol(int inlineLimit, int eagerLimit) {
        this.inlineLimit = inlineLimit;
        this.eagerLimit = eagerLimit;
    }

    public static Protocol of(Mpj mpj) {
        JobConfig c = ((ShmMpj) mpj).config();
        Protocol p = new Protocol(c.inlineLimit, c.eagerLimit);
        Ranks.check(p.eagerLimit < (1 << 20), "the tests assume 1 MiB messages are rendezvous; eager limit is %d",
            p.eagerLimit);
        return p;
    }

    /** Element counts of {@code elementBytes}-byte elements just below, at and above every switch. */
    public int[] countsAroundSwitches(int elementBytes) {
        TreeSet<Integer> s = new TreeSet<>();
        for (int limit : new int[] {HISTORIC_EAGER, JobConfig.PULL_ABOVE, JobConfig.PIPE_FROM, inlineLimit, eagerLimit}) {
            int n = limit / elementBytes;
            for (int k = n - 1; k <= n + 1; k++) {
                if (k >= 0) {
                    s.add(k);
                }
            }
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Doubles in the smallest message that goes through the bulk region (eager, not inline). */
    public int bulkDoubles() {
        return inlineLimit / 8 + 1;
    }

    /** Doubles in the largest eager message. */
    public int eagerDoubles() {
        return eagerLimit / 8;
    }

    /** Doubles in the smallest rendezvous message. */
    public int rendezvousDoubles() {
        return eagerLimit / 8 + 1;
    }

    @Override
    public String toString() {
        return "PROTOCOL inline " + inlineLimit + " eager " + eagerLimit;
    }
}
