/* SPDX-License-Identifier: MIT */
/* What the MPI transport costs rank 0 per point: workers send point results
 * of the sweep's sizes (1, 32 and 200 section rows of 21 doubles, plus the
 * fixed part) as fast as they can; rank 0 receives them the way its service
 * thread does (MPI_Iprobe, MPI_Get_count, malloc, MPI_Recv). Prints the
 * receive CPU time per message on rank 0 and the bytes per message; asserts
 * nothing. Run: mpirun -np 3 build/tests/bench_transport (without MPI in the
 * build it says so and exits). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef CONTENSOU_HAVE_MPI
#include <mpi.h>

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0)
      printf("run with mpirun -np 2 or more\n");
    MPI_Finalize();
    return 0;
  }
  const size_t rows[] = {1, 32, 200};
  const int per_worker = 4000;
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
    /* the fixed part (the header with struct cs_point_result) is about 800
     * bytes; then final state and section rows of 21 doubles */
    size_t bytes = 800 + (6 + rows[r] * 21) * sizeof(double);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      long n = (long)per_worker * (size - 1), got = 0;
      double c0 = cpu(), spent = 0;
      while (got < n) {
        int flag = 0, len;
        MPI_Status st;
        double t0 = cpu();
        MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
          continue;
        MPI_Get_count(&st, MPI_BYTE, &len);
        char *buf = malloc((size_t)len);
        MPI_Recv(buf, len, MPI_BYTE, st.MPI_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(buf);
        spent += cpu() - t0;
        got++;
      }
      (void)c0;
      printf("rows_%zu_bytes_per_message = %zu\n", rows[r], bytes);
      printf("rows_%zu_receive_us_per_message = %.2f\n", rows[r], 1e6 * spent / (double)n);
    } else {
      char *buf = calloc(1, bytes);
      for (int i = 0; i < per_worker; i++)
        MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
      free(buf);
    }
  }
  MPI_Finalize();
  return 0;
}

#else

int main(void)
{
  printf("bench_transport: contensou was built without MPI\n");
  return 0;
}

#endif
