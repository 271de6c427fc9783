package org.hympj.api;

/** A communication error: the operation did not complete as MPI semantics require. */
public class MpjException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MpjException(String message) {
        super(message);
    }

    public MpjException(String message, Throwable cause) {
        super(message, cause);
    }
}
