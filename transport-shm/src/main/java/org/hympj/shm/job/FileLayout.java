package org.hympj.shm.job;

import org.hympj.shm.emu.SharedTimelines;
import org.hympj.shm.emu.VirtualOrder;

/**
 * The sizes of a job's shared files, in one place below the layers that map them: the
 * directory creates every file at its final size before any rank starts, and the fabric, the
 * one-sided engine and the shared timelines map them with the same numbers.
 */
public final class FileLayout {
    /** Bytes before a bulk region's data: its consumer position, on cache lines of its own. */
    public static final int BULK_HEADER = 128;
    /** Bytes of one slot of a one-sided ring (Remote Address Buffer, complete buffer). */
    public static final int ONE_SIDED_SLOT = 64;
    /** Slots per peer in each one-sided ring. */
    public static final int ONE_SIDED_SLOTS = org.hympj.model.OneSidedTiming.SLOTS;
    /** Resources the timelines file has room for, per rank (engines, links, adapters). */
    static final int RESOURCES_PER_RANK = 64;

    private FileLayout() {
    }

    /**
     * Bytes of the collective slots of a host of {@code local} ranks in a job on several hosts:
     * three sets of one 320-byte slot per rank (pml.HostCollectives).
     */
    public static long hostCollBytes(int local) {
        return 3L * local * 320;
    }

    /** Bytes of one bulk slot (header + region, page aligned). */
    public static long bulkSlotBytes(int bulkBytes) {
        return (BULK_HEADER + bulkBytes + 4095) & ~4095L;
    }

    /** Bytes of one one-sided ring of {@code slots} slots. */
    public static int oneSidedRingBytes(int slots) {
        return slots * ONE_SIDED_SLOT;
    }

    /** Bytes of a rank's one-sided file: per peer an address ring and a completion ring. */
    public static long oneSidedFileBytes(int ranks) {
        return (long) ranks * 2 * oneSidedRingBytes(ONE_SIDED_SLOTS);
    }

    /**
     * Bytes of the timelines file of a job of {@code ranks} ranks: the timelines, then the ranks'
     * floors of virtual time ({@link VirtualOrder}).
     */
    public static long timelinesBytes(int ranks) {
        return floorsOffset(ranks) + VirtualOrder.bytes(ranks);
    }

    /** Where the floors of virtual time start in the timelines file. */
    public static long floorsOffset(int ranks) {
        return SharedTimelines.fileBytes(RESOURCES_PER_RANK * ranks);
    }
}
