/* SPDX-License-Identifier: MIT */
/* A sweep over MPI processes: the transport behind struct cs_sweep_comm
 * (sweep.h), and a sweep into a file run by every process of a communicator
 * (struct cs_sweep_job). One process (rank 0) coordinates: it hands out work
 * units on request, receives every result and is the only one that writes
 * the file (a single writer: see tests/bench/README.md for the measurement
 * behind that choice); the others compute. Requests and results are MPI
 * point-to-point messages served by a thread of rank 0; every process also
 * computes with its OpenMP threads.
 *
 * Two ways in:
 *   - cs_dist_init: the program leaves MPI to contensou. MPI is started
 *     (MPI_Init_thread) only when a launcher (mpirun, mpiexec, srun: seen in
 *     the environment) started the program and nothing initialised MPI yet;
 *     otherwise one process (rank 0 of 1) runs as usual. If the program had
 *     already initialised MPI, its MPI_COMM_WORLD is used as with
 *     cs_dist_init_comm.
 *   - cs_dist_init_comm: a host program that owns MPI (it called
 *     MPI_Init_thread and calls MPI_Finalize) runs the sweep on a
 *     communicator of its own, e.g. one from MPI_Comm_split. contensou
 *     works on a duplicate of it (MPI_Comm_dup: its messages never meet the
 *     host's), with MPI_ERRORS_RETURN on that duplicate.
 * Thread level: the transport calls MPI from several threads, one at a time
 * (a lock), so MPI must provide MPI_THREAD_SERIALIZED or more when the
 * communicator has more than one process; with SERIALIZED the host must not
 * call MPI from another thread while a sweep runs (MULTIPLE lifts that).
 *
 * The library never aborts MPI: a failure is a status (and cs_errmsg()) on
 * every process, and the caller decides. A build without MPI keeps the same
 * functions: one process, and cs_dist_init_comm refuses a communicator
 * (CS_ERR_UNSUPPORTED). */
#ifndef CS_SWEEP_DIST_H
#define CS_SWEEP_DIST_H

#include <signal.h>

#include "core/status.h"
#include "io/config.h"
#include "sweep/sweep.h"
#include "sweep/sweep_h5.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cs_dist {
  int rank, size;            /* this process, of how many (0 of 1 without MPI) */
  int mpi;                   /* 1: MPI is used (a communicator is held) */
  int owns_mpi;              /* 1: cs_dist_init started MPI, cs_dist_finalize ends it */
  struct cs_sweep_comm comm; /* the transport, for cs_sweep_ctl.comm when size > 1 */
  void *state;               /* the transport's state */
};

/* 1 if contensou was built with MPI. */
CS_API int cs_dist_available(void);

/* This process alone, or every process of the launcher's MPI_COMM_WORLD
 * (see above). CS_ERR_UNSUPPORTED when MPI gives too low a thread level;
 * CS_ERR_IO when MPI cannot start. The reason in cs_errmsg(). */
CS_API enum cs_status cs_dist_init(struct cs_dist *d);

/* Every process of the host's communicator mpi_comm (a pointer to an
 * MPI_Comm; NULL: this process alone, without MPI). Collective over that
 * communicator: every process of it calls this. MPI must be initialised
 * (CS_ERR_ARG otherwise) and is never finalised here. CS_ERR_UNSUPPORTED
 * for a thread level below MPI_THREAD_SERIALIZED (more than one process),
 * or for a communicator in a build without MPI (cs_dist_available() = 0). */
CS_API enum cs_status cs_dist_init_comm(struct cs_dist *d, const void *mpi_comm);

/* Frees the duplicate communicator and, if cs_dist_init started MPI, ends
 * it (MPI_Finalize). Collective like the init. */
CS_API enum cs_status cs_dist_finalize(struct cs_dist *d);

/* A sweep into a file over the processes of a struct cs_dist. Every process
 * calls each function with the same arguments; rank 0 alone touches the
 * file; every process returns the same status (the reason in cs_errmsg() on
 * the process that failed; the others say which process failed). A program
 * of its own (error checks left out):
 *
 *   struct cs_dist d;  cs_dist_init(&d);               (or cs_dist_init_comm)
 *   struct cs_sweep_job job;
 *   struct cs_sweep_job_opts o = {.params_file = "run.ini"};
 *   cs_sweep_job_create(&d, "out.h5", &o, &job);       (or cs_sweep_job_resume)
 *   struct cs_sweep_outcome out;
 *   enum cs_status st = cs_sweep_job_run(&d, &job, NULL, NULL, NULL, &out);
 *   cs_sweep_job_finish(&job, st == CS_OK ? &out : NULL);   (writes out.h5)
 *   cs_sweep_outcome_free(&out);  cs_sweep_job_free(&job);  cs_dist_finalize(&d);
 */
struct cs_sweep_job_opts {
  /* create: the parameter file (required) and its overrides ("section.key=value");
   * resume: both optional, and when given they must be the ones the sweep
   * started with (the copies stored in the file are used) */
  const char *params_file;
  const char *const *sets;
  size_t n_set;
  int threads; /* > 0: OpenMP threads per process */
  int argc;    /* the command line stored as provenance (may be 0) */
  char *const *argv;
  const volatile sig_atomic_t *cancel; /* a flag a signal handler sets (may be NULL) */
  /* rank 0 only, each may be NULL; a status other than CS_OK (its message
   * set) stops the job there, nothing written:
   *   check: create: before the file is created, with the loaded parameters
   *          (the command line checks the output name and the sweep's size
   *          against memory and disk); resume: before the file is claimed,
   *          cfg and spec NULL (the command line checks the name);
   *   verify: resume, once the file is claimed and before any of it is read
   *          (the command line verifies it in a child process). */
  enum cs_status (*check)(const char *path, const struct cs_config *cfg,
                          const struct cs_sweep_spec *spec, void *ctx);
  enum cs_status (*verify)(const char *source, void *ctx);
  void *ctx;
};

struct cs_sweep_job {
  char *path;                   /* the output (create: as given, else the parameter
                                   file's [output] file, else output/<name>_sweep.h5) */
  struct cs_config cfg;         /* the parameters (resume: those stored in the file) */
  struct cs_sweep_spec spec;    /* the grid and what each point computes */
  struct cs_sweep_h5 *w;        /* rank 0: the file's writer; NULL on the others */
  struct cs_sweep_prior prior;  /* resume, rank 0: the points finished before */
  struct cs_sweep_h5_info info; /* resume, rank 0: what the file said about itself */
  int resumed;                  /* 1: made by cs_sweep_job_resume */
  int complete;                 /* resume: the file is complete, nothing to run (no cfg) */
  int input_error;              /* after a failure: 1 when it is in the input (the
                                   parameter file, an override, the path, a file that
                                   does not match), which the user can fix */
  int has_cfg, live;            /* internal: cfg loaded; w created or resumed */
};

/* A new sweep of opts->params_file into path (NULL: the parameter file's
 * [output] file, else output/<name>_sweep.h5; job->path says which), with
 * sweep_h5.h's safety rules: path is claimed, its directory made, and the
 * results go to "<path>.partial" until the end. Every process loads the
 * parameter file. CS_ERR_INTERRUPTED when *opts->cancel
 * was set while the file was created (nothing kept). */
CS_API enum cs_status cs_sweep_job_create(struct cs_dist *d, const char *path,
                                          const struct cs_sweep_job_opts *opts,
                                          struct cs_sweep_job *job);

/* Continues the interrupted or killed sweep of path ("<path>.partial", or
 * path itself): rank 0 claims and reads the file, checks it against
 * opts->params_file and opts->sets when given, and sends the stored
 * parameter text and overrides to every process, which loads them; rank 0
 * then loads the finished points (job->prior). A complete file gives CS_OK
 * with job->complete = 1 and nothing to run. */
CS_API enum cs_status cs_sweep_job_resume(struct cs_dist *d, const char *path,
                                          const struct cs_sweep_job_opts *opts,
                                          struct cs_sweep_job *job);

/* Runs the job's sweep (cs_sweep_run_ctl) over d's processes: rank 0 writes
 * every point to the file, flushing at least every CS_SWEEP_H5_FLUSH
 * seconds, then calls sink(sink_ctx, pt) (may be NULL: the file only) once
 * the point is written; ctl (may be NULL) gives cancel and a tick called
 * after the file's own (ctl->prior and ctl->comm are the job's). Every
 * process returns; out->worker = 1 on the processes other than rank 0. */
CS_API enum cs_status cs_sweep_job_run(struct cs_dist *d, struct cs_sweep_job *job,
                                       cs_sweep_sink_fn sink, void *sink_ctx,
                                       const struct cs_sweep_ctl *ctl,
                                       struct cs_sweep_outcome *out);

/* Rank 0: ends the file (cs_sweep_h5_finish: out NULL when the run failed)
 * and forgets the writer; other processes: CS_OK. */
CS_API enum cs_status cs_sweep_job_finish(struct cs_sweep_job *job,
                                          const struct cs_sweep_outcome *out);

/* Frees what the job holds; a file not finished is left as it is on disk
 * (a partial file, resumable). */
CS_API void cs_sweep_job_free(struct cs_sweep_job *job);

#ifdef __cplusplus
}
#endif

#endif
