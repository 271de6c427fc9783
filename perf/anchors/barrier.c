/* MPI_Barrier latency (own code), timed as pingpong.c: warm-up, 5 batches with a barrier
 * before each, median batch.
 * usage: barrier <rep>
 * prints CSV: system,test,variant,np,rep,value,unit   (the size column holds the rank count;
 * value = us per MPI_Barrier, rank 0's batch time / iterations). Variant from env ANCHOR_VARIANT. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NBATCH 5
#define WARM 2000      /* the same counts as Collective.BARRIER_ITERS in the HyMPJ rank program */
#define ITERS 20000
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double median(double *v, int n) { qsort(v, n, sizeof(double), cmpd); return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np N barrier rep\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int rep = atoi(argv[1]);
    const char *variant = getenv("ANCHOR_VARIANT") ? getenv("ANCHOR_VARIANT") : "default";
    double bt[NBATCH];
    int per = ITERS / NBATCH;
    for (int bch = -1; bch < NBATCH; bch++) {          /* batch -1 = warm-up */
        int k = bch < 0 ? WARM : per;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < k; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (bch >= 0) bt[bch] = (MPI_Wtime() - t0) * 1e6 / per;
    }
    double t = median(bt, NBATCH);
    if (rank == 0) {
        printf("openmpi-c,barrier,%s,%d,%d,%.3f,us\n", variant, np, rep, t);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
