/* SPDX-License-Identifier: MIT */
/* The eps-study file (kind = "eps-study"), the result file of contensou
 * eps-study: the time-series study of analysis/eps.h (cs_eps_study) or the
 * study over a sweep of study/eps_sweep.h (cs_eps_sweep_study). The layout,
 * object by object, is in analysis/eps.h; every dataset and group has a
 * string attribute `doc` (what it holds, its rows and columns), tables have
 * `names` and `units` (one entry per column), 1-D datasets a scalar `units`,
 * every double attribute x has x_units.
 *
 * A program writes it with cs_eps_study_run (study and file in one call, what
 * contensou eps-study calls) and reads it back with cs_read_eps_study; the
 * step-by-step writer is internal (eps_h5_private.h). Nothing here prints. */
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

/* ------------------------------------------------------- a study into its file */

enum cs_eps_study_kind {
  CS_EPS_STUDY_SERIES, /* the time series of analysis/eps.h (cs_eps_study) on [output]'s grid */
  CS_EPS_STUDY_SWEEP   /* cfg's [sweep] per eps (cs_eps_sweep_study, study/eps_sweep.h) */
};

/* What cs_eps_study_run compares; zero-initialise, then set eps, n_eps and
 * the reference. */
struct cs_eps_study_opts {
  enum cs_eps_study_kind kind;
  const double *eps; /* the eps compared, n_eps > 0, each > 0, in the unit of the model's eps */
  size_t n_eps;
  int reference_event_driven;    /* 1: the reference runs with law = event-driven */
  double reference_eps;          /* otherwise the reference's eps, > 0 */
  int threads;                   /* OpenMP threads (0: the default; sweep: [sweep] threads) */
  const struct cs_run_info *run; /* --set overrides and command line for the header; NULL: none */
  /* Optional, from one thread at a time: the time series: the reference's
   * time reached, of [output] t_end; the sweep study: the sweeps done, of
   * n_eps + 1. */
  void (*progress)(void *ctx, double done, double total);
  void *progress_ctx;
};

/* What cs_eps_study_run did; free with cs_eps_study_run_free. */
struct cs_eps_study_run_result {
  int studied; /* 1: the study ran and the file was written as far as it could be: series or
                  sweep holds it (each run's status says whether it succeeded); 0: the input was
                  refused or the study produced nothing: no file */
  struct cs_eps_result series;      /* kind CS_EPS_STUDY_SERIES */
  struct cs_eps_sweep_result sweep; /* kind CS_EPS_STUDY_SWEEP */
  struct cs_sweep_spec sweep_spec;  /* kind CS_EPS_STUDY_SWEEP: the sweep that was run */
};

/* The eps study of cfg's model (opts->kind) into the eps-study file at
 * path, as `contensou eps-study` makes it: every run's parameters checked
 * first (eps in range, the laws exist), the file claimed before the runs
 * (missing directories created, a lock, "<path>.partial"; a second writer
 * is refused at once), the study run, its header and results written and
 * the file renamed over path. A run of the study that fails is not an
 * error: the file records it (status = "failed").
 * Returns CS_OK when the file was written. Otherwise, with the reason in
 * cs_errmsg(): with out->studied = 0, nothing written (path untouched):
 * CS_ERR_RANGE / CS_ERR_PARSE for [output]'s grid or [sweep] keys,
 * CS_ERR_ARG for a sweep over eps itself or without [sweep], the status of a
 * run whose parameters cannot be made (CS_ERR_NOT_FOUND: the model has no eps
 * or no law event-driven, CS_ERR_RANGE: eps outside its range), CS_ERR_IO
 * when the file cannot be created, or the study's own failure (its file
 * removed); with out->studied = 1, the file's write failure (what was
 * flushed before stays in "<path>.partial"). out is always filled (free it
 * even on failure). */
CS_API enum cs_status cs_eps_study_run(const struct cs_config *cfg, const char *path,
                                       const struct cs_eps_study_opts *opts,
                                       struct cs_eps_study_run_result *out);

/* Frees what cs_eps_study_run allocated in r (not r itself); r is zeroed. */
CS_API void cs_eps_study_run_free(struct cs_eps_study_run_result *r);

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
