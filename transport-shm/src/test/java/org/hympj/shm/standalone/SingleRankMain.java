package org.hympj.shm.standalone;

import static org.hympj.shm.testing.Ranks.check;
import static org.hympj.shm.testing.Ranks.checkStatus;
import static org.hympj.shm.testing.Ranks.pass;
import static org.hympj.shm.testing.Ranks.print;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hympj.api.Comm;
import org.hympj.api.Datatype;
import org.hympj.api.Mpj;
import org.hympj.api.PersistentRequest;
import org.hympj.api.Primitive;
import org.hympj.api.Request;
import org.hympj.api.Status;
import org.hympj.shm.ShmMpj;
import org.hympj.shm.job.JobDirectory;
import org.hympj.shm.testing.Mem;

/**
 * A program started with plain {@code java}, no launcher: a job of one rank that talks to
 * itself. Argument: {@code ok} (default), {@code crash} (uncaught exception after init) or
 * {@code exit} (System.exit(5) without closing). Prints {@code JOBDIR <path>} of its job.
 */
public final class SingleRankMain {
    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "ok";
        Path dir;
        try (Mpj mpj = Mpj.init(args)) {
            Comm c = mpj.world();
            check(c.size() == 1 && c.rank() == 0, "a program started alone is rank 0 of 1, was %d of %d", c.rank(),
                c.size());
            dir = JobDirectory.root().resolve(JobDirectory.PREFIX + ((ShmMpj) mpj).config().jobId);
            check(Files.isDirectory(dir), "job directory %s does not exist while running", dir);
            print("JOBDIR " + dir);
            if (mode.equals("crash")) {
                throw new IllegalStateException("deliberate crash of a single rank");
            }
            if (mode.equals("exit")) {
                System.exit(5);
            }
            talkToItself(c);
            pass("single-rank");
        }
        check(!Files.exists(dir), "job directory %s still exists after close", dir);
        pass("removed-at-close");
    }

    static void talkToItself(Comm c) {
        int tag = 0;
        for (int n : new int[] {0, 5, 2048, 2049, 500_000}) {
            for (int kinds = 0; kinds < 4; kinds++) {
                int t = tag++;
                Mem out = Mem.of((kinds & 1) != 0, c, Primitive.DOUBLE, n + 1);
                Mem in = Mem.of((kinds & 2) != 0, c, Primitive.DOUBLE, n + 3);
                out.fill(0, n + 1, 0, t);
                in.fillSentinel(t);
                Request s = c.isend(out.buffer(), 1, n, Datatype.DOUBLE, 0, t);
                Request r = c.irecv(in.buffer(), 1, n, Datatype.DOUBLE, Comm.ANY_SOURCE, Comm.ANY_TAG);
                Request.waitAll(r, s);
                String w = "self-send of " + n + " doubles " + out + " -> " + in;
                checkStatus(r.status(), 0, t, n * 8L, w);
                in.checkRun(1, n, 0, t, 1, w);
                in.checkSentinelOutside(1, 1 + n, t, w);
            }
        }
        int[] x = {1, 2, 3};
        int[] y = new int[3];
        c.send(x, 0, 3, Datatype.INT, 0, 100);
        Status st = c.probe(0, 100);
        check(st.count(Datatype.INT) == 3, "probe: %s", st);
        c.recv(y, 0, 3, Datatype.INT, 0, 100);
        check(y[2] == 3 && c.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG) == null, "recv after probe");
        st = c.sendrecv(x, 0, 3, Datatype.INT, 0, 101, y, 0, 3, Datatype.INT, 0, 101);
        checkStatus(st, 0, 101, 12, "sendrecv with itself");
        PersistentRequest ps = c.sendInit(x, 0, 3, Datatype.INT, 0, 102);
        PersistentRequest pr = c.recvInit(y, 0, 3, Datatype.INT, 0, 102);
        for (int i = 0; i < 10; i++) {
            x[0] = i;
            Request.startAll(pr, ps);
            Request.waitAll(pr, ps);
            check(y[0] == i, "persistent self-send iteration %d: %d", i, y[0]);
        }
        ps.free();
        pr.free();
        c.barrier();
        c.send(x, 0, 3, Datatype.INT, Comm.PROC_NULL, 0);
    }
}
