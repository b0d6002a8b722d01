/* SPDX-License-Identifier: MIT */
/* Recording a trajectory: one run of a model from t = 0, sampled on a time
 * grid, the way contensou simulate and the eps study (analysis/eps.h) record
 * theirs. One implementation for both, so that a trajectory file and an eps
 * study of the same parameters sample the same times the same way.
 *
 * The grid. Uniform: t_start + k dt while below t_end, then t_end itself
 * (which replaces a grid time within CS_RECORD_GRID_TOL dt of it); dt = 0
 * means (t_end - t_start) / 1000. Or explicit: n ascending times >= 0 given
 * by the caller (then dt is t[1] - t[0], or t[0] for one time).
 *
 * The run starts at t = 0 from y0; the part before the first grid time is a
 * transient, integrated in steps of dt (so that [solver] max_steps, the steps
 * allowed between two output times, means the same thing everywhere) and not
 * recorded. At every grid time the row t, states, derived outputs (the
 * model's derived_fn: e.g. the stick indicator model->stick_output, see
 * models/model.h) is taken from the integrator's dense output (cs_flow) and
 * handed to the caller in blocks. The run goes through cs_flow, so the mode
 * switches of event-driven models are applied and, when asked, handed over
 * as they happen.
 *
 * Nothing here prints, writes files or attaches the params: the caller owns
 * both ends (contensou simulate appends the blocks to an HDF5 table as it
 * goes; cs_trajectory_record keeps them in memory). */
#ifndef CS_INTEGRATE_RECORD_H
#define CS_INTEGRATE_RECORD_H

#include <stddef.h>

#include "core/status.h"
#include "integrate/flow.h"
#include "integrate/integrate.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_RECORD_GRID_TOL 1e-9 /* relative to dt: a grid time this close to t_end is t_end */
/* The longest uniform grids, the one place they are set: rows that go to a
 * file as they are made (contensou simulate), where beyond this dt is surely
 * a mistake; and rows kept in memory, whole (cs_trajectory_record; the eps
 * study holds one such recording per run and a difference per eps), where
 * 1e6 rows of a dozen columns are already 100 MB per run and a larger grid
 * would exhaust the memory rather than be refused. */
#define CS_RECORD_MAX_ROWS 100000000
#define CS_RECORD_MAX_ROWS_HELD 1000000

/* A time grid (times in the model's time unit). */
struct cs_record_grid {
  double t_start, t_end, dt; /* uniform grid; dt > 0 once made */
  size_t rows;               /* grid times, the last at t_end */
  const double *t;           /* explicit times (rows of them), or NULL: uniform */
};

/* Makes the uniform grid over [t_start, t_end] with step dt (0: a thousandth
 * of the window). CS_ERR_RANGE when the window is not 0 <= t_start < t_end <
 * inf, dt < 0, or the grid has max_rows rows or more (g->rows then holds 0).
 */
CS_API enum cs_status cs_record_grid_make(double t_start, double t_end, double dt, size_t max_rows,
                                          struct cs_record_grid *g);

/* An explicit grid of n ascending times >= 0 (not copied: t must outlive
 * g). CS_ERR_ARG when t is not such a list. */
CS_API enum cs_status cs_record_grid_times(const double *t, size_t n, struct cs_record_grid *g);

/* What cs_record_run does and whom it tells. */
struct cs_record_spec {
  struct cs_record_grid grid;
  const struct cs_integrator_opts *solver;
  size_t max_switches; /* mode switches logged (and handed to on_switch); later
                          ones are counted only */
  size_t block_rows;   /* rows per call of on_rows (0: 512) */
  /* Called with n consecutive rows of 1 + n_state + n_derived values (row
   * index first_row onwards); nonzero stops the run (status
   * CS_ERR_INTERRUPTED) after these rows. Required. */
  int (*on_rows)(void *ctx, size_t first_row, size_t n, const double *rows);
  /* Optional: called for every logged switch, in order, as it happens. */
  void (*on_switch)(void *ctx, const struct cs_flow_switch *s);
  /* Optional: called with the time reached after every advance. */
  void (*progress)(void *ctx, double t);
  void *ctx;
};

/* Where a recording stopped. */
enum cs_record_stop {
  CS_RECORD_COMPLETE, /* every grid row recorded */
  CS_RECORD_AT_START, /* the integrator could not start (or bad arguments, no memory) */
  CS_RECORD_IN_RUN,   /* the integrator failed between two times */
  CS_RECORD_DERIVED,  /* the derived outputs failed at a grid time */
  CS_RECORD_BY_CALLER /* on_rows asked to stop */
};

/* How a recording ended. */
struct cs_record_result {
  enum cs_status status;      /* CS_OK, or why the run stopped */
  enum cs_record_stop stop;   /* where */
  char message[1024];         /* the failure in words ("" when ok) */
  size_t rows;                /* rows computed and handed to on_rows */
  double t;                   /* time reached */
  double y[CS_FLOW_MAX_N];    /* state at t */
  struct cs_flow_stats stats; /* integrator statistics and switches applied */
  size_t switches_logged;     /* switches handed to on_switch */
};

/* Records model m with params (prepared and, for models that need it,
 * attached) from y0 at t = 0 on spec->grid. Returns out->status: CS_OK when
 * every grid row was recorded; CS_ERR_ARG (bad arguments, message says
 * which), CS_ERR_NOMEM, the integrator's failure (out->message: "<status>:
 * <integrator's message>", the rows before it were handed over), the derived
 * outputs' failure ("derived outputs at t = ...: ..."), or
 * CS_ERR_INTERRUPTED when on_rows asked to stop. */
CS_API enum cs_status cs_record_run(const struct cs_model *m, void *params, const double *y0,
                                    const struct cs_record_spec *spec,
                                    struct cs_record_result *out);

/* ------------------------------------------------------ in memory */

/* A recorded trajectory kept in memory. */
struct cs_trajectory {
  size_t rows;                     /* rows recorded (grid rows when the run succeeded) */
  size_t n_rows;                   /* grid rows: data has n_rows rows, NaN past rows */
  size_t n_state, n_derived;       /* columns after t */
  size_t cols;                     /* 1 + n_state + n_derived */
  double *data;                    /* n_rows x cols: t, states, derived outputs */
  struct cs_flow_switch *switches; /* the logged switches, or NULL */
  size_t n_switches;
  struct cs_record_result result; /* status, message, statistics */
};

/* Records into tr (spec->on_rows and spec->on_switch are ignored: the rows
 * and switches go into tr; spec->progress is called). Returns
 * tr->result.status; CS_ERR_NOMEM when the rows do not fit. tr must be freed
 * with cs_trajectory_free in every case. */
CS_API enum cs_status cs_trajectory_record(const struct cs_model *m, void *params, const double *y0,
                                           const struct cs_record_spec *spec,
                                           struct cs_trajectory *tr);
CS_API void cs_trajectory_free(struct cs_trajectory *tr);

#ifdef __cplusplus
}
#endif

#endif
