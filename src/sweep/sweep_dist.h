/* SPDX-License-Identifier: MIT */
/* Distribution of a sweep over MPI processes: the transport behind
 * struct cs_sweep_comm (sweep.h) and the few collective steps a program
 * needs around it. One process (rank 0) coordinates: it hands out work units
 * on request, receives every result and is the only one that writes the
 * file (a single writer: see tests/bench/README.md for the measurement behind
 * that choice); the others compute. Requests and results are MPI point-to-point
 * messages served by a thread of rank 0; every process also computes with
 * its OpenMP threads.
 *
 * MPI is used only when the program was started by a launcher (mpirun,
 * mpiexec, srun: detected from its environment) and contensou was built with
 * MPI; otherwise, and in a build without MPI, everything here is a single
 * process (rank 0 of 1) and the same binary runs as usual. */
#ifndef CS_SWEEP_DIST_H
#define CS_SWEEP_DIST_H

#include "core/status.h"
#include "sweep/sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cs_dist {
  int rank, size;            /* this process, of how many (0 of 1 without MPI) */
  int mpi;                   /* 1: MPI was initialised here */
  struct cs_sweep_comm comm; /* the transport, for cs_sweep_ctl.comm when size > 1 */
  void *state;               /* the transport's state */
};

/* 1 if contensou was built with MPI. */
int cs_dist_available(void);

/* Initialises MPI when started by a launcher (thread support: serialized
 * calls at least). */
enum cs_status cs_dist_init(struct cs_dist *d);

/* Rank 0's decision for everyone: returns rank 0's rc on every process
 * (rc >= 0: stop with that exit status; -1: go on). */
int cs_dist_agree(struct cs_dist *d, int rc);

/* Everyone's decision: if any process has rc >= 0, every process gets the
 * largest such rc; else -1. */
int cs_dist_agree_all(struct cs_dist *d, int rc);

/* Rank 0's string (malloc'ed, may be NULL) to every process: the others get
 * a malloc'ed copy in *text. */
void cs_dist_share_text(struct cs_dist *d, char **text);

/* Ends MPI (if started) and returns rc for convenience. */
int cs_dist_finalize(struct cs_dist *d, int rc);

#ifdef __cplusplus
}
#endif

#endif
