package org.hympj.api;

/**
 * A message was longer than the receive buffer (MPI_ERR_TRUNCATE). Only the bytes that fit
 * were written; nothing past the buffer. The receive's status says how much was sent.
 */
public class TruncationException extends MpjException {
    private static final long serialVersionUID = 1L;
    private final transient Status status;

    public TruncationException(Status status, long capacityBytes) {
        super("message truncated: " + status.sentBytes() + " bytes sent by rank " + status.source()
            + " with tag " + status.tag() + ", receive buffer holds " + capacityBytes + " bytes");
        this.status = status;
    }

    /** The status of the truncated receive. */
    public Status status() {
        return status;
    }
}
