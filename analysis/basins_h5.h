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

#include "analysis/basins.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_BASINS_H5_LAYOUT 1

struct cs_basins_h5;

/* Claims path (CS_ERR_BUSY if another writer holds it). Without resume:
 * CS_ERR_EXISTS if "<path>.partial" exists (an unfinished run). With resume:
 * reads the finished units of "<path>.partial" (CS_ERR_NOT_FOUND if none;
 * CS_ERR_MISMATCH if its parameter text, overrides, layout or results
 * version differ from cfg / sets), which cs_basins_h5_done then lists. Then
 * creates the partial file (with the prior units) in SWMR mode. */
CS_API enum cs_status cs_basins_h5_create(const char *path, const struct cs_config *cfg,
                                          const char *const *sets, size_t n_set,
                                          const struct cs_basins_spec *spec, int resume, int argc,
                                          char *const *argv, struct cs_basins_h5 **out);

/* The sink for cs_basins_run (ctx = the writer): writes and flushes the unit. */
CS_API int cs_basins_h5_sink(void *ctx, const struct cs_basins_unit *u);

/* Ends the run and frees w: complete (every unit finished): merges into res
 * (may be NULL), writes the final file and removes the partial one;
 * otherwise the partial file stays with status = interrupted (or failed
 * when failed != 0). res gets the merged (possibly partial) result. */
CS_API enum cs_status cs_basins_h5_finish(struct cs_basins_h5 *w, int failed, double wall_time,
                                          struct cs_basins_result *res);

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
