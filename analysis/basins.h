/* SPDX-License-Identifier: MIT */
/* Basins of attraction: many initial states of one parameter point, each
 * integrated until the attractor it reaches is known, and the attractors
 * told apart by more than their class (two period-1 cycles are two
 * attractors). Algorithms, tolerances and the identity of attractors: see
 * basins.c.
 *
 * Initial states. Grid: nx x ny cells over two state variables (x, y) of
 * the model, the other states from the base state y0; cell (i, j) has index
 * i + nx j and its initial state at the grid node x_i = c + h (2i - (nx-1)) /
 * (nx-1) (c, h: centre and half-width of [x_min, x_max]), so that a box
 * symmetric about 0 gives nodes that are exact negatives of each other.
 * Sample: n seeded pseudo-random states, uniform in a box over every state
 * (GSL's MT19937, all drawn before the run in cell order).
 *
 * Work units and determinism. Cells are split into units of `chunk`
 * consecutive cells. A unit runs its cells in order on one thread and builds
 * its own catalogue of attractors; a cell stops early when its trajectory
 * enters the neighbourhood of an attractor of its unit's catalogue, which
 * holds only what earlier cells of the same unit found. So what a cell
 * computes depends on its unit alone, never on which units other threads (or
 * an earlier, killed run) finished first. Units are merged in unit order:
 * each local attractor is matched against the global catalogue built so far,
 * then the global attractors are sorted by a canonical key (class, period,
 * then their representative state) and numbered 0, 1, ... The result is
 * therefore the same for any number of threads and for a run resumed from
 * the units an interrupted run finished. */
#ifndef CS_ANALYSIS_BASINS_H
#define CS_ANALYSIS_BASINS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/point.h"
#include "io/config.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

enum cs_basins_mode {
  CS_BASINS_GRID,   /* nx x ny over two states */
  CS_BASINS_SAMPLE, /* seeded random states in a box */
  CS_BASINS_LIST    /* given initial states (a program's own: spec->list) */
};

struct cs_basins_spec {
  enum cs_basins_mode mode;
  int ix, iy;                 /* grid: the two state variables (indices) */
  double x_min, x_max;        /* grid: range of x, its unit */
  double y_min, y_max;        /* grid: range of y */
  size_t nx, ny;              /* grid: cells along x and y (>= 2 each) */
  size_t sample;              /* sample, list: number of initial states */
  const double *list;         /* list: sample x n_state initial states, row by row (borrowed) */
  size_t list_n;              /* list: n_state of its rows */
  unsigned long seed;         /* sample: seed of the generator */
  double lo[16], hi[16];      /* sample: box of every state; grid: lo/hi of x and y only */
  struct cs_point_spec point; /* how an unknown attractor is analysed (transient, record, ...) */
  size_t chunk;               /* cells per work unit (default 64) */
  double radius;              /* neighbourhood of an attractor, in units of the state scales
                                 (default 0.02): see basins.c */
  double check;               /* time between proximity checks (0: transient / 200) */
  int early;                  /* 1 (default): stop a cell near a known attractor; 0: every
                                 cell analysed in full (for measuring the speed-up) */
  int threads;                /* OpenMP threads (0: default) */
  double scale[16];           /* per state: the scale distances are measured in (see
                                 cs_basins_spec_scales) */
};

/* Defaults: grid mode without variables (cs_basins_spec_from_config sets
 * them), chunk 64, radius 0.02, early stopping on, the default point spec. */
CS_API void cs_basins_spec_default(struct cs_basins_spec *spec);

/* Fills spec from [basins] of cfg (and [solver], [section]): x, y, x_min,
 * x_max, y_min, y_max, cells (one count, or "NX, NY"), or sample, seed and
 * <state>_min, <state>_max bounds (defaults: angles [-pi, pi], the others
 * the initial value -+ max(|value|, 1)); transient (default 20), record
 * (default 20), max_period, lyapunov (none | largest), lyapunov_time,
 * adaptive_transient, transient_max, period_tol, chunk, radius, check, early.
 * CS_ERR_PARSE / CS_ERR_RANGE with "file:line: key: ..." in cs_errmsg(). */
CS_API enum cs_status cs_basins_spec_from_config(const struct cs_config *cfg,
                                                 struct cs_basins_spec *spec);

/* One attractor. points: n_points rows of n_state values (equilibrium: its
 * state; periodic: the k section points of one cycle; others: section
 * points, at most CS_BASINS_MAX_POINTS), angles as integrated. */
#define CS_BASINS_MAX_POINTS 512
struct cs_basins_attractor {
  enum cs_class cls;
  int period;
  double period_time, lyapunov, lyapunov_err;
  size_t n_points;
  double *points;
  size_t cells; /* cells whose attractor this is */
};

/* The results of one finished work unit (what a resume needs of it). */
struct cs_basins_unit {
  size_t index;       /* unit number */
  size_t first, n;    /* its cells */
  int32_t *local;     /* per cell: index into attr, -1 failed */
  double *settle;     /* per cell: time integrated before the attractor was known */
  int64_t *rhs_evals; /* per cell: right-hand-side evaluations */
  int32_t *early;     /* per cell: 1 stopped near a known attractor, 0 analysed in full */
  size_t n_attr;
  struct cs_basins_attractor *attr;
};

/* Receives finished units, one call at a time (never concurrently), in the
 * order they finish. Returns 0 to go on, nonzero to stop the run (units in
 * flight are then abandoned). */
typedef int (*cs_basins_sink_fn)(void *ctx, const struct cs_basins_unit *u);

struct cs_basins_ctl {
  const volatile sig_atomic_t *cancel; /* nonzero: stop soon (a signal) */
  const unsigned char *done;           /* per unit: 1 finished before (resume): not computed */
};

/* The merged result. */
struct cs_basins_result {
  size_t n_cells, n_units;
  int32_t *attractor; /* per cell: global id, -1 failed, -2 not computed */
  double *settle;
  int64_t *rhs_evals;
  int32_t *early;
  size_t n_attr;
  struct cs_basins_attractor *attr; /* sorted canonically; attr[i].cells counted */
  size_t failed, pending;
  double sensitivity; /* grid: fraction of cells whose attractor differs from a neighbour's at
                         one cell's shift (+x or +y); NAN for samples */
  double wall_time;
  long rhs_total;
};
CS_API void cs_basins_result_free(struct cs_basins_result *r);

/* Runs the units not done (ctl->done) across threads, handing each finished
 * unit to sink (may be NULL). params: prepared params of m; y0: the base
 * state. Returns CS_OK also when stopped early (*stopped = 1 then). */
CS_API enum cs_status cs_basins_run(const struct cs_model *m, const void *params, const double *y0,
                                    const struct cs_basins_spec *spec, cs_basins_sink_fn sink,
                                    void *sink_ctx, const struct cs_basins_ctl *ctl, int *stopped);

/* ------------------------------------------- basins along a parameter
 *
 * The basins at every value of a parameter, and the attractors followed
 * from value to value: an attractor at a value continues the one at the
 * value before of the same class and period whose representative point
 * (an equilibrium's state, the nearest pair of section points of two
 * cycles, the mean section point of the others) is nearest, within 0.25 in
 * units of the state scales (pairs taken nearest first, each attractor used
 * once); an attractor continuing none is born at that value, one continued
 * by none dies there. Tracked ids are numbered in order of birth. */
struct cs_basins_along {
  size_t n_values;
  double *values;       /* the parameter values */
  size_t n_track;       /* attractors followed */
  enum cs_class *cls;   /* per tracked attractor: class */
  int *period;          /* period (periodic), else 0 */
  size_t *born, *died;  /* value index of birth, of death (n_values: alive at the end) */
  double *fraction;     /* n_values x n_track: its basin's fraction, 0 where absent */
  double *fraction_err; /* standard error sqrt(f (1 - f) / cells) */
  double *period_time;  /* n_values x n_track, NAN where absent or not periodic */
  size_t *n_attr;       /* per value: attractors found (the multistability) */
  size_t *failed;       /* per value: failed cells */
};
CS_API void cs_basins_along_free(struct cs_basins_along *a);

/* Basins of spec at each of the n values of parameter param of m (params
 * unprepared: each value is set and prepared on a copy), followed as
 * above. Stops on the first failure (CS_ERR_INTERRUPTED when *cancel). */
CS_API enum cs_status cs_basins_along_run(const struct cs_model *m, const void *params_unprepared,
                                          const double *y0, const struct cs_basins_spec *spec,
                                          int param, const double *values, size_t n,
                                          const volatile sig_atomic_t *cancel,
                                          struct cs_basins_along *out);

#ifdef __cplusplus
}
#endif

#endif
