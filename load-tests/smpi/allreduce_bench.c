/*
 * allreduce_bench.c: an osu_allreduce-like latency probe for SimGrid's SMPI, written for fabemu's
 * SMPI comparison (load-tests/run-smpi-comparison.sh).
 *
 * Every rank calls MPI_Allreduce on BYTES bytes of float32 with MPI_SUM: one unmeasured warm-up call,
 * then TIMED measured calls, each preceded by an MPI_Barrier and timed with MPI_Wtime around the call
 * alone. The buffers come from SMPI_SHARED_MALLOC (one physical copy shared by all simulated ranks, so
 * thousands of ranks fit in memory); their contents are garbage and are not checked: only the
 * simulated time matters.
 *
 * Rank 0 prints one machine-readable line:
 *   smpi-allreduce bytes=1048576 ranks=256 calls=3 avg_us=... min_us=... max_us=...
 * avg_us is the mean over all ranks and all timed calls; min_us and max_us are the smallest and largest
 * of the ranks' mean latencies (as osu_allreduce and fabemu report them).
 *
 * Build: smpicc -O2 -o allreduce_bench allreduce_bench.c
 * Run:   smpirun -np P -platform PLATFORM.xml -hostfile HOSTS ./allreduce_bench [BYTES] [TIMED]
 */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_BYTES (1024L * 1024L)
#define DEFAULT_TIMED 3

/* Parses a positive decimal integer; returns -1 when the text is not one. */
static long parse_positive(const char *text) {
  char *end = NULL;
  long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || value <= 0) {
    return -1;
  }
  return value;
}

int main(int argc, char *argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long bytes = argc > 1 ? parse_positive(argv[1]) : DEFAULT_BYTES;
  long timed = argc > 2 ? parse_positive(argv[2]) : DEFAULT_TIMED;
  if (bytes <= 0 || bytes % (long)sizeof(float) != 0 || timed <= 0) {
    if (rank == 0) {
      fprintf(stderr, "allreduce_bench: usage: allreduce_bench [BYTES (a positive multiple of 4)] [TIMED CALLS]\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int count = (int)(bytes / (long)sizeof(float));

  /* Shared buffers: SMPI maps every rank's allocation at this call site onto the same pages. */
  float *send = SMPI_SHARED_MALLOC((size_t)bytes);
  float *recv = SMPI_SHARED_MALLOC((size_t)bytes);

  /* Warm-up call, not measured. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);

  /* Timed calls: a barrier lines the ranks up, then only the allreduce is timed. */
  double total = 0.0;
  for (long i = 0; i < timed; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    total += MPI_Wtime() - start;
  }
  double mine = total / (double)timed; /* this rank's mean latency, seconds */

  double sum = 0.0;
  double lowest = 0.0;
  double highest = 0.0;
  MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine, &lowest, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine, &highest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("smpi-allreduce bytes=%ld ranks=%d calls=%ld avg_us=%.3f min_us=%.3f max_us=%.3f\n", bytes, size, timed,
           sum / size * 1e6, lowest * 1e6, highest * 1e6);
    fflush(stdout);
  }

  SMPI_SHARED_FREE(send);
  SMPI_SHARED_FREE(recv);
  MPI_Finalize();
  return 0;
}
