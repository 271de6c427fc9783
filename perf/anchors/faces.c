/* Halo-face ping-pong between rank 0 and rank 1 (own code), timed as pingpong.c: per N a
 * warm-up batch and 5 timed batches with a barrier before each, value = median batch of half
 * round trips in us. Each rank holds N^3 doubles; a round trip sends one face of it as a
 * derived datatype (the faces of halo3d.c) and receives the peer's into a contiguous ghost of
 * N^2 doubles:  j  MPI_Type_vector(N, N, N*N)   (blocks of N doubles, a block-stride face)
 *               k  MPI_Type_vector(N*N, 1, N)   (single doubles N apart, an element-stride face)
 * usage: faces <j|k> <rep> <N>...
 * prints CSV: system,test,variant,N,rep,value,unit  (test face-j / face-k, value us).        */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBATCH 5
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double median(double *v, int n) { qsort(v, n, sizeof(double), cmpd); return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }

/* pingpong.c's counts, by the bytes of the face */
static void iters_for(long size, int *warm, int *iters) {
    if (size <= 8192)        { *warm = 5000; *iters = 50000; }
    else if (size <= 65536)  { *warm = 200;  *iters = 5000;  }
    else if (size <= 1048576){ *warm = 50;   *iters = 1000;  }
    else                     { *warm = 10;   *iters = 200;   }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 4 || np != 2 || (strcmp(argv[1], "j") && strcmp(argv[1], "k"))) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 faces j|k rep N...\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int kface = strcmp(argv[1], "k") == 0;
    int rep = atoi(argv[2]);
    const char *variant = getenv("ANCHOR_VARIANT") ? getenv("ANCHOR_VARIANT") : "default";
    int peer = 1 - rank;
    for (int a = 3; a < argc; a++) {
        long n = atol(argv[a]), n2 = n * n, n3 = n2 * n;
        double *b = malloc(n3 * sizeof(double)), *ghost = malloc(n2 * sizeof(double));
        for (long x = 0; x < n3; x++) b[x] = rank + x * 1e-9;
        for (long x = 0; x < n2; x++) ghost[x] = -1;
        MPI_Datatype face;
        if (kface) MPI_Type_vector((int)n2, 1, (int)n, MPI_DOUBLE, &face);
        else       MPI_Type_vector((int)n, (int)n, (int)n2, MPI_DOUBLE, &face);
        MPI_Type_commit(&face);
        int warm, iters;
        iters_for(n2 * 8, &warm, &iters);
        int per = iters / NBATCH;
        double bt[NBATCH];
        for (int bch = -1; bch < NBATCH; bch++) {      /* batch -1 = warm-up */
            int k = bch < 0 ? warm : per;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < k; i++) {
                if (rank == 0) {
                    MPI_Send(b, 1, face, peer, 1, MPI_COMM_WORLD);
                    MPI_Recv(ghost, (int)n2, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(ghost, (int)n2, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(b, 1, face, peer, 1, MPI_COMM_WORLD);
                }
            }
            if (bch >= 0) bt[bch] = (MPI_Wtime() - t0) * 1e6 / (2.0 * per);
        }
        /* sanity check: the last ghost element is the peer's last face element */
        long last = kface ? (n2 - 1) * n : (n - 1) * n2 + n - 1;
        if (ghost[n2 - 1] != peer + last * 1e-9) {
            fprintf(stderr, "faces: data check FAILED for N=%ld\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (rank == 0) {
            printf("openmpi-c,face-%s,%s,%ld,%d,%.3f,us\n", kface ? "k" : "j", variant, n, rep, median(bt, NBATCH));
            fflush(stdout);
        }
        MPI_Type_free(&face);
        free(b); free(ghost);
    }
    MPI_Finalize();
    return 0;
}
