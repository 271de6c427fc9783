package mpi;

/**
 * A user reduction (mpiJava 1.2): combines {@code count} items of {@code datatype}:
 * {@code inoutvec[i] = invec[i] op inoutvec[i]}, offsets in elements of the arrays.
 */
public abstract class User_function {
    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count,
                              Datatype datatype);
}
