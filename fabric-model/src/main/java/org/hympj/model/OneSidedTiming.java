package org.hympj.model;

import org.hympj.spi.Layout;

/**
 * S2's isend/irecv from one-sided writes in modelled time: the one rule the emulator's
 * one-sided engine follows on virtual time ({@code org.hympj.shm.pml.OsVirtualTime}) and the
 * simulator follows with {@code --p2p onesided} (docs/ONESIDED.md, "On virtual time"). S2's
 * polling thread is its polling delay ({@link TimingModel#pollDelay}): an entry that lands in a
 * rank's memory — an address in its Remote Address Buffer, a flag in its complete buffer, the
 * last write of its own put's chain — is acted on that long after it lands, whoever polls.
 * <ul>
 * <li>a receive writes its address to the sender when it is issued, no earlier than the
 *     address before it to the same sender, and no earlier than the sender's polling side took
 *     the entry that held the slot it needs ({@link Addresses});</li>
 * <li>a send puts its data at the later of its issue and its address's landing + the delay
 *     ({@link #putAt}); the completion flag is the last write of the put's chain;</li>
 * <li>a receive completes at its flag's landing + the delay, a send at its put's end + the
 *     delay ({@link #noticed}).</li>
 * </ul>
 */
public final class OneSidedTiming {
    /** Address slots per (receiver, sender): S2's several slots of the Remote Address Buffer. */
    public static final int SLOTS = 16;
    /** Bytes of one address entry (segment offset, capacity, tag, handle). */
    public static final long ADDRESS_BYTES = 32;

    private final long pollDelay;

    public OneSidedTiming(TimingModel model) {
        this.pollDelay = model.pollDelay();
    }

    /** When an entry that landed at {@code landed} is acted on. */
    public long noticed(long landed) {
        return landed + pollDelay;
    }

    /** When a send issued at {@code issued}, whose address landed at {@code addressLanded}, puts its data. */
    public long putAt(long issued, long addressLanded) {
        return Math.max(issued, noticed(addressLanded));
    }

    /** The fabric a one-sided write takes: TCA where it reaches, IB elsewhere. */
    public static Fabric fabric(NetTopology topo, int src, int dst) {
        return topo.tcaReaches(src, dst) ? Fabric.TCA : Fabric.IB;
    }

    /**
     * Sets {@code t} to an address write from receiver {@code src} to sender {@code dst}: its
     * entry's bytes, segment to segment, an entry of the one-sided buffers (persistent: no
     * descriptor lookup).
     */
    public static Transfer address(Transfer t, Fabric f, int src, int dst) {
        return t.setMessage(f, src, dst, ADDRESS_BYTES, Layout.CONTIGUOUS, 1, ADDRESS_BYTES, 0, true, true, true, 0, 1,
            -1, -1);
    }

    /** One receiver's addresses to one sender, written in order: when each may be written. */
    public final class Addresses {
        private long written;
        private long last;
        private final long[] slotFreeAt = new long[SLOTS];

        /** The instant the next address is written, for a receive issued at {@code issued}. */
        public long nextAt(long issued) {
            return Math.max(issued, Math.max(last, slotFreeAt[(int) (written % SLOTS)]));
        }

        /** The next address was written at {@code at} and landed at {@code landed}: its slot is free again when the sender notices it. */
        public void written(long at, long landed) {
            slotFreeAt[(int) (written % SLOTS)] = noticed(landed);
            last = at;
            written++;
        }
    }

    /** A new receiver → sender address sequence. */
    public Addresses addresses() {
        return new Addresses();
    }
}
