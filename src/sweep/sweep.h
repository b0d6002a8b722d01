/* SPDX-License-Identifier: MIT */
/* Parameter sweeps: a grid of one or two model parameters, each grid point
 * analysed by cs_point_analyse, across OpenMP threads.
 *
 * Work split. Points are identified by their grid index (1-D: i; 2-D:
 * i + n1 j) and results are delivered by index to a sink, in completion
 * order; nothing else is shared between threads. Running the same sweep
 * across MPI ranks only adds a distribution layer: give each rank a range of
 * chunks (cs_sweep_run_chunks), merge the sinks' output by index.
 *
 * Continuation (default). Along a pass (forward: increasing index, backward:
 * decreasing) each point starts from the final state of the previous point,
 * so the diagram follows one attractor. A pass is split into contiguous
 * chunks of `chunk` points (default 32), handed to the threads dynamically.
 * A chunk other than the pass's first begins with a seam overlap: the
 * `overlap` points before it (default 3) are re-run from the initial state,
 * results discarded, so that its first point is continued from a continued
 * state. Because chunks have a fixed size, the seams sit at the same grid
 * indices for any number of threads (or ranks): results do not depend on the
 * thread count, and fixed chunks keep the load balanced where one thread per
 * chunk would leave a thread idle beside the expensive (chaotic) part of a
 * range. What differs from a single unbroken pass is a seam point whose
 * attractor depends on more history than the overlap — coexisting attractors
 * near a seam — the documented exception; chunk = 0 gives one chunk per
 * thread, chunk >= points one unbroken pass. After a point that failed or
 * escaped, the next one starts from the initial state again.
 *
 * Independent mode: every point starts from the same initial state; results
 * are bit-identical for any thread count.
 *
 * 2-D sweeps: each row (parameter 1 varying, parameter 2 fixed) is a 1-D pass
 * with continuation along parameter 1 (rows start from the initial state);
 * rows are distributed over threads, so there are no seams. */
#ifndef CS_SWEEP_H
#define CS_SWEEP_H

#include <stddef.h>

#include "analysis/equilibrium.h"
#include "analysis/point.h"
#include "io/config.h"
#include "models/model.h"

enum cs_sweep_direction { CS_SWEEP_FORWARD, CS_SWEEP_BACKWARD, CS_SWEEP_BOTH };
enum cs_sweep_spacing { CS_SPACING_LINEAR, CS_SPACING_LOG };

struct cs_sweep_spec {
  int param;       /* index of the control parameter in the model's table */
  double from, to; /* range, in the parameter's unit */
  size_t points;   /* grid points (>= 2) */
  enum cs_sweep_spacing spacing;
  int param2; /* second parameter for a 2-D regime map, -1 for none */
  double from2, to2;
  size_t points2;   /* 0 for a 1-D sweep */
  int continuation; /* 1: continue from the neighbour's final state */
  enum cs_sweep_direction direction;
  size_t overlap;             /* seam overlap (continuation), points */
  size_t chunk;               /* points per chunk (continuation), 0: one chunk per thread */
  struct cs_point_spec point; /* what to compute per point */
  int equilibria;             /* 1: equilibria and their stability along the grid */
  int refine;                 /* 1: refine bifurcation intervals by bisection */
  double refine_tol;          /* parameter tolerance of the refinement */
  int threads;                /* OpenMP threads (0: OMP default) */
};

/* Fills spec from the [sweep] keys of cfg (and its [solver] and [section]):
 * parameter, from, to, points or step, spacing (linear | log), direction
 * (forward | backward | both), continuation (true | false), transient, record,
 * record_crossings, adaptive_transient, transient_max, max_period, lyapunov
 * (none | largest | spectrum), parameter2, from2, to2, points2, refine,
 * refine_tol, equilibria. On error: CS_ERR_PARSE / CS_ERR_RANGE and a
 * one-line "file:line: key: what is wrong (accepted: ...)". */
enum cs_status cs_sweep_spec_from_config(const struct cs_config *cfg, struct cs_sweep_spec *spec,
                                         char *msg, size_t msglen);

/* Grid values of grid index k (p2 may be NULL for 1-D). */
void cs_sweep_values(const struct cs_sweep_spec *spec, size_t k, double *p1, double *p2);
size_t cs_sweep_npoints(const struct cs_sweep_spec *spec); /* n1 (x n2) */

/* One finished point as delivered to the sink. */
struct cs_sweep_point {
  int pass;      /* 0 forward, 1 backward */
  size_t index;  /* grid index */
  double p1, p2; /* parameter values (p2 NAN for 1-D) */
  const struct cs_point_result *res;
};

/* Receives finished points; called from the worker threads one at a time
 * (inside a critical section), so it may write files. Returns 0 to go on,
 * nonzero to stop the sweep (e.g. a write error). */
typedef int (*cs_sweep_sink_fn)(void *ctx, const struct cs_sweep_point *pt);

/* The compact per-point record the driver keeps for bifurcation detection. */
struct cs_sweep_record {
  enum cs_class cls;
  int period;
  double period_time, lyapunov, rotation_number, stick_fraction;
  int done;
};

/* A detected change between two neighbouring grid points of a pass. */
enum cs_bifurcation_kind {
  CS_BIF_EQ_TO_PERIODIC,    /* equilibrium -> periodic (Hopf-like onset) */
  CS_BIF_PERIODIC_TO_EQ,    /* periodic -> equilibrium */
  CS_BIF_PERIOD_DOUBLING,   /* period k -> 2k */
  CS_BIF_PERIOD_HALVING,    /* period 2k -> k */
  CS_BIF_PERIOD_CHANGE,     /* period k -> k' otherwise */
  CS_BIF_TO_CHAOS,          /* periodic or equilibrium -> chaotic */
  CS_BIF_CHAOS_TO_PERIODIC, /* chaotic -> periodic (window) */
  CS_BIF_CLASS_CHANGE,      /* any other change of class */
  CS_BIF_ROTATION_ONSET,    /* rotation number 0 -> nonzero (full rotations begin) */
  CS_BIF_ROTATION_END,      /* nonzero -> 0 */
  CS_BIF_STICK_ONSET,       /* stick fraction 0 -> > 0 */
  CS_BIF_STICK_END,         /* > 0 -> 0 */
  CS_BIF_HYSTERESIS,        /* the forward and backward passes differ here */
  CS_BIF_HOPF,              /* eigenvalues: a complex pair crosses the imaginary axis */
  CS_BIF_FOLD,              /* eigenvalues: a real eigenvalue crosses zero */
  CS_BIF_COUNT
};
const char *cs_bifurcation_kind_name(enum cs_bifurcation_kind k);

struct cs_bifurcation {
  int pass;               /* 0 forward, 1 backward, -1 both (hysteresis, eigenvalues) */
  size_t left, right;     /* grid indices of the neighbours (in parameter order) */
  double p_left, p_right; /* bracketing parameter values */
  double estimate;        /* best estimate of the parameter (refined if asked) */
  int refined;            /* 1 if bisection brought the bracket below refine_tol */
  enum cs_bifurcation_kind kind;
  enum cs_class from_cls, to_cls;
  int from_period, to_period;
};

/* Everything the sweep produced besides what went to the sink. */
struct cs_sweep_outcome {
  struct cs_sweep_record *records[2]; /* per pass, npoints each (NULL if the pass did not run) */
  struct cs_bifurcation *bif;
  size_t n_bif;
  double wall_time;
  long rhs_evals;
  size_t failed;             /* points that failed */
  int interrupted;           /* the sink asked to stop */
  struct cs_equilibrium *eq; /* equilibria at the grid points (spec->equilibria, 1-D), or NULL */
  size_t n_eq;
  char eq_note[160]; /* why equilibria were not computed, if asked and not */
};
void cs_sweep_outcome_free(struct cs_sweep_outcome *o);

/* Runs the sweep over model m with base params and initial state y0. Every
 * thread works on its own copy of the params (attach()ed), sets the grid
 * values on it and prepares it at every point: pass the params as they were
 * before prepare() (cs_config's params_unprepared), so that fields derived
 * from a swept parameter are derived again. */
enum cs_status cs_sweep_run(const struct cs_model *m, const void *base_params, const double *y0,
                            const struct cs_sweep_spec *spec, cs_sweep_sink_fn sink, void *sink_ctx,
                            struct cs_sweep_outcome *out);

/* Detects the changes between neighbours of one pass's records (1-D). */
size_t cs_sweep_detect(const struct cs_sweep_spec *spec, int pass,
                       const struct cs_sweep_record *rec, struct cs_bifurcation *out,
                       size_t max_out);

#endif
