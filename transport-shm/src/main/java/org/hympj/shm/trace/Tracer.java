package org.hympj.shm.trace;

/**
 * Trace events of one rank (the {@code --trace} journal). The engine calls these on its hot
 * paths, so an implementation must not allocate per event; {@link #NONE} is a no-op used when
 * tracing is off (a constant check the JIT removes). Times are System.nanoTime (real);
 * modelled times are nanoseconds of the model's clock.
 */
public interface Tracer extends AutoCloseable {
    /** Event kinds. */
    int POST_SEND = 1;
    int POST_RECV = 2;
    int ROUTE = 3;
    int PUT_ISSUED = 4;
    int PUT_COMPLETED = 5;
    int WAIT_BEGIN = 6;
    int WAIT_END = 7;
    int COMPLETE_SEND = 8;
    int COMPLETE_RECV = 9;
    /** A startAll of persistent requests (bytes = how many; info = the RSched policy, or "startAll"). */
    int START = 10;

    /** True when events are recorded. */
    boolean enabled();

    /**
     * One event.
     *
     * @param kind     one of the kinds above
     * @param peer     the other rank (world), or -1
     * @param tag      message tag, or -1
     * @param bytes    message or put size, or 0
     * @param channel  fabric channel (0 native/TCA, 1 IB), or -1
     * @param engine   DMA engine or adapter id of the model, or -1
     * @param link     first link of the path, or -1
     * @param modelledStart modelled start of a put (ns), or 0
     * @param modelledEnd   modelled end of a put on its engine (ns), or 0
     * @param info     a short constant string (protocol name, route decision), may be null
     */
    void event(int kind, int peer, int tag, long bytes, int channel, int engine, int link, long modelledStart,
               long modelledEnd, String info);

    @Override
    void close();

    Tracer NONE = new Tracer() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public void event(int kind, int peer, int tag, long bytes, int channel, int engine, int link,
                          long modelledStart, long modelledEnd, String info) {
            // tracing is off
        }

        @Override
        public void close() {
            // nothing to close
        }
    };

    /** Takes event times from {@code clock} (a rank's virtual clock) instead of the real clock. */
    default void clock(java.util.function.LongSupplier clock) {
    }
}
