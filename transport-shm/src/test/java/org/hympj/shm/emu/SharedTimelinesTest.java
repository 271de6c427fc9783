package org.hympj.shm.emu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.hympj.api.RankFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The timelines in shared memory: bookings seen by every rank, and a lock whose stuck holder is named. */
class SharedTimelinesTest {

    private static UnsafeBuffer file(int resources) {
        return new UnsafeBuffer(ByteBuffer.allocateDirect((int) SharedTimelines.fileBytes(resources)));
    }

    @Test
    void twoRanksSeeEachOthersBookingsAndTakeTurnsOnTheLock() {
        UnsafeBuffer f = file(4);
        SharedTimelines a = new SharedTimelines(f, 0);
        SharedTimelines b = new SharedTimelines(f, 1);
        assertEquals(4, a.resources());
        a.lock();
        a.book(2, 100, 200);
        a.unlock();
        b.lock();
        assertEquals(0, b.fit(2, 0, 100), "the gap before rank 0's booking");
        assertEquals(200, b.fit(2, 0, 101));
        b.unlock();
        assertEquals(0, f.getLong(0), "the lock word is free again");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aHolderThatNeverLetsGoIsNamed() {
        UnsafeBuffer f = file(1);
        f.putLong(0, 3 + 1); // rank 3 took the lock and died
        SharedTimelines t = new SharedTimelines(f, 0);
        long start = System.nanoTime();
        RankFailedException e = assertThrows(RankFailedException.class, t::lock);
        assertEquals(3, e.failedRank());
        assertTrue(e.getMessage().contains("timelines"), e.getMessage());
        assertTrue(System.nanoTime() - start >= SharedTimelines.STUCK_NANOS, "waited for the holder first");
    }
}
