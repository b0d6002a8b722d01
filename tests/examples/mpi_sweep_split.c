/* SPDX-License-Identifier: MIT */
/* A host program that owns MPI (it initialises and finalises it, as a
 * SUNDIALS or PETSc code on a cluster does) and runs contensou's sweeps on
 * communicators of its own: it splits MPI_COMM_WORLD into two groups,
 *   group 0: every process but the last, which runs the sweep together
 *            into OUT_group.h5 (its rank 0 writes, the others compute);
 *   group 1: the last process alone, which runs the same sweep into
 *            OUT_alone.h5 on a communicator of one process;
 * both at the same time, then talks over MPI_COMM_WORLD again (contensou's
 * messages travel on duplicates of the groups' communicators and never
 * meet the host's). With one process there is only group 0.
 *
 *   mpirun -np N example_mpi_sweep_split PARAMS.ini OUT [section.key=value]...
 *   mpirun -np N example_mpi_sweep_split --thread-single PARAMS.ini OUT ...
 *
 * Output (world rank 0): world = N, group_processes = N - 1, points = P
 * (grid points written by each group, summed over MPI_COMM_WORLD),
 * failed_processes = 0 (also counting a process where cs_dist_init, called
 * after the host initialised MPI, did not take the host's whole world or
 * finalised MPI). With
 * --thread-single the host initialises MPI_THREAD_SINGLE, which a sweep over
 * several processes cannot use: the program prints "refused = <message>"
 * and exits 0 when cs_dist_init_comm refuses it (CS_ERR_UNSUPPORTED), 1
 * otherwise. */
#include <contensou/contensou.h>
#include <mpi.h>

#include <stdio.h>
#include <string.h>

/* Every process of comm runs the sweep into path; returns the points the
 * group's file holds (on the group's rank 0, else 0), or -1. */
static long sweep_on(MPI_Comm comm, const char *params, const char *path, int n_set, char **sets)
{
  struct cs_dist d;
  if (cs_dist_init_comm(&d, &comm) != CS_OK) {
    fprintf(stderr, "cs_dist_init_comm: %s\n", cs_errmsg());
    return -1;
  }
  struct cs_sweep_job_opts opts = {
      .params_file = params, .sets = (const char *const *)sets, .n_set = (size_t)n_set};
  struct cs_sweep_job job;
  struct cs_sweep_outcome out = {0};
  enum cs_status st = cs_sweep_job_create(&d, path, &opts, &job);
  if (st == CS_OK) {
    st = cs_sweep_job_run(&d, &job, NULL, NULL, NULL, &out);
    enum cs_status fst = cs_sweep_job_finish(&job, st == CS_OK ? &out : NULL);
    if (st == CS_OK)
      st = fst;
  }
  long points = st == CS_OK && d.rank == 0 ? (long)out.computed : 0;
  if (st != CS_OK)
    fprintf(stderr, "sweep into %s: %s\n", path, cs_errmsg());
  else if (out.interrupted)
    points = -1;
  cs_sweep_outcome_free(&out);
  cs_sweep_job_free(&job);
  if (cs_dist_finalize(&d) != CS_OK)
    points = -1;
  return points;
}

int main(int argc, char **argv)
{
  int single = argc > 1 && strcmp(argv[1], "--thread-single") == 0;
  if (argc < 3 + single) {
    fprintf(stderr, "usage: %s [--thread-single] PARAMS.ini OUT [section.key=value]...\n", argv[0]);
    return 2;
  }
  const char *params = argv[1 + single], *out = argv[2 + single];
  char **sets = argv + 3 + single;
  int n_set = argc - 3 - single;

  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, single ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (single) { /* the refusal of a thread level the transport cannot use */
    struct cs_dist d;
    enum cs_status st = cs_dist_init_comm(&d, &(MPI_Comm){MPI_COMM_WORLD});
    int refused = st == CS_ERR_UNSUPPORTED;
    if (rank == 0 && refused)
      printf("refused = %s\n", cs_errmsg());
    if (st == CS_OK)
      cs_dist_finalize(&d);
    MPI_Finalize();
    return refused || size == 1 ? 0 : 1;
  }

  int group = size > 1 && rank == size - 1;
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, group, rank, &comm);
  char path[4096];
  snprintf(path, sizeof path, "%s_%s.h5", out, group ? "alone" : "group");
  long points = sweep_on(comm, params, path, n_set, sets);
  int group_size;
  MPI_Comm_size(comm, &group_size);
  MPI_Comm_free(&comm);

  /* cs_dist_init in a program that initialised MPI: the program's world,
   * never a second MPI_Init_thread, and MPI stays up after cs_dist_finalize */
  struct cs_dist w;
  int world_size = 0, owns = 1, finalised = 1;
  if (cs_dist_init(&w) == CS_OK) {
    world_size = w.size;
    owns = w.owns_mpi;
    cs_dist_finalize(&w);
    MPI_Finalized(&finalised);
  }

  /* the host's own traffic on MPI_COMM_WORLD, after contensou's */
  long failed = points < 0 || world_size != size || owns || finalised;
  long mine = points > 0 ? points : 0, total_failed = 0, total_points = 0;
  MPI_Allreduce(&failed, &total_failed, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &total_points, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("world = %d\ngroup_processes = %d\npoints = %ld\nfailed_processes = %ld\n", size,
           group_size, total_points, total_failed);
  MPI_Finalize();
  return total_failed ? 1 : 0;
}
