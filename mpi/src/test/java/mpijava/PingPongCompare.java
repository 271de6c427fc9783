package mpijava;

import mpi.MPI;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;

/**
 * Ping-pong of {@code bytes} bytes between ranks 0 and 1, alternating rounds through the core
 * API ({@code org.hympj.api.Comm}) and through the mpi facade in the same run; rank 0 prints
 * the median half round-trip of each. Checks the data that comes back. Run:
 * {@code bin/mpjrun -np 2 -cp classes mpijava.PingPongCompare [bytes] [iterations]}.
 */
public class PingPongCompare {
    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int bytes = rest.length > 0 ? Integer.parseInt(rest[0]) : 8;
        int iters = rest.length > 1 ? Integer.parseInt(rest[1]) : 20_000;
        int me = MPI.COMM_WORLD.Rank();
        Comm core = coreOf();
        byte[] buf = new byte[bytes];
        int rounds = 7;
        double[] coreUs = new double[rounds];
        double[] facadeUs = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            coreUs[r] = coreRound(core, me, buf, iters);
            facadeUs[r] = facadeRound(me, buf, iters);
        }
        java.util.Arrays.sort(coreUs);
        java.util.Arrays.sort(facadeUs);
        if (me == 0) {
            double c = coreUs[rounds / 2];
            double f = facadeUs[rounds / 2];
            System.out.printf("pingpong %d B: core %.3f us, mpi facade %.3f us, facade/core %.3f%n", bytes, c, f, f / c);
        }
        MPI.Finalize();
    }

    /** The core communicator under MPI.COMM_WORLD (the facade keeps it; reached here by reflection for the benchmark only). */
    static Comm coreOf() throws ReflectiveOperationException {
        java.lang.reflect.Field f = mpi.Comm.class.getDeclaredField("core");
        f.setAccessible(true);
        return (Comm) f.get(MPI.COMM_WORLD);
    }

    /** The core rounds fill a status too, as an mpiJava Recv returns one. */
    static final org.hympj.api.Status STATUS = new org.hympj.api.Status();

    static double coreRound(Comm c, int me, byte[] buf, int iters) {
        c.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            if (me == 0) {
                buf[0] = (byte) i;
                c.send(buf, 0, buf.length, Datatype.BYTE, 1, 1);
                c.recv(buf, 0, buf.length, Datatype.BYTE, 1, 1, STATUS);
                check(buf[0] == (byte) (i + 1));
            } else if (me == 1) {
                c.recv(buf, 0, buf.length, Datatype.BYTE, 0, 1, STATUS);
                buf[0]++;
                c.send(buf, 0, buf.length, Datatype.BYTE, 0, 1);
            }
        }
        return (System.nanoTime() - t0) / 1e3 / iters / 2;
    }

    static double facadeRound(int me, byte[] buf, int iters) {
        MPI.COMM_WORLD.Barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            if (me == 0) {
                buf[0] = (byte) i;
                MPI.COMM_WORLD.Send(buf, 0, buf.length, MPI.BYTE, 1, 1);
                MPI.COMM_WORLD.Recv(buf, 0, buf.length, MPI.BYTE, 1, 1);
                check(buf[0] == (byte) (i + 1));
            } else if (me == 1) {
                MPI.COMM_WORLD.Recv(buf, 0, buf.length, MPI.BYTE, 0, 1);
                buf[0]++;
                MPI.COMM_WORLD.Send(buf, 0, buf.length, MPI.BYTE, 0, 1);
            }
        }
        return (System.nanoTime() - t0) / 1e3 / iters / 2;
    }

    static void check(boolean ok) {
        if (!ok) {
            throw new AssertionError("ping-pong data came back wrong");
        }
    }
}
