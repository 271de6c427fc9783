package mpi;

import org.hympj.api.PersistentRequest;

/**
 * A persistent request (mpiJava 1.2): made once by {@code Send_init}/{@code Recv_init} …,
 * started many times. The core resolves peer, route and buffer at init; a start allocates
 * nothing. {@link #Startall} checks every request before starting any.
 */
public class Prequest extends Request {
    final PersistentRequest core;
    /** Run before each start (a BOOLEAN send copies its buffer into bytes); may be null. */
    private final Runnable beforeStart;

    /** No step of the facade's own around the core request (as {@link CoreSet} needs). */
    private final boolean plainCore;

    Prequest(PersistentRequest core, CorePending.After after, Runnable beforeStart) {
        super(new CorePending(core, after), true);
        this.core = core;
        this.beforeStart = beforeStart;
        this.plainCore = after == null && beforeStart == null;
    }

    /**
     * A persistent request the facade carries out itself, with no core request (Bsend_init):
     * {@code start} is the whole of each start.
     */
    Prequest(Pending impl, Runnable start) {
        super(impl, true);
        this.core = null;
        this.beforeStart = start;
        this.plainCore = false;
    }

    boolean plainCore() {
        return plainCore;
    }

    /** Starts the operation (MPI_Start); it must not be active. */
    public void Start() {
        try {
            if (impl == null) {
                throw new MPIException("Start: the request was freed");
            }
            if (isActive()) {
                throw new MPIException("Start: the request is still active (start it again after Wait or a successful Test)");
            }
            if (beforeStart != null) {
                beforeStart.run();
            }
            if (core != null) {
                core.start();
            }
        } catch (RuntimeException e) {
            throw MPIException.of("Start", e);
        }
    }

    /** Starts every non-null request, in order (MPI_Startall); if one cannot be started, none is. */
    public static void Startall(Prequest[] requests) {
        if (requests == null) {
            throw new MPIException("Startall: requests must not be null");
        }
        CoreSet set = CoreSet.of(requests);
        if (set != null && set.noneReady()) {
            try {
                org.hympj.api.Request.startAll(set.cores); // checks every request before it starts any
                return;
            } catch (RuntimeException e) {
                throw MPIException.of("Startall", e); // the core names the request (active, freed)
            }
        }
        int n = requests.length;
        PersistentRequest[] cores = new PersistentRequest[n];
        try {
            boolean extras = false;
            for (int i = 0; i < n; i++) {
                Prequest p = requests[i];
                if (p == null) {
                    continue;
                }
                if (p.impl == null) {
                    throw new MPIException("Startall: requests[" + i + "] was freed");
                }
                if (p.isActive()) {
                    throw new MPIException("Startall: requests[" + i + "] is still active");
                }
                cores[i] = p.core;
                extras |= p.beforeStart != null;
            }
            if (extras) {
                BsendPending.checkSpace(requests); // buffered sends: all fit, or none starts
                for (Prequest p : requests) {
                    if (p != null && p.beforeStart != null) {
                        p.beforeStart.run();
                    }
                }
            }
            org.hympj.api.Request.startAll(cores);
        } catch (RuntimeException e) {
            throw MPIException.of("Startall", e);
        }
    }
}
