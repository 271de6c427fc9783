package mpijava;

import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.Cartcomm;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;
import mpi.User_function;

/**
 * Conformance scenarios of the mpi package, run at any number of ranks; each rank prints
 * {@code PASS <scenario>} when its checks hold and throws otherwise.
 */
public class Conformance {
    static int me;
    static int size;
    static Intracomm world;

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        Ring.check(Arrays.equals(rest, args), "Init returns the program's arguments");
        Ring.check(MPI.Initialized() && !MPI.Finalized(), "Initialized/Finalized");
        world = MPI.COMM_WORLD;
        me = world.Rank();
        size = world.Size();
        pointToPoint();
        pass("p2p");
        synchronous();
        pass("ssend");
        cancel();
        pass("cancel");
        requests();
        pass("requests");
        persistent();
        pass("persistent");
        persistentSet();
        pass("persistent-set");
        vCollectives();
        pass("v-collectives");
        prefixes();
        pass("scan");
        ops();
        pass("ops");
        objects();
        pass("objects");
        groups();
        pass("groups");
        cartesian();
        pass("cart");
        buffered();
        pass("bsend");
        packing();
        pass("pack");
        irregular();
        pass("irregular-types");
        errors();
        pass("errors");
        environment();
        pass("environment");
        mpjExpress();
        pass("mpj-express");
        objectTypes();
        pass("object-types");
        irregularCollectives();
        pass("irregular-collectives");
        MPI.Finalize();
        Ring.check(MPI.Finalized(), "Finalized after Finalize");
        System.out.println("finalize");
    }

    static void pass(String s) {
        world.Barrier();
        System.out.println("PASS " + s);
    }

    /**
     * Ssend / Issend / Ssend_init complete only once the matching receive has started: rank 0's
     * 8-byte Issend to rank 1 stays incomplete through 200 tests while rank 1 has not posted
     * the receive (rank 1 posts it only after rank 0's "go", sent after the tests); a standard
     * Isend of the same 8 bytes is complete at once (eager). Data checked at the receiver.
     */
    static void synchronous() throws InterruptedException {
        if (size < 2) {
            int[] self = {42};
            int[] got = new int[1];
            Request r = world.Irecv(got, 0, 1, MPI.INT, 0, 70);
            world.Ssend(self, 0, 1, MPI.INT, 0, 70);
            r.Wait();
            Ring.check(got[0] == 42, "Ssend to self");
            return;
        }
        if (me == 0) {
            int[] small = {7, 8};
            Request s = world.Issend(small, 0, 2, MPI.INT, 1, 71);
            boolean early = false;
            for (int i = 0; i < 200; i++) {
                early |= s.Test() != null;
                Thread.sleep(0, 500_000);
            }
            Ring.check(!early, "Issend completed before the matching receive was posted");
            world.Send(new int[] {1}, 0, 1, MPI.INT, 1, 72);          // go
            s.Wait();
            Request standard = world.Isend(small, 0, 2, MPI.INT, 1, 73);
            // the contrast: a standard send of 8 bytes is eager, complete before any receive is posted
            Ring.check(standard.Test() != null, "a standard 8-byte Isend was not complete at once (eager)");
            Prequest p = world.Ssend_init(small, 0, 2, MPI.INT, 1, 74);
            for (int k = 0; k < 3; k++) {
                p.Start();
                p.Wait();
            }
            p.Free();
            world.Ssend(new int[] {9}, 0, 1, MPI.INT, 1, 75);
        } else if (me == 1) {
            int[] go = new int[1];
            world.Recv(go, 0, 1, MPI.INT, 0, 72);
            int[] in = new int[2];
            world.Recv(in, 0, 2, MPI.INT, 0, 71);
            Ring.check(in[0] == 7 && in[1] == 8, "Issend data " + Arrays.toString(in));
            world.Recv(in, 0, 2, MPI.INT, 0, 73);
            for (int k = 0; k < 3; k++) {
                in[0] = 0;
                world.Recv(in, 0, 2, MPI.INT, 0, 74);
                Ring.check(in[0] == 7 && in[1] == 8, "Ssend_init data, start " + k);
            }
            world.Recv(in, 0, 1, MPI.INT, 0, 75);
            Ring.check(in[0] == 9, "Ssend data");
        }
    }

    /**
     * Cancel withdraws a receive that has not matched (nothing is ever sent to it): its wait
     * returns at once with Test_cancelled and the buffer untouched. A receive whose message is
     * already here is not cancelled: it gets its data. A send is never cancelled.
     */
    static void cancel() {
        int[] never = {-7};
        Request r = world.Irecv(never, 0, 1, MPI.INT, MPI.ANY_SOURCE, 9_999);
        r.Cancel();
        Status st = r.Wait();
        Ring.check(st.Test_cancelled(), "a cancelled receive's status says so");
        Ring.check(never[0] == -7, "a cancelled receive wrote its buffer: " + never[0]);
        int[] out = {me + 500};
        int[] in = new int[1];
        Request s = world.Isend(out, 0, 1, MPI.INT, me, 9_998);     // to self: the message is here
        Request got = world.Irecv(in, 0, 1, MPI.INT, me, 9_998);
        got.Cancel();
        Status gs = got.Wait();
        Ring.check(!gs.Test_cancelled() && in[0] == me + 500, "a receive whose message had arrived was cancelled");
        s.Cancel();
        Ring.check(!s.Wait().Test_cancelled(), "a send was cancelled");
        // the context is clean: the next exchange matches as usual
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        int[] w = new int[1];
        world.Sendrecv(out, 0, 1, MPI.INT, next, 9_997, w, 0, 1, MPI.INT, prev, 9_997);
        Ring.check(w[0] == prev + 500, "exchange after cancel");
    }

    static void pointToPoint() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        // Sendrecv_replace around the ring, with offsets
        int[] buf = {-1, me * 10, me * 10 + 1, -1};
        Status s = world.Sendrecv_replace(buf, 1, 2, MPI.INT, next, 5, prev, 5);
        Ring.check(buf[1] == prev * 10 && buf[2] == prev * 10 + 1 && buf[0] == -1 && buf[3] == -1,
            "Sendrecv_replace " + Arrays.toString(buf));
        Ring.check(s.source == prev && s.tag == 5 && s.Get_count(MPI.INT) == 2 && s.Get_elements(MPI.INT) == 2,
            "Sendrecv_replace status " + s);
        Ring.check(!s.Test_cancelled(), "nothing is cancelled");
        // message order per pair and tag, and Get_count of a short message
        Request[] sends = new Request[5];
        for (int i = 0; i < 5; i++) {
            sends[i] = world.Isend(new long[] {i, i}, 0, i % 2 + 1, MPI.LONG, next, 7);
        }
        long[] in = new long[2];
        for (int i = 0; i < 5; i++) {
            Status st = world.Recv(in, 0, 2, MPI.LONG, prev, 7);
            Ring.check(in[0] == i && st.Get_count(MPI.LONG) == i % 2 + 1, "order: message " + i + " got " + in[0]);
        }
        Request.Waitall(sends);
        // PROC_NULL: completes at once
        Status n = world.Recv(in, 0, 2, MPI.LONG, MPI.PROC_NULL, 1);
        Ring.check(n.source == MPI.PROC_NULL, "PROC_NULL receive status " + n);
        world.Send(in, 0, 2, MPI.LONG, MPI.PROC_NULL, 1);
        // boolean buffers, Rsend (standard mode), Iprobe
        boolean[] flags = {me % 2 == 0, true, false};
        boolean[] got = new boolean[4];
        world.Barrier();
        Request r = world.Irecv(got, 1, 3, MPI.BOOLEAN, prev, 8);
        world.Barrier();
        world.Rsend(flags, 0, 3, MPI.BOOLEAN, next, 8);
        Status bs = r.Wait();
        Ring.check(!got[0] && got[1] == (prev % 2 == 0) && got[2] && !got[3] && bs.Get_count(MPI.BOOLEAN) == 3,
            "boolean receive " + Arrays.toString(got));
        Ring.check(r.Is_null(), "a completed request is null");
        Ring.check(world.Iprobe(MPI.ANY_SOURCE, 12345) == null, "Iprobe with nothing there is null");
    }

    static void requests() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        double[] in = new double[3];
        Request r = world.Irecv(in, 0, 3, MPI.DOUBLE, prev, 20);
        world.Barrier();
        Ring.check(r.Test() == null, "Test before the message is sent is null");
        world.Barrier();
        Request[] reqs = {MPI.REQUEST_NULL, world.Isend(new double[] {1, 2, me}, 0, 3, MPI.DOUBLE, next, 20), r};
        Status any = Request.Waitany(reqs);
        Ring.check(any.index == 1 || any.index == 2, "Waitany index " + any.index);
        Status[] all = Request.Waitall(reqs);
        Ring.check(all.length == 3 && in[2] == prev, "Waitall " + Arrays.toString(in));
        Status none = Request.Waitany(reqs);
        Ring.check(none.index == MPI.UNDEFINED, "Waitany with nothing active: UNDEFINED");
        Ring.check(Request.Testany(new Request[] {MPI.REQUEST_NULL}).index == MPI.UNDEFINED, "Testany of nulls");
        // Waitsome / Testsome / Testall
        int[][] bufs = new int[3][1];
        Request[] rs = new Request[3];
        for (int i = 0; i < 3; i++) {
            rs[i] = world.Irecv(bufs[i], 0, 1, MPI.INT, prev, 30 + i);
        }
        Ring.check(Request.Testall(rs) == null, "Testall with receives unmatched is null");
        world.Barrier(); // nobody sends before every rank has tested
        for (int i = 0; i < 3; i++) {
            world.Send(new int[] {100 * me + i}, 0, 1, MPI.INT, next, 30 + i);
        }
        int done = 0;
        while (done < 3) {
            Status[] some = Request.Waitsome(rs);
            for (Status st : some) {
                Ring.check(bufs[st.index][0] == 100 * prev + st.index && st.tag == 30 + st.index,
                    "Waitsome " + st);
            }
            done += some.length;
        }
        Ring.check(Request.Testsome(rs).length == 0, "Testsome after all completed");
        Ring.check(Request.Testall(rs) != null, "Testall with none active");
    }

    static void persistent() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        int[] out = new int[2];
        int[] in = new int[2];
        Prequest send = world.Send_init(out, 0, 2, MPI.INT, next, 40);
        Prequest recv = world.Recv_init(in, 0, 2, MPI.INT, prev, 40);
        for (int it = 0; it < 5; it++) {
            out[0] = it;
            out[1] = me;
            Prequest.Startall(new Prequest[] {recv, send});
            Request.Waitall(new Request[] {send, recv});
            Ring.check(in[0] == it && in[1] == prev, "persistent iteration " + it + ": " + Arrays.toString(in));
        }
        send.Start();
        recv.Start();
        boolean refused = false;
        try {
            send.Start();
        } catch (MPIException e) {
            refused = e.getMessage().contains("Start");
        }
        send.Wait();
        recv.Wait();
        Ring.check(refused, "Start of an active request is refused");
        send.Free();
        recv.Free();
    }

    /**
     * One array of persistent requests started and waited for again and again (a halo's loop:
     * the facade keeps its core requests between the calls): data and statuses right on every
     * iteration; an entry replaced in the array is the one started next; a request completed by
     * a Testall but not yet reported is still active to the program (Startall refuses it, the
     * next Waitall reports it); a freed entry is refused, naming the call.
     */
    static void persistentSet() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        int[] out = new int[3];
        int[] in = new int[3];
        int[] in2 = new int[3];
        Prequest recv = world.Recv_init(in, 0, 3, MPI.INT, prev, 45);
        Prequest send = world.Send_init(out, 0, 3, MPI.INT, next, 45);
        Prequest[] set = {recv, send};
        for (int it = 0; it < 6; it++) {
            out[0] = it;
            out[1] = me;
            out[2] = -it;
            Prequest.Startall(set);
            Status[] st = Request.Waitall(set);
            Ring.check(in[0] == it && in[1] == prev && in[2] == -it, "persistent set, iteration " + it + ": "
                + Arrays.toString(in));
            Ring.check(st.length == 2 && st[0].source == prev && st[0].tag == 45 && st[0].Get_count(MPI.INT) == 3
                && st[0].index == 0 && st[1].index == 1, "persistent set, iteration " + it + ": statuses");
        }
        // into the caller's statuses: the same objects every time (a null entry gets one), right values
        Status kept = new Status();
        Status[] mine = {kept, null};
        for (int it = 100; it < 104; it++) {
            out[0] = it;
            out[1] = me;
            Prequest.Startall(set);
            Request.Waitall(set, mine);
            Ring.check(in[0] == it && in[1] == prev, "Waitall(requests, statuses), iteration " + it + ": "
                + Arrays.toString(in));
            Ring.check(mine[0] == kept && mine[1] != null && mine[0].source == prev && mine[0].tag == 45
                && mine[0].Get_count(MPI.INT) == 3 && mine[0].index == 0 && mine[1].index == 1,
                "Waitall(requests, statuses), iteration " + it + ": " + Arrays.toString(mine));
        }
        // a wrong statuses array is refused before anything is waited for; the requests stay active
        out[0] = 104;
        Prequest.Startall(set);
        for (Status[] bad : new Status[][] {null, new Status[1], new Status[3]}) {
            boolean refused = false;
            try {
                Request.Waitall(set, bad);
            } catch (MPIException e) {
                refused = e.getMessage().startsWith("Waitall") && e.getMessage().contains("statuses");
            }
            Ring.check(refused, "Waitall with statuses " + (bad == null ? "null" : "of length " + bad.length)
                + " is refused, naming them");
        }
        Request.Waitall(set, mine);
        Ring.check(in[0] == 104 && mine[0].source == prev, "Waitall(requests, statuses) after the refusals");
        // not a persistent set (the general path): non-persistent requests and a null entry
        int[] oneOut = {me};
        int[] oneIn = {-1};
        Request[] mixed = {world.Irecv(oneIn, 0, 1, MPI.INT, prev, 48), null, world.Isend(oneOut, 0, 1, MPI.INT, next, 48)};
        Status[] mixedSt = {new Status(), new Status(), null};
        Request.Waitall(mixed, mixedSt);
        Ring.check(oneIn[0] == prev && mixedSt[0].source == prev && mixedSt[0].tag == 48 && mixedSt[0].index == 0
            && mixedSt[1].index == 1 && mixedSt[1].source == MPI.ANY_SOURCE && mixedSt[2] != null
            && mixedSt[2].index == 2 && mixed[0].Is_null(), "Waitall(requests, statuses) of non-persistent requests: "
            + Arrays.toString(mixedSt));
        // replace the receive by another into a different buffer: the array's new entry is started
        Prequest recv2 = world.Recv_init(in2, 0, 3, MPI.INT, prev, 45);
        set[0] = recv2;
        for (int it = 6; it < 9; it++) {
            out[0] = it;
            Prequest.Startall(set);
            Request.Waitall(set);
            Ring.check(in2[0] == it && in[0] == 104, "persistent set, replaced entry, iteration " + it + ": "
                + Arrays.toString(in2) + " / " + Arrays.toString(in));
        }
        // completed by a Testall, not yet reported: still active to the program
        int[] self = new int[1];
        int[] none = new int[1];
        Prequest toSelf = world.Send_init(self, 0, 1, MPI.INT, me, 46);
        Prequest[] selfSet = {toSelf};
        Prequest fromSelf = world.Recv_init(self, 0, 1, MPI.INT, me, 46);
        for (int it = 0; it < 3; it++) {
            Prequest.Startall(selfSet);
            fromSelf.Start();
            Request.Waitall(selfSet);
            fromSelf.Wait();
        }
        Request never = world.Irecv(none, 0, 1, MPI.INT, me, 47); // nothing is ever sent with tag 47
        Prequest.Startall(selfSet);
        Request[] probe = {toSelf, never};
        for (int i = 0; i < 50; i++) { // the 4-byte send to itself completes at once; these tests see it
            Ring.check(Request.Testall(probe) == null, "Testall with a receive nothing matches");
            sleepMs(1);
        }
        boolean refused = false;
        try {
            Prequest.Startall(selfSet);
        } catch (MPIException e) {
            refused = e.getMessage().startsWith("Startall");
        }
        Ring.check(refused, "Startall of a request a Testall completed but did not report is refused");
        Status[] st = Request.Waitall(selfSet);
        Ring.check(st[0].index == 0, "Waitall reports the request a Testall completed");
        fromSelf.Start();
        fromSelf.Wait();
        never.Cancel();
        Ring.check(never.Wait().Test_cancelled(), "the receive nothing matched is cancelled");
        // a freed entry
        toSelf.Free();
        boolean freed = false;
        try {
            Prequest.Startall(selfSet);
        } catch (MPIException e) {
            freed = e.getMessage().startsWith("Startall") && e.getMessage().contains("freed");
        }
        Ring.check(freed, "Startall with a freed request is refused");
        fromSelf.Free();
        recv.Free();
        recv2.Free();
        send.Free();
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void vCollectives() {
        // rank i contributes i+1 ints valued 100*i + k
        int[] counts = new int[size];
        int[] displs = new int[size];
        int total = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = i + 1;
            displs[i] = total + i; // a gap of i between blocks
            total += counts[i] + i;
        }
        int[] mine = new int[me + 1];
        for (int k = 0; k <= me; k++) {
            mine[k] = 100 * me + k;
        }
        int root = size - 1;
        int[] gathered = new int[total + 1];
        Arrays.fill(gathered, -7);
        world.Gatherv(mine, 0, me + 1, MPI.INT, gathered, 1, counts, displs, MPI.INT, root);
        if (me == root) {
            checkBlocks("Gatherv", gathered, 1, counts, displs);
        }
        int[] everywhere = new int[total + 1];
        Arrays.fill(everywhere, -7);
        world.Allgatherv(mine, 0, me + 1, MPI.INT, everywhere, 1, counts, displs, MPI.INT);
        checkBlocks("Allgatherv", everywhere, 1, counts, displs);
        int[] back = new int[me + 1];
        world.Scatterv(everywhere, 1, counts, displs, MPI.INT, back, 0, me + 1, MPI.INT, 0);
        Ring.check(Arrays.equals(back, mine), "Scatterv " + Arrays.toString(back));
        // Alltoallv: rank i sends j+1 copies of (10*i + j) to rank j
        int[] sc = new int[size];
        int[] sd = new int[size];
        int[] rc = new int[size];
        int[] rd = new int[size];
        int st = 0;
        int rt = 0;
        for (int j = 0; j < size; j++) {
            sc[j] = j + 1;
            sd[j] = st;
            st += sc[j];
            rc[j] = me + 1;
            rd[j] = rt;
            rt += rc[j];
        }
        int[] sbuf = new int[st];
        for (int j = 0; j < size; j++) {
            Arrays.fill(sbuf, sd[j], sd[j] + sc[j], 10 * me + j);
        }
        int[] rbuf = new int[rt];
        world.Alltoallv(sbuf, 0, sc, sd, MPI.INT, rbuf, 0, rc, rd, MPI.INT);
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < rc[i]; k++) {
                Ring.check(rbuf[rd[i] + k] == 10 * i + me, "Alltoallv from " + i + ": " + Arrays.toString(rbuf));
            }
        }
    }

    static void checkBlocks(String what, int[] buf, int offset, int[] counts, int[] displs) {
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < counts[i]; k++) {
                Ring.check(buf[offset + displs[i] + k] == 100 * i + k, what + " block " + i + ": " + Arrays.toString(buf));
            }
            if (i > 0) {
                Ring.check(buf[offset + displs[i] - 1] == -7, what + " wrote into the gap before block " + i);
            }
        }
    }

    static void prefixes() {
        long[] x = {me + 1, 2L * (me + 1)};
        long[] s = new long[2];
        world.Scan(x, 0, s, 0, 2, MPI.LONG, MPI.SUM);
        long tri = (long) (me + 1) * (me + 2) / 2;
        Ring.check(s[0] == tri && s[1] == 2 * tri, "Scan " + Arrays.toString(s));
        long[] e = {-1, -1};
        world.Exscan(x, 0, e, 0, 2, MPI.LONG, MPI.SUM);
        long etri = (long) me * (me + 1) / 2;
        Ring.check(me == 0 ? e[0] == -1 : e[0] == etri && e[1] == 2 * etri, "Exscan " + Arrays.toString(e));
        // non-commutative user op in rank order: string-like concatenation of digits
        Op concat = new Op(new User_function() {
            @Override
            public void Call(Object in, int io, Object inout, int ioo, int count, Datatype t) {
                long[] a = (long[]) in;
                long[] b = (long[]) inout;
                for (int i = 0; i < count; i++) {
                    b[ioo + i] = a[io + i] * 10 + b[ioo + i];
                }
            }
        }, false);
        long[] digit = {me + 1};
        long[] joined = new long[1];
        world.Scan(digit, 0, joined, 0, 1, MPI.LONG, concat);
        long want = 0;
        for (int r = 0; r <= me; r++) {
            want = want * 10 + r + 1;
        }
        Ring.check(size > 9 || joined[0] == want, "Scan of a non-commutative op " + joined[0] + " vs " + want);
        // Reduce_scatter: rank i gets i+1 sums
        int[] rc = new int[size];
        int n = 0;
        for (int i = 0; i < size; i++) {
            rc[i] = i + 1;
            n += rc[i];
        }
        int[] v = new int[n];
        for (int k = 0; k < n; k++) {
            v[k] = k + me;
        }
        int[] mine = new int[me + 1];
        world.Reduce_scatter(v, 0, mine, 0, rc, MPI.INT, MPI.SUM);
        int first = me * (me + 1) / 2;
        int ranks = size * (size - 1) / 2;
        for (int k = 0; k <= me; k++) {
            Ring.check(mine[k] == size * (first + k) + ranks, "Reduce_scatter " + Arrays.toString(mine));
        }
        int[] blk = new int[2];
        int[] vb = new int[2 * size];
        Arrays.fill(vb, me);
        world.Reduce_scatter_block(vb, 0, blk, 0, 2, MPI.INT, MPI.MAX);
        Ring.check(blk[0] == size - 1 && blk[1] == size - 1, "Reduce_scatter_block " + Arrays.toString(blk));
    }

    static void ops() {
        // MINLOC/MAXLOC on INT2 and DOUBLE2: value (me - size/2)^2, index me
        int val = (me - size / 2) * (me - size / 2);
        int[] pair = {val, me, val + 1, me};
        int[] out = new int[4];
        world.Allreduce(pair, 0, out, 0, 2, MPI.INT2, MPI.MINLOC);
        Ring.check(out[0] == 0 && out[1] == size / 2, "MINLOC INT2 " + Arrays.toString(out));
        Ring.check(out[2] == 1 && out[3] == size / 2, "MINLOC INT2 second pair " + Arrays.toString(out));
        double[] dp = {me % 2, me};
        double[] dout = new double[2];
        world.Reduce(dp, 0, dout, 0, 1, MPI.DOUBLE2, MPI.MAXLOC, 0);
        if (me == 0) {
            Ring.check(dout[0] == (size > 1 ? 1 : 0) && dout[1] == (size > 1 ? 1 : 0),
                "MAXLOC DOUBLE2 ties take the smaller index " + Arrays.toString(dout));
        }
        // logical ops on BOOLEAN
        boolean[] b = {true, me == 0, me % 2 == 1};
        boolean[] land = new boolean[3];
        boolean[] lor = new boolean[3];
        boolean[] lxor = new boolean[3];
        world.Allreduce(b, 0, land, 0, 3, MPI.BOOLEAN, MPI.LAND);
        world.Allreduce(b, 0, lor, 0, 3, MPI.BOOLEAN, MPI.LOR);
        world.Allreduce(b, 0, lxor, 0, 3, MPI.BOOLEAN, MPI.LXOR);
        int odd = size / 2;
        Ring.check(land[0] && land[1] == (size == 1) && !land[2], "LAND " + Arrays.toString(land));
        Ring.check(lor[0] && lor[1] && lor[2] == (size > 1), "LOR " + Arrays.toString(lor));
        Ring.check(lxor[0] == (size % 2 == 1) && lxor[1] && lxor[2] == (odd % 2 == 1), "LXOR " + Arrays.toString(lxor));
        // bitwise on INT
        int[] bits = {1 << me, ~0, 1 << me};
        int[] bor = new int[3];
        world.Allreduce(bits, 0, bor, 0, 3, MPI.INT, MPI.BOR);
        int[] band = new int[3];
        world.Allreduce(bits, 0, band, 0, 3, MPI.INT, MPI.BAND);
        int[] bxor = new int[3];
        world.Allreduce(bits, 0, bxor, 0, 3, MPI.INT, MPI.BXOR);
        int allBits = (1 << size) - 1;
        Ring.check(bor[0] == allBits && band[1] == ~0 && bxor[2] == allBits && band[0] == (size == 1 ? 1 : 0),
            "bitwise " + Arrays.toString(bor) + Arrays.toString(band) + Arrays.toString(bxor));
        // clear errors on undefined combinations, and the library stays usable
        expectError("Allreduce", () -> world.Allreduce(new double[1], 0, new double[1], 0, 1, MPI.DOUBLE, MPI.BAND));
        expectError("Allreduce", () -> world.Allreduce(new int[2], 0, new int[2], 0, 2, MPI.INT, MPI.MINLOC));
        expectError("Allreduce", () -> world.Allreduce(new boolean[1], 0, new boolean[1], 0, 1, MPI.BOOLEAN, MPI.SUM));
        int[] sum = new int[1];
        world.Allreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        Ring.check(sum[0] == size, "Allreduce after refused ones");
    }

    static void objects() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        Object[] out = {"from " + me, new int[] {me, me * me}, null};
        Object[] in = new Object[4];
        Request r = world.Irecv(in, 1, 3, MPI.OBJECT, MPI.ANY_SOURCE, 50);
        world.Send(out, 0, 3, MPI.OBJECT, next, 50);
        Status s = r.Wait();
        Ring.check(("from " + prev).equals(in[1]) && Arrays.equals((int[]) in[2], new int[] {prev, prev * prev})
            && in[3] == null && in[0] == null, "objects " + Arrays.toString(in));
        Ring.check(s.source == prev && s.Get_count(MPI.OBJECT) == 3, "object status " + s);
        world.Send(out, 0, 2, MPI.OBJECT, next, 51);
        Object[] in2 = new Object[2];
        Status s2 = world.Recv(in2, 0, 2, MPI.OBJECT, prev, 51);
        Ring.check(("from " + prev).equals(in2[0]) && s2.Get_count(MPI.OBJECT) == 2, "blocking objects");
        Object[] shared = new Object[1];
        if (me == 0) {
            shared[0] = new StringBuilder("root");
        }
        world.Bcast(shared, 0, 1, MPI.OBJECT, 0);
        Ring.check("root".equals(shared[0].toString()), "Bcast objects " + shared[0]);
        Object[] names = new Object[size * 2];
        world.Gather(new Object[] {"r" + me, me}, 0, 2, MPI.OBJECT, names, 0, 2, MPI.OBJECT, 0);
        if (me == 0) {
            for (int i = 0; i < size; i++) {
                Ring.check(("r" + i).equals(names[2 * i]) && Integer.valueOf(i).equals(names[2 * i + 1]),
                    "Gather objects " + Arrays.toString(names));
            }
        }
        Object[] everyone = new Object[size + 1];
        world.Allgather(new Object[] {"a" + me}, 0, 1, MPI.OBJECT, everyone, 1, 1, MPI.OBJECT);
        for (int i = 0; i < size; i++) {
            Ring.check(("a" + i).equals(everyone[i + 1]), "Allgather objects " + Arrays.toString(everyone));
        }
        Object[] deal = null;
        int root = size - 1;
        if (me == root) {
            deal = new Object[2 * size];
            for (int i = 0; i < size; i++) {
                deal[2 * i] = "card" + i;
                deal[2 * i + 1] = new long[] {i};
            }
        }
        Object[] hand = new Object[2];
        world.Scatter(deal, 0, 2, MPI.OBJECT, hand, 0, 2, MPI.OBJECT, root);
        Ring.check(("card" + me).equals(hand[0]) && ((long[]) hand[1])[0] == me, "Scatter objects "
            + Arrays.toString(hand));
        // predefined ops on objects are refused (the v-collectives, all-to-alls and user-op reductions of
        // objects are in ObjectCollectivesConformance)
        expectError("Allreduce", () -> world.Allreduce(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM));
        // persistent sends and receives of objects (MPJ Express has them): three starts around the ring,
        // the objects changed between starts — each start sends them as they are then
        Object[] sendObjs = new Object[2];
        Object[] recvObjs = new Object[3];
        Prequest[] ring = {world.Recv_init(recvObjs, 1, 2, MPI.OBJECT, prev, 53),
            world.Send_init(sendObjs, 0, 2, MPI.OBJECT, next, 53)};
        for (int round = 0; round < 3; round++) {
            sendObjs[0] = "round " + round + " from " + me;
            sendObjs[1] = new int[] {round, me};
            Arrays.fill(recvObjs, null);
            Prequest.Startall(ring);
            Status[] st = Request.Waitall(ring);
            Ring.check(("round " + round + " from " + prev).equals(recvObjs[1])
                && Arrays.equals((int[]) recvObjs[2], new int[] {round, prev}) && recvObjs[0] == null
                && st[0].Get_count(MPI.OBJECT) == 2 && st[0].source == prev, "persistent objects, round " + round + ": "
                + Arrays.toString(recvObjs));
        }
        ring[1].Start(); // Start and Wait one by one as well
        ring[0].Start();
        ring[1].Wait();
        ring[0].Wait();
        Ring.check(("round 2 from " + prev).equals(recvObjs[1]), "persistent objects, Start/Wait");
        ring[0].Free();
        ring[1].Free();
        // a posted object receive matches while this rank waits for something else — here its own
        // synchronous send around the ring, blocking, then an Issend waited for before the receive
        Object[] got = new Object[1];
        Request posted = world.Irecv(got, 0, 1, MPI.OBJECT, prev, 54);
        world.Ssend(new Object[] {"sync " + me}, 0, 1, MPI.OBJECT, next, 54);
        posted.Wait();
        Ring.check(("sync " + prev).equals(got[0]), "Ssend while an object receive is posted: " + got[0]);
        Request[] sendFirst = {world.Issend(new Object[] {"issend " + me}, 0, 1, MPI.OBJECT, next, 55),
            world.Irecv(got, 0, 1, MPI.OBJECT, prev, 55)};
        Request.Waitall(sendFirst);
        Ring.check(("issend " + prev).equals(got[0]), "Waitall of an Issend before its object receive: " + got[0]);
        if (me < 2 && size >= 2) {
            // rank 1 sends an object synchronously, then both Sendrecv ints: rank 0 waits in its Sendrecv
            // for rank 1, which waits in its Ssend for rank 0's posted object receive
            int other = 1 - me;
            Request objIn = me == 0 ? world.Irecv(got, 0, 1, MPI.OBJECT, 1, 56) : null;
            if (me == 1) {
                world.Ssend(new Object[] {"before sendrecv"}, 0, 1, MPI.OBJECT, 0, 56);
            }
            int[] theirs = new int[1];
            world.Sendrecv(new int[] {me}, 0, 1, MPI.INT, other, 57, theirs, 0, 1, MPI.INT, other, 57);
            Ring.check(theirs[0] == other, "Sendrecv while an object receive is posted");
            if (objIn != null) {
                objIn.Wait();
                Ring.check("before sendrecv".equals(got[0]), "the posted object receive: " + got[0]);
            }
        }
        // truncation is reported and the library stays usable
        world.Send(out, 0, 3, MPI.OBJECT, next, 52);
        expectError("Recv", () -> world.Recv(new Object[2], 0, 2, MPI.OBJECT, prev, 52));
    }

    static void groups() {
        Group g = world.Group();
        Ring.check(g.Size() == size && g.Rank() == me, "world group");
        Group evens = g.Range_incl(new int[][] {{0, size - 1, 2}});
        Group odds = g.Excl(evensRanks());
        Ring.check(evens.Size() == (size + 1) / 2 && odds.Size() == size / 2, "Range_incl/Excl sizes");
        Ring.check(Group.Compare(Group.Union(evens, odds), g) == MPI.SIMILAR || size < 3,
            "Union of evens and odds is similar to the world");
        Ring.check(Group.Compare(Group.Union(evens, odds), Group.Union(evens, odds)) == MPI.IDENT, "IDENT");
        Ring.check(Group.Intersection(evens, odds).Size() == 0, "Intersection");
        Ring.check(Group.Difference(g, odds).Size() == evens.Size(), "Difference");
        int[] tr = Group.Translate_ranks(g, new int[] {me, MPI.PROC_NULL}, evens);
        Ring.check(tr[0] == (me % 2 == 0 ? me / 2 : MPI.UNDEFINED) && tr[1] == MPI.PROC_NULL, "Translate_ranks "
            + Arrays.toString(tr));
        Group rev = g.Incl(reversed());
        Ring.check(rev.Rank() == size - 1 - me, "Incl order");
        Ring.check(Group.Compare(rev, g) == (size == 1 ? MPI.IDENT : MPI.SIMILAR), "reversed group is SIMILAR");
        Ring.check(MPI.GROUP_EMPTY.Size() == 0 && MPI.GROUP_EMPTY.Rank() == MPI.UNDEFINED, "GROUP_EMPTY");
        // communicators
        Intracomm ev = world.Create(evens);
        Ring.check((ev != null) == (me % 2 == 0), "Create: members only");
        if (ev != null) {
            Ring.check(ev.Rank() == me / 2 && ev.Size() == evens.Size(), "Create ranks");
            int[] sum = new int[1];
            ev.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            int want = 0;
            for (int r = 0; r < size; r += 2) {
                want += r;
            }
            Ring.check(sum[0] == want, "Allreduce on a created communicator");
        }
        Intracomm back = world.Create(rev);
        Ring.check(back.Rank() == size - 1 - me, "Create with a reordered group");
        Ring.check(Comm.Compare(world, world) == MPI.IDENT, "Compare IDENT");
        Ring.check(Comm.Compare(world, world.Dup()) == MPI.CONGRUENT, "Compare CONGRUENT");
        Ring.check(Comm.Compare(world, back) == (size == 1 ? MPI.CONGRUENT : MPI.SIMILAR), "Compare SIMILAR");
        Intracomm half = world.Split(me % 2, -me);
        Ring.check(Comm.Compare(world, half) == (size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL), "Compare UNEQUAL");
        Ring.check(half.Group().Rank() == half.Rank(), "Split group order follows the key");
        Ring.check(MPI.COMM_SELF.Size() == 1 && MPI.COMM_SELF.Rank() == 0, "COMM_SELF");
        int[] self = new int[1];
        MPI.COMM_SELF.Allreduce(new int[] {me}, 0, self, 0, 1, MPI.INT, MPI.SUM);
        Ring.check(self[0] == me, "COMM_SELF collective");
    }

    static int[] evensRanks() {
        int[] r = new int[(size + 1) / 2];
        for (int i = 0; i < r.length; i++) {
            r[i] = 2 * i;
        }
        return r;
    }

    static int[] reversed() {
        int[] r = new int[size];
        for (int i = 0; i < size; i++) {
            r[i] = size - 1 - i;
        }
        return r;
    }

    static void cartesian() {
        int[] dims = {0, 1};
        Cartcomm.Dims_create(size, dims);
        Ring.check(dims[0] == size && dims[1] == 1, "Dims_create keeps the fixed dimension " + Arrays.toString(dims));
        int[] d3 = {0, 0};
        Cartcomm.Dims_create(12, d3);
        Ring.check(d3[0] * d3[1] == 12 && d3[0] >= d3[1], "Dims_create 12 " + Arrays.toString(d3));
        Cartcomm line = world.Create_cart(new int[] {size}, new boolean[] {false}, false);
        ShiftParms sp = line.Shift(0, 1);
        Ring.check(sp.rank_source == (me == 0 ? MPI.PROC_NULL : me - 1)
            && sp.rank_dest == (me == size - 1 ? MPI.PROC_NULL : me + 1), "Shift off a non-periodic grid");
        Cartcomm ring = world.Create_cart(new int[] {size}, new boolean[] {true}, false);
        ShiftParms rp = ring.Shift(0, 1);
        Ring.check(rp.rank_dest == (me + 1) % size, "periodic Shift");
        Ring.check(ring.Get().dims[0] == size && ring.Get().periods[0] && ring.Get().coords[0] == me, "Get");
        Ring.check(ring.Rank(new int[] {me + size}) == me && ring.Coords(me)[0] == me, "Rank/Coords");
        Ring.check(ring.Topo_test() == MPI.CART && world.Topo_test() == MPI.UNDEFINED, "Topo_test");
        int[] v = {me};
        int[] w = new int[1];
        ring.Sendrecv(v, 0, 1, MPI.INT, rp.rank_dest, 1, w, 0, 1, MPI.INT, rp.rank_source, 1);
        Ring.check(w[0] == (me - 1 + size) % size, "Sendrecv on a Cartcomm");
        Cartcomm grid = world.Create_cart(new int[] {size, 1}, new boolean[] {false, false}, false);
        Cartcomm sub = grid.Sub(new boolean[] {true, false});
        Ring.check(sub.Size() == size && sub.Rank() == me && sub.Get().dims.length == 1, "Sub keeping dimension 0");
        expectError("Create_cart", () -> world.Create_cart(new int[] {size + 1}, new boolean[] {false}, false));
    }

    static void buffered() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        ByteBuffer space = ByteBuffer.allocate(2 * (100 * 8 + MPI.BSEND_OVERHEAD));
        MPI.Buffer_attach(space);
        double[] data = new double[100];
        Arrays.fill(data, me);
        world.Bsend(data, 0, 100, MPI.DOUBLE, next, 60);
        data[0] = -1; // the buffered copy was taken at the call
        world.Ibsend(data, 0, 100, MPI.DOUBLE, next, 61).Wait();
        MPIException tooBig = expectError("Bsend", () -> world.Bsend(new double[1000], 0, 1000, MPI.DOUBLE, next, 62));
        Ring.check(tooBig.getMessage().contains("attached buffer"), "Bsend too big says why: " + tooBig.getMessage());
        double[] in = new double[100];
        world.Recv(in, 0, 100, MPI.DOUBLE, prev, 60);
        Ring.check(in[0] == prev && in[99] == prev, "Bsend data");
        world.Recv(in, 0, 100, MPI.DOUBLE, prev, 61);
        Ring.check(in[0] == -1 && in[1] == prev, "Ibsend data");
        Ring.check(MPI.Buffer_detach() == space, "Buffer_detach returns the buffer");
        expectError("Bsend", () -> world.Bsend(data, 0, 1, MPI.DOUBLE, next, 63));
        // a persistent buffered send of objects: each start takes the objects as they are then
        ByteBuffer objSpace = ByteBuffer.allocate(8192);
        MPI.Buffer_attach(objSpace);
        Object[] note = new Object[1];
        Prequest b = world.Bsend_init(note, 0, 1, MPI.OBJECT, next, 64);
        Object[] got = new Object[1];
        for (int round = 0; round < 2; round++) {
            note[0] = "note " + round + " from " + me;
            Prequest.Startall(new Prequest[] {b});
            b.Wait();
            world.Recv(got, 0, 1, MPI.OBJECT, prev, 64);
            Ring.check(("note " + round + " from " + prev).equals(got[0]), "Bsend_init of OBJECT, round " + round);
        }
        b.Free();
        MPI.Buffer_detach();
    }

    static void packing() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        Datatype col = Datatype.Vector(3, 1, 4, MPI.INT);
        int[] m = new int[12];
        for (int i = 0; i < 12; i++) {
            m[i] = 100 * me + i;
        }
        byte[] packed = new byte[world.Pack_size(1, col) + world.Pack_size(2, MPI.DOUBLE)];
        int pos = world.Pack(m, 1, 1, col, packed, 0);
        pos = world.Pack(new double[] {0.5, me}, 0, 2, MPI.DOUBLE, packed, pos);
        Ring.check(pos == packed.length && col.Size() == 3 && col.Extent() == 9, "Pack position " + pos);
        byte[] got = new byte[packed.length];
        world.Sendrecv(packed, 0, pos, MPI.PACKED, next, 70, got, 0, got.length, MPI.PACKED, prev, 70);
        int[] cols = new int[3];
        double[] ds = new double[2];
        int p = world.Unpack(got, 0, cols, 0, 3, MPI.INT);
        world.Unpack(got, p, ds, 0, 2, MPI.DOUBLE);
        Ring.check(cols[0] == 100 * prev + 1 && cols[1] == 100 * prev + 5 && cols[2] == 100 * prev + 9 && ds[1] == prev,
            "Unpack " + Arrays.toString(cols) + Arrays.toString(ds));
        // a vector type over the wire, into a contiguous receive
        int[] dense = new int[3];
        world.Sendrecv(m, 2, 1, col, next, 71, dense, 0, 3, MPI.INT, prev, 71);
        Ring.check(dense[2] == 100 * prev + 10, "Vector send " + Arrays.toString(dense));
    }

    static void irregular() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        Datatype ix = Datatype.Indexed(new int[] {2, 1}, new int[] {0, 4}, MPI.INT);
        ix.Commit();
        Ring.check(ix.Size() == 3 && ix.Extent() == 5 && ix.Lb() == 0, "Indexed size/extent " + ix.Size() + "/"
            + ix.Extent());
        int[] src = new int[12];
        for (int i = 0; i < src.length; i++) {
            src[i] = 100 * me + i;
        }
        // 2 items from offset 1: elements 1,2,5 and 6,7,10
        int[] dense = new int[6];
        Status st = world.Sendrecv(src, 1, 2, ix, next, 90, dense, 0, 6, MPI.INT, prev, 90);
        int[] want = {1, 2, 5, 6, 7, 10};
        for (int i = 0; i < 6; i++) {
            Ring.check(dense[i] == 100 * prev + want[i], "Indexed send " + Arrays.toString(dense));
        }
        Ring.check(st.Get_count(MPI.INT) == 6, "count of the packed message");
        // the other way: contiguous in, Indexed out (gaps untouched)
        int[] spread = new int[12];
        Arrays.fill(spread, -1);
        Request r = world.Irecv(spread, 1, 2, ix, prev, 91);
        world.Send(new int[] {me, me + 1, me + 2, me + 3, me + 4, me + 5}, 0, 6, MPI.INT, next, 91);
        Status rs = r.Wait();
        Ring.check(spread[1] == prev && spread[2] == prev + 1 && spread[5] == prev + 2 && spread[6] == prev + 3
            && spread[7] == prev + 4 && spread[10] == prev + 5 && spread[3] == -1 && spread[4] == -1
            && spread[0] == -1 && spread[11] == -1, "Indexed receive " + Arrays.toString(spread));
        Ring.check(rs.Get_count(ix) == 2, "Get_count of an Indexed type " + rs.Get_count(ix));
        // Struct of doubles with an upper-bound marker, and a contiguous type of it
        Datatype sx = Datatype.Struct(new int[] {1, 2, 1}, new int[] {1, 4, 8},
            new Datatype[] {MPI.DOUBLE, MPI.DOUBLE, MPI.UB});
        Ring.check(sx.Size() == 3 && sx.Lb() == 1 && sx.Extent() == 7, "Struct bounds " + sx.Lb() + "/" + sx.Extent());
        Datatype two = Datatype.Contiguous(2, sx);
        Ring.check(two.Size() == 6, "Contiguous of a Struct");
        double[] ds = new double[16];
        if (me == 0) {
            for (int i = 0; i < ds.length; i++) {
                ds[i] = i + 0.5;
            }
        }
        world.Bcast(ds, 0, 1, two, 0);
        double[] dsWant = {1.5, 4.5, 5.5, 8.5, 11.5, 12.5};
        int[] at = {1, 4, 5, 8, 11, 12};
        for (int i = 0; i < at.length; i++) {
            Ring.check(ds[at[i]] == dsWant[i], "Bcast of a Struct " + Arrays.toString(ds));
        }
        Ring.check(ds[0] == (me == 0 ? 0.5 : 0), "Bcast leaves the gaps");
        byte[] packed = new byte[world.Pack_size(1, ix)];
        int pos = world.Pack(src, 0, 1, ix, packed, 0);
        int[] unpacked = new int[3];
        world.Unpack(packed, 0, unpacked, 0, 3, MPI.INT);
        Ring.check(pos == 12 && unpacked[2] == 100 * me + 4, "Pack of an Indexed type " + Arrays.toString(unpacked));
        expectError("Reduce", () -> world.Reduce(src, 0, new int[12], 0, 1, ix, MPI.MINLOC, 0)); // pairs need their layout
        expectError("Struct", () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
            new Datatype[] {MPI.INT, MPI.DOUBLE}));
        expectError("Send", () -> world.Send(src, 9, 2, ix, next, 92));
        // an upper-bound marker inside the data: the marker, not the data, spaces the items of a type made of it
        Datatype col = Datatype.Vector(4, 1, 4, MPI.INT); // data at 0, 4, 8, 12
        Datatype narrow = Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {col, MPI.UB});
        Datatype pair = Datatype.Contiguous(2, narrow);
        Ring.check(narrow.Extent() == 1 && pair.Extent() == 2 && pair.Size() == 8, "Contiguous of a Struct with UB"
            + " inside its data: extent " + pair.Extent() + ", size " + pair.Size());
        int[] grid = new int[16];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = 100 * me + i;
        }
        int[] cols = new int[8];
        world.Sendrecv(grid, 0, 1, pair, next, 95, cols, 0, 8, MPI.INT, prev, 95);
        int[] colAt = {0, 4, 8, 12, 1, 5, 9, 13};
        for (int k = 0; k < 8; k++) {
            Ring.check(cols[k] == 100 * prev + colAt[k], "two columns one element apart: " + Arrays.toString(cols));
        }
        // persistent sends and receives of an Indexed type: the core requests are bound to packed copies
        // made at init; each start packs the items as they are then, each completion unpacks
        int[] ring = new int[12];
        int[] landed = new int[12];
        Prequest ps = world.Send_init(ring, 1, 2, ix, next, 93);
        Prequest pr = world.Recv_init(landed, 1, 2, ix, prev, 93);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < ring.length; i++) {
                ring[i] = 1000 * round + 100 * me + i;
            }
            Arrays.fill(landed, -1);
            Prequest.Startall(new Prequest[] {pr, ps});
            Request.Waitall(new Request[] {pr, ps});
            int[] covered = {1, 2, 5, 6, 7, 10};
            for (int k : covered) {
                Ring.check(landed[k] == 1000 * round + 100 * prev + k, "Send_init/Recv_init of Indexed, round " + round
                    + ": " + Arrays.toString(landed));
            }
            Ring.check(landed[0] == -1 && landed[3] == -1 && landed[4] == -1 && landed[11] == -1,
                "Recv_init of Indexed wrote a gap: " + Arrays.toString(landed));
        }
        ps.Free();
        pr.Free();
        // Bsend_init of it: each start copies into the attached buffer (3 ints a item: 24 bytes + overhead)
        ByteBuffer room = ByteBuffer.allocate(2 * 3 * 4 + MPI.BSEND_OVERHEAD);
        MPI.Buffer_attach(room);
        Prequest pb = world.Bsend_init(ring, 1, 2, ix, next, 94);
        pb.Start();
        pb.Wait();
        int[] flat = new int[6];
        world.Recv(flat, 0, 6, MPI.INT, prev, 94);
        Ring.check(flat[0] == 2000 + 100 * prev + 1 && flat[2] == 2000 + 100 * prev + 5, "Bsend_init of Indexed: "
            + Arrays.toString(flat));
        MPI.Buffer_detach();
        pb.Free();
    }

    static void errors() {
        int next = (me + 1) % size;
        MPIException e = expectError("Send", () -> world.Send(new int[1], 0, 1, MPI.INT, size, 1));
        Ring.check(e.getMessage().contains("dest"), "names the argument: " + e.getMessage());
        expectError("Send", () -> world.Send(new int[1], 0, 2, MPI.INT, next, 1));
        expectError("Send", () -> world.Send(new double[1], 0, 1, MPI.INT, next, 1));
        expectError("Send", () -> world.Send(new int[1], 0, 1, MPI.INT, next, -5));
        expectError("Recv", () -> world.Recv(new int[1], -1, 1, MPI.INT, next, 1));
        expectError("Bcast", () -> world.Bcast(new int[1], 0, 1, MPI.INT, size));
        expectError("Gatherv", () -> world.Gatherv(new int[1], 0, -1, MPI.INT, new int[size], 0, new int[size],
            new int[size], MPI.INT, 0));
        expectError("Ssend", () -> world.Ssend(new int[1], 0, 1, MPI.INT, size, 1));
        expectError("Cancel", () -> MPI.REQUEST_NULL.Cancel());
        expectError("Indexed", () -> Datatype.Indexed(new int[] {1}, new int[] {-1}, MPI.INT));
        expectError("Create_graph", () -> world.Create_graph(new int[] {1}, new int[] {5}, false)); // edge out of range
        expectError("Init", () -> MPI.Init(new String[0]));
        // still usable
        int[] v = {me};
        int[] w = new int[1];
        int prev = (me - 1 + size) % size;
        world.Sendrecv(v, 0, 1, MPI.INT, next, 80, w, 0, 1, MPI.INT, prev, 80);
        Ring.check(w[0] == prev, "usable after errors");
    }

    static void environment() {
        double t0 = MPI.Wtime();
        Ring.check(MPI.Wtick() > 0 && MPI.Wtime() >= t0, "Wtime/Wtick");
        Ring.check(!MPI.Get_processor_name().isEmpty(), "Get_processor_name");
        Ring.check(MPI.Query_thread() == MPI.THREAD_FUNNELED, "Query_thread");
        Ring.check(MPI.EMPTY_STATUS.source == MPI.ANY_SOURCE, "EMPTY_STATUS");
        Ring.check(world.Attr_get(MPI.TAG_UB) >= 32767 && world.Attr_get(MPI.WTIME_IS_GLOBAL) == 1, "Attr_get");
        Ring.check(!world.Is_null() && !world.Test_inter(), "Is_null/Test_inter");
    }

    /**
     * What MPJ Express programs use beyond mpiJava 1.2 (found by running MPJ Express's own test
     * programs against this package): {@code clone()} on a {@code Comm}, {@code Attr_get} as an
     * object, {@code Create_intercomm} on the peer {@code Comm}, {@code COMM_NULL}, the thread and
     * error-handler names of its {@code MPI}, count arrays longer than the group, and an
     * {@code Hvector} whose stride is not a whole number of items.
     */
    static void mpjExpress() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        Comm asComm = world;
        Comm copy = (Comm) asComm.clone();
        Ring.check(copy instanceof Intracomm && Comm.Compare(copy, world) == MPI.CONGRUENT, "clone() of a Comm");
        int[] got = new int[1];
        copy.Sendrecv(new int[] {me}, 0, 1, MPI.INT, next, 3, got, 0, 1, MPI.INT, prev, 3);
        Ring.check(got[0] == prev, "a clone carries messages");
        Object tagUb = world.Attr_get(MPI.TAG_UB);
        int tagUbInt = world.Attr_get(MPI.TAG_UB);
        Ring.check(tagUb.toString().equals(Integer.toString(tagUbInt)) && tagUbInt >= 32767, "Attr_get as an object");
        expectError("Attr_delete", () -> world.Attr_delete(MPI.TAG_UB));
        Ring.check(world.Attr_get(MPI.TAG_UB) == tagUbInt, "a refused Attr_delete deletes nothing");
        Ring.check(world.Split(MPI.UNDEFINED, 0) == MPI.COMM_NULL, "Split with UNDEFINED gives COMM_NULL");
        if (size >= 2) {
            // the peer communicator is a Comm-typed reference; leaders: world ranks 0 and 1
            Intracomm half = world.Split(me % 2, me);
            Intercomm ic = asComm.Create_intercomm(half, 0, me % 2 == 0 ? 1 : 0, 66);
            Ring.check(ic.Remote_size() == (me % 2 == 0 ? size / 2 : (size + 1) / 2), "Create_intercomm on a Comm: "
                + ic.Remote_size());
        }
        // Create with disjoint groups (MPI-2.2; MPJ Express's intercomm test relies on it): one communicator each
        int[] mine = new int[(size + (me % 2 == 0 ? 1 : 0)) / 2];
        for (int i = 0; i < mine.length; i++) {
            mine[i] = 2 * i + me % 2;
        }
        Intracomm part = world.Create(world.Group().Incl(mine));
        Ring.check(part != null && part.Size() == mine.length && part.Rank() == me / 2, "Create with disjoint groups: "
            + (part == null ? "null" : part.Size() + " ranks"));
        int[] sum = new int[1];
        part.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        int members = 0;
        for (int w : mine) {
            members += w;
        }
        Ring.check(sum[0] == members, "a communicator of disjoint Create holds its group only: " + sum[0]);
        if (size >= 3) {
            // groups that overlap and differ with the same size: rank 0 names {0, 1}, rank 1 is outside {0, 2},
            // ranks 2.. name {0, 2}: the split makes {0, 2}, which rank 0 refuses (its group is {0, 1})
            int[] g = me == 0 ? new int[] {0, 1} : new int[] {0, 2};
            try {
                Intracomm odd = world.Create(world.Group().Incl(g));
                Ring.check(me != 0 && (me == 1 ? odd == null : me == 2 ? odd != null : odd == null),
                    "Create with overlapping groups at rank " + me + ": " + odd);
            } catch (MPIException refused) {
                Ring.check(me == 0 && refused.getMessage().contains("overlap") && refused.getMessage().contains("[0, 2]"),
                    "Create with overlapping groups refused at " + me + ": " + refused.getMessage());
            }
        }
        Ring.check(MPI.NUM_OF_PROCESSORS >= 1 && MPI.queryThread() == MPI.Query_thread() && MPI.isMainThread(),
            "MPJ Express's MPI constants and thread calls");
        boolean[] other = {true};
        Thread t = new Thread(() -> other[0] = MPI.isMainThread());
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        Ring.check(!other[0], "isMainThread is false in another thread");
        MPI.Errorhandler_set(MPI.ERRORS_RETURN);
        Ring.check(MPI.Errorhandler_get() == MPI.ERRORS_RETURN && world.Errhandler_get() == MPI.ERRORS_RETURN,
            "Errorhandler_set/get on COMM_WORLD");
        MPI.Errorhandler_set(MPI.ERRORS_ARE_FATAL);
        expectError("Send", () -> world.Send(new int[1], 0, 1, MPI.NULL, next, 1));
        // counts longer than the group: the entries past it are not read
        int[] rc = new int[size + 3];
        Arrays.fill(rc, 0, size, 1);
        int[] one = new int[1];
        int[] all = new int[size];
        Arrays.fill(all, me + 1);
        world.Reduce_scatter(all, 0, one, 0, rc, MPI.INT, MPI.SUM);
        Ring.check(one[0] == size * (size + 1) / 2, "Reduce_scatter with a longer recvcounts: " + one[0]);
        int[] counts = new int[size + 2];
        int[] displs = new int[size + 2];
        for (int i = 0; i < size; i++) {
            counts[i] = 1;
            displs[i] = i;
        }
        Object[] names = new Object[size];
        world.Gatherv(new Object[] {"rank " + me}, 0, 1, MPI.OBJECT, names, 0, counts, displs, MPI.OBJECT, 0);
        Ring.check(me != 0 || ("rank " + (size - 1)).equals(names[size - 1]), "Gatherv of OBJECT with longer counts");
        // Hvector with a stride of 5 ints over Vector(2, 1, 2, INT) (extent 3): blocks at 0 and 5
        Datatype v = Datatype.Vector(2, 1, 2, MPI.INT);
        Datatype h = Datatype.Hvector(2, 1, 5, v);
        int[] src = new int[8];
        for (int i = 0; i < src.length; i++) {
            src[i] = 100 * me + i;
        }
        int[] dst = new int[8];
        Arrays.fill(dst, -1);
        world.Sendrecv(src, 0, 1, h, next, 4, dst, 0, 1, h, prev, 4);
        int[] want = {100 * prev, -1, 100 * prev + 2, -1, -1, 100 * prev + 5, -1, 100 * prev + 7};
        Ring.check(Arrays.equals(dst, want), "Hvector with a stride of 5 elements " + Arrays.toString(dst));
    }

    /** A marked object: who made it and at which position (serializable, compared by value). */
    static String mark(int rank, int at) {
        return rank + ":" + at;
    }

    /**
     * Derived types of OBJECT (a Vector, Hvector, Indexed, Struct with bounds), sent, broadcast
     * and received persistently: the objects at the layout's positions travel in order, the gaps
     * stay as they were; a Struct of no blocks is an empty message.
     */
    static void objectTypes() {
        int next = (me + 1) % size;
        int prev = (me - 1 + size) % size;
        // Vector(2, 3, 4): positions 0,1,2 and 4,5,6 of an item (extent 7), two items from offset 1
        Datatype v = Datatype.Vector(2, 3, 4, MPI.OBJECT);
        Ring.check(v.Extent() == 7 && v.Size() == 6, "Vector of OBJECT: extent " + v.Extent() + ", size " + v.Size());
        Object[] src = new Object[16];
        for (int i = 0; i < src.length; i++) {
            src[i] = mark(me, i);
        }
        Object[] dst = new Object[16];
        Arrays.fill(dst, "gap");
        Status st = world.Sendrecv(src, 1, 2, v, next, 20, dst, 1, 2, v, prev, 20);
        for (int i = 0; i < dst.length; i++) {
            int inItem = (i - 1) % 7;
            boolean sent = i >= 1 && i < 15 && inItem != 3;
            Ring.check(sent ? mark(prev, i).equals(dst[i]) : "gap".equals(dst[i]), "Vector of OBJECT position " + i
                + ": " + dst[i]);
        }
        Ring.check(st.Get_count(v) == 2 && st.Get_elements(v) == 12, "Get_count of a Vector of OBJECT: "
            + st.Get_count(v) + " / " + st.Get_elements(v));
        // Hvector of it with a stride of 6 elements (items overlap: the later one's objects land last)
        Datatype h = Datatype.Hvector(3, 1, 6, v);
        Object[] b = new Object[24];
        for (int i = 0; i < b.length; i++) {
            b[i] = me == 0 ? mark(0, i) : "kept";
        }
        world.Bcast(b, 0, 1, h, 0);
        for (int i = 0; i < b.length; i++) {
            boolean covered = i < 19 && i % 6 != 3;
            Ring.check(covered ? mark(0, i).equals(b[i]) : b[i].equals(me == 0 ? mark(0, i) : "kept"),
                "Bcast of Hvector(Vector of OBJECT) position " + i + ": " + b[i]);
        }
        // Indexed, non-blocking, into a String[] (any array of objects)
        Datatype ix = Datatype.Indexed(new int[] {1, 2}, new int[] {3, 0}, MPI.OBJECT);
        String[] got = {"a", "b", "c", "d", "e"};
        Request r = world.Irecv(got, 0, 1, ix, prev, 21);
        world.Send(new Object[] {"p0", "p1", "p2", "p3", "p4"}, 0, 1, ix, next, 21);
        Status rs = r.Wait();
        Ring.check(Arrays.equals(got, new String[] {"p0", "p1", "c", "p3", "e"}) && rs.Get_count(ix) == 1,
            "Indexed of OBJECT: " + Arrays.toString(got));
        // the type map's order is the constructor's, not the addresses': block {3} travels before {0, 1}
        Object[] flat = new Object[3];
        world.Sendrecv(new Object[] {"p0", "p1", "p2", "p3"}, 0, 1, ix, next, 26, flat, 0, 3, MPI.OBJECT, prev, 26);
        Ring.check(Arrays.equals(flat, new Object[] {"p3", "p0", "p1"}), "Indexed of OBJECT in type map order: "
            + Arrays.toString(flat));
        int[] flatInts = new int[3];
        world.Sendrecv(new int[] {10, 11, 12, 13}, 0, 1, Datatype.Indexed(new int[] {1, 2}, new int[] {3, 0}, MPI.INT),
            next, 27, flatInts, 0, 3, MPI.INT, prev, 27);
        Ring.check(Arrays.equals(flatInts, new int[] {13, 10, 11}), "Indexed of INT in type map order: "
            + Arrays.toString(flatInts));
        // a Struct of Contiguous(4, OBJECT) with bounds markers (extent and bounds as MPI defines them)
        Datatype four = Datatype.Contiguous(4, MPI.OBJECT);
        Datatype s1 = Datatype.Struct(new int[] {1, 1}, new int[] {0, 97}, new Datatype[] {four, MPI.UB});
        Ring.check(s1.Extent() == 97 && s1.Lb() == 0 && s1.Ub() == 97, "Struct with UB: " + s1.Extent());
        Datatype s2 = Datatype.Struct(new int[] {2, 1, 1}, new int[] {2, -3, 86},
            new Datatype[] {four, MPI.LB, MPI.UB});
        Ring.check(s2.Extent() == 89 && s2.Lb() == -3 && s2.Ub() == 86, "Struct with LB and UB: " + s2.Extent());
        Datatype s3 = Datatype.Struct(new int[] {1, 1}, new int[] {0, 6}, new Datatype[] {four, MPI.UB});
        Object[] sb = new Object[12];
        for (int i = 0; i < sb.length; i++) {
            sb[i] = mark(me, i);
        }
        Object[] rb = new Object[12];
        world.Sendrecv(sb, 0, 2, s3, next, 22, rb, 0, 2, s3, prev, 22);
        for (int i = 0; i < rb.length; i++) {
            boolean sent = i % 6 < 4;
            Ring.check(sent ? mark(prev, i).equals(rb[i]) : rb[i] == null, "Struct of objects position " + i + ": "
                + rb[i]);
        }
        // persistent receive of a Vector of objects, started twice
        Prequest pr = world.Recv_init(dst, 1, 1, v, prev, 23);
        for (int round = 0; round < 2; round++) {
            Arrays.fill(dst, "gap");
            pr.Start();
            for (int i = 0; i < src.length; i++) {
                src[i] = mark(me, 100 * round + i);
            }
            world.Send(src, 1, 1, v, next, 23);
            pr.Wait();
            Ring.check(mark(prev, 100 * round + 7).equals(dst[7]) && "gap".equals(dst[4]) && "gap".equals(dst[8]),
                "Recv_init of a Vector of OBJECT, round " + round + ": " + Arrays.toString(dst));
        }
        pr.Free();
        // the gathers take them too: each rank's item at its extent (7 objects), the gaps untouched
        for (int i = 0; i < src.length; i++) {
            src[i] = mark(me, i);
        }
        Object[] gathered = new Object[7 * size];
        Arrays.fill(gathered, "gap");
        world.Allgather(src, 0, 1, v, gathered, 0, 1, v);
        for (int i = 0; i < gathered.length; i++) {
            int from = i / 7;
            Ring.check(i % 7 == 3 ? "gap".equals(gathered[i]) : mark(from, i % 7).equals(gathered[i]),
                "Allgather of a Vector of OBJECT at " + i + ": " + gathered[i]);
        }
        Object[] part = new Object[7];
        Arrays.fill(part, "gap");
        world.Scatter(gathered, 0, 1, v, part, 0, 6, MPI.OBJECT, 0);
        Ring.check(mark(me, 0).equals(part[0]) && mark(me, 4).equals(part[3]) && mark(me, 6).equals(part[5])
            && "gap".equals(part[6]), "Scatter of a Vector of OBJECT into plain objects: " + Arrays.toString(part));
        // reductions combine runs of objects only: refused, naming the call
        Op keep = new Op(new User_function() {
            @Override
            public void Call(Object in, int io, Object inout, int ioo, int count, Datatype type) {
            }
        }, false);
        MPIException e = expectError("Allreduce", () -> world.Allreduce(src, 0, new Object[16], 0, 1, v, keep));
        Ring.check(e.getMessage().contains("not supported"), "Allreduce of a Vector of OBJECT says why: "
            + e.getMessage());
        expectError("Struct", () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
            new Datatype[] {MPI.OBJECT, MPI.BYTE}));
        expectError("Vector", () -> Datatype.Vector(2, 1, -1, MPI.OBJECT));
        // a Struct of no blocks: an empty message from any array, count 0 as MPI-3 says
        Datatype none = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
        Ring.check(none.Size() == 0 && none.Extent() == 0, "Struct of no blocks: size " + none.Size());
        int[] ii = {me == 0 ? 2 : 0};
        if (size >= 2 && me < 2) {
            if (me == 0) {
                world.Send(ii, 0, 100, none, 1, 24);
            } else {
                Status zs = world.Recv(ii, 0, 100, none, 0, 24);
                Ring.check(ii[0] == 0 && zs.Get_count(none) == 0 && zs.Get_elements(none) == 0 && zs.source == 0,
                    "a Struct of no blocks receives nothing: " + ii[0] + ", count " + zs.Get_count(none));
            }
        }
        world.Sendrecv(new double[] {1}, 0, 5, none, next, 25, new double[] {7}, 0, 5, none, prev, 25);
    }

    /** The value element {@code e} of rank {@code r}'s send buffer holds in {@link #irregularCollectives}. */
    static int val(int r, int e) {
        return 1000 * r + e;
    }

    /**
     * The gathers, scatters and all-to-alls with irregular types on either side (packed by the
     * facade, moved by the core's collectives, unpacked per rank): data in type-map order, gaps
     * untouched; a root with an irregular type among ranks that pass a core one.
     */
    static void irregularCollectives() {
        int root = size - 1;
        // item = elements {2, 0, 1} in that order (extent 3); 2 items per rank
        Datatype ix = Datatype.Indexed(new int[] {1, 2}, new int[] {2, 0}, MPI.INT);
        int[] mine = new int[6];
        for (int e = 0; e < 6; e++) {
            mine[e] = val(me, e);
        }
        int[] order = {2, 0, 1, 5, 3, 4}; // the elements of 2 items, in type-map order
        // Gather: Indexed sent, contiguous received (and the root alone passes the irregular type)
        int[] flat = new int[6 * size];
        world.Gather(mine, 0, 2, ix, flat, 0, 6, MPI.INT, root);
        if (me == root) {
            for (int r = 0; r < size; r++) {
                for (int k = 0; k < 6; k++) {
                    Ring.check(flat[6 * r + k] == val(r, order[k]), "Gather of Indexed, rank " + r + ": "
                        + Arrays.toString(flat));
                }
            }
        }
        int[] back = new int[6 * size + 2];
        Arrays.fill(back, -1);
        world.Gather(mine, 0, 6, MPI.INT, back, 1, 2, me == root ? ix : MPI.INT, root);
        if (me == root) {
            for (int r = 0; r < size; r++) {
                for (int k = 0; k < 6; k++) {
                    Ring.check(back[1 + 6 * r + order[k]] == val(r, k), "Gather into Indexed: " + Arrays.toString(back));
                }
            }
            Ring.check(back[0] == -1 && back[back.length - 1] == -1, "Gather into Indexed wrote outside its items");
        }
        // Gatherv / Allgatherv: rank r sends r % 3 items; Indexed on both sides, blocks one item apart
        int[] counts = new int[size];
        int[] displs = new int[size];
        int at = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 3;
            displs[r] = at + 1; // one item of gap before each block
            at += counts[r] + 1;
        }
        int[] mineV = new int[9];
        for (int e = 0; e < 9; e++) {
            mineV[e] = val(me, e);
        }
        int[] spread = new int[3 * at + 3];
        Arrays.fill(spread, -7);
        world.Allgatherv(mineV, 0, me % 3, ix, spread, 0, counts, displs, ix);
        int[] spreadG = new int[3 * at + 3];
        Arrays.fill(spreadG, -7);
        world.Gatherv(mineV, 0, me % 3, ix, spreadG, 0, counts, displs, ix, 0);
        for (int r = 0; r < size; r++) {
            for (int e = 0; e < 3 * (at + 1); e++) {
                int item = e / 3;
                boolean inBlock = item >= displs[r] && item < displs[r] + counts[r];
                if (inBlock) {
                    int srcElem = 3 * (item - displs[r]) + e % 3;
                    Ring.check(spread[e] == val(r, srcElem), "Allgatherv of Indexed at element " + e + ": "
                        + Arrays.toString(spread));
                    Ring.check(me != 0 || spreadG[e] == val(r, srcElem), "Gatherv of Indexed at element " + e);
                }
            }
        }
        for (int r = 0; r < size; r++) {
            int gap = displs[r] - 1;
            for (int e = 3 * gap; e < 3 * gap + 3; e++) {
                Ring.check(spread[e] == -7, "Allgatherv wrote into a gap at element " + e);
            }
        }
        // Scatter: the root's Struct items (doubles at 1 and 3, UB at 5), received contiguous
        Datatype sx = Datatype.Struct(new int[] {1, 1, 1}, new int[] {1, 3, 5},
            new Datatype[] {MPI.DOUBLE, MPI.DOUBLE, MPI.UB});
        double[] all = new double[5 * size];
        for (int i = 0; i < all.length; i++) {
            all[i] = 0.5 * i;
        }
        double[] two = new double[2];
        world.Scatter(all, 0, 1, sx, two, 0, 2, MPI.DOUBLE, 0);
        // lb 1 (the lowest displacement), ub 5: extent 4, so item r holds elements 4r+1 and 4r+3
        Ring.check(sx.Extent() == 4 && two[0] == 0.5 * (4 * me + 1) && two[1] == 0.5 * (4 * me + 3), "Scatter of Struct: "
            + Arrays.toString(two));
        // Scatterv into an Indexed receive: rank r gets r % 3 items
        int[] rootData = new int[3 * at];
        for (int i = 0; i < rootData.length; i++) {
            rootData[i] = i;
        }
        int[] got = new int[9];
        Arrays.fill(got, -1);
        world.Scatterv(rootData, 0, counts, displs, ix, got, 0, me % 3, ix, 0);
        for (int e = 0; e < 9; e++) {
            boolean filled = e / 3 < me % 3;
            Ring.check(filled ? got[e] == 3 * displs[me] + e : got[e] == -1, "Scatterv of Indexed: "
                + Arrays.toString(got));
        }
        // Alltoall: Indexed sent (2 items per peer), contiguous received
        int[] sendAll = new int[6 * size];
        for (int e = 0; e < sendAll.length; e++) {
            sendAll[e] = val(me, e);
        }
        int[] recvAll = new int[6 * size];
        world.Alltoall(sendAll, 0, 2, ix, recvAll, 0, 6, MPI.INT);
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < 6; k++) {
                Ring.check(recvAll[6 * r + k] == val(r, 6 * me + order[k]), "Alltoall of Indexed from rank " + r + ": "
                    + Arrays.toString(recvAll));
            }
        }
        // Alltoallv: one item to each peer, Indexed both sides, received items two apart
        int[] ones = new int[size];
        Arrays.fill(ones, 1);
        int[] sd = new int[size];
        int[] rd = new int[size];
        for (int r = 0; r < size; r++) {
            sd[r] = r;
            rd[r] = 2 * r;
        }
        int[] recvV = new int[6 * size];
        Arrays.fill(recvV, -3);
        world.Alltoallv(sendAll, 0, ones, sd, ix, recvV, 0, ones, rd, ix);
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < 3; k++) {
                Ring.check(recvV[6 * r + k] == val(r, 3 * me + k) && recvV[6 * r + 3 + k] == -3, "Alltoallv of Indexed: "
                    + Arrays.toString(recvV));
            }
        }
        // the root's Indexed receive buffer too short while every rank calls: refused at the root after the
        // others' blocks were taken, so the next Gather holds the next call's data
        try {
            world.Gather(new int[] {-me, -me, -me}, 0, 3, MPI.INT, new int[3 * size - 1], 0, 1, ix, root);
            Ring.check(me != root, "Gather into a too short Indexed buffer was not refused at the root");
        } catch (MPIException refused) {
            Ring.check(me == root && refused.getMessage().startsWith("Gather"), "Gather refused at " + me + ": "
                + refused.getMessage());
        }
        int[] again = new int[3 * size];
        world.Gather(new int[] {me, me, me}, 0, 3, MPI.INT, again, 0, 1, ix, root);
        for (int i = 0; me == root && i < again.length; i++) {
            Ring.check(again[i] == i / 3, "Gather after a refused one: " + Arrays.toString(again));
        }
        // the root's Indexed send buffer too short: the others get an empty block instead of waiting
        int[] untouched = {-9, -9, -9};
        try {
            world.Scatter(new int[3 * size - 1], 0, 1, ix, untouched, 0, 3, MPI.INT, root);
            Ring.check(me != root && untouched[0] == -9 && untouched[2] == -9, "Scatter from a too short Indexed buffer"
                + " at rank " + me + ": " + Arrays.toString(untouched));
        } catch (MPIException refused) {
            Ring.check(me == root && refused.getMessage().startsWith("Scatter"), "Scatter refused at " + me + ": "
                + refused.getMessage());
        }
        int[] piece = new int[3];
        int[] pieces = new int[3 * size];
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = i;
        }
        world.Scatter(pieces, 0, 1, ix, piece, 0, 3, MPI.INT, root);
        Ring.check(piece[0] == 3 * me + 2 && piece[1] == 3 * me && piece[2] == 3 * me + 1, "Scatter after a refused one: "
            + Arrays.toString(piece));
        // reductions of an irregular type with a predefined op: element by element, gaps untouched
        Datatype dx = Datatype.Indexed(new int[] {1, 1}, new int[] {2, 0}, MPI.DOUBLE); // elements 2, 0 of 3
        double[] dv = {me + 1, -1, 10 * (me + 1)};
        double[] sumAll = {-5, -5, -5};
        world.Allreduce(dv, 0, sumAll, 0, 1, dx, MPI.SUM);
        double s1 = size * (size + 1) / 2.0;
        Ring.check(sumAll[0] == s1 && sumAll[1] == -5 && sumAll[2] == 10 * s1, "Allreduce of Indexed: "
            + Arrays.toString(sumAll));
        double[] maxAt = {-5, -5, -5};
        world.Reduce(dv, 0, maxAt, 0, 1, dx, MPI.MAX, root);
        Ring.check(me != root || (maxAt[0] == size && maxAt[1] == -5 && maxAt[2] == 10 * size), "Reduce of Indexed: "
            + Arrays.toString(maxAt));
        double[] pre = {-5, -5, -5};
        world.Scan(dv, 0, pre, 0, 1, dx, MPI.SUM);
        double upTo = (me + 1) * (me + 2) / 2.0;
        Ring.check(pre[0] == upTo && pre[1] == -5 && pre[2] == 10 * upTo, "Scan of Indexed: " + Arrays.toString(pre));
        double[] ex = {-5, -5, -5};
        world.Exscan(dv, 0, ex, 0, 1, dx, MPI.SUM);
        double before = me * (me + 1) / 2.0;
        Ring.check(me == 0 ? ex[0] == -5 && ex[2] == -5 : ex[0] == before && ex[1] == -5 && ex[2] == 10 * before,
            "Exscan of Indexed: " + Arrays.toString(ex));
        // Reduce_scatter(_block): rank r gets item r (elements 2, 0 of its three) of the element-wise sums
        double[] items = new double[3 * size];
        for (int i = 0; i < items.length; i++) {
            items[i] = i + me;
        }
        double[] mineRs = {-5, -5, -5};
        int[] oneEach = new int[size];
        Arrays.fill(oneEach, 1);
        world.Reduce_scatter(items, 0, mineRs, 0, oneEach, dx, MPI.SUM);
        double base = size * (size - 1) / 2.0;
        Ring.check(mineRs[0] == size * (3 * me) + base && mineRs[1] == -5 && mineRs[2] == size * (3 * me + 2) + base,
            "Reduce_scatter of Indexed: " + Arrays.toString(mineRs));
        double[] mineRsb = {-5, -5, -5};
        world.Reduce_scatter_block(items, 0, mineRsb, 0, 1, dx, MPI.SUM);
        Ring.check(Arrays.equals(mineRsb, mineRs), "Reduce_scatter_block of Indexed: " + Arrays.toString(mineRsb));
        // a user op sees the items in the type's layout (elements 2 and 0 of each item of dx, extent 3): this one
        // adds at element 2 and keeps the larger at element 0, and is not commutative (applied in rank order)
        boolean[] sawLayout = {true};
        Op sumAndMax = new Op(new User_function() {
            @Override
            public void Call(Object in, int ii, Object inout, int io, int n, Datatype type) {
                double[] a = (double[]) in;
                double[] b = (double[]) inout;
                sawLayout[0] &= type == dx && a.length >= ii + 3 * (n - 1) + 3;
                for (int j = 0; j < n; j++) {
                    b[io + 3 * j + 2] += a[ii + 3 * j + 2];
                    b[io + 3 * j] = Math.max(a[ii + 3 * j], b[io + 3 * j]);
                }
            }
        }, false);
        double[] twoItems = {me + 1, -1, 10 * (me + 1), 2 * (me + 1), -1, 20 * (me + 1)};
        double[] userAll = {-5, -5, -5, -5, -5, -5};
        world.Allreduce(twoItems, 0, userAll, 0, 2, dx, sumAndMax);
        Ring.check(sawLayout[0] && userAll[0] == size && userAll[2] == 10 * s1 && userAll[3] == 2 * size
            && userAll[5] == 20 * s1 && userAll[1] == -5 && userAll[4] == -5, "Allreduce of Indexed with a user op: "
            + Arrays.toString(userAll));
        double[] userScan = {-5, -5, -5, -5, -5, -5};
        world.Scan(twoItems, 0, userScan, 0, 2, dx, sumAndMax);
        Ring.check(userScan[0] == me + 1 && userScan[2] == 10 * upTo && userScan[5] == 20 * upTo && userScan[1] == -5,
            "Scan of Indexed with a user op: " + Arrays.toString(userScan));
        Op maxloc = MPI.MAXLOC;
        MPIException pairOp = expectError("Allreduce", () -> world.Allreduce(dv, 0, sumAll, 0, 1, dx, maxloc));
        Ring.check(pairOp.getMessage().contains("MAXLOC"), "MAXLOC on Indexed says why: " + pairOp.getMessage());
        // the facade's own root-side checks (a buffer of the wrong kind at the root) keep the others in step too
        try {
            world.Gather(new int[] {me}, 0, 1, MPI.INT, new int[size], 0, 1, me == root ? MPI.BOOLEAN : MPI.INT, root);
            Ring.check(me != root, "Gather into an int[] as BOOLEAN was not refused at the root");
        } catch (MPIException refused) {
            Ring.check(me == root, "Gather refused at a non-root: " + refused.getMessage());
        }
        int[] gatheredInts = new int[size];
        world.Gather(new int[] {7 * me}, 0, 1, MPI.INT, gatheredInts, 0, 1, MPI.INT, root);
        for (int r = 0; me == root && r < size; r++) {
            Ring.check(gatheredInts[r] == 7 * r, "Gather after a refused one: " + Arrays.toString(gatheredInts));
        }
        int[] kept = {-9};
        try {
            world.Iscatter(new int[size], 0, 1, me == root ? MPI.BOOLEAN : MPI.INT, kept, 0, 1, MPI.INT, root).Wait();
            Ring.check(me != root && kept[0] == -9, "Iscatter refused at the root changed rank " + me + ": " + kept[0]);
        } catch (MPIException refused) {
            Ring.check(me == root, "Iscatter refused at a non-root: " + refused.getMessage());
        }
        int[] fromRoot = new int[size];
        for (int r = 0; r < size; r++) {
            fromRoot[r] = 11 * r;
        }
        int[] mineI = {-1};
        world.Iscatter(fromRoot, 0, 1, MPI.INT, mineI, 0, 1, MPI.INT, root).Wait();
        Ring.check(mineI[0] == 11 * me, "Iscatter after a refused one (tags in step): " + mineI[0]);
        // a reduction of objects with a user op whose root has no receive buffer
        Op join = new Op(new User_function() {
            @Override
            public void Call(Object in, int io, Object inout, int ioo, int n, Datatype type) {
                Object[] a = (Object[]) in;
                Object[] b = (Object[]) inout;
                for (int k = 0; k < n; k++) {
                    b[ioo + k] = a[io + k] + "+" + b[ioo + k];
                }
            }
        }, false);
        try {
            world.Reduce(new Object[] {"x" + me}, 0, me == root ? null : new Object[1], 0, 1, MPI.OBJECT, join, root);
            Ring.check(me != root, "Reduce of objects into null was not refused at the root");
        } catch (MPIException refused) {
            Ring.check(me == root, "Reduce refused at a non-root: " + refused.getMessage());
        }
        Object[] names = new Object[size];
        world.Gather(new Object[] {"n" + me}, 0, 1, MPI.OBJECT, names, 0, 1, MPI.OBJECT, root);
        Ring.check(me != root || ("n" + (size - 1)).equals(names[size - 1]), "Gather of objects after a refused Reduce: "
            + Arrays.toString(names));
        // a BOOLEAN buffer with an irregular type on the other side: refused at every rank, naming the call
        MPIException e = expectError("Gather", () -> world.Gather(new boolean[6], 0, 6, MPI.BOOLEAN, new int[6 * size],
            0, 2, ix, 0));
        Ring.check(e.getMessage().contains("not supported"), "says why: " + e.getMessage());
        world.Barrier();
    }

    interface Call {
        void run();
    }

    static MPIException expectError(String call, Call c) {
        try {
            c.run();
        } catch (MPIException e) {
            Ring.check(e.getMessage() != null && e.getMessage().startsWith(call), "error of " + call + " names it: "
                + e.getMessage());
            return e;
        }
        throw new AssertionError("rank " + me + ": " + call + " did not fail");
    }
}
