package org.hympj.perf.fabric;

import org.hympj.examples.Face;
import java.util.ArrayList;
import java.util.List;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.SegmentBuffer;
import org.hympj.perf.Rows;

/**
 * Rank program of {@code hympj-bench crossover} and {@code calibrate}: ping-pong of one of S1's
 * faces ({@link Face}) of an N×N or N×N×N array of doubles between ranks 0 and 1, over the fabric
 * the launch forces. The array and the receive buffer live in the registered segment; the
 * face is sent with its derived datatype (row, column, jk-, ik- or ij-plane) and received
 * contiguous (the array is allocated as far as the face spans: the segment is limited to 2 GiB), by
 * persistent requests (S1 registers descriptors once). 64 persistent sends
 * registered first (never started) put TCA's descriptor chain in internal memory, as the
 * analytic sweep assumes ({@link Analytic#CHAIN}). Timing with {@link Comm#wtime()} (modelled
 * under a model): a warm-up batch and 5 timed batches, median half round trip in µs.
 *
 * <pre>usage (2 ranks): CrossoverRank TEST REP FACE N...</pre>
 * Prints {@code hympj,TEST,FACE,N,rep,us,us} from rank 0.
 */
public final class CrossoverRank {
    private CrossoverRank() {
    }

    static int[] iters(long bytes) {
        if (bytes <= 65536) {
            return new int[] {20, 40};
        } else if (bytes <= 1 << 20) {
            return new int[] {3, 8};
        }
        return new int[] {2, 4};
    }

    public static void main(String[] args) {
        String test = args[0];
        int rep = Integer.parseInt(args[1]);
        Face face = Face.of(args[2]);
        List<Integer> ns = new ArrayList<>();
        long array = 1;
        long ghost = 1;
        for (int a = 3; a < args.length; a++) {
            int n = Integer.parseInt(args[a]);
            ns.add(n);
            array = Math.max(array, face.span(n));
            ghost = Math.max(ghost, face.elements(n));
        }
        try (Mpj mpj = Mpj.init(args)) {
            Comm comm = mpj.world();
            if (comm.size() != 2) {
                throw new IllegalStateException("crossover needs exactly 2 ranks, the job has " + comm.size());
            }
            int rank = comm.rank();
            int peer = 1 - rank;
            SegmentBuffer a = comm.allocDoubles(Math.toIntExact(array));
            SegmentBuffer g = comm.allocDoubles(Math.toIntExact(ghost));
            PersistentRequest[] dummies = new PersistentRequest[64];
            for (int i = 0; i < dummies.length; i++) {
                dummies[i] = comm.sendInit(g, 0, 1, Datatype.DOUBLE, peer, 99);
            }
            for (int n : ns) {
                double us = pingpong(comm, rank, peer, face, n, a, g);
                if (rank == 0) {
                    Rows.print(Rows.row(test, face.key, n, rep, us, 3, "us"));
                }
            }
            for (PersistentRequest d : dummies) {
                d.free();
            }
        }
    }

    static double pingpong(Comm comm, int rank, int peer, Face face, int n, SegmentBuffer a, SegmentBuffer g) {
        // the face with its derived datatype out of the array, received contiguous into the ghost buffer
        return FabricPingRank.persistent(comm, rank, peer, a, face.type(n), face.count(n), g, Datatype.DOUBLE,
            Math.toIntExact(face.elements(n)), iters(face.bytes(n)));
    }
}
