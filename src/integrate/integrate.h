/* SPDX-License-Identifier: MIT */
/* ODE integration: the only part of contensou that talks to SUNDIALS ARKODE.
 *
 * A problem is y' = f(t, y), y in R^n, described by plain C callbacks (no
 * SUNDIALS types leak out of this header). A workspace, struct cs_integrator,
 * owns everything ARKODE needs and is reused for many runs: one per thread,
 * created once, then for each run
 *
 *   cs_integrator_reset(integ, &ode, &opts, t0, y0);
 *   while (...) cs_integrator_advance(integ, tout, &t, y, &stop);
 *
 * Steppers: CS_STEPPER_ERK is ERKStep with Dormand–Prince 5(4) (non-stiff,
 * the default); CS_STEPPER_DIRK is ARKStep, fully implicit, with Hairer &
 * Wanner's L-stable, stiffly accurate SDIRK 5(3)4 (ARKODE_SDIRK_5_3_4), a
 * Newton iteration and a dense LU fed by the analytic Jacobian when the model
 * has one, else by difference quotients; CS_STEPPER_ERK6 is ERKStep with
 * Verner's 6(5) pair, for loose tolerances (see the enum). The first two keep
 * the global error within a
 * small factor of the tolerance (measured on a damped oscillator: ERK about
 * 0.5 tol, DIRK about 0.2 tol, for rtol 1e-6..1e-10; see integrate.c for
 * why not a fifth-order DIRK and for the Newton setting this needs).
 *
 * Sizes: the workspace accepts any 1 <= n <= n_max. A run of the same n as the
 * previous run allocates nothing (ARKODE is only re-initialised); a run with a
 * different n rebuilds ARKODE's vectors, matrix, solver and stepper memories
 * at the new length (an allocation, once per change). Keep one workspace per
 * system size if a thread alternates between sizes.
 *
 * Failures never abort and never print: every function returns a status, and
 * cs_integrator_last_error() tells what happened in words.
 *
 * Thread safety: no shared mutable state; a workspace must not be used by two
 * threads at once, distinct workspaces may run concurrently. */
#ifndef CS_INTEGRATE_H
#define CS_INTEGRATE_H

#include <stddef.h>

#include "core/ode.h"
#include "core/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The problem of one run. The integrator keeps a copy of this struct, but
 * params is only borrowed: it must stay valid until the next reset. */
struct cs_ode {
  size_t n;           /* dimension of the state, 1 <= n <= n_max of the workspace */
  cs_rhs_fn rhs;      /* right-hand side, required */
  cs_jac_fn jac;      /* analytic Jacobian or NULL (then DIRK uses difference quotients) */
  const void *params; /* passed unchanged to rhs and jac (e.g. a thread-local model copy) */
};

enum cs_stepper {
  CS_STEPPER_ERK,  /* explicit Dormand–Prince 5(4), non-stiff problems (default) */
  CS_STEPPER_DIRK, /* implicit SDIRK 5(3)4 with Newton + dense LU, stiff problems */
  CS_STEPPER_ERK6, /* explicit Verner 6(5) (9 stages, FSAL): fewer steps at rtol >= 1e-9, but its
                      large coefficients cancel to ~1e-11 (integrate.c): not for tighter runs */
  CS_STEPPER_ERK8  /* explicit Verner 8(7) (13 stages): fewer steps still on smooth problems; an
                      accuracy floor near 1e-12 like ERK6's. Not for the regularized I(1,1)
                      law with m < 1, only twice differentiable at v = 0: on figure 5a its
                      section points at rtol 1e-8 are 70 times farther from a tight reference
                      than ERK6's (5.8e-5 against 8.5e-7) */
};

/* States between the steps: at a tout and at a root of the event functions.
 * CS_DENSE_HERMITE: ARKODE's Hermite interpolant of degree order - 1 (4 for
 *   Dormand-Prince, 5 for Verner, 3 for the SDIRK), within the tolerance
 *   only roughly, and each value costs right-hand-side evaluations (1 at
 *   degree 4, 4 at degree 5: the interpolant evaluates f inside the step);
 *   roots are located on it.
 * CS_DENSE_RESTEP (explicit steppers; the DIRK keeps HERMITE): every state
 *   the run returns, at tout and at roots, is computed by one step of the
 *   method itself from the start of the step containing it (1 + stages - 1
 *   evaluations), so it carries the accuracy of the steps; roots are located
 *   on a cubic interpolant (no evaluations) and then moved onto g = 0 by a
 *   Newton step along the solution. cs_integrator_advance_interp and
 *   cs_integrator_dky give the cubic's values (cheap, about 1e-5 relative at
 *   rtol 1e-8): for samples that do not feed back into the run. What runs
 *   with many roots or touts per step (section runs, orbits) want; the
 *   steps themselves are the same in both modes. */
enum cs_dense { CS_DENSE_HERMITE, CS_DENSE_RESTEP };

/* Default of cs_integrator_opts.max_steps. */
#define CS_INTEGRATOR_MAX_STEPS_DEFAULT 100000L

/* Default of cs_integrator_opts.max_steps_total: about a minute of CPU time
 * for the small systems here (1-3 us per step), so that no run is unbounded
 * (an explicit stepper on a stiff regularised law needs millions of steps
 * per time unit and would otherwise run for hours). */
#define CS_INTEGRATOR_MAX_STEPS_TOTAL_DEFAULT 20000000L

/* Options of one run; start from cs_integrator_opts_default(). */
struct cs_integrator_opts {
  enum cs_stepper stepper; /* which method */
  double rtol;             /* relative tolerance, >= 0 (e.g. 1e-8) */
  double atol;             /* absolute tolerance on every component, >= 0, when atol_vec is NULL */
  const double *atol_vec;  /* n absolute tolerances (>= 0) or NULL; read at reset only */
  long max_steps;       /* steps allowed per advance call; <= 0: CS_INTEGRATOR_MAX_STEPS_DEFAULT */
  long max_steps_total; /* steps allowed over the whole run (since reset, reinit included);
                           <= 0: CS_INTEGRATOR_MAX_STEPS_TOTAL_DEFAULT */
  double h_init;        /* first step size in units of t; 0: ARKODE estimates it */
  double h_max;         /* largest step size; 0: unbounded */
  double h_fixed;       /* > 0: every step this long, no error control (order tests); 0: adaptive */
  enum cs_dense dense;  /* how states between steps are computed (CS_DENSE_HERMITE) */
};

/* ERK, rtol 1e-8, atol 1e-10, no atol_vec, default max_steps and
 * max_steps_total, automatic h_init, unbounded h_max. */
CS_API struct cs_integrator_opts cs_integrator_opts_default(void);

/* Why cs_integrator_advance returned CS_OK. */
enum cs_stop_reason {
  CS_STOP_TOUT, /* reached the requested tout */
  CS_STOP_ROOT  /* stopped earlier, at a root of the event functions */
};

/* Counters of the current run, accumulated since the last cs_integrator_reset
 * (cs_integrator_reinit_state and _reinit_ode keep counting). */
struct cs_integrator_stats {
  long steps;          /* accepted steps (ARKODE's count) */
  long rhs_evals;      /* calls of the model's rhs, for every purpose (incl. difference-quotient
                          Jacobians) */
  long jac_evals;      /* Jacobian evaluations, analytic or by difference quotients (DIRK) */
  long lin_setups;     /* linear solver setups, i.e. LU factorisations (DIRK) */
  long nonlin_iters;   /* Newton iterations (DIRK) */
  long err_test_fails; /* steps rejected by the local error test */
  long conv_fails;     /* Newton convergence failures (DIRK) */
  long root_evals;     /* calls of the event functions */
};

struct cs_integrator;

/* A workspace for systems of up to n_max equations, with the ERK and DIRK
 * steppers prepared at n = n_max. NULL if n_max is 0 or memory is short. */
CS_API struct cs_integrator *cs_integrator_create(size_t n_max);

/* Frees the workspace; NULL is allowed. */
CS_API void cs_integrator_free(struct cs_integrator *integ);

/* Starts a run of ode from (t0, y0) with opts (NULL: the defaults). Copies
 * y0; discards the state, the statistics and the last error of the previous
 * run; keeps the event functions (see cs_integrator_set_roots). Allocates only
 * when ode->n differs from the previous run's n. CS_ERR_ARG for a NULL ode or
 * rhs, n == 0, non-finite t0 / y0, invalid tolerances or step bounds;
 * CS_ERR_RANGE if n > n_max; CS_ERR_NOMEM. On failure no run is active. */
CS_API enum cs_status cs_integrator_reset(struct cs_integrator *integ, const struct cs_ode *ode,
                                          const struct cs_integrator_opts *opts, double t0,
                                          const double *y0);

/* Integrates towards tout (either direction of time, fixed by the first
 * call of the run; ARKODE steps past tout, and the state at tout comes from
 * the dense output, see enum cs_dense). Stops earlier at a root of the event
 * functions in (t, tout]: then *stop = CS_STOP_ROOT, *t_reached is the root
 * and cs_integrator_roots_found() says which fired; calling advance again
 * continues past the root. Otherwise *stop = CS_STOP_TOUT and *t_reached =
 * tout. A tout behind the current time is accepted only within the last
 * internal step (interpolation). y (n values) receives the state at
 * *t_reached; t_reached, y and stop may be NULL.
 * Failures (with a message in cs_integrator_last_error): CS_ERR_TOO_MUCH_WORK
 * (max_steps steps taken in this call: the run may be continued by calling
 * advance again; or the run's budget of max_steps_total steps is spent, which
 * the message says: then every later advance fails the same way), CS_ERR_NONFINITE (non-finite
 * values in the rhs, Jacobian or event functions during this call, and the step size could not get
 * around them), CS_ERR_SOLVER (error-test or Newton failures, step size
 * underflow, repeated recoverable rhs failures, a fatal callback return),
 * the status s of a callback that returned -s, CS_ERR_ARG (no run, non-finite
 * tout, tout behind outside the last step). On failure *t_reached and y hold
 * the last state known to be on the solution (the end of the last accepted
 * step); only CS_ERR_TOO_MUCH_WORK leaves the run fit to continue. */
CS_API enum cs_status cs_integrator_advance(struct cs_integrator *integ, double tout,
                                            double *t_reached, double *y,
                                            enum cs_stop_reason *stop);

/* As cs_integrator_advance, but a state at tout comes from the interpolant
 * also in CS_DENSE_RESTEP mode: cheap and of the interpolant's accuracy, for
 * samples that do not feed back into the run (the run goes on from its own
 * steps either way). Roots are computed as by cs_integrator_advance. */
CS_API enum cs_status cs_integrator_advance_interp(struct cs_integrator *integ, double tout,
                                                   double *t_reached, double *y,
                                                   enum cs_stop_reason *stop);

/* Event functions, located by ARKODE's root finding: g fills nroots values;
 * direction[k] = +1 reports only increasing crossings of g_k, -1 only
 * decreasing ones, 0 both (direction NULL: all 0; the array is copied). ctx
 * is passed to g as its params argument; NULL means the params of the current
 * run's ODE. The event set belongs to the workspace: it stays in force across
 * resets until replaced or cleared (nroots == 0 or g == NULL clears), and may
 * be changed during a run: ARKODE then restarts from the last returned (t, y)
 * as with cs_integrator_reinit_state. Replacing it by one with the same
 * nroots never allocates; changing nroots or clearing makes ARKODE
 * reallocate its root arrays. A root exactly at the start of a run, or at
 * the state given to reinit, is not reported.
 * CS_ERR_ARG for a direction other than -1, 0, +1; CS_ERR_NOMEM. */
CS_API enum cs_status cs_integrator_set_roots(struct cs_integrator *integ, size_t nroots,
                                              cs_root_fn g, const int *direction, const void *ctx);

/* After an advance that returned CS_STOP_ROOT: found[k] = +1 if g_k crossed
 * zero increasing, -1 decreasing, 0 if it did not fire (nroots values as in
 * set_roots). After any other return, all 0. */
CS_API enum cs_status cs_integrator_roots_found(const struct cs_integrator *integ, int *found);

/* Counters of the current run (all zero right after reset). */
CS_API enum cs_status cs_integrator_get_stats(struct cs_integrator *integ,
                                              struct cs_integrator_stats *stats);

/* The message of the last failure in this run, e.g. "ARKODE: at t =
 * 0.41211274974933637, 10 steps taken before reaching tout = 50 (too much
 * work)" or "non-finite value in the right-hand side, component 1, at t =
 * 1.0000000000000002; ..."; "" if none. Valid until the next call on the
 * workspace; never NULL. */
CS_API const char *cs_integrator_last_error(const struct cs_integrator *integ);

#ifdef __cplusplus
}
#endif

#endif
