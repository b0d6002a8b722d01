/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): basins along a
 * parameter, or over a plane of two parameters, into their file (kind
 * "basins-along"), as `contensou basins` with [sweep] runs them.
 *
 * The file, layout 1.
 *   /            attrs: kind = "basins-along", layout_version, results_version,
 *                the run header (io/run_h5.h), resumed, parameter,
 *                parameter_unit (parameter2, parameter2_unit for a plane),
 *                cells_per_value, dimensions (1 | 2); at the end: values,
 *                wall_time
 *   along a parameter (dimensions 1):
 *   /along/values, /along/fraction, /along/fraction_err, /along/period_time
 *                (rows: values, columns: the followed attractors a<id>),
 *   /along/attractors (id, class, period, born, died),
 *   /along/multistability (attractors, failed per value)
 *   over a plane (dimensions 2, [sweep] parameter2, from2, to2, points2):
 *   /plane/values1, /plane/values2   the two parameters' values
 *   /plane/count     points2 x points int32: attractors found per cell (row j:
 *                    values2[j], column i: values1[i])
 *   /plane/failed    points2 x points int32: failed initial states per cell
 *   /plane/attractors  one row per attractor per cell (by columns): cell, i, j,
 *                    id (canonical within the cell), class, period,
 *                    period_time, lyapunov, cells, fraction, fraction_err
 * Every dataset has `doc` and `units`.
 *
 * Safety, as for the basin map (analysis/basins_h5.h): a lock on path, the
 * results in "<path>.partial" (SWMR), one parameter value (a plane's cell) the
 * unit of work: its attractors (class, period, period time, exponent, cells,
 * points) flushed when the value is done, so kill -9 keeps every finished
 * value. A resume reads them back, writes them into a fresh partial file and
 * computes the others; the attractors are followed from value to value only
 * when all are done, from what is on disk, so the final file is the
 * uninterrupted run's. */
#ifndef CS_ANALYSIS_BASINS_ALONG_PRIVATE_H
#define CS_ANALYSIS_BASINS_ALONG_PRIVATE_H

#include <signal.h>

#include "analysis/basins.h"
#include "analysis/orbit_h5.h"
#include "io/config.h"

#define CS_BASINS_ALONG_H5_LAYOUT 1

/* The parameter values: along param (n1 values v1), or over the plane of
 * param and param2 (n1 x n2 cells; cell k at v1[k % n1], v2[k / n1]). */
struct cs_basins_grid {
  int param, param2; /* parameter indices of the model; param2 -1: along one */
  size_t n1, n2;     /* n2 0 along one */
  const double *v1, *v2;
};

struct cs_basins_along_file_opts {
  int resume;                          /* continue the unfinished run of "<path>.partial" */
  const struct cs_run_info *run;       /* overrides and command line; NULL: none */
  const volatile sig_atomic_t *cancel; /* nonzero: stop soon, keeping finished values */
  /* Called once before the run (the values of a resumed run on disk) and
   * after each value is on disk: values on disk, of n. Nonzero stops. */
  int (*progress)(void *ctx, size_t values_on_disk, size_t n_values);
  void *progress_ctx;
};

struct cs_basins_along_file_result {
  int opened;                   /* 1: path claimed, "<path>.partial" created; 0: refused */
  int run_failed;               /* the computation failed (else a failure is the file's) */
  int stopped;                  /* stopped early: finished values kept */
  size_t values_on_disk;        /* finished values on disk at the end */
  size_t resumed_values;        /* values read back from "<path>.partial" */
  int plane;                    /* 1: two parameters (values2 set, nothing followed) */
  double *values2;              /* plane: the second parameter of each cell */
  struct cs_basins_along along; /* complete: the result (plane: values, n_attr, failed) */
};

void cs_basins_along_file_result_free(struct cs_basins_along_file_result *r);

/* The basins of spec at every value of g into the file at path, with the partial-file protocol
 * above. Returns CS_OK when nothing failed (out->stopped: complete or not); CS_ERR_BUSY,
 * CS_ERR_EXISTS, CS_ERR_NOT_FOUND, CS_ERR_MISMATCH when the path is refused (out->opened = 0); else
 * the failure, reason in cs_errmsg(). */
enum cs_status cs_basins_along_file_run(const struct cs_config *cfg,
                                        const struct cs_basins_spec *spec,
                                        const struct cs_basins_grid *g, const char *path,
                                        const struct cs_basins_along_file_opts *opts,
                                        struct cs_basins_along_file_result *out);

/* The distance between two attractors of the same class and period in
 * units of the state scales (the rule of the following, analysis/basins.h). */
double cs_basins_attr_distance(const struct cs_model *m, const struct cs_basins_spec *spec,
                               const struct cs_basins_attractor *a,
                               const struct cs_basins_attractor *b);

#endif
