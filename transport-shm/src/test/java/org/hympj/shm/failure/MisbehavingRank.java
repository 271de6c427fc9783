package org.hympj.shm.failure;

import static org.hympj.shm.testing.Ranks.print;

import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.RankFailedException;
import org.hympj.api.SegmentBuffer;

/**
 * Rank program for the reliability tests (issue 19). Every rank prints {@code PID <pid>}.
 * Modes (first argument):
 * <ul>
 * <li>{@code noclose <victim>}: the victim exits 0 after init without close(); the others
 *     enter a barrier and print {@code CAUGHT <failedRank> <message>}.</li>
 * <li>{@code recv-after-close <victim>}: the victim sends one int to every peer, closes and
 *     exits; each peer receives it (it was in the rings), then posts a second receive from the
 *     victim and prints {@code CAUGHT <failedRank> <message>} when it fails.</li>
 * <li>{@code compute <seconds>}: prints {@code READY rank <r> pid <pid>}, computes without
 *     calling the library, then a barrier.</li>
 * <li>{@code fill <doubles>}: allocates that many doubles of its segment, writes every page,
 *     a barrier, holds on for two seconds (so concurrent jobs overlap), prints {@code FILLED}.</li>
 * <li>{@code quick}: a barrier, then close.</li>
 * <li>{@code watchdog}: prints {@code WATCHDOG <true|false>}: whether the launcher watchdog thread runs.</li>
 * </ul>
 */
public final class MisbehavingRank {
    private MisbehavingRank() {
    }

    public static void main(String[] args) throws Exception {
        print("PID " + ProcessHandle.current().pid());
        String mode = args[0];
        Mpj mpj = Mpj.init(new String[0]);
        Comm w = mpj.world();
        switch (mode) {
            case "noclose": {
                int victim = Integer.parseInt(args[1]);
                w.barrier();
                if (w.rank() == victim) {
                    print("EXIT without close");
                    System.exit(0);
                }
                try {
                    w.barrier();
                    print("RETURNED barrier");
                } catch (RankFailedException e) {
                    print("CAUGHT " + e.failedRank() + " " + e.getMessage());
                }
                break;
            }
            case "recv-after-close": {
                int victim = Integer.parseInt(args[1]);
                if (w.rank() == victim) {
                    for (int p = 0; p < w.size(); p++) {
                        if (p != victim) {
                            w.send(new int[] {40 + p}, 0, 1, Datatype.INT, p, 1);
                        }
                    }
                    mpj.close();
                    print("CLOSED");
                    return;
                }
                Thread.sleep(1000); // the victim has closed and exited by now (or soon): its message waits in the ring
                int[] x = new int[1];
                w.recv(x, 0, 1, Datatype.INT, victim, 1);
                print("GOT " + x[0]);
                try {
                    w.recv(x, 0, 1, Datatype.INT, victim, 1);
                    print("RETURNED second receive");
                } catch (RankFailedException e) {
                    print("CAUGHT " + e.failedRank() + " " + e.getMessage());
                }
                break;
            }
            case "compute": {
                print("READY rank " + w.rank() + " pid " + ProcessHandle.current().pid());
                long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
                double x = 0;
                while (System.nanoTime() - end < 0) {
                    x += Math.sqrt(x + 1);
                }
                print("COMPUTED " + x);
                w.barrier();
                break;
            }
            case "fill": {
                int n = Integer.parseInt(args[1]);
                SegmentBuffer b = w.allocDoubles(n);
                for (int i = 0; i < n; i += 512) {
                    b.putDouble(i, i);
                }
                w.barrier();
                Thread.sleep(2000);
                print("FILLED " + n);
                break;
            }
            case "quick":
                w.barrier();
                break;
            case "watchdog":
                print("WATCHDOG " + Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().equals("hympj-launcher-watchdog")));
                break;
            default:
                throw new IllegalArgumentException("mode: " + mode);
        }
        mpj.close();
        print("finalize");
    }
}
