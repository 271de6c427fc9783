package org.hympj.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Booked intervals with their gaps kept: fit, book, fill, and the oldest forgotten when full. */
class IntervalTimelinesTest {

    @Test
    void aLaterPlannerTakesAnIdleGapBeforeAnEarlierBooking() {
        ArrayTimelines tl = new ArrayTimelines(2);
        tl.book(0, 100, 200);
        assertEquals(0, tl.fit(0, 0, 100), "[0,100) is idle: a transfer of 100 fits before the booking");
        assertEquals(200, tl.fit(0, 0, 101), "one ns more does not fit");
        assertEquals(200, tl.fit(0, 150, 10), "inside the booking: after it");
        assertEquals(200, tl.busyUntil(0));
        assertEquals(0, tl.busyUntil(1), "other resources untouched");
    }

    @Test
    void bookingsJoinWhatTheyOverlapOrTouch() {
        ArrayTimelines tl = new ArrayTimelines(1);
        tl.book(0, 100, 200);
        tl.book(0, 300, 400);
        tl.book(0, 200, 300); // touches both: one interval [100, 400)
        assertEquals(400, tl.fit(0, 100, 1));
        assertEquals(0, tl.fit(0, 0, 100));
        tl.book(0, 50, 120);
        assertEquals(0, tl.fit(0, 0, 50));
        assertEquals(400, tl.fit(0, 0, 51));
    }

    @Test
    void fillSpreadsWorkOverTheIdleGaps() {
        ArrayTimelines tl = new ArrayTimelines(1);
        tl.book(0, 10, 20);
        tl.book(0, 30, 40);
        // 25 of work from 0: 10 in [0,10), 10 in [20,30), 5 in [40,45)
        assertEquals(45, tl.fill(0, 0, 25));
        assertEquals(45, tl.fit(0, 0, 1), "everything up to 45 is now taken");
        assertEquals(45, tl.busyUntil(0));
        // work that fits the first gap ends there
        ArrayTimelines t2 = new ArrayTimelines(1);
        t2.book(0, 100, 200);
        assertEquals(60, t2.fill(0, 10, 50));
        assertEquals(60, t2.fit(0, 10, 40), "[60,100) is still idle");
    }

    @Test
    void theOldestIntervalIsForgottenWhenFull() {
        ArrayTimelines tl = new ArrayTimelines(1);
        for (int i = 0; i <= IntervalTimelines.CAPACITY; i++) {
            tl.book(0, i * 100L, i * 100L + 50);
        }
        assertEquals(0, tl.fit(0, 0, 100), "the first booking is gone");
        assertEquals(150, tl.fit(0, 100, 50), "the second is kept");
        assertEquals(IntervalTimelines.CAPACITY * 100L + 50, tl.busyUntil(0));
    }

    @Test
    void aResourceOutsideTheTimelinesFailsClearly() {
        ArrayTimelines tl = new ArrayTimelines(3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tl.book(3, 0, 1));
        assertTrue(e.getMessage().contains("resource 3"), e.getMessage());
    }

    /** Against a plain bitmap of busy nanoseconds: fit and fill agree on random bookings. */
    @Test
    void randomBookingsAgreeWithABitmap() {
        Random rnd = new Random(42);
        for (int round = 0; round < 200; round++) {
            ArrayTimelines tl = new ArrayTimelines(1);
            boolean[] busy = new boolean[4000];
            for (int b = 0; b < 12; b++) { // under CAPACITY: nothing forgotten
                long s = rnd.nextInt(1500);
                long e = s + 1 + rnd.nextInt(100);
                if (rnd.nextBoolean()) {
                    tl.book(0, s, e);
                    mark(busy, s, e);
                } else {
                    long end = tl.fill(0, s, e - s);
                    assertEquals(fillOf(busy, s, e - s), end, "fill from " + s);
                    mark(busy, s, end);
                }
                long from = rnd.nextInt(1600);
                long d = 1 + rnd.nextInt(80);
                assertEquals(fitOf(busy, from, d), tl.fit(0, from, d), "fit " + d + " from " + from);
            }
        }
    }

    private static void mark(boolean[] busy, long s, long e) {
        for (long t = s; t < e; t++) {
            busy[(int) t] = true;
        }
    }

    private static long fitOf(boolean[] busy, long from, long d) {
        for (long t = from; ; t++) {
            boolean ok = true;
            for (long u = t; u < t + d; u++) {
                if (busy[(int) u]) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                return t;
            }
        }
    }

    private static long fillOf(boolean[] busy, long from, long work) {
        long t = from;
        long left = work;
        while (left > 0) {
            if (!busy[(int) t]) {
                left--;
            }
            t++;
        }
        return t;
    }
}
