/* SPDX-License-Identifier: MIT */
/* Parameter sweeps: a grid of one or two model parameters, each grid point
 * analysed by cs_point_analyse, across OpenMP threads.
 *
 * Work split. Points are identified by their grid index (1-D: i; 2-D:
 * i + n1 j) and results are delivered by index to a sink, in completion
 * order; nothing else is shared between threads. Running the same sweep
 * across processes (MPI ranks) only adds a distribution layer: a coordinator
 * hands out work units and receives results through a byte transport
 * (struct cs_sweep_server / cs_sweep_comm below; sweep/sweep_dist.h
 * implements it over MPI).
 *
 * Continuation (default). Along a pass (forward: increasing index, backward:
 * decreasing) each point starts from the final state of the previous point,
 * so the diagram follows one attractor. A pass is split into contiguous
 * chunks of `chunk` points (default 32); only the pass's last chunk (at most
 * `chunk` points left) is split in halves, not below 4 x `overlap` (nor
 * chunk / 4), so that the last units to run are short while the seams sit
 * where chunks of `chunk` put them; the units are handed to the threads
 * dynamically, the one predicted to cost most first (its points times the
 * measured cost of the nearest computed point, else the mean cost of the
 * class of the point before it, else its length).
 * A chunk other than the pass's first begins with a seam overlap: the
 * `overlap` points before it (default 3) are re-run from the initial state,
 * results discarded, so that its first point is continued from a continued
 * state. Because the chunks are a fixed function of the grid, the seams sit
 * at the same grid indices for any number of threads (or ranks): results do
 * not depend on the thread count, and fixed chunks keep the load balanced
 * where one thread per chunk would leave a thread idle beside the expensive
 * (chaotic) part of a range. What differs from a single unbroken pass is a
 * seam point whose attractor depends on more history than the overlap —
 * coexisting attractors near a seam — the documented exception; chunk = 0
 * gives one chunk per thread, chunk >= points one unbroken pass. After a
 * point that failed or escaped, the next one starts from the initial state
 * again.
 *
 * Independent mode: every point starts from the same initial state; results
 * are bit-identical for any thread count.
 *
 * 2-D sweeps: each row (parameter 1 varying, parameter 2 fixed) is a 1-D pass
 * with continuation along parameter 1 (rows start from the initial state);
 * rows are distributed over threads, so there are no seams. */
#ifndef CS_SWEEP_H
#define CS_SWEEP_H

#include <signal.h>
#include <stddef.h>

#include "analysis/equilibrium.h"
#include "analysis/point.h"
#include "io/config.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

enum cs_sweep_direction { CS_SWEEP_FORWARD, CS_SWEEP_BACKWARD, CS_SWEEP_BOTH };
enum cs_sweep_spacing { CS_SPACING_LINEAR, CS_SPACING_LOG };

struct cs_sweep_spec {
  int param;       /* index of the control parameter in the model's table */
  double from, to; /* range, in the parameter's unit */
  size_t points;   /* grid points (>= 1; 1 analyses the single value from = to) */
  enum cs_sweep_spacing spacing;
  int param2; /* second parameter for a 2-D regime map, -1 for none */
  double from2, to2;
  size_t points2;   /* 0 for a 1-D sweep */
  int continuation; /* 1: continue from the neighbour's final state */
  enum cs_sweep_direction direction;
  size_t overlap;             /* seam overlap (continuation), points */
  size_t chunk;               /* largest chunk (continuation, see above), 0: one per thread */
  struct cs_point_spec point; /* what to compute per point */
  int equilibria;             /* 1: equilibria and their stability along the grid */
  int multipliers;            /* 1: Floquet multipliers of every periodic point (shooting) */
  int newton_continuation;    /* 1: a point continued from a periodic neighbour starts its
                                 recording on the orbit found by Newton when that orbit is
                                 robustly stable, instead of after the transient (sweep.c) */
  int refine;                 /* 1: refine bifurcation intervals by bisection */
  double refine_tol;          /* parameter tolerance of the refinement */
  int threads;                /* OpenMP threads (0: OMP default) */
};

/* Fills spec from the [sweep] keys of cfg (and its [solver] and [section]):
 * parameter, from, to, points or step, spacing (linear | log), direction
 * (forward | backward | both), continuation (true | false), transient, record,
 * record_crossings, adaptive_transient, transient_max, max_period, lyapunov
 * (none | largest | spectrum), lyapunov_time, lyapunov_rtol, period_tol,
 * parameter2, from2, to2, points2, refine, refine_tol, equilibria,
 * multipliers, newton_continuation, chunk, overlap (their meanings and
 * defaults: `contensou sweep --help`). On error: CS_ERR_PARSE / CS_ERR_RANGE and in
 * cs_errmsg() a one-line "file:line: key: what is wrong (accepted: ...)". */
CS_API enum cs_status cs_sweep_spec_from_config(const struct cs_config *cfg,
                                                struct cs_sweep_spec *spec);

/* A spec built in code, without a file: the sweep of the parameter called
 * `parameter` of m over [from, to] in `points` grid points (linear spacing),
 * with the defaults a [sweep] section with only those keys gets (continuation
 * on, forward, transient 10, record 10, the largest Lyapunov exponent,
 * Floquet multipliers, the model's default section, default solver options,
 * the Lyapunov time 5 records without a forcing period). Change any field
 * afterwards (spec->point.solver.rtol, spec->point.lyapunov = 0, ...).
 * CS_ERR_NOT_FOUND for an unknown parameter, CS_ERR_RANGE for a range outside
 * the parameter's [min, max], to < from or points = 0; the reason in
 * cs_errmsg(). */
CS_API enum cs_status cs_sweep_spec_init(const struct cs_model *m, const char *parameter,
                                         double from, double to, size_t points,
                                         struct cs_sweep_spec *spec);

/* Grid values of grid index k (p2 may be NULL for 1-D). */
CS_API void cs_sweep_values(const struct cs_sweep_spec *spec, size_t k, double *p1, double *p2);
CS_API size_t cs_sweep_npoints(const struct cs_sweep_spec *spec); /* n1 (x n2) */

/* The largest grid a sweep holds (points x points2): its file and a resume's
 * records stay within memory and disk a machine has. */
#define CS_SWEEP_MAX_POINTS 100000000

/* One finished point as delivered to the sink. */
struct cs_sweep_point {
  int pass;      /* 0 forward, 1 backward */
  size_t index;  /* grid index */
  double p1, p2; /* parameter values (p2 NAN for 1-D) */
  const struct cs_point_result *res;
};

/* Receives finished points; called from one writer thread, never
 * concurrently, so it may write files. Returns 0 to go on, nonzero to stop the
 * sweep (e.g. a write error). */
typedef int (*cs_sweep_sink_fn)(void *ctx, const struct cs_sweep_point *pt);

/* The compact per-point record the driver keeps for bifurcation detection. */
struct cs_sweep_record {
  enum cs_class cls;
  int period;
  double period_time, lyapunov, rotation_number, stick_fraction;
  double lyapunov_err; /* error of the exponent (same unit), NAN if none */
  int done;
};

/* A detected change between two neighbouring grid points of a pass. */
enum cs_bifurcation_kind {
  CS_BIF_EQ_TO_PERIODIC,    /* equilibrium -> periodic (Hopf-like onset) */
  CS_BIF_PERIODIC_TO_EQ,    /* periodic -> equilibrium */
  CS_BIF_PERIOD_DOUBLING,   /* period k -> 2k */
  CS_BIF_PERIOD_HALVING,    /* period 2k -> k */
  CS_BIF_PERIOD_CHANGE,     /* period k -> k' otherwise */
  CS_BIF_TO_CHAOS,          /* periodic, equilibrium or quasiperiodic -> chaotic */
  CS_BIF_CHAOS_TO_PERIODIC, /* chaotic -> periodic (window) */
  CS_BIF_CLASS_CHANGE,      /* any other change of class */
  CS_BIF_ROTATION_ONSET,    /* rotation number 0 -> nonzero (full rotations begin) */
  CS_BIF_ROTATION_END,      /* nonzero -> 0 */
  CS_BIF_STICK_ONSET,       /* stick fraction 0 -> > 0 */
  CS_BIF_STICK_END,         /* > 0 -> 0 */
  CS_BIF_HYSTERESIS,        /* the forward and backward passes differ here */
  CS_BIF_HOPF,              /* eigenvalues: a complex pair crosses the imaginary axis */
  CS_BIF_FOLD,              /* eigenvalues: a real eigenvalue crosses zero */
  CS_BIF_UNKNOWN,           /* the regimes on either side of failed points differ */
  CS_BIF_TO_QUASIPERIODIC,  /* equilibrium or periodic -> quasiperiodic (a torus is born) */
  CS_BIF_LOCKING,           /* quasiperiodic -> periodic (phase locking, a window) */
  CS_BIF_COUNT
};
CS_API const char *cs_bifurcation_kind_name(enum cs_bifurcation_kind k);

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

/* Why a sweep ended before its last point. */
enum cs_sweep_stop {
  CS_SWEEP_RAN,       /* it did not: every point was computed */
  CS_SWEEP_CANCELLED, /* ctl->cancel was set (a signal) */
  CS_SWEEP_SINK,      /* the sink asked to stop (e.g. a write error) */
  CS_SWEEP_REMOTE     /* the coordinating process stopped the sweep (MPI) */
};

/* Everything the sweep produced besides what went to the sink. */
struct cs_sweep_outcome {
  struct cs_sweep_record *records[2]; /* per pass, npoints each (NULL if the pass did not run) */
  struct cs_bifurcation *bif;
  size_t n_bif;
  double wall_time;
  long rhs_evals;            /* of the points computed by this run */
  size_t failed;             /* points that failed (this run and before, on resume) */
  size_t computed;           /* points computed by this run */
  size_t prior;              /* points a previous run had finished (resume) */
  int interrupted;           /* the sweep stopped early: see stop */
  enum cs_sweep_stop stop;   /* why */
  int worker;                /* 1: this process only computed points for a coordinator (MPI) */
  struct cs_equilibrium *eq; /* equilibria at the grid points (spec->equilibria, 1-D), or NULL */
  size_t n_eq;
  char eq_note[160]; /* why equilibria were not computed, if asked and not */
};
CS_API void cs_sweep_outcome_free(struct cs_sweep_outcome *o);

/* What a previous, interrupted run of the same sweep finished (resume): per
 * pass (NULL: not started), one record per grid index (done = 1 for the
 * finished ones) and the final states (npoints x n_state) those points left,
 * from which continuation goes on bit for bit. */
struct cs_sweep_prior {
  struct cs_sweep_record *rec[2];
  double *final[2];
};

/* Distribution of a sweep over processes (e.g. MPI ranks), as a byte
 * transport: the sweep knows nothing about the transport, the transport
 * nothing about sweeps. One coordinator (rank 0) hands out work units and
 * receives results; the other processes are workers. */
struct cs_sweep_server {
  void *ctx;
  /* next unit for a worker, copied into unit (size bytes): returns 1 (a unit),
   * 0 (none yet: ask again later), -1 (none ever: stop asking) */
  int (*next_unit)(void *ctx, void *unit, size_t size);
  /* a result message from a worker; the server takes ownership of buf (malloc) */
  void (*result)(void *ctx, void *buf, size_t len);
};
struct cs_sweep_comm {
  int rank, size; /* this process, of how many */
  void *ctx;      /* the transport's state */
  /* worker side, thread-safe: asks the coordinator for a unit (same returns
   * as next_unit); sends a result message */
  int (*request)(void *ctx, void *unit, size_t size);
  int (*send)(void *ctx, const void *buf, size_t len);
  /* worker side: 1 once the coordinator said stop (polled between points) */
  int (*stopped)(void *ctx);
  /* worker side: every thread of this process has finished */
  void (*done)(void *ctx);
  /* coordinator side: serve the workers from a thread of the transport until
   * serve_end, which also tells every worker that no unit will come (and,
   * with abort, to abandon the points in flight) and waits (a bounded time)
   * for their last results */
  int (*serve_begin)(void *ctx, const struct cs_sweep_server *srv);
  void (*serve_end)(void *ctx, int abort);
};

/* How to run a sweep; every field optional (zero: default). */
struct cs_sweep_ctl {
  const struct cs_sweep_prior *prior;  /* resume: finished points are not recomputed */
  const volatile sig_atomic_t *cancel; /* becomes nonzero (a signal handler): stop soon,
                                          abandoning points in flight */
  /* Called from the writer thread between points and at least every 0.1 s,
   * with the sink's context: e.g. to flush a file at a bounded interval. */
  void (*tick)(void *sink_ctx);
  struct cs_sweep_comm *comm; /* distribution over processes; NULL: this process only */
};

/* The full driver. The sink (and tick) run on one writer thread of their own,
 * never concurrently, in the order points finish; workers never wait for it
 * (results are queued). With ctl->prior, only the points not done are
 * computed (continuation segments restart at their first missing point from
 * the stored final state of the previous one), then change detection,
 * refinement, hysteresis and equilibria run over the whole grid. With
 * ctl->comm, every process calls this with the same arguments (prior and sink
 * only matter on the coordinator); a worker returns with out->worker = 1.
 * The result does not depend on the number of threads or processes. */
CS_API enum cs_status cs_sweep_run_ctl(const struct cs_model *m, const void *base_params,
                                       const double *y0, const struct cs_sweep_spec *spec,
                                       cs_sweep_sink_fn sink, void *sink_ctx,
                                       const struct cs_sweep_ctl *ctl,
                                       struct cs_sweep_outcome *out);

/* Runs the sweep over model m with base params and initial state y0. Every
 * thread works on its own copy of the params (attach()ed), sets the grid
 * values on it and prepares it at every point: pass the params as they were
 * before prepare() (cs_config's params_unprepared), so that fields derived
 * from a swept parameter are derived again. */
CS_API enum cs_status cs_sweep_run(const struct cs_model *m, const void *base_params,
                                   const double *y0, const struct cs_sweep_spec *spec,
                                   cs_sweep_sink_fn sink, void *sink_ctx,
                                   struct cs_sweep_outcome *out);

#ifdef __cplusplus
}
#endif

#endif
