package mpijava;

import static mpijava.Ring.check;

import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.Comm;
import mpi.GraphParms;
import mpi.Graphcomm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Conformance scenarios of the mpi package for graph communicators, intercommunicators and
 * persistent buffered sends, run at any number of ranks; each rank prints {@code PASS <scenario>}
 * when its checks hold and throws otherwise.
 */
public class TopologyConformance {
    static int me;
    static int size;
    static Intracomm world;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        me = world.Rank();
        size = world.Size();
        graph();
        pass("graph");
        intercomm();
        pass("intercomm");
        bsendInit();
        pass("bsend-init");
        MPI.Finalize();
        System.out.println("finalize");
    }

    static void pass(String s) {
        world.Barrier();
        System.out.println("PASS " + s);
    }

    static void expectError(Runnable call, String what, String... words) {
        try {
            call.run();
        } catch (MPIException e) {
            for (String w : words) {
                check(e.getMessage().contains(w), what + ": the message does not name '" + w + "': " + e.getMessage());
            }
            return;
        }
        throw new AssertionError(what + ": no MPIException");
    }

    /** Graphcomm: a ring, its queries and an exchange; smaller graphs; Map; Dup; bad input. */
    static void graph() {
        check(world.Topo_test() == MPI.UNDEFINED, "COMM_WORLD has no topology");
        int[] index = new int[size];
        int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + 1) % size;
            edges[2 * i + 1] = (i - 1 + size) % size;
        }
        Graphcomm g = world.Create_graph(index, edges, false);
        check(g != null && g.Topo_test() == MPI.GRAPH && g.Rank() == me && g.Size() == size, "Create_graph: " + g);
        GraphParms p = g.Get();
        check(Arrays.equals(p.index, index) && Arrays.equals(p.edges, edges), "Get: " + Arrays.toString(p.index) + " "
            + Arrays.toString(p.edges));
        for (int r = 0; r < size; r++) {
            int[] nb = g.Neighbours(r);
            check(nb.length == 2 && nb[0] == (r + 1) % size && nb[1] == (r - 1 + size) % size, "Neighbours(" + r
                + ") = " + Arrays.toString(nb));
        }
        int[] nb = g.Neighbours(me);
        int[] in = {-1};
        g.Sendrecv(new int[] {10 * me}, 0, 1, MPI.INT, nb[0], 5, in, 0, 1, MPI.INT, nb[1], 5);
        check(in[0] == 10 * nb[1], "exchange along the graph: got " + in[0] + " from " + nb[1]);
        int[] sum = new int[1];
        g.Allreduce(new int[] {g.Neighbours(me).length}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        check(sum[0] == edges.length, "Allreduce on the graph: " + sum[0]);
        check(g.Map(index, edges) == me, "Map of the whole graph");
        Graphcomm d = g.Dup();
        check(d.Topo_test() == MPI.GRAPH && Arrays.equals(d.Get().edges, edges) && Comm.Compare(d, g) == MPI.CONGRUENT,
            "Dup keeps the graph");
        // a graph over the first ceil(size/2) ranks: a line 0 - 1 - … ; null beyond
        int nodes = (size + 1) / 2;
        int[] lix = new int[nodes];
        int[] led = new int[2 * (nodes - 1)];
        int e = 0;
        for (int i = 0; i < nodes; i++) {
            if (i > 0) {
                led[e++] = i - 1;
            }
            if (i < nodes - 1) {
                led[e++] = i + 1;
            }
            lix[i] = e;
        }
        check(g.Map(lix, led) == (me < nodes ? me : MPI.UNDEFINED), "Map of a smaller graph");
        Graphcomm line = world.Create_graph(lix, led, true);
        if (me >= nodes) {
            check(line == null, "a rank beyond the graph got a communicator");
        } else {
            check(line != null && line.Size() == nodes, "the line graph: " + line);
            int[] x = {me == 0 ? 42 : 0};
            line.Bcast(x, 0, 1, MPI.INT, 0);
            check(x[0] == 42, "Bcast on the line graph");
            check(line.Neighbours(me).length == (nodes == 1 ? 0 : me == 0 || me == nodes - 1 ? 1 : 2),
                "degree on the line graph");
        }
        // bad input: MPIException naming the argument, nothing changed
        if (size >= 2) {
            expectError(() -> world.Create_graph(new int[] {1, 0}, new int[] {1}, false), "decreasing index",
                "Create_graph", "index[1]");
        }
        expectError(() -> world.Create_graph(new int[] {1}, new int[] {1}, false), "edge out of range",
            "Create_graph", "edges[0]");
        expectError(() -> world.Create_graph(new int[size + 1], new int[0], false), "too many nodes", "nnodes");
        expectError(() -> g.Neighbours(size), "Neighbours out of range", "Neighbours", "rank");
        expectError(() -> g.Map(new int[] {2}, new int[] {0}), "Map of a bad graph", "Map", "edges");
        world.Allreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        check(sum[0] == size, "COMM_WORLD after bad input");
    }

    /** Intercomm: even against odd ranks; p2p on remote ranks (also OBJECT), groups, Merge, bad arguments. */
    static void intercomm() {
        check(!world.Test_inter(), "COMM_WORLD is not an intercommunicator");
        if (size < 2) {
            expectError(() -> world.Create_intercomm(world, 0, 0, 5), "a group against itself", "overlap");
            return;
        }
        int color = me % 2;
        Intracomm local = world.Split(color, me);
        Intercomm ic = world.Create_intercomm(local, 0, 1 - color, 77);
        check(ic.Test_inter() && ic.Topo_test() == MPI.UNDEFINED, "Test_inter");
        int localSize = (size + 1 - color) / 2;
        int remoteSize = size - localSize;
        check(ic.Size() == localSize && ic.Rank() == me / 2 && ic.Remote_size() == remoteSize, "Size " + ic.Size()
            + " Rank " + ic.Rank() + " Remote_size " + ic.Remote_size());
        int[] remoteRanks = new int[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            remoteRanks[j] = j;
        }
        Group worldGroup = world.Group();
        int[] remoteWorld = Group.Translate_ranks(ic.Remote_group(), remoteRanks, worldGroup);
        int[] localWorld = Group.Translate_ranks(ic.Group(), new int[] {ic.Rank()}, worldGroup);
        check(localWorld[0] == me, "Group() is the local group");
        for (int j = 0; j < remoteSize; j++) {
            check(remoteWorld[j] == 2 * j + 1 - color, "Remote_group member " + j + " is world rank " + remoteWorld[j]);
        }
        // every rank sends to every remote rank; receives from each by name
        Request[] sends = new Request[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            sends[j] = ic.Isend(new int[] {100 * me + j}, 0, 1, MPI.INT, j, 3);
        }
        int[] in = new int[1];
        for (int j = 0; j < remoteSize; j++) {
            Status st = ic.Recv(in, 0, 1, MPI.INT, j, 3);
            check(in[0] == 100 * remoteWorld[j] + ic.Rank() && st.source == j, "from remote " + j + ": " + in[0]);
        }
        Request.Waitall(sends);
        // objects and booleans, between local rank 0 and remote rank 0
        if (ic.Rank() == 0) {
            ic.Send(new Object[] {"from " + me}, 0, 1, MPI.OBJECT, 0, 4);
            Object[] o = new Object[1];
            Request r = ic.Irecv(o, 0, 1, MPI.OBJECT, 0, 4);
            Status st = r.Wait();
            check(("from " + remoteWorld[0]).equals(o[0]) && st.source == 0, "OBJECT on the intercommunicator: " + o[0]);
            boolean[] b = {color == 0, color == 1};
            boolean[] bin = new boolean[2];
            ic.Sendrecv(b, 0, 2, MPI.BOOLEAN, 0, 6, bin, 0, 2, MPI.BOOLEAN, 0, 6);
            check(bin[0] == (color == 1) && bin[1] == (color == 0), "BOOLEAN on the intercommunicator");
        }
        expectError(() -> ic.Send(in, 0, 1, MPI.INT, remoteSize, 3), "dest = Remote_size", "Send", "dest");
        expectError(() -> ic.Irecv(new Object[1], 0, 1, MPI.OBJECT, remoteSize, 3), "source = Remote_size", "source");
        // its own matching space: nothing sent on it is seen on COMM_WORLD
        ic.Send(new int[] {1}, 0, 1, MPI.INT, 0, 8);
        world.Barrier();
        check(world.Iprobe(MPI.ANY_SOURCE, 8) == null, "a message of the intercommunicator matched on COMM_WORLD");
        if (ic.Rank() == 0) {
            for (int j = 0; j < remoteSize; j++) {
                ic.Recv(in, 0, 1, MPI.INT, MPI.ANY_SOURCE, 8);
            }
        }
        // clone (MPI_Comm_dup): the same groups, its own matching space
        Intercomm twin = (Intercomm) ic.clone();
        check(twin.Test_inter() && twin.Remote_size() == remoteSize && twin.Rank() == ic.Rank()
            && Comm.Compare(twin, ic) == MPI.CONGRUENT, "clone of the intercommunicator");
        twin.Send(new int[] {me}, 0, 1, MPI.INT, 0, 9);
        world.Barrier();
        check(ic.Iprobe(MPI.ANY_SOURCE, 9) == null, "a message of the clone matched on the original");
        if (twin.Rank() == 0) {
            for (int j = 0; j < remoteSize; j++) {
                Status st = twin.Recv(in, 0, 1, MPI.INT, MPI.ANY_SOURCE, 9);
                check(in[0] == remoteWorld[st.source], "clone: got " + in[0] + " from remote " + st.source);
            }
        }
        // Merge: the odd ranks (high) after the even ones; a collective on the result
        Intracomm merged = ic.Merge(color == 1);
        check(!merged.Test_inter() && merged.Size() == size, "Merge: " + merged);
        int[] all = new int[size];
        for (int i = 0; i < size; i++) {
            all[i] = i;
        }
        int[] order = Group.Translate_ranks(merged.Group(), all, worldGroup);
        for (int i = 0; i < size; i++) {
            int expect = i < (size + 1) / 2 ? 2 * i : 2 * (i - (size + 1) / 2) + 1;
            check(order[i] == expect, "merged rank " + i + " is world rank " + order[i] + ", expected " + expect);
        }
        int[] s = new int[1];
        merged.Allreduce(new int[] {me}, 0, s, 0, 1, MPI.INT, MPI.SUM);
        check(s[0] == size * (size - 1) / 2, "Allreduce on the merged communicator: " + s[0]);
        expectError(() -> world.Create_intercomm(ic, 0, 0, 5), "an Intercomm as local_comm", "local_comm");
    }

    /** Bsend_init: every Start copies at once (the buffer may change right after); space checked; Startall all-or-none. */
    static void bsendInit() {
        int right = (me + 1) % size;
        int left = (me - 1 + size) % size;
        int[] out = new int[4];
        Prequest p = world.Bsend_init(out, 0, 4, MPI.INT, right, 30);
        expectError(p::Start, "Start with no buffer attached", "no buffer is attached");
        int capacity = 2 * (16 + MPI.BSEND_OVERHEAD);
        MPI.Buffer_attach(ByteBuffer.allocate(capacity));
        int[] in = new int[4];
        for (int k = 0; k < 5; k++) {
            Arrays.fill(out, 1000 * me + k);
            p.Start();
            Arrays.fill(out, -1); // the start copied: changing the buffer now changes nothing sent
            p.Wait();
            world.Recv(in, 0, 4, MPI.INT, left, 30);
            check(in[0] == 1000 * left + k && in[3] == 1000 * left + k, "start " + k + ": got " + Arrays.toString(in));
        }
        // BOOLEAN data
        boolean[] flags = {true, false, true};
        Prequest pb = world.Bsend_init(flags, 0, 3, MPI.BOOLEAN, right, 31);
        pb.Start();
        flags[0] = false;
        pb.Wait();
        boolean[] got = new boolean[3];
        world.Recv(got, 0, 3, MPI.BOOLEAN, left, 31);
        check(got[0] && !got[1] && got[2], "BOOLEAN Bsend_init");
        // a message larger than the attached buffer: refused naming both sizes, the request stays inactive
        int[] big = new int[100];
        Prequest pbig = world.Bsend_init(big, 0, 100, MPI.INT, right, 32);
        expectError(pbig::Start, "a start larger than the buffer", "Start", String.valueOf(capacity),
            String.valueOf(400 + MPI.BSEND_OVERHEAD));
        // not left active: a second start is refused for its size again, not for being active
        expectError(pbig::Start, "a second start larger than the buffer", "bytes free");
        // Startall: each fits alone, both together do not: none is started
        Prequest p5 = world.Bsend_init(new int[5], 0, 5, MPI.INT, right, 33);
        expectError(() -> Prequest.Startall(new Prequest[] {p, p5}), "Startall beyond the buffer", "Startall",
            "none was started");
        // a set of a buffered and a standard persistent send, started together
        Arrays.fill(out, 7);
        int[] std = {8};
        Prequest ps = world.Send_init(std, 0, 1, MPI.INT, right, 34);
        Prequest.Startall(new Prequest[] {p, null, ps});
        Request.Waitall(new Request[] {p, ps});
        world.Recv(in, 0, 4, MPI.INT, left, 30);
        int[] one = new int[1];
        world.Recv(one, 0, 1, MPI.INT, left, 34);
        check(in[0] == 7 && one[0] == 8, "Startall of Bsend_init and Send_init");
        world.Barrier();
        check(world.Iprobe(MPI.ANY_SOURCE, 33) == null && world.Iprobe(MPI.ANY_SOURCE, 32) == null,
            "a refused start sent something");
        expectError(() -> world.Bsend_init(new Object[1], 0, 2, MPI.OBJECT, right, 35), "OBJECT past the end",
            "Bsend_init", "OBJECT", "past the end");
        expectError(() -> world.Bsend_init(out, 0, 5, MPI.INT, right, 35), "past the end", "Bsend_init", "buf");
        expectError(() -> world.Bsend_init(out, 0, 1, MPI.INT, size, 35), "dest", "Bsend_init", "dest");
        MPI.Buffer_detach();
        p.Free();
    }
}
