package mpi;


/**
 * A reduction operation (mpiJava 1.2): the predefined ones ({@link MPI#SUM} …) are the core's
 * operations; a user one wraps a {@link User_function}.
 */
public class Op {
    /** The core operation of a predefined op; null for a user op. */
    private final org.hympj.api.Op core;
    private final User_function function;
    private final boolean commute;
    private final String name;
    /** The core op made for the datatype a user op was last used with (a user function sees mpiJava items). */
    private Datatype lastType;
    private org.hympj.api.Op lastCore;

    /** A user operation; {@code commute} says whether it is commutative (else applied in rank order). */
    public Op(User_function function, boolean commute) {
        if (function == null) {
            throw new MPIException("Op: function must not be null");
        }
        this.core = null;
        this.function = function;
        this.commute = commute;
        this.name = "user";
    }

    Op(org.hympj.api.Op core, String name) {
        this.core = core;
        this.function = null;
        this.commute = true;
        this.name = name;
    }

    public boolean Is_commute() {
        return commute;
    }

    /** Nothing to release. */
    public void Free() {
    }

    /** The core operation to reduce items of {@code type} with; checks the op is defined on it. */
    /** Refuses a predefined op on OBJECT items: objects have no arithmetic, only a user function combines them. */
    void checkObjects(String call) {
        if (function == null) {
            throw new MPIException(call + ": op " + name + " has no meaning for OBJECT items; reduce objects with a user"
                + " Op (new Op(User_function, commute))");
        }
    }

    /** The user function on objects: {@code inout[io..] = in[ii..] op inout[io..]}, {@code count} items. */
    void call(Object[] in, int ii, Object[] inout, int io, int count, Datatype type) {
        function.Call(in, ii, inout, io, count, type);
    }

    /**
     * The core operation for a user op on items of an irregular type (Indexed, Struct …): the core
     * reduces their packed elements, and the user function is handed them put back in the type's
     * layout ({@link Blocks#callInLayout}), as MPI hands a user function items as they lie in memory.
     */
    org.hympj.api.Op coreInLayout(Datatype type) {
        if (type != lastType) {
            Datatype t = type;
            Blocks layout = type.blocks;
            lastCore = org.hympj.api.Op.user((in, ii, inout, io, count, p) ->
                layout.callInLayout(function, in, ii, inout, io, count, t), commute);
            lastType = type;
        }
        return lastCore;
    }

    /** The core operation of a predefined op, null for a user op (an element-wise reduction of packed items). */
    org.hympj.api.Op predefined() {
        return core;
    }

    org.hympj.api.Op coreFor(String call, Datatype type) {
        if (type.kind == Datatype.Kind.OBJECT || type.kind == Datatype.Kind.MARKER) {
            throw MPIException.notSupported(call + " on " + type, "reductions combine primitive elements");
        }
        if (type.kind == Datatype.Kind.BOOLEAN) {
            boolean logical = core == org.hympj.api.Op.LAND || core == org.hympj.api.Op.LOR
                || core == org.hympj.api.Op.LXOR || core == org.hympj.api.Op.BAND || core == org.hympj.api.Op.BOR
                || core == org.hympj.api.Op.BXOR || core == org.hympj.api.Op.MAX || core == org.hympj.api.Op.MIN;
            if (!logical) {
                throw new MPIException(call + ": op " + name + " is not defined on BOOLEAN (LAND, LOR, LXOR, BAND,"
                    + " BOR, BXOR, MAX, MIN are)");
            }
            return core;
        }
        if (core != null) {
            return core;
        }
        if (type != lastType) {
            int per = Math.max(1, (int) type.core.elements());
            Datatype t = type;
            lastCore = org.hympj.api.Op.user((in, ii, inout, io, count, p) ->
                function.Call(in, ii, inout, io, count / per, t), commute);
            lastType = type;
        }
        return lastCore;
    }

    @Override
    public String toString() {
        return name;
    }
}
