/* SPDX-License-Identifier: MIT */
/* The basins file, layout 1.
 *
 *   /                  attrs: kind = "basins", layout_version, results_version,
 *                      the run header (io/run_h5.h: model, params_text,
 *                      overrides, provenance, status, ...), resumed; at the
 *                      end: attractors, cells, failed_cells, sensitivity,
 *                      wall_time, rhs_evals
 *   /basins            attrs: the spec (mode, x, y, ranges, nx, ny, sample,
 *                      seed, chunk, radius, transient, record, early)
 *   /cells             per cell, stored by columns: index, i, j (grid),
 *                      attractor (int32: the id, -1 failed), settle_time,
 *                      rhs_evals, early
 *   /initial_states    per cell, its initial state (names, units)
 *   /map               grid: ny x nx int32 attractor ids (row j: y_j)
 *   /attractors        per attractor, stored by columns: id, class, period,
 *                      period_time, lyapunov, lyapunov_err, cells, fraction,
 *                      fraction_err, n_points, first_point
 *   /points/values     the attractors' points (equilibrium: its state;
 *                      periodic: one cycle's section points; others: section
 *                      points), names and units of the states
 *   /points/attractor  the id of each row of values
 * Every dataset has `doc` and `units`.
 *
 * Safety, as for sweeps (io/h5.h): a lock on path, the results in
 * "<path>.partial" (SWMR: consistent at any moment, every finished work unit
 * flushed when it finishes, so kill -9 keeps all finished units), the final
 * file written beside it and renamed over path. A resume reads the finished
 * units (their cells and their own catalogues) from the partial file,
 * writes them into a fresh partial file and goes on; the merged result is
 * the uninterrupted run's (analysis/basins.h). */
#ifndef CS_ANALYSIS_BASINS_H5_H
#define CS_ANALYSIS_BASINS_H5_H

#include <signal.h>

#include "analysis/basins.h"
#include "analysis/orbit_h5.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_BASINS_H5_LAYOUT 1

struct cs_basins_h5;

/* What cs_basins_file_run does besides the run; zero-initialise, every field
 * optional. */
struct cs_basins_file_opts {
  int resume;                    /* continue the unfinished run of "<path>.partial" */
  const struct cs_run_info *run; /* --set overrides and command line for the header; NULL: none */
  const volatile sig_atomic_t *cancel; /* nonzero: stop soon, keeping every finished unit */
  /* Called once before the run (the cells of a resumed run already on disk)
   * and after each unit is on disk, one call at a time: cells on disk, of
   * n_cells. Nonzero stops the run as cancel does. */
  int (*progress)(void *ctx, size_t cells_on_disk, size_t n_cells);
  void *progress_ctx;
};

/* How a cs_basins_file_run went; free basins with cs_basins_result_free. */
struct cs_basins_file_result {
  int opened;           /* 1: path was claimed and "<path>.partial" created; 0: refused, nothing
                           written (an existing or mismatching file, a busy path) */
  int run_failed;       /* 1: the computation failed; 0: a failure is the file's */
  int stopped;          /* the run stopped early (cancel, progress): finished units kept */
  size_t cells_on_disk; /* cells finished and on disk at the end (a resumed run's included) */
  size_t resumed_units; /* units read back from "<path>.partial" (resume) */
  double wall_time;     /* s, of this run */
  struct cs_basins_result basins; /* the merged (possibly partial) result */
};

/* The basins of spec (from cfg's [basins], cs_basins_spec_from_config) at
 * cfg's parameters, into the basins file at path, as `contensou basins`
 * runs them: the file claimed (CS_ERR_BUSY if another writer holds it;
 * without resume CS_ERR_EXISTS if "<path>.partial" exists; with resume its
 * finished units read back, CS_ERR_NOT_FOUND if none, CS_ERR_MISMATCH if its
 * parameter text, overrides, layout or results version differ), every
 * finished unit flushed to "<path>.partial" as it finishes, and when all are
 * done the final file written and renamed over path. A run that stops early
 * (opts->cancel, opts->progress) or fails keeps every finished unit in
 * "<path>.partial" (status interrupted or failed) for a resume. opts may be
 * NULL; out is always filled (free out->basins even on failure).
 * Returns CS_OK when the run ended without failure (out->stopped says whether
 * it was complete), else the failure with its reason in cs_errmsg(). */
CS_API enum cs_status cs_basins_file_run(const struct cs_config *cfg,
                                         const struct cs_basins_spec *spec, const char *path,
                                         const struct cs_basins_file_opts *opts,
                                         struct cs_basins_file_result *out);

/* What a basins file says about itself (contensou info). */
struct cs_basins_summary {
  int complete; /* 1: the final file; 0: a partial one (units so far) */
  size_t cells, units_done;
  size_t n_attr;
  int cls[64], period[64];
  double period_time[64], lyapunov[64], fraction[64], fraction_err[64];
  double sensitivity; /* NAN if none */
  double wall_time;   /* s, NAN if none */
  long long rhs_evals;
  char mode[16];
};

#ifdef __cplusplus
}
#endif

#endif
