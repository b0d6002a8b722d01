/* SPDX-License-Identifier: MIT */
/* Analysis of one parameter point: from an initial state to knowledge about
 * the attractor reached. Poincaré sections by ARKODE root finding (or
 * stroboscopic sampling), attractor classification, period, largest Lyapunov
 * exponent, rotation number, stick–slip statistics. Knows models only through
 * struct cs_model and integrates only through src/integrate. A sweep calls
 * cs_point_analyse once per point with a thread-local workspace; nothing here
 * knows about sweeps, threads or files.
 *
 * The run: integrate [0, transient] (extended when adaptive, see below),
 * then record over a window of `record` time units or `record_crossings`
 * section crossings (whichever ends first; 0 disables either limit), then,
 * if asked and the attractor is not an equilibrium or periodic orbit (or
 * always, with lyapunov_always), a Lyapunov run continuing from the end of
 * the window. A window that settles on an equilibrium the Jacobian says is
 * unstable does not end the run: the state is kicked off it along the
 * unstable eigenvector and the analysis goes on as from a new start, so that
 * the verdict is the attractor's. Algorithms and tolerances: see point.c. */
#ifndef CS_ANALYSIS_POINT_H
#define CS_ANALYSIS_POINT_H

#include <stddef.h>

#include "core/status.h"
#include "integrate/integrate.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Attractor classes, in the order stored in HDF5 (`class` dataset, with the
 * names in an attribute). */
#define CS_CLASS_LIST(X)                                                                     \
  X(CS_CLASS_PENDING, "pending")             /* not computed (yet): a killed sweep */        \
  X(CS_CLASS_EQUILIBRIUM, "equilibrium")     /* the state settles, on a stable one */        \
  X(CS_CLASS_PERIODIC, "periodic")           /* section points repeat with period k */       \
  X(CS_CLASS_QUASIPERIODIC, "quasiperiodic") /* not periodic, largest exponent ~ 0 */        \
  X(CS_CLASS_CHAOTIC, "chaotic")             /* not periodic, largest exponent > 0 */        \
  X(CS_CLASS_APERIODIC, "aperiodic")         /* not periodic, exponent not computed */       \
  X(CS_CLASS_NO_CROSSINGS, "no-crossings")   /* not settled and never crossed the section */ \
  X(CS_CLASS_ESCAPED, "escaped")             /* left the bounded region */                   \
  X(CS_CLASS_FAILED, "failed")               /* the integrator failed: see the message */

enum cs_class {
#define CS_CLASS_ENUM(id, name) id,
  CS_CLASS_LIST(CS_CLASS_ENUM)
#undef CS_CLASS_ENUM
      CS_CLASS_COUNT
};

CS_API const char *cs_class_name(enum cs_class c);

/* What to compute at each point. Start from cs_point_spec_default(). */
struct cs_point_spec {
  struct cs_integrator_opts solver; /* stepper and tolerances */
  struct cs_section_spec section;   /* hyperplane (variable, level, direction) or stroboscopic;
                                       hyperplane with variable NULL or "": the model's default */
  double transient;                 /* time discarded before recording, model time unit, >= 0 */
  int adaptive_transient;           /* 1: extend the transient until section points stop drifting */
  double transient_max;             /* upper bound of the adaptive transient */
  double record;                    /* recording window, model time unit (0: no time limit) */
  size_t record_crossings;          /* stop recording after this many crossings (0: no limit) */
  size_t max_points;                /* section points kept at most (memory bound) */
  int max_period;                   /* largest period k looked for (section points per cycle) */
  double period_tol;          /* relative tolerance of the periodicity test; 0: derived from rtol */
  double equilibrium_tol;     /* |f(y)| tolerance (scaled) that means "settled"; 0: derived */
  int lyapunov;               /* 0 none, 1 largest exponent, 2 full spectrum */
  double lyapunov_time;       /* length of the Lyapunov run, model time unit */
  double lyapunov_renorm;     /* renormalisation interval, model time unit */
  double lyapunov_zero_tol;   /* |lambda| below this (and its error) counts as zero */
  double escape_norm;         /* max-norm of the state beyond which the orbit has escaped */
  size_t stick_samples;       /* samples of the stick indicator over the window (0: none) */
  int lyapunov_always;        /* 1: exponents also for equilibria and periodic orbits */
  const volatile int *cancel; /* nonzero (set by another thread): abandon the point, which then
                                 fails with CS_ERR_INTERRUPTED; NULL: never */
  int lyapunov_full;    /* 1: always the whole lyapunov_time; 0 (default): stop once the largest
                           exponent's sign is decided statistically (lyapunov.c) */
  double lyapunov_rtol; /* relative tolerance of the Lyapunov run, absolute ones scaled alike;
                          0 (default): the solver's */
  int record_early;     /* 1: a window ends once its periodic orbit is confirmed and converged
                           (point.c); 2: likewise, judged from 8 crossings on and ending once 3
                           cycles repeat within the periodicity tolerance (a start for Newton,
                           sweep.c); 0 (default): always the whole recording window */
};

CS_API struct cs_point_spec cs_point_spec_default(void);

/* The result of one point. Section points are stored row by row with the
 * columns t, the states, the derived outputs (1 + n_state + n_derived values
 * per row); the workspace owns the buffer, valid until its next use. */
struct cs_point_result {
  enum cs_status status;     /* CS_OK, or why the point failed */
  char message[256];         /* the integrator's message on failure, where an escaped orbit left,
                                why an asked-for exponent is NAN, or the unstable equilibrium
                                the point was kicked off or left undecided on (point.c); else
                                "" */
  enum cs_class cls;         /* the attractor class */
  int period;                /* k for periodic orbits (section points per cycle), else 0 */
  double period_time;        /* period of the orbit in time (periodic), else NAN */
  double lyapunov;           /* largest Lyapunov exponent (1/time unit), NAN if not computed */
  double lyapunov_err;       /* its convergence estimate (same unit) */
  double lyapunov_time_used; /* length of the Lyapunov run (may end before lyapunov_time), NAN
                                if none */
  double spectrum[16];       /* full spectrum when asked (n_state values, descending), else NAN;
                                -INFINITY: a direction lost at a stick transition */
  double spectrum_err[16];   /* their standard errors (block estimates; 0 for -INFINITY) */
  int reduced_dimension;     /* directions lost at mode switches (event-driven laws in stick),
                                -1 if no exponent was computed */
  double kaplan_yorke;       /* Kaplan-Yorke dimension of the spectrum, NAN without one */
  double zero_one;           /* K of the 0-1 test for chaos on the section points (zero_one.h),
                                NAN if not run (no exponent asked, too few points) */
  long zero_one_points;      /* section points it used (the window's, then those of the
                                Lyapunov run's orbit, point.c), 0 if not run */
  int chaos_disagree;        /* -1 not compared; 0 the 0-1 test and the class agree; 1 the
                                class is chaotic and K < 1/2; 2 the class is quasiperiodic
                                or aperiodic and K > 1/2 (point.c) */
  double rotation_number;    /* full turns of the first angle state per time unit, NAN if none */
  double stick_fraction;     /* fraction of the window in stick (model's indicator), NAN if none */
  double stick_phases;       /* stick phases per period (periodic) or per unit time, NAN if none */
  double transient_used;     /* transient actually integrated (adaptive), time unit */
  double drift;              /* last measured drift of the section points (adaptive), scaled */
  size_t n_section;          /* number of section points recorded */
  const double *section;     /* n_section rows, see above */
  size_t section_cols;       /* 1 + n_state + n_derived */
  double *final_state;       /* state at the end (for continuation), n_state values */
  double t_final;            /* its time: a multiple of the forcing period for forced models */
  double *equilibrium;       /* settled state for equilibria, else NULL */
  long steps, rhs_evals;     /* integrator statistics of this point */
  /* Floquet multipliers of a periodic point, when the caller computed them
   * (the sweep does, by shooting: analysis/orbit.h); n_mult 0 otherwise */
  size_t n_mult;           /* nontrivial multipliers: n - 1 (autonomous) or n */
  double mult_re[16];      /* real parts, by decreasing modulus */
  double mult_im[16];      /* imaginary parts (a complex pair: +, then -) */
  double mult_trivial_err; /* |trivial multiplier - 1| (autonomous), an accuracy check; else NAN */
  int mult_unstable;       /* nontrivial multipliers of modulus > 1 */
  char mult_note[96];      /* why not computed or not converged, else "" */
};

/* Thread-local workspace: integrator, buffers. n_max: the largest state size. */
struct cs_point_ws;
CS_API struct cs_point_ws *cs_point_ws_create(size_t n_max, size_t max_points);
CS_API void cs_point_ws_free(struct cs_point_ws *ws);

/* Analyses one point of model m with prepared params from y0. Never aborts:
 * integrator failures give cls = CS_CLASS_FAILED with the message; the
 * return value is CS_OK unless the arguments are invalid or memory is short.
 * The result's pointers refer to the workspace. */
CS_API enum cs_status cs_point_analyse(const struct cs_model *m, const void *params,
                                       const double *y0, const struct cs_point_spec *spec,
                                       struct cs_point_ws *ws, struct cs_point_result *res);

#ifdef __cplusplus
}
#endif

#endif
