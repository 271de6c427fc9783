package org.hympj.shm.pml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

/**
 * {@link EagerProtocol#lineEnd}: an eager record on a ring of this host ends on a cache line, so
 * the next starts on one, whatever the tail (other packet kinds are not padded), for every length
 * of an inline packet. (That the receiver takes the packet's length from its header, not from the
 * padded record, every multi-rank test of eager messages checks byte for byte.)
 */
class LineEndTest {
    private static final int CAPACITY = 64 << 10;

    @Test
    void everyRecordThatDoesNotWrapEndsOnACacheLine() {
        OneToOneRingBuffer ring = new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
        Random rnd = new Random(5);
        int checked = 0;
        for (int i = 0; i < 20_000; i++) {
            // an odd record now and then (another packet kind, unpadded) moves the tail off a line
            if (rnd.nextInt(4) == 0) {
                int idx = ring.tryClaim(Packets.CTS, 8 + 8 * rnd.nextInt(5));
                ring.commit(idx);
            }
            int length = Packets.EAGER_HEADER + rnd.nextInt(2048);
            long before = ring.producerPosition();
            int claim = EagerProtocol.lineEnd(ring, length);
            assertTrue(claim >= length && claim < length + 64, "claim " + claim + " for " + length);
            int idx = ring.tryClaim(Packets.EAGER, claim);
            assertTrue(idx >= 0, "the ring is drained below: a claim always fits");
            ring.commit(idx);
            long after = ring.producerPosition();
            long record = (8 + claim + 7) & ~7L;
            boolean wrapped = after - before != record; // Agrona padded to the ring's end first
            if (!wrapped) {
                assertEquals(0, after % 64, "a record of " + length + " bytes from tail " + before + " ends at " + after);
                checked++;
            }
            ring.read((type, buffer, index, len) -> { }, Integer.MAX_VALUE);
        }
        assertTrue(checked > 15_000, "records checked: " + checked);
    }
}
