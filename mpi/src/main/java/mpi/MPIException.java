package mpi;

/**
 * An error reported by an MPI call. Unchecked (it extends {@link RuntimeException}), so code
 * that catches it compiles and code that calls MPI without {@code throws} (in constructors,
 * lambdas) compiles too. The message names the call and the argument at fault.
 */
public class MPIException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MPIException(String message) {
        super(message);
    }

    public MPIException(String message, Throwable cause) {
        super(message, cause);
    }

    public MPIException(Throwable cause) {
        super(cause == null ? null : cause.getMessage(), cause);
    }

    /** The error of {@code call}: an MPIException as is, anything else wrapped with the call's name. */
    static MPIException of(String call, RuntimeException e) {
        if (e instanceof MPIException) {
            return (MPIException) e;
        }
        return new MPIException(call + ": " + e.getMessage(), e);
    }

    /** A call this implementation does not provide, and why. */
    static MPIException notSupported(String call, String why) {
        return new MPIException(call + " not supported: " + why);
    }
}
