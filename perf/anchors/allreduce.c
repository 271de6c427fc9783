/* MPI_Allreduce latency (own code), timed as pingpong.c: warm-up, 5 batches with a barrier
 * before each, median batch.
 * usage: allreduce <rep> <size>...        (size in bytes of MPI_DOUBLE data, op MPI_SUM)
 * prints CSV: system,test,variant,size_bytes,rep,value,unit   (value = us per MPI_Allreduce,
 * rank 0's batch time / iterations). The variant label is taken from env ANCHOR_VARIANT.     */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NBATCH 5
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double median(double *v, int n) { qsort(v, n, sizeof(double), cmpd); return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }

/* the same counts as Collective.allreduceIters in perf/src/main/java/org/hympj/perf/Collective.java */
static void iters_for(long size, int *warm, int *iters) {
    if (size <= 8192)        { *warm = 2000; *iters = 20000; }
    else if (size <= 65536)  { *warm = 200;  *iters = 2000;  }
    else if (size <= 1048576){ *warm = 20;   *iters = 200;   }
    else                     { *warm = 5;    *iters = 50;    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 3) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np N allreduce rep size...\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int rep = atoi(argv[1]);
    const char *variant = getenv("ANCHOR_VARIANT") ? getenv("ANCHOR_VARIANT") : "default";
    long maxsz = 8;
    for (int a = 2; a < argc; a++) { long s = atol(argv[a]); if (s > maxsz) maxsz = s; }
    long maxn = maxsz / 8;
    double *in = malloc(maxn * sizeof(double)), *out = malloc(maxn * sizeof(double));
    for (long i = 0; i < maxn; i++) { in[i] = rank + i * 1e-3; out[i] = 0; }

    for (int a = 2; a < argc; a++) {
        long size = atol(argv[a]);
        int n = (int)(size / 8);
        int warm, iters;
        iters_for(size, &warm, &iters);
        double bt[NBATCH];
        int per = iters / NBATCH;
        for (int bch = -1; bch < NBATCH; bch++) {      /* batch -1 = warm-up */
            int k = bch < 0 ? warm : per;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < k; i++) {
                MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            }
            if (bch >= 0) bt[bch] = (MPI_Wtime() - t0) * 1e6 / per;
        }
        double t = median(bt, NBATCH);
        if (rank == 0) {
            printf("openmpi-c,allreduce,%s,%ld,%d,%.3f,us\n", variant, size, rep, t);
            fflush(stdout);
        }
    }
    free(in); free(out);
    MPI_Finalize();
    return 0;
}
