package mpi;

import org.hympj.api.PersistentRequest;

/**
 * The non-blocking (MPI-3, as MPJ Express offers them) and persistent (MPI-4) collectives of
 * {@link Intracomm}, each one core call: the core compiles the collective into rounds that move
 * on during any later MPI call of the rank. Buffers of primitive types are handed to the core as
 * they are; BOOLEAN buffers travel as bytes — copied at the call (a persistent request: at every
 * start) and copied back into the booleans when a wait or test sees the request complete. OBJECT
 * buffers go elsewhere ({@link ObjectNbc}); the irregular types (Indexed, Hindexed, Struct) do not come
 * here: {@link IrregularCollectives} packs them around the same core calls.
 */
final class CollectiveRequests {
    private CollectiveRequests() {
    }

    /** One buffer as the core sees it: the array itself, or the bytes of a boolean array. */
    static final class Side {
        final Object core;
        private final boolean[] bools;
        private final byte[] bytes;

        private Side(Object core, boolean[] bools, byte[] bytes) {
            this.core = core;
            this.bools = bools;
            this.bytes = bytes;
        }

        /** {@code buf} of {@code type}; null when the buffer does not matter on this rank ({@code used} false). */
        static Side of(String call, Object buf, Datatype type, boolean used) {
            if (!used) {
                return null;
            }
            switch (Comm.kind(call, type)) {
                case CORE:
                    return new Side(buf, null, null);
                case BOOLEAN: {
                    boolean[] b = Buffers.booleans(call, buf);
                    byte[] bytes = Buffers.toBytes(b);
                    return new Side(bytes, b, bytes);
                }
                default:
                    throw MPIException.notSupported(call + " of " + type, "non-blocking and persistent collectives "
                        + "take primitive, BOOLEAN and OBJECT buffers and irregular types");
            }
        }

        static Object core(Side s) {
            return s == null ? null : s.core;
        }

        /** Before a persistent start: the booleans' current values into the bytes. */
        void refresh() {
            if (bools != null) {
                for (int i = 0; i < bools.length; i++) {
                    bytes[i] = bools[i] ? (byte) 1 : 0;
                }
            }
        }

        /** After a completion: the received bytes back into the booleans. */
        void back() {
            if (bools != null) {
                Buffers.fromBytes(bytes, bools);
            }
        }

        boolean converts() {
            return bools != null;
        }
    }

    static org.hympj.api.Datatype type(Datatype t, boolean used) {
        return used ? t.core : null;
    }

    /** The core op of a reduction on {@code datatype}, checked as the blocking calls check it. */
    static org.hympj.api.Op op(String call, Op op, Datatype datatype) {
        if (op == null) {
            throw new MPIException(call + ": op must not be null");
        }
        Comm.kind(call, datatype);
        return op.coreFor(call, datatype);
    }

    /** A started non-blocking collective; {@code recv} (may be null) is copied back on completion. */
    static Request started(org.hympj.api.Request core, Side recv) {
        return new Request(new CorePending(core, after(recv)));
    }

    /** A persistent collective: {@code send} refreshed before every start, {@code recv} copied back after. */
    static Prequest persistent(PersistentRequest core, Side send, Side recv) {
        Runnable before = send != null && send.converts() ? send::refresh : null;
        return new Prequest(core, after(recv), before);
    }

    private static CorePending.After after(Side recv) {
        return recv != null && recv.converts() ? (st, out) -> recv.back() : null;
    }
}
