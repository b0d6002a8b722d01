/* SPDX-License-Identifier: MIT */
/* The eps study over a sweep (the time-series study and the HDF5 layout of
 * contensou eps-study: analysis/eps.h). Runs sweeps only through
 * cs_sweep_run; nothing here prints or writes files.
 *
 * Sweep study (cs_eps_sweep_study). The sweep spec is run once per eps and
 * once for the reference; for every eps it is compared with the reference:
 * - classes: grid points (per pass) whose class or period differ;
 * - section points: at grid points periodic with the same period k in both
 *   (or equilibria in both), the last k section points (the cycle; the
 *   settled state for equilibria) of the eps run are aligned with the
 *   reference's by the cyclic shift that minimises the sum of squared
 *   differences (each state scaled by its range over the reference's cycles
 *   of that pass, 1 when that range is 0), then max |difference| per state
 *   over the cycle (angles wrapped);
 * - bifurcations: each reference bifurcation is matched with the nearest one
 *   of the same kind and pass of the eps sweep (position: the estimate, else
 *   the middle of the bracket); shift = p_eps - p_ref (NaN: no match).
 */
#ifndef CS_STUDY_EPS_SWEEP_H
#define CS_STUDY_EPS_SWEEP_H

#include <stddef.h>

#include "analysis/eps.h"
#include "sweep/sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ sweep study */

struct cs_eps_sweep_spec {
  const double *eps; /* the eps values compared, n_eps > 0 */
  size_t n_eps;
  int reference_event_driven;
  double reference_eps;
  const struct cs_sweep_spec *sweep; /* the sweep run for each eps (its parameter is not eps) */
  /* Optional: called before each sweep (run 0: the reference, k + 1: eps k). */
  void (*progress)(void *ctx, size_t run, size_t n_runs);
  void *progress_ctx;
};

/* One compared grid point. */
struct cs_eps_sweep_point {
  int pass;
  size_t index;
  double p;     /* the parameter value */
  int period;   /* the common period (0: equilibrium) */
  double *diff; /* n_state max |difference| after alignment */
};

/* One matched reference bifurcation. */
struct cs_eps_shift {
  int pass;
  enum cs_bifurcation_kind kind;
  double p_ref, p_eps, shift; /* p_eps, shift NaN when unmatched */
};

/* One sweep of the study and, for an eps run, its comparison. */
struct cs_eps_sweep_run {
  double eps; /* NaN: event-driven */
  int event_driven;
  enum cs_status status; /* CS_OK, or why the sweep did not run */
  char message[512];
  struct cs_sweep_outcome outcome; /* records per pass, detected bifurcations */
  double *cycle[2];                /* per pass: npoints x max_period x n_state (the last cycle) */
  int *cycle_len[2];               /* per pass: rows of the cycle per grid point (0: none) */
  /* comparison with the reference (eps runs only) */
  size_t compared;         /* grid points (both passes) done in both */
  size_t class_mismatches; /* of those, class or period differ */
  struct cs_eps_sweep_point *points;
  size_t n_points;
  double *section_max; /* n_state: max over points, NaN when none */
  struct cs_eps_shift *shifts;
  size_t n_shifts; /* = reference bifurcations */
  size_t matched;
  double shift_max; /* max |shift| of the matched ones, NaN when none */
};

struct cs_eps_sweep_result {
  size_t n_state, npoints, n_eps;
  int passes[2]; /* pass present */
  struct cs_eps_sweep_run reference;
  struct cs_eps_sweep_run *runs; /* n_eps */
  double wall_time;
};

/* Runs spec->sweep for the reference and for each eps and compares them.
 * CS_OK when the study ran (each run's status says whether its sweep did);
 * CS_ERR_ARG (the sweep's parameter is eps, bad arguments), CS_ERR_NOMEM.
 * out must be freed with cs_eps_sweep_result_free in every case. */
CS_API enum cs_status cs_eps_sweep_study(const struct cs_model *m, const void *base_params,
                                         const double *y0, const struct cs_eps_sweep_spec *spec,
                                         struct cs_eps_sweep_result *out);
CS_API void cs_eps_sweep_result_free(struct cs_eps_sweep_result *r);

#ifdef __cplusplus
}
#endif

#endif
