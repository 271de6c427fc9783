package org.hympj.shm.launch;

import java.util.concurrent.TimeUnit;

/**
 * The beat between the launcher and the agents of a job on the hosts of a hostfile: each side
 * writes {@link AgentWire#ALIVE} every second and counts the other as gone after a silence of
 * {@link #silenceNs}. Why: a host that dies whole (power, kernel) or is cut off closes no pipe —
 * its ssh connection stays open for as long as TCP lets it — so without a beat the launcher would
 * learn of it only through the ranks' network liveness, and the cut-off agent never. Agents of
 * {@code --local-hosts} are the launcher's children (their death closes the pipe at once): no beat.
 */
final class Heartbeat {
    static final long PERIOD_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long MIN_SILENCE_NS = TimeUnit.SECONDS.toNanos(2);

    private Heartbeat() {
    }

    /**
     * The silence after which the other side is gone: 0.4 × the network liveness timeout
     * ({@code --net-timeout}: 4 s by default), at least 2 s — a user who lengthens the timeout for an
     * overloaded machine gets a more patient beat too.
     */
    static long silenceNs(long netLivenessNs) {
        return Math.max(MIN_SILENCE_NS, netLivenessNs * 2 / 5);
    }
}
