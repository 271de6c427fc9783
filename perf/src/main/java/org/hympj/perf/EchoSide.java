package org.hympj.perf;

/**
 * One process's end of a two-JVM floor ping-pong ({@code ring-pingpong}, {@code aeron-loop}),
 * timed exactly as {@code ../shared/anchors/pingpong.c}: per size the anchor's warm-up and
 * iteration counts ({@link PingPong#itersFor}), 5 batches, the median batch, half the round trip.
 * Role 0 sends first; role 1 echoes.
 */
abstract class EchoSide {
    /** Sends {@code size} bytes to the other process (blocking until they are handed over). */
    abstract void send(int size);

    /** Waits for one message from the other process. */
    abstract void receive();

    /** Half the median batch's round trip in µs (meaningful on role 0). */
    final double measure(int role, int size) {
        int[] counts = PingPong.itersFor(size);
        int per = counts[1] / Rows.NBATCH;
        double[] batch = new double[Rows.NBATCH];
        for (int b = -1; b < Rows.NBATCH; b++) {
            int n = b < 0 ? counts[0] : per;
            long t0 = System.nanoTime();
            for (int k = 0; k < n; k++) {
                if (role == 0) {
                    send(size);
                    receive();
                } else {
                    receive();
                    send(size);
                }
            }
            if (b >= 0) {
                batch[b] = (System.nanoTime() - t0) * 1e-3 / (2.0 * n);
            }
        }
        return Rows.median(batch);
    }
}
