package mpi;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The buffered-send space of this process (MPI_Buffer_attach, as MPJ Express: a ByteBuffer).
 * A buffered send copies its data at the call and returns; the copy is sent by a core
 * non-blocking send. The attached buffer's capacity is the limit: each message in flight takes
 * its size plus {@link MPI#BSEND_OVERHEAD} until its send completes, and a message that does
 * not fit is refused with an MPIException naming both sizes (MPI_ERR_BUFFER). The copies live
 * on the Java heap, not in the ByteBuffer: Java arrays cannot be views of it.
 */
final class BsendBuffer {
    private static final class InFlight {
        final org.hympj.api.Request request;
        final long bytes;

        InFlight(org.hympj.api.Request request, long bytes) {
            this.request = request;
            this.bytes = bytes;
        }
    }

    private ByteBuffer attached;
    private long used;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();

    void attach(ByteBuffer buffer) {
        if (buffer == null) {
            throw new MPIException("Buffer_attach: buffer must not be null");
        }
        if (attached != null) {
            throw new MPIException("Buffer_attach: a buffer is already attached (Buffer_detach it first)");
        }
        attached = buffer;
        used = 0;
    }

    /** Waits until every buffered message has been sent; returns the buffer (null if none was attached). */
    ByteBuffer detach() {
        drain();
        ByteBuffer b = attached;
        attached = null;
        used = 0;
        return b;
    }

    /** Completes every buffered send (at detach and finalize). */
    void drain() {
        while (!inFlight.isEmpty()) {
            inFlight.poll().request.waitFor();
        }
        used = 0;
    }

    /** A buffered send of core-typed data: copied, then sent without waiting. */
    void send(String call, org.hympj.api.Comm comm, Object buf, int offset, int count, org.hympj.api.Datatype type,
              int dest, int tag) {
        reclaim();
        if (attached == null) {
            throw new MPIException(call + ": no buffer is attached (MPI.Buffer_attach)");
        }
        if (buf == null || !buf.getClass().isArray()) {
            throw new MPIException(call + ": buf must be an array");
        }
        if (count < 0 || offset < 0) {
            throw new MPIException(call + ": offset and count must be >= 0, were " + offset + " and " + count);
        }
        long span = type.span(count);
        int length = Array.getLength(buf);
        if (offset + span > length) {
            throw new MPIException(call + ": offset " + offset + " + " + count + " items of " + type + " span " + span
                + " elements, past the end of buf (length " + length + ")");
        }
        long need = type.size() * count + MPI.BSEND_OVERHEAD;
        long free = attached.capacity() - used;
        if (need > free) {
            throw new MPIException(call + ": the attached buffer has " + free + " of " + attached.capacity()
                + " bytes free; this message needs " + need + " (" + (need - MPI.BSEND_OVERHEAD)
                + " bytes of data + MPI.BSEND_OVERHEAD " + MPI.BSEND_OVERHEAD + ")");
        }
        Object copy = Array.newInstance(buf.getClass().getComponentType(), (int) span);
        System.arraycopy(buf, offset, copy, 0, (int) span);
        org.hympj.api.Request r = comm.isend(copy, 0, count, type, dest, tag);
        used += need;
        inFlight.add(new InFlight(r, need));
    }

    /** Fails (MPI_ERR_BUFFER) unless {@code need} bytes are free now; takes nothing. */
    void require(String call, long need) {
        reclaim();
        if (attached == null) {
            throw new MPIException(call + ": no buffer is attached (MPI.Buffer_attach)");
        }
        long free = attached.capacity() - used;
        if (need > free) {
            throw new MPIException(call + ": the attached buffer has " + free + " of " + attached.capacity()
                + " bytes free; these buffered sends need " + need + " (data + MPI.BSEND_OVERHEAD " + MPI.BSEND_OVERHEAD
                + " each); none was started");
        }
    }

    /** Frees the space of the buffered messages that have been sent. */
    private void reclaim() {
        for (Iterator<InFlight> it = inFlight.iterator(); it.hasNext(); ) {
            InFlight f = it.next();
            if (f.request.test()) {
                used -= f.bytes;
                it.remove();
            }
        }
    }
}
