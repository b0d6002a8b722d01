/* SPDX-License-Identifier: MIT */
/* The eps study: how the solution of a regularized friction model depends on
 * its smoothing parameter eps (Kudra & Awrejcewicz, Acta Mech. 2016, §4 and
 * figure 9: the solutions for eps = 1e-1, 1e-2, 1e-3 minus the eps = 1e-4
 * solution). Knows models only through struct cs_model, runs them only
 * through cs_flow (so an event-driven reference, law = event-driven, switches
 * its modes); nothing here prints or
 * writes files (contensou eps-study, src/cli/cli_eps_study.c, does).
 *
 * Runs. Every run (the reference and one per eps) gets its own copy of the
 * base params (cs_eps_make_params: eps set by name, law = event-driven for an
 * event-driven reference, prepare, then attach) and its own cs_flow; runs are
 * independent and go in parallel (OpenMP), so results do not depend on the
 * thread count. Pass the base params as they were before prepare()
 * (cs_config's params_unprepared): fields derived in prepare (lambda_stick =
 * eps, eta' from eta, the law's fitted b and m) are then derived again for
 * each run from that run's eps and law.
 *
 * Time series (cs_eps_study). Every run starts at t = 0 from y0 and is
 * recorded on one time grid (the dense output of the integrator at the grid
 * times; the part before the first grid time is crossed in steps of the grid
 * step, as in contensou simulate). For each eps the difference run -
 * reference is formed at every grid time for every state and derived output;
 * differences of angles (state or derived outputs marked angle) are wrapped
 * into (-pi, pi] (a whole turn is no difference of position). Norms of each
 * difference over the window, taken over the grid samples where the
 * difference is finite (a failed run compares the rows it reached):
 *   max        max |d|            rms        sqrt(mean d^2)
 *   max_stick  max |d| over the samples where the REFERENCE is in stick,
 *   max_slip   ... in slip,       rms_stick, rms_slip   the same for rms
 * Stick is the reference run's stick indicator (model->stick_output derived
 * column > 0.5) at the grid time; NaN where a phase has no sample or the
 * model has no indicator. So max = max(max_stick, max_slip) and max >= rms.
 * A run that fails is recorded (status, message, the rows it reached) and the
 * study goes on.
 *
 * Sweep study: study/eps_sweep.h (it runs sweeps, so it sits above them).
 *
 * HDF5 layout of contensou eps-study (kind = "eps-study", written by
 * study/eps_h5.h; every double attribute x has x_units; tables of doubles
 * have names and units attributes, one entry per column, /eps/values a
 * scalar units; the tables marked [columns] are stored by columns (io/h5.h:
 * a group of typed datasets, codes and counts int32 or int64); every dataset
 * and group has a doc attribute saying what it holds):
 *   /                 the common header (io/run_h5.h: kind, model, law, params
 *                     text, overrides, provenance, status, message, /params of
 *                     the file, /initial, /solver) and study = "time-series" |
 *                     "sweep", reference = "eps" | "event-driven",
 *                     reference_eps (NaN for event-driven), eps_unit
 *   /eps/values       the eps values compared, in the order given (unit of eps)
 *   time series:
 *   /reference        t, states, the real derived outputs of the reference
 *                     run (float64 only); attributes eps, law, status,
 *                     message, rows, t_start, t_end, dt, stick_rows
 *                     (reference samples in stick)
 *   /reference_codes  models with integer outputs (stick, vcase): those
 *                     outputs at the rows of /reference, int32,
 *                     missing_value = -1 (io/run_h5.h)
 *   /reference_switches   [columns] event-driven reference: t, kind, mode, states after
 *                     each mode switch; kind_names, count, dropped
 *   /eps/<k>/difference   k = 0, 1, ... in the order of /eps/values: t, then
 *                     run - reference for every state and real derived
 *                     output; attributes eps, law, status, message, rows
 *   /eps/<k>/difference_codes   run - reference for every integer output,
 *                     int32, missing_value = -2147483648 (-1 is a difference)
 *   /eps/norms        [columns] one row per eps: eps, rows (samples compared),
 *                     stick_rows, then <var>_<norm> for every state and
 *                     derived output var and norm in max, rms, max_stick,
 *                     max_slip, rms_stick, rms_slip (unit of var)
 *   /eps/runs         [columns] one row per run, the reference first: eps (NaN:
 *                     event-driven), ok (1/0), rows, steps, rhs_evals,
 *                     switches, wall_time_s
 *   sweep study:
 *   /sweep_study/grid      the grid values (columns: the swept parameters)
 *   /sweep_study/classes   [columns] one row per run and pass (the reference
 *                     first): run (0 reference, k + 1 for eps k), eps, pass,
 *                     and the block class, the class code of every grid index
 *                     (int32, columns "0", "1", ...; -1, the missing_value: not
 *                     computed); attribute class_names
 *   /sweep_study/periods   [columns] the same with the block period (0: not
 *                     periodic)
 *   /sweep_study/summary   [columns] one row per eps: eps, compared,
 *                     class_mismatches, bifurcations_ref, matched, shift_max
 *                     (max |shift|), section_compared (the counts -1 when a
 *                     sweep failed), section_<state> (max over the grid)
 *   /sweep_study/shifts    [columns] one row per eps and reference
 *                     bifurcation: eps, pass, kind, p_ref, p_eps, shift;
 *                     attribute kind_names
 *   /sweep_study/section   [columns] one row per eps and compared grid point:
 *                     eps, pass, index, the parameter value(s) of the index
 *                     (named as in /sweep_study/grid), period, then max
 *                     |difference| per state
 *   /sweep_study/bifurcations  [columns] every run's detected changes: run,
 *                     eps, pass, kind, p_left, p_right, estimate
 */
#ifndef CS_ANALYSIS_EPS_H
#define CS_ANALYSIS_EPS_H

#include <stddef.h>

#include "core/status.h"
#include "integrate/integrate.h"
#include "integrate/flow.h"
#include "integrate/record.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The norms of a difference, in the order of the HDF5 columns. */
enum cs_eps_norm {
  CS_EPS_MAX,
  CS_EPS_RMS,
  CS_EPS_MAX_STICK,
  CS_EPS_MAX_SLIP,
  CS_EPS_RMS_STICK,
  CS_EPS_RMS_SLIP,
  CS_EPS_NORM_COUNT
};

/* "max", "rms", "max_stick", "max_slip", "rms_stick", "rms_slip". */
CS_API const char *cs_eps_norm_name(enum cs_eps_norm k);

/* Largest grid accepted by cs_eps_grid: the study keeps its runs in memory. */
#define CS_EPS_MAX_ROWS CS_RECORD_MAX_ROWS_HELD

/* ------------------------------------------------------------ time series */

struct cs_eps_spec {
  const double *eps; /* the eps values compared, n_eps > 0 of them, each > 0 */
  size_t n_eps;
  int reference_event_driven; /* 1: the reference runs with law = event-driven */
  double reference_eps;       /* the reference's eps (when not event-driven), > 0 */
  const double *t;            /* the common time grid, n_t >= 1 ascending times >= 0 */
  size_t n_t;
  struct cs_integrator_opts solver; /* every run's integrator options */
  size_t max_switches;              /* switches of the reference kept (0: 200000) */
  int threads;                      /* OpenMP threads (0: the OpenMP default) */
  /* Optional: called with the reference's time reached, from the thread that
   * runs the reference only, after every grid time. */
  void (*progress)(void *ctx, double t);
  void *progress_ctx;
};

/* One run of the study. */
struct cs_eps_run {
  double eps;            /* its eps; NaN for an event-driven run */
  int event_driven;      /* 1: law = event-driven */
  enum cs_status status; /* CS_OK, or why it stopped */
  char message[512];     /* the failure in words, "" when ok */
  size_t rows;           /* grid rows computed (n_t when ok) */
  double *data;          /* n_t rows of cols values: t, states, derived; NaN past rows */
  struct cs_flow_stats stats;
  double wall_time;                /* s */
  struct cs_flow_switch *switches; /* the reference's logged mode switches, or NULL */
  size_t n_switches;
};

struct cs_eps_result {
  size_t n_t;                /* grid rows */
  size_t n_state, n_derived; /* columns after t */
  size_t cols;               /* 1 + n_state + n_derived */
  size_t n_var;              /* n_state + n_derived */
  size_t n_eps;
  struct cs_eps_run reference;
  struct cs_eps_run *runs; /* n_eps, in the order of spec->eps */
  double *diff;            /* n_eps blocks of n_t x cols: t, run - reference */
  double *norms;           /* n_eps x n_var x CS_EPS_NORM_COUNT */
  size_t *compared;        /* n_eps: grid rows where both runs have values */
  size_t stick_rows;       /* grid rows where the reference is in stick */
  int has_stick;           /* the model has a stick indicator */
  double wall_time;        /* s, the whole study */
};

/* Runs the study of model m with base params (prepared) from y0. Returns
 * CS_OK when the runs were made (each run's own status says whether it
 * succeeded), CS_ERR_ARG for bad arguments, CS_ERR_NOMEM, or the status of
 * cs_eps_make_params for a run whose params cannot be made (out->reference or
 * the run then holds the message). out must be freed with cs_eps_result_free
 * in every case. */
CS_API enum cs_status cs_eps_study(const struct cs_model *m, const void *base_params,
                                   const double *y0, const struct cs_eps_spec *spec,
                                   struct cs_eps_result *out);
CS_API void cs_eps_result_free(struct cs_eps_result *r);

/* The norm of the difference of variable var (0 .. n_var - 1: states, then
 * derived outputs) of eps index k. */
CS_API double cs_eps_norm_get(const struct cs_eps_result *r, size_t k, size_t var,
                              enum cs_eps_norm norm);

/* The observed order of variable var: least-squares slope of log(max |d|)
 * against log(eps) over the eps with a finite positive max; NaN with fewer
 * than two. */
CS_API double cs_eps_order(const struct cs_eps_result *r, size_t var);

#ifdef __cplusplus
}
#endif

#endif
