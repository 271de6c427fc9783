package org.hympj.shm.failure;

import static org.hympj.shm.testing.Ranks.print;

import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.RankFailedException;
import org.hympj.api.Request;
import org.hympj.api.Status;

/**
 * Rank program: one rank (the victim) fails in the middle of an exchange while every other
 * rank is blocked in a different call waiting for it, directly or not. Arguments:
 * {@code <how> <victim>} with how = kill (SIGKILL itself), throw (uncaught exception),
 * exit3 (System.exit(3)) or host (SIGKILL its whole host: the host agent that started it, every
 * rank that agent started, itself — a job on several hosts); optional third argument: the roles to use for the peers (default
 * all). Prints {@code PID <pid>}; the victim prints {@code FAIL <nanoTime>} just before it
 * fails, each peer {@code CAUGHT <nanoTime> <failedRank> <role> <message>} when its call
 * throws RankFailedException.
 */
public final class FailingRank {
    /** What a peer is doing when the victim dies. */
    enum Role {
        /** recv of a large message whose rendezvous the victim started and never finishes. */
        RECV_MID_RENDEZVOUS,
        /** waitAll on a receive from the victim and one from another peer that never sends. */
        WAIT_ALL,
        /** barrier (the victim never enters). */
        BARRIER,
        /** recv from ANY_SOURCE. */
        RECV_ANY_SOURCE,
        /** probe of the victim. */
        PROBE,
        /** blocking rendezvous send to the victim, which never receives. */
        SEND_RENDEZVOUS,
        /** sendrecv with the victim. */
        SENDRECV,
        /** an iprobe polling loop. */
        IPROBE_LOOP,
        /** a test() polling loop on a receive from the victim. */
        TEST_LOOP
    }

    public static void main(String[] args) throws Exception {
        String how = args[0];
        int victim = Integer.parseInt(args[1]);
        List<Role> roles = new ArrayList<>();
        for (String r : (args.length > 2 ? args[2] : allRoles()).split(",")) {
            roles.add(Role.valueOf(r));
        }
        print("PID " + ProcessHandle.current().pid());
        try (Mpj mpj = Mpj.init(new String[0])) {
            Comm c = mpj.world();
            int me = c.rank();
            c.barrier();
            if (me == victim) {
                fail(c, how);
                return;
            }
            int index = me < victim ? me : me - 1;   // rank 0 is always a peer with index 0
            Role role = roles.get(index % roles.size());
            try {
                play(c, role, victim);
                print("RETURNED " + role);
                throw new AssertionError(role + " returned although rank " + victim + " failed");
            } catch (RankFailedException e) {
                long now = System.nanoTime();
                print("CAUGHT " + now + " " + e.failedRank() + " " + role + " " + e.getMessage());
            }
        }
    }

    private static String allRoles() {
        StringBuilder b = new StringBuilder();
        for (Role r : Role.values()) {
            if (r != Role.TEST_LOOP) {
                b.append(b.length() == 0 ? "" : ",").append(r.name());
            }
        }
        return b.toString();
    }

    private static void fail(Comm c, String how) throws Exception {
        // start a rendezvous to rank 0 (the RECV_MID_RENDEZVOUS peer) and never progress it
        double[] big = new double[1 << 19];
        c.isend(big, 0, big.length, Datatype.DOUBLE, 0, 5);
        Thread.sleep(500);   // every peer is blocked by now
        if (how.equals("host")) {
            // the host's agent passes this line on before the host dies: announce the instant it dies at
            long at = System.nanoTime() + 300_000_000L;
            print("FAIL " + at);
            while (System.nanoTime() - at < 0) {
                Thread.sleep(10);
            }
        } else {
            print("FAIL " + System.nanoTime());
        }
        switch (how) {
            case "kill":
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start();
                Thread.sleep(30_000);
                throw new AssertionError("still alive 30 s after kill -9");
            case "throw":
                throw new IllegalStateException("deliberate uncaught exception");
            case "exit3":
                System.exit(3);
                break;
            case "host": {
                // a host that crashes: its agent (with its media driver) and all its ranks at once
                ProcessHandle agent = ProcessHandle.current().parent().orElseThrow();
                List<ProcessHandle> ranks = new ArrayList<>();
                agent.children().forEach(ranks::add);
                agent.destroyForcibly();
                for (ProcessHandle p : ranks) {
                    if (p.pid() != ProcessHandle.current().pid()) {
                        p.destroyForcibly();
                    }
                }
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start();
                Thread.sleep(30_000);
                throw new AssertionError("still alive 30 s after kill -9");
            }
            default:
                throw new IllegalArgumentException("how: " + how);
        }
    }

    private static void play(Comm c, Role role, int victim) {
        int me = c.rank();
        switch (role) {
            case RECV_MID_RENDEZVOUS: {
                double[] in = new double[1 << 19];
                c.recv(in, 0, in.length, Datatype.DOUBLE, victim, 5);
                break;
            }
            case WAIT_ALL: {
                int other = (victim + 1) % c.size() == me ? (me + 1) % c.size() : (victim + 1) % c.size();
                Request a = c.irecv(new int[1], 0, 1, Datatype.INT, victim, 6);
                Request b = c.irecv(new int[1], 0, 1, Datatype.INT, other, 6);
                Request.waitAll(a, b);
                break;
            }
            case BARRIER:
                c.barrier();
                break;
            case RECV_ANY_SOURCE:
                c.recv(new int[1], 0, 1, Datatype.INT, Comm.ANY_SOURCE, 7);
                break;
            case PROBE:
                c.probe(victim, Comm.ANY_TAG);
                break;
            case SEND_RENDEZVOUS: {
                double[] out = new double[100_000];
                c.send(out, 0, out.length, Datatype.DOUBLE, victim, 8);
                break;
            }
            case SENDRECV: {
                double[] out = new double[100_000];
                c.sendrecv(out, 0, out.length, Datatype.DOUBLE, victim, 9, new int[1], 0, 1, Datatype.INT, victim, 9);
                break;
            }
            case IPROBE_LOOP: {
                Status st;
                while ((st = c.iprobe(victim, 10)) == null) {
                    Thread.onSpinWait();
                }
                throw new AssertionError("iprobe found " + st);
            }
            case TEST_LOOP: {
                Request r = c.irecv(new int[1], 0, 1, Datatype.INT, victim, 11);
                while (!r.test()) {
                    Thread.onSpinWait();
                }
                break;
            }
            default:
                throw new IllegalArgumentException(role.toString());
        }
    }
}
