package org.hympj.shm.emu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

/** The booking order of virtual time, on three ranks' floors and rings in one process. */
class VirtualOrderTest {
    private static final int N = 3;
    private final AtomicBuffer floors = new UnsafeBuffer(ByteBuffer.allocateDirect((int) VirtualOrder.bytes(N)));
    /** rings[r][0]: one inbound ring per rank (one channel, packets from anyone: enough here). */
    private final AtomicBuffer[][] rings = new AtomicBuffer[N][1];
    private final VirtualOrder[] order = new VirtualOrder[N];

    VirtualOrderTest() {
        for (int r = 0; r < N; r++) {
            rings[r][0] = new UnsafeBuffer(ByteBuffer.allocateDirect(4096 + RingBufferDescriptor.TRAILER_LENGTH));
        }
        for (int r = 0; r < N; r++) {
            order[r] = new VirtualOrder(floors, r, N, rings, 0);
            order[r].publish(0);
        }
    }

    private void packet(int to, long stamp) {
        OneToOneRingBuffer ring = new OneToOneRingBuffer(rings[to][0]);
        UnsafeBuffer p = new UnsafeBuffer(new byte[16]);
        p.putLong(0, stamp);
        assertTrue(ring.write(1, p, 0, 16));
    }

    private int take(int at) {
        return new OneToOneRingBuffer(rings[at][0]).read((type, buffer, index, length) -> { }, 100);
    }

    @Test
    void aBookingWaitsForEveryRankThatMayStillBookEarlier() {
        order[0].publish(100);
        order[1].publish(50);
        order[2].publish(200);
        assertFalse(order[0].mayBook(100), "rank 1 runs at 50");
        assertTrue(order[1].mayBook(50));
        order[1].publish(150);
        assertTrue(order[0].mayBook(100));
        assertFalse(order[2].mayBook(200), "ranks 0 and 1 are earlier");
    }

    @Test
    void equalInstantsGoInRankOrder() {
        order[0].publish(70);
        order[1].publish(70);
        order[2].publish(70);
        assertTrue(order[0].mayBook(70));
        assertFalse(order[1].mayBook(70));
        assertFalse(order[2].mayBook(70));
    }

    @Test
    void aBlockedRankCountsByThePacketsWaitingForIt() {
        order[1].blocked();
        order[2].publish(1000);
        assertTrue(order[0].mayBook(500), "blocked with an empty ring: it books nothing until a packet comes");
        packet(1, 300);
        assertFalse(order[0].mayBook(500), "a packet stamped 300 waits in rank 1's ring");
        assertTrue(order[0].mayBook(250));
        order[1].lower(300); // as the rank does before it takes the packet
        assertEquals(1, take(1));
        assertFalse(order[0].mayBook(500), "taken: its reader's floor carries it");
        order[1].blocked();
        assertTrue(order[0].mayBook(500));
    }

    @Test
    void aDeferredBookingHoldsTheFloorWhileTheRankRunsOrWaits() {
        order[1].publish(100);
        order[1].deferredFrom(VirtualOrder.TWO_SIDED, 40);
        order[2].publish(1000);
        assertEquals(40, order[1].floor());
        assertFalse(order[0].mayBook(60));
        order[1].blocked();
        assertEquals(40, order[1].floor(), "blocked, but its deferred booking is still to be made");
        order[1].deferredFrom(VirtualOrder.TWO_SIDED, Long.MAX_VALUE);
        assertTrue(order[0].mayBook(60));
    }

    @Test
    void bothEnginesDeferredBookingsHoldTheFloorAndGoInInstantOrder() {
        order[1].publish(100);
        order[1].deferredFrom(VirtualOrder.TWO_SIDED, 60);
        order[1].deferredFrom(VirtualOrder.ONE_SIDED, 40);
        assertEquals(40, order[1].floor());
        assertFalse(order[1].firstOfRank(VirtualOrder.TWO_SIDED, 60), "the one-sided booking at 40 goes first");
        assertTrue(order[1].firstOfRank(VirtualOrder.ONE_SIDED, 40));
        order[1].deferredFrom(VirtualOrder.ONE_SIDED, 60);
        assertTrue(order[1].firstOfRank(VirtualOrder.TWO_SIDED, 60), "equal instants: the two-sided engine's first");
        assertFalse(order[1].firstOfRank(VirtualOrder.ONE_SIDED, 60));
        order[1].deferredFrom(VirtualOrder.TWO_SIDED, Long.MAX_VALUE);
        assertEquals(60, order[1].floor(), "the one-sided engine's booking still counts");
        order[1].done();
        assertEquals(VirtualOrder.DONE, order[1].floor());
    }

    @Test
    void stampedEntriesBesidePacketsBoundTheirRank() {
        long[] waiting = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
        for (VirtualOrder o : order) {
            o.stamps(s -> waiting[s]);
        }
        order[1].blocked();
        order[2].publish(1000);
        assertTrue(order[0].mayBook(500));
        waiting[1] = 300; // e.g. an address in rank 1's Remote Address Buffer, landing at 300
        assertFalse(order[0].mayBook(500), "what the entry causes happens no earlier than 300");
        assertTrue(order[0].mayBook(299));
        assertFalse(order[0].mayBook(300), "an entry at the instant itself holds every rank");
        assertEquals(300, order[1].ownPendingMin());
        waiting[1] = Long.MAX_VALUE;
        assertTrue(order[0].mayBook(500));
    }

    @Test
    void aFinalizedRanksLeftoverPacketsDoNotCount() {
        packet(2, 10);
        order[1].publish(1000);
        assertFalse(order[0].mayBook(20));
        order[2].done();
        assertTrue(order[0].mayBook(20));
    }

    @Test
    void aBookingBeforeOneAlreadyMadeIsCounted() {
        order[0].booked(100);
        order[1].booked(100);
        order[2].booked(50);
        assertEquals(0, order[0].outOfOrder());
        assertEquals(0, order[1].outOfOrder());
        assertEquals(1, order[2].outOfOrder());
    }
}
