package org.hympj.shm.pml;

import java.util.concurrent.locks.LockSupport;
import org.hympj.api.Datatype;
import org.hympj.api.Request;
import org.hympj.shm.fabric.ShmFabric;

/**
 * The warm-up's steps in which ranks stay away from a neighbour that keeps sending or waiting
 * ({@link WarmUp#run} calls them at a round's start): what a program meets when its peer is
 * descheduled — a wait long enough to park, a stream whose window and packet ring fill, eager
 * sends queued behind a full ring. The rest of the warm-up keeps every rank busy, so C2 compiled
 * these branches as never taken and threw the compiled paths away inside a program's timed
 * batches (JFR, docs/PERFORMANCE.md, sessions 23–24). Their own code runs interpreted, as
 * {@link WarmUp}'s does (the launcher's {@code CompileCommand=exclude,…WarmUp*.*} takes this
 * class too). Every rank of the world calls each step.
 */
final class WarmUpWaits {
    private WarmUpWaits() {
    }

    /** The first rounds that begin with {@link #longWait}s. */
    static final int LONG_WAIT_ROUNDS = 2;
    /**
     * How long a rank keeps its right neighbour waiting in {@link #longWait}: past the 2,000 empty
     * passes and 10,000 yields of {@code --idle auto} (a few ms here) into its parks.
     */
    static final long LONG_WAIT_NS = 20_000_000L;

    /**
     * Each rank waits once in a receive long enough to spin, yield and then park: the even ranks
     * sleep before they send to their right neighbour, then the odd ones. Why: no wait of the other
     * exchanges reached the park, so C2 compiled the idle strategy's park as never taken into every
     * blocking call; a program whose peer was away a few milliseconds (setting up its next size) hit
     * it (an {@code unstable_if} in {@code SpinYieldParkIdleStrategy.idle}) and C2 compiled
     * {@code ShmComm.recv}, {@code TwoSided.recv}, {@code ShmComm.send} and {@code TwoSided.send}
     * again (about 70 ms) on the ranks' cores inside the next timed batches — a segment ping-pong launch
     * read 0.56 / 3.0 µs at 4 / 64 KB against 0.17–0.19 / 0.72–0.77 (JFR, docs/PERFORMANCE.md, session 23).
     */
    static void longWait(ShmComm world, int right, int left, byte[] out, byte[] in) {
        for (int parity = 0; parity < 2; parity++) {
            if (world.rank() % 2 == parity) {
                sleep(LONG_WAIT_NS);
            }
            world.send(out, 0, 8, Datatype.BYTE, right, WarmUp.TAG);
            world.recv(in, 0, 8, Datatype.BYTE, left, WarmUp.TAG, null);
        }
    }

    /** How long {@link #stalledStream}'s receivers stay away: long enough for a stream to fill its window and ring. */
    static final long STALL_NS = 1_000_000L;
    /** The tag of {@link #stalledStream}'s token. */
    private static final int STALL_TOKEN = WarmUp.TAG - 4;

    /**
     * A heap-to-heap rendezvous (streamed through the bulk region) whose receiver stays away once
     * the data has been cleared to come: the even ranks, then the odd ones, sleep {@link #STALL_NS}
     * with the 1 MiB receive from their left neighbour posted, while the neighbour streams 512 KiB
     * into its window, spills the rest into the packet ring and finds both full (a stall: the send
     * waits for the receiver's copy). Elsewhere in the warm-up the receiver copies as the sender
     * writes, so C2 compiled the full window and the full ring as never taken; a program's heap 4 MB
     * ping-pong whose receiver was descheduled hit it and C2 compiled {@code emitStream} again
     * (34–40 ms) inside its timed batches (2 of 8 launches under JFR, session 23). Run each round,
     * not only in the first two as {@link #longWait}: a branch the interpreter took before its
     * method had a profile is not counted. The token behind the request to send (on the same ring)
     * makes sure it was read, and the clear-to-send sent, before the receiver sleeps.
     */
    static void stalledStream(ShmComm world, int right, int left, byte[] out, byte[] in, byte[] token,
                              byte[] tokenBack) {
        for (int parity = 0; parity < 2; parity++) {
            Request recv = world.irecv(in, 0, WarmUp.LARGE, Datatype.BYTE, left, WarmUp.TAG);
            Request send = world.isend(out, 0, WarmUp.LARGE, Datatype.BYTE, right, WarmUp.TAG);
            world.sendrecv(token, 0, 8, Datatype.BYTE, right, STALL_TOKEN, tokenBack, 0, 8, Datatype.BYTE, left,
                STALL_TOKEN);
            if (world.rank() % 2 == parity) {
                sleep(STALL_NS);
            }
            recv.waitFor();
            send.waitFor();
        }
    }

    /** Bytes of each of {@link #stalledEager}'s messages (at most the inline limit). */
    private static final int STALL_EAGER_BYTES = 2048;

    /**
     * More small eager messages than the packet ring holds, sent to a neighbour that sleeps
     * ({@link #STALL_NS}; the even ranks, then the odd ones): the sends the ring cannot take wait
     * in the outbound queue and each pass tries them again, finding the ring full — a branch of
     * {@code EagerProtocol.emit}, and a kind of item in {@code OutboundQueues.flush}, that the rest
     * of the warm-up met only now and then ({@link WarmUp#ringEnd} writes at most to the ring's end). When
     * the warm-up's last round met it first, C2 threw the compiled sends away 14–23 ms before the
     * program and compiled them again (35–41 ms) inside its first 8-byte batches: 0.36 µs against
     * 0.10 (2 of 20 launches under JFR, session 24). Ranks on another host, a modelled fabric or a
     * job of one: nothing (as {@link WarmUp#ringEnd}).
     */
    static void stalledEager(ShmComm world, int right, int left, byte[] out, byte[] in) {
        ShmFabric fabric = world.engine.fabric();
        int bytes = Math.min(STALL_EAGER_BYTES, out.length);
        boolean on = world.size() > 1 && fabric.channels() == 1 && bytes >= 8;
        boolean sends = on && fabric.local(right);
        boolean receives = on && fabric.local(left);
        if (!sends && !receives) {
            return;
        }
        // the ring's size is the job's: sender and receiver count alike
        int count = fabric.ring(0, sends ? right : left).capacity() / bytes + 8;
        Request[] sent = new Request[sends ? count : 0];
        for (int parity = 0; parity < 2; parity++) {
            if (world.rank() % 2 == parity) {
                sleep(STALL_NS);
            }
            for (int i = 0; i < sent.length; i++) {
                sent[i] = world.isend(out, 0, bytes, Datatype.BYTE, right, STALL_EAGER_TAG);
            }
            if (receives) {
                for (int i = 0; i < count; i++) {
                    world.recv(in, 0, bytes, Datatype.BYTE, left, STALL_EAGER_TAG, null);
                }
            }
            Request.waitAll(sent);
        }
    }

    /** The tag of {@link #stalledEager}'s messages. */
    private static final int STALL_EAGER_TAG = WarmUp.TAG - 5;

    /** Sleeps {@code nanos} (parked again for the rest when a park returns early). */
    static void sleep(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long rest = nanos; rest > 0; rest = until - System.nanoTime()) {
            LockSupport.parkNanos(rest);
        }
    }
}
