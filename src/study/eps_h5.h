/* SPDX-License-Identifier: MIT */
/* The eps-study file (kind = "eps-study"), the result file of contensou
 * eps-study: the time-series study of analysis/eps.h (cs_eps_study) or the
 * study over a sweep of study/eps_sweep.h (cs_eps_sweep_study). The layout,
 * object by object, is in analysis/eps.h; every dataset and group has a
 * string attribute `doc` (what it holds, its rows and columns), tables have
 * `names` and `units` (one entry per column), 1-D datasets a scalar `units`,
 * every double attribute x has x_units.
 *
 * Two ways to write it:
 * - as the study goes (contensou eps-study: the file is claimed before the
 *   runs, so that a second process writing it is refused at once): create
 *   the file (cs_h5_output_create), cs_eps_h5_create, run the study,
 *   then cs_eps_h5_write_series or cs_eps_h5_write_sweep and
 *   cs_eps_h5_finish; a study that produced nothing ends with
 *   cs_eps_h5_discard;
 * - in one go from a finished study: cs_eps_h5_write_series_file or
 *   cs_eps_h5_write_sweep_file.
 * The cs_writer functions do nothing after a failure and return the first
 * one (w->st, message in w->err). Nothing here prints. */
#ifndef CS_STUDY_EPS_H5_H
#define CS_STUDY_EPS_H5_H

#include <stddef.h>

#include "analysis/eps.h"
#include "analysis/orbit_h5.h"
#include "io/config.h"
#include "io/result.h"
#include "study/eps_sweep.h"
#include "sweep/sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout version of this kind (root attribute layout_version; the
 * reader reads 1 .. this one). Raise it with every change of the layout. */
#define CS_EPS_H5_LAYOUT 2

/* ------------------------------------------------------- read back (io/result.h)
 *
 * Read whole (io/result.h); the struct names its parts. A pointer is NULL
 * when the file lacks the object. */

struct cs_eps_study_file {
  struct cs_result_file all;
  const char *study;                 /* "trajectory" or "sweep" (root attribute study) */
  const char *eps_unit;              /* unit of eps */
  const struct cs_result_table *eps; /* /eps/values: the eps of each run */
  const struct cs_result_table *reference, *norms, *runs; /* trajectory study */
  /* sweep study: /sweep_study/grid, classes, periods, summary, shifts, section, bifurcations */
  const struct cs_result_table *grid, *classes, *periods, *summary, *shifts, *section,
      *bifurcations;
};
CS_API enum cs_status cs_read_eps_study(const char *path, struct cs_eps_study_file *out);
/* /eps/<k>/difference of a trajectory study, or NULL. */
CS_API const struct cs_result_table *cs_eps_study_difference(const struct cs_eps_study_file *e,
                                                             size_t k);
CS_API void cs_eps_study_file_free(struct cs_eps_study_file *e);

#ifdef __cplusplus
}
#endif

#endif
