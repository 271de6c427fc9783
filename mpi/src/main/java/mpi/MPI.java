package mpi;

import java.nio.ByteBuffer;
import org.hympj.api.Mpj;

/**
 * The environment and constants of the mpiJava 1.2 API as MPJ Express 0.44 ships it, over
 * HyMPJ's core API ({@link Mpj}). {@code MPI.Init(args)} joins the job {@code bin/mpjrun}
 * started (or runs as a job of one rank when started alone) and sets {@link #COMM_WORLD} and
 * {@link #COMM_SELF}; {@code MPI.Finalize()} ends it.
 */
public class MPI {
    // ---------------------------------------------------------------- datatypes
    public static final Datatype BYTE = Datatype.ofCore(org.hympj.api.Datatype.BYTE, "BYTE");
    public static final Datatype CHAR = Datatype.ofCore(org.hympj.api.Datatype.CHAR, "CHAR");
    public static final Datatype SHORT = Datatype.ofCore(org.hympj.api.Datatype.SHORT, "SHORT");
    public static final Datatype BOOLEAN = new Datatype(Datatype.Kind.BOOLEAN, org.hympj.api.Datatype.BYTE, "BOOLEAN");
    public static final Datatype INT = Datatype.ofCore(org.hympj.api.Datatype.INT, "INT");
    public static final Datatype LONG = Datatype.ofCore(org.hympj.api.Datatype.LONG, "LONG");
    public static final Datatype FLOAT = Datatype.ofCore(org.hympj.api.Datatype.FLOAT, "FLOAT");
    public static final Datatype DOUBLE = Datatype.ofCore(org.hympj.api.Datatype.DOUBLE, "DOUBLE");
    public static final Datatype OBJECT = new Datatype(Datatype.Kind.OBJECT, org.hympj.api.Datatype.BYTE, "OBJECT");
    /** Packed data: bytes (the output of {@link Comm#Pack}). */
    public static final Datatype PACKED = Datatype.ofCore(org.hympj.api.Datatype.BYTE, "PACKED");
    /** (value, index) pairs for MINLOC/MAXLOC: two consecutive elements of the array. */
    public static final Datatype INT2 = Datatype.ofCore(org.hympj.api.Datatype.INT.contiguous(2), "INT2");
    public static final Datatype SHORT2 = Datatype.ofCore(org.hympj.api.Datatype.SHORT.contiguous(2), "SHORT2");
    public static final Datatype LONG2 = Datatype.ofCore(org.hympj.api.Datatype.LONG.contiguous(2), "LONG2");
    public static final Datatype FLOAT2 = Datatype.ofCore(org.hympj.api.Datatype.FLOAT.contiguous(2), "FLOAT2");
    public static final Datatype DOUBLE2 = Datatype.ofCore(org.hympj.api.Datatype.DOUBLE.contiguous(2), "DOUBLE2");
    /** Bound markers of {@link Datatype#Struct}: they carry no data. */
    public static final Datatype LB = new Datatype(Datatype.Kind.MARKER, null, "LB");
    public static final Datatype UB = new Datatype(Datatype.Kind.MARKER, null, "UB");

    // ---------------------------------------------------------------- operations
    public static final Op MAX = new Op(org.hympj.api.Op.MAX, "MAX");
    public static final Op MIN = new Op(org.hympj.api.Op.MIN, "MIN");
    public static final Op SUM = new Op(org.hympj.api.Op.SUM, "SUM");
    public static final Op PROD = new Op(org.hympj.api.Op.PROD, "PROD");
    public static final Op LAND = new Op(org.hympj.api.Op.LAND, "LAND");
    public static final Op BAND = new Op(org.hympj.api.Op.BAND, "BAND");
    public static final Op LOR = new Op(org.hympj.api.Op.LOR, "LOR");
    public static final Op BOR = new Op(org.hympj.api.Op.BOR, "BOR");
    public static final Op LXOR = new Op(org.hympj.api.Op.LXOR, "LXOR");
    public static final Op BXOR = new Op(org.hympj.api.Op.BXOR, "BXOR");
    public static final Op MINLOC = new Op(org.hympj.api.Op.MINLOC, "MINLOC");
    public static final Op MAXLOC = new Op(org.hympj.api.Op.MAXLOC, "MAXLOC");

    // ---------------------------------------------------------------- constants
    public static final int ANY_SOURCE = org.hympj.api.Comm.ANY_SOURCE;
    public static final int ANY_TAG = org.hympj.api.Comm.ANY_TAG;
    public static final int PROC_NULL = org.hympj.api.Comm.PROC_NULL;
    public static final int UNDEFINED = org.hympj.api.Comm.UNDEFINED;
    /** Results of {@link Comm#Compare} and {@link Group#Compare}. */
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;
    /** Results of {@link Comm#Topo_test}. */
    public static final int GRAPH = 1;
    public static final int CART = 2;
    /** Attribute keys of {@link Comm#Attr_get}: the largest tag, the host rank, the I/O rank, a global clock. */
    public static final int TAG_UB = 1;
    public static final int HOST = 2;
    public static final int IO = 3;
    public static final int WTIME_IS_GLOBAL = 4;
    /** What a buffered send takes from the attached buffer beyond its data (bookkeeping; see Buffer_attach). */
    public static final int BSEND_OVERHEAD = 16;
    /** Bytes a send or receive adds to its data in a packed or attached buffer: none here. */
    public static final int SEND_OVERHEAD = 0;
    public static final int RECV_OVERHEAD = 0;
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("ERRORS_ARE_FATAL");
    public static final Errhandler ERRORS_RETURN = new Errhandler("ERRORS_RETURN");
    /** A request that stands for nothing: waits and tests on it return at once. */
    public static final Request REQUEST_NULL = new Request(null);
    /** A status with no source and no data. */
    public static final Status EMPTY_STATUS = new Status();
    public static final Group GROUP_EMPTY = new Group(new int[0]);

    // MPJ Express's additions (not in mpiJava 1.2), so that its programs compile
    /** The processors this rank's JVM sees (MPJ Express). */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();
    /** MPJ Express's null datatype: a marker that no buffer takes (a call with it is refused naming it). */
    public static final Datatype NULL = new Datatype(Datatype.Kind.MARKER, null, "NULL");
    /** The null communicator: {@code null}, what {@code Split}, {@code Create} and the topology constructors return where MPI gives MPI_COMM_NULL. */
    public static final Comm COMM_NULL = null;
    /** The null group: {@code null}. */
    public static final Group GROUP_NULL = null;

    /** Every rank of the job; set by {@link #Init}. */
    public static Intracomm COMM_WORLD;
    /** This rank alone; set by {@link #Init}. */
    public static Intracomm COMM_SELF;

    private static Mpj mpj;
    private static Thread initThread;
    private static boolean finalized;
    private static int worldRank = -1;
    private static final BsendBuffer BSEND = new BsendBuffer();

    protected MPI() {
    }

    /**
     * Joins the job; returns the arguments left for the program (all of {@code args}:
     * {@code bin/mpjrun} passes none of its own).
     */
    public static String[] Init(String[] args) {
        if (mpj != null) {
            throw new MPIException("Init: MPI is already initialized");
        }
        if (finalized) {
            throw new MPIException("Init: MPI was finalized; it cannot be initialized again");
        }
        try {
            Mpj m = Mpj.init(args);
            org.hympj.api.Comm world = m.world();
            worldRank = world.rank();
            int[] all = new int[world.size()];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            COMM_WORLD = new Intracomm(world, all);
            COMM_SELF = new Intracomm(world.split(worldRank, 0), new int[] {worldRank});
            initThread = Thread.currentThread();
            mpj = m;
        } catch (RuntimeException e) {
            throw MPIException.of("Init", e);
        }
        return args == null ? new String[0] : args.clone();
    }

    /**
     * As {@link #Init}; the level given is {@link #THREAD_FUNNELED} whatever is asked: one
     * thread per rank calls MPI (the core's rule).
     */
    public static String[] Init_thread(String[] args, int required) {
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
            throw new MPIException("Init_thread: required must be THREAD_SINGLE..THREAD_MULTIPLE, was " + required);
        }
        return Init(args);
    }

    /** {@link #THREAD_FUNNELED}: one thread per rank makes MPI calls. */
    public static int Query_thread() {
        return THREAD_FUNNELED;
    }

    /** True if this is the thread that initialized MPI. */
    public static boolean Is_thread_main() {
        return Thread.currentThread() == initThread;
    }

    /** MPJ Express's name of {@link #Init_thread} ({@code provided} is not read; {@link #queryThread} says what is given). */
    public static String[] initThread(int required, int provided, String[] argv) {
        return Init_thread(argv, required);
    }

    /** MPJ Express's name of {@link #Query_thread}. */
    public static int queryThread() {
        return Query_thread();
    }

    /** MPJ Express's name of {@link #Is_thread_main}. */
    public static boolean isMainThread() {
        return Is_thread_main();
    }

    /** MPJ Express's: the error handler of {@link #COMM_WORLD} ({@link Comm#Errhandler_set}). */
    public static void Errorhandler_set(Errhandler errhandler) {
        world("Errorhandler_set").Errhandler_set(errhandler);
    }

    /** MPJ Express's: the error handler of {@link #COMM_WORLD}. */
    public static Errhandler Errorhandler_get() {
        return world("Errorhandler_get").Errhandler_get();
    }

    private static Intracomm world(String call) {
        if (mpj == null) {
            throw new MPIException(call + ": MPI is not initialized");
        }
        return COMM_WORLD;
    }

    /** Completes buffered sends, then leaves the job. */
    public static void Finalize() {
        if (mpj == null) {
            throw new MPIException(finalized ? "Finalize: MPI is already finalized" : "Finalize: MPI is not initialized");
        }
        try {
            BSEND.drain();
            mpj.close();
        } catch (RuntimeException e) {
            throw MPIException.of("Finalize", e);
        } finally {
            mpj = null;
            finalized = true;
        }
    }

    public static boolean Initialized() {
        return mpj != null || finalized;
    }

    public static boolean Finalized() {
        return finalized;
    }

    /** Seconds on the machine's clock (the emulated machine's under a timing model). */
    public static double Wtime() {
        Intracomm w = COMM_WORLD;
        return mpj != null && w != null ? w.core.wtime() : Mpj.wtime();
    }

    /** The resolution of {@link #Wtime}. */
    public static double Wtick() {
        return Mpj.wtick();
    }

    /** The host name (every rank of a HyMPJ job runs on this machine). */
    public static String Get_processor_name() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /**
     * Ends every rank of the job: this rank prints the code to standard error and its JVM exits
     * with it (1 if the code is 0 or a multiple of 256); the launcher ({@code bin/mpjrun}) sees a
     * rank exit non-zero and stops all the others, and the job's exit code is non-zero.
     */
    public static void Abort(int errorcode) {
        int code = errorcode & 0xff;
        System.out.flush();
        System.err.println("MPI.Abort: rank " + worldRank + " aborts the job with error code " + errorcode);
        System.err.flush();
        System.exit(code == 0 ? 1 : code);
    }

    /** Attaches the space buffered sends may use (MPJ Express: a ByteBuffer). */
    public static void Buffer_attach(ByteBuffer buffer) {
        BSEND.attach(buffer);
    }

    /** Waits until every buffered message is sent; returns the buffer attached (null if none). */
    public static ByteBuffer Buffer_detach() {
        try {
            return BSEND.detach();
        } catch (RuntimeException e) {
            throw MPIException.of("Buffer_detach", e);
        }
    }

    static BsendBuffer bsendBuffer() {
        return BSEND;
    }

    /** This process's rank in COMM_WORLD. */
    static int worldRank() {
        if (worldRank < 0) {
            throw new MPIException("MPI is not initialized (call MPI.Init first)");
        }
        return worldRank;
    }
}
