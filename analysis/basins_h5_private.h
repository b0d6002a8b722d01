/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/basins_h5.h. */
#ifndef CS_ANALYSIS_BASINS_H5_PRIVATE_H
#define CS_ANALYSIS_BASINS_H5_PRIVATE_H

#include "analysis/basins_h5.h"

/* The writer steps cs_basins_file_run takes (and tests take one by one). */

/* Claims path (CS_ERR_BUSY if another writer holds it). Without resume:
 * CS_ERR_EXISTS if "<path>.partial" exists (an unfinished run). With resume:
 * reads the finished units of "<path>.partial" (CS_ERR_NOT_FOUND if none;
 * CS_ERR_MISMATCH if its parameter text, overrides, layout or results
 * version differ from cfg / sets), which cs_basins_h5_done then lists. Then
 * creates the partial file (with the prior units) in SWMR mode. */
/* The sink of a basins run into its file (cs_basins_file_run, and over MPI
 * processes rank 0's): writes each finished unit, then calls opts->progress
 * with the cells on disk; its nonzero stops the run, the unit being safe. */
struct cs_basins_file_sink {
  struct cs_basins_h5 *w;
  const struct cs_basins_file_opts *opts;
  size_t n_cells;
};
int cs_basins_file_sink(void *ctx, const struct cs_basins_unit *u);

struct cs_h5;
/* The header checks of a resume of a basins map or of basins along a
 * parameter: the file's kind (else not_kind_st, "PATH: not_kind"), layout
 * and results version, parameter text and --set overrides. */
enum cs_status cs_basins_h5_check_resume(struct cs_h5 *f, const char *path, const char *kind_want,
                                         const char *not_kind, enum cs_status not_kind_st,
                                         size_t layout_want, const struct cs_config *cfg,
                                         const char *const *sets, size_t n_set);

enum cs_status cs_basins_h5_create(const char *path, const struct cs_config *cfg,
                                   const char *const *sets, size_t n_set,
                                   const struct cs_basins_spec *spec, int resume, int argc,
                                   char *const *argv, struct cs_basins_h5 **out);

/* The sink for cs_basins_run (ctx = the writer): writes and flushes the unit. */
int cs_basins_h5_sink(void *ctx, const struct cs_basins_unit *u);

/* Ends the run and frees w: complete (every unit finished): merges into res
 * (may be NULL), writes the final file and removes the partial one;
 * otherwise the partial file stays with status = interrupted (or failed
 * when failed != 0). res gets the merged (possibly partial) result. */
enum cs_status cs_basins_h5_finish(struct cs_basins_h5 *w, int failed, double wall_time,
                                   struct cs_basins_result *res);

/* Per unit: 1 finished (by a previous run); NULL-safe count in *prior. */
const unsigned char *cs_basins_h5_done(const struct cs_basins_h5 *w, size_t *prior);

/* Units finished (prior and this run's) and cells in them. */
size_t cs_basins_h5_units(const struct cs_basins_h5 *w);

size_t cs_basins_h5_cells(const struct cs_basins_h5 *w);

const char *cs_basins_h5_partial(const struct cs_basins_h5 *w);

/* Reads path (the final file, or a "<path>.partial" file as it is on disk).
 * CS_ERR_PARSE if it is not a basins file. */
enum cs_status cs_basins_h5_summary(const char *path, struct cs_basins_summary *out);

#endif
