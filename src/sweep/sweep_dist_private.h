/* SPDX-License-Identifier: MIT */
/* The collective steps of a sweep job (sweep_job.c) over a struct cs_dist:
 * statuses agreed between the processes and a text sent from rank 0. Not
 * installed. Without MPI, or with one process, each returns its input. */
#ifndef CS_SWEEP_DIST_PRIVATE_H
#define CS_SWEEP_DIST_PRIVATE_H

#include "sweep/sweep_dist.h"

/* A status with the flag "the failure is in the input" (struct cs_sweep_job). */
struct cs_dist_verdict {
  enum cs_status st;
  int input;
};

/* Rank 0's verdict for everyone. On another process a failure gets the
 * message "process 0 of N: <status>" (rank 0 has the reason). */
struct cs_dist_verdict cs_dist_i_from_root(struct cs_dist *d, struct cs_dist_verdict v);

/* Everyone's: the verdict of the lowest-ranked process that failed, else CS_OK;
 * the processes that did not fail get the message "process R of N: ...". */
struct cs_dist_verdict cs_dist_i_all(struct cs_dist *d, struct cs_dist_verdict v);

/* Rank 0's string (malloc'ed, may be NULL) to every process: the others get
 * a malloc'ed copy in *text (NULL when rank 0 had none). Collective even
 * when a copy cannot be allocated: that process gets CS_ERR_NOMEM (and the
 * text is received and dropped), the others CS_OK; agree afterwards. */
enum cs_status cs_dist_i_share_text(struct cs_dist *d, char **text);

#endif
