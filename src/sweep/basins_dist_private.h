/* SPDX-License-Identifier: MIT */
/* Basins of attraction over the processes of a struct cs_dist (sweep_dist.h):
 * `mpirun -np N contensou basins`. Not installed: the command line's, and a
 * candidate for the public API beside cs_sweep_job once a program needs it.
 * Here rather than in analysis/ because the transport is the sweep's (a
 * higher layer than analysis). */
#ifndef CS_SWEEP_BASINS_DIST_PRIVATE_H
#define CS_SWEEP_BASINS_DIST_PRIVATE_H

#include "analysis/basins_h5.h"
#include "sweep/sweep_dist.h"

/* cs_basins_file_run over the processes of d. Every process calls it with
 * the same cfg (loaded from the same file and overrides), spec, path and
 * opts. Rank 0 claims, resumes and writes the file and hands out the work
 * units not finished (the next one to whichever thread of any process asks
 * first); every process computes units with its spec->threads OpenMP
 * threads, and the others send each finished unit whole (cells and its own
 * catalogue) to rank 0, which writes it as its own. A unit's result depends
 * on the unit alone and the file is merged canonically at the end
 * (basins.h), so its datasets are those of one process, bit for bit.
 * opts->cancel stops every process (Open MPI passes mpirun's SIGTERM and
 * SIGINT on to every rank); a failure on any process stops the run, every
 * finished unit kept, with the reason ("process R of N: ...") on rank 0.
 * opts->progress is called on rank 0 only.
 *
 * out is filled on rank 0 as by cs_basins_file_run; on the other processes
 * only out->opened (rank 0 opened the file) and out->stopped (this process
 * saw a stop). Rank 0 returns cs_basins_file_run's status; the others CS_OK,
 * or their own failure, or rank 0's refusal to open the file. d NULL or of
 * one process: cs_basins_file_run itself. */
enum cs_status cs_basins_file_run_dist(struct cs_dist *d, const struct cs_config *cfg,
                                       const struct cs_basins_spec *spec, const char *path,
                                       const struct cs_basins_file_opts *opts,
                                       struct cs_basins_file_result *out);

/* The message a process other than rank 0 sends for one finished unit, and
 * rank 0's reading of it (exposed for the tests: a round trip must give the
 * unit back bit for bit). pack: a malloc'ed buffer and its length in *len
 * (NULL when out of memory); unpack: CS_ERR_PARSE for a message that is not
 * a unit of spec's grid with n_state states. */
void *cs_basins_dist_pack(const struct cs_basins_unit *u, size_t n_state, size_t *len);
enum cs_status cs_basins_dist_unpack(const void *buf, size_t len, size_t n_state,
                                     const struct cs_basins_spec *spec, struct cs_basins_unit *u);

#endif
