package mpijava;

import mpi.MPI;
import mpi.Status;

/**
 * Master–worker with ANY_SOURCE: rank 0 hands out tasks 0..T-1 one at a time to whichever
 * worker answers first; a worker returns {task, task*task}. The master checks that every task
 * came back exactly once with the right result. With one rank the master does the work itself.
 */
public class MasterWorker {
    static final int WORK = 1;
    static final int RESULT = 2;
    static final int STOP = 3;
    static final int TASKS = 40;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        if (me == 0) {
            master(size);
        } else {
            worker();
        }
        System.out.println("PASS master-worker");
        MPI.Finalize();
        System.out.println("finalize");
    }

    static void master(int size) {
        long[] results = new long[TASKS];
        boolean[] seen = new boolean[TASKS];
        int[] perWorker = new int[size];
        if (size == 1) {
            for (int t = 0; t < TASKS; t++) {
                results[t] = (long) t * t;
                seen[t] = true;
            }
        } else {
            int next = 0;
            int busy = 0;
            for (int w = 1; w < size && next < TASKS; w++) {
                MPI.COMM_WORLD.Send(new int[] {next++}, 0, 1, MPI.INT, w, WORK);
                busy++;
            }
            long[] answer = new long[2];
            while (busy > 0) {
                Status s = MPI.COMM_WORLD.Recv(answer, 0, 2, MPI.LONG, MPI.ANY_SOURCE, RESULT);
                busy--;
                int task = (int) answer[0];
                Ring.check(!seen[task], "task " + task + " came back twice");
                seen[task] = true;
                results[task] = answer[1];
                perWorker[s.source]++;
                if (next < TASKS) {
                    MPI.COMM_WORLD.Send(new int[] {next++}, 0, 1, MPI.INT, s.source, WORK);
                    busy++;
                }
            }
            for (int w = 1; w < size; w++) {
                MPI.COMM_WORLD.Send(new int[0], 0, 0, MPI.INT, w, STOP);
            }
        }
        for (int t = 0; t < TASKS; t++) {
            Ring.check(seen[t] && results[t] == (long) t * t, "task " + t + ": " + results[t]);
        }
        System.out.println("tasks per worker " + java.util.Arrays.toString(perWorker));
    }

    static void worker() {
        int[] task = new int[1];
        while (true) {
            Status s = MPI.COMM_WORLD.Recv(task, 0, 1, MPI.INT, 0, MPI.ANY_TAG);
            if (s.tag == STOP) {
                Ring.check(s.Get_count(MPI.INT) == 0, "STOP carries no data");
                return;
            }
            long t = task[0];
            MPI.COMM_WORLD.Send(new long[] {t, t * t}, 0, 2, MPI.LONG, 0, RESULT);
        }
    }
}
