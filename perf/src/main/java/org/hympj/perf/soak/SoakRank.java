package org.hympj.perf.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Random;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.Op;
import org.hympj.api.PersistentRequest;
import org.hympj.api.RankFailedException;
import org.hympj.api.Request;

/**
 * One job of the soak: {@code <seed> <iterations> <victim> <killIteration>} (victim -1: nobody
 * is killed). Every rank draws the same random sizes from the seed. Each iteration: a ring
 * exchange of a random size (inline, bulk-eager or rendezvous), an allreduce of a random
 * count, a bcast from a rotating root, and a start/wait of a persistent set (both neighbours)
 * of a size drawn once per job; every received element is checked. The victim SIGKILLs itself
 * at the start of its kill iteration. Prints {@code PID}; {@code RSS}, {@code SHMEM} and
 * {@code HEAP} lines, each in KiB after a fifth, three fifths and all of the iterations (VmRSS,
 * RssShmem, committed heap); {@code VERIFIED <iterations>}, or {@code CAUGHT
 * <failedRank> <message>} when a call fails.
 */
public final class SoakRank {
    private SoakRank() {
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int iterations = Integer.parseInt(args[1]);
        int victim = Integer.parseInt(args[2]);
        int killAt = Integer.parseInt(args[3]);
        System.out.println("PID " + ProcessHandle.current().pid());
        System.out.flush();
        try (Mpj mpj = Mpj.init(new String[0])) {
            Comm w = mpj.world();
            int me = w.rank();
            int np = w.size();
            int right = (me + 1) % np;
            int left = (me + np - 1) % np;
            Random rnd = new Random(seed);
            int pn = size(rnd);
            double[] pOutR = new double[pn];
            double[] pOutL = new double[pn];
            double[] pInL = new double[pn];
            double[] pInR = new double[pn];
            PersistentRequest[] set = {
                w.recvInit(pInL, 0, pn, Datatype.DOUBLE, left, 3), w.recvInit(pInR, 0, pn, Datatype.DOUBLE, right, 4),
                w.sendInit(pOutR, 0, pn, Datatype.DOUBLE, right, 3), w.sendInit(pOutL, 0, pn, Datatype.DOUBLE, left, 4)};
            long[] mid = null;
            long[] first = null;
            try {
                for (int it = 0; it < iterations; it++) {
                    if (me == victim && it == killAt) {
                        System.out.println("FAIL " + it);
                        System.out.flush();
                        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                        Thread.sleep(30_000);
                    }
                    int n = size(rnd);
                    double[] out = new double[n];
                    double[] in = new double[n];
                    fill(out, me, it);
                    Request r = w.irecv(in, 0, n, Datatype.DOUBLE, left, 1);
                    Request s = w.isend(out, 0, n, Datatype.DOUBLE, right, 1);
                    Request.waitAll(r, s);
                    verify(in, left, it, "ring exchange of " + n + " doubles");

                    int c = 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 40_000);
                    double[] a = new double[c];
                    double[] sum = new double[c];
                    for (int i = 0; i < c; i++) {
                        a[i] = me + i;
                    }
                    w.allreduce(a, 0, sum, 0, c, Datatype.DOUBLE, Op.SUM);
                    for (int i = 0; i < c; i++) {
                        double want = (double) np * (np - 1) / 2 + (double) np * i;
                        if (sum[i] != want) {
                            throw new AssertionError("allreduce of " + c + ": [" + i + "] = " + sum[i] + ", want " + want);
                        }
                    }

                    int root = it % np;
                    int b = 1 + rnd.nextInt(50_000);
                    double[] bc = new double[b];
                    if (me == root) {
                        fill(bc, root, it);
                    }
                    w.bcast(bc, 0, b, Datatype.DOUBLE, root);
                    verify(bc, root, it, "bcast of " + b + " doubles");

                    fill(pOutR, me, it);
                    fill(pOutL, me, it + 1_000_000);
                    Request.startAll(set);
                    Request.waitAll(set);
                    verify(pInL, left, it, "persistent receive from the left");
                    verify(pInR, right, it + 1_000_000, "persistent receive from the right");
                    if (it == iterations / 5) {
                        first = memory();
                    } else if (it == iterations * 3 / 5) {
                        mid = memory();
                    }
                }
                w.barrier();
                long[] last = memory();
                System.out.println("RSS " + first[0] + " " + mid[0] + " " + last[0]);
                System.out.println("SHMEM " + first[1] + " " + mid[1] + " " + last[1]);
                System.out.println("HEAP " + first[2] + " " + mid[2] + " " + last[2]);
                System.out.println("VERIFIED " + iterations);
            } catch (RankFailedException e) {
                System.out.println("CAUGHT " + e.failedRank() + " " + e.getMessage());
            }
            System.out.flush();
            for (PersistentRequest p : set) {
                if (!p.isActive()) {
                    p.free();
                }
            }
        }
    }

    /** A message size in doubles: inline (<= 1 K), bulk eager (<= 32 K) or rendezvous (up to 128 K = 1 MiB). */
    private static int size(Random rnd) {
        switch (rnd.nextInt(3)) {
            case 0:
                return 1 + rnd.nextInt(1024);
            case 1:
                return 1024 + rnd.nextInt(31 * 1024);
            default:
                return 32 * 1024 + rnd.nextInt(96 * 1024);
        }
    }

    private static double value(int src, int it, int i) {
        return src * 1_000_003.0 + it * 7919.0 + i;
    }

    private static void fill(double[] a, int src, int it) {
        for (int i = 0; i < a.length; i++) {
            a[i] = value(src, it, i);
        }
    }

    private static void verify(double[] a, int src, int it, String what) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] != value(src, it, i)) {
                throw new AssertionError(what + " from rank " + src + ", iteration " + it + ": [" + i + "] = " + a[i]
                    + ", want " + value(src, it, i));
            }
        }
    }

    /** {VmRSS, RssShmem (mapped shared memory touched), committed Java heap}, in KiB. */
    private static long[] memory() throws IOException {
        long[] m = {-1, -1, Runtime.getRuntime().totalMemory() >> 10};
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                m[0] = Long.parseLong(line.replaceAll("[^0-9]", ""));
            } else if (line.startsWith("RssShmem:")) {
                m[1] = Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return m;
    }
}
