package mpi;

/**
 * An error handler. In this binding every error raises an {@link MPIException} (there are no
 * return codes to return in Java); {@link MPI#ERRORS_RETURN} is accepted and behaves the same.
 */
public class Errhandler {
    private final String name;

    Errhandler(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
